package sanitize

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestAttack15ReadReportsControls: a report file whose strings or keys
// cleaning changes is refused (diff --json passed them through as they
// were), and one as bytelens writes it reads.
func TestAttack15ReadReportsControls(t *testing.T) {
	for _, s := range []string{"\x1b]52;c;eA==\x07", "\u009b31m", "\u202e", "\U000e0041", "\u2028", "a\x7f"} {
		q := func(s string) string { b, _ := json.Marshal(s); return string(b) }
		for _, in := range []string{
			`{"schema":"bytelens.report/v1","policy":` + q(s) + `}`,
			`{"schema":"bytelens.report/v1","csi_finals":{` + q(s) + `:1}}`,
			`[{"schema":"bytelens.report/v1","stream":` + q(s) + `}]`,
			`{"schema":"bytelens.report/v1","findings":[{"kind":"x","sequence":` + q(s) + `}]}`,
		} {
			if _, err := ReadReports([]byte(in)); err == nil || !strings.Contains(err.Error(), "control or format") {
				t.Errorf("ReadReports(%q) = %v, want it refused", in, err)
			}
		}
	}
	ok := `[{"schema":"bytelens.report/v1","stream":"out␛]52;c;<U+009B><U+202E>␊","policy":"cr=lines","findings":[{"kind":"reorder","sequence":"<U+202E>"}]}]`
	if _, err := ReadReports([]byte(ok)); err != nil {
		t.Errorf("ReadReports(%q): %v", ok, err)
	}
}
