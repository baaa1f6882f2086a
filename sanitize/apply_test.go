package sanitize

import (
	"slices"
	"strings"
	"testing"
)

// TestApply: key=value lists separated by commas or line feeds (a policy
// file) go through Set onto the options given; String round-trips.
func TestApply(t *testing.T) {
	o := Options{BS: BSOverstrike}
	if err := o.Apply("cr=overwrite,\n links = append\nmax-payload=10,"); err != nil {
		t.Fatal(err)
	}
	if o.CR != CRScreen || o.Links != LinksAppend || o.MaxPayload != 10 || o.BS != BSOverstrike {
		t.Errorf("Apply gave %+v", o)
	}
	back, err := ParsePolicy(o.String())
	if err != nil || back.String() != o.String() {
		t.Errorf("ParsePolicy(String()) = %v, %v", back, err)
	}
	for _, bad := range []string{"cr", "cr=sideways", "colour=on"} {
		if err := o.Apply(bad); err == nil || !strings.Contains(err.Error(), strings.Split(bad, "=")[0]) {
			t.Errorf("Apply(%q) error %v", bad, err)
		}
	}
	if got := PolicyValues("cr"); !slices.Equal(got, []string{"lines", "screen", "drop", "overwrite"}) {
		t.Errorf("PolicyValues(cr) = %q", got)
	}
}
