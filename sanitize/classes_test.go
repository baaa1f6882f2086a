package sanitize

import (
	"slices"
	"strings"
	"testing"
)

func TestParseClasses(t *testing.T) {
	all := ReportClasses()
	if !slices.Contains(all, "clipboard") || !slices.Contains(all, "unterminated") {
		t.Fatalf("ReportClasses() = %q", all)
	}
	// any leaves out the kept class, which legitimate text holds.
	gated := slices.DeleteFunc(slices.Clone(all), func(c string) bool { return c == ClassNonASCIIBlanks })
	for _, tt := range []struct {
		in   string
		want []string
		err  string
	}{
		{"", nil, ""},
		{"clipboard, query,,", []string{"clipboard", "query"}, ""},
		{"title,any", gated, ""},
		{"any,nonascii_blanks", all, ""},
		{"clipboard,colour", nil, `unknown class "colour" (want any or some of `},
	} {
		got, err := ParseClasses(tt.in)
		if tt.err != "" {
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("ParseClasses(%q) error %v, want %q", tt.in, err, tt.err)
			}
			continue
		}
		if err != nil || !slices.Equal(got, tt.want) {
			t.Errorf("ParseClasses(%q) = %q, %v; want %q", tt.in, got, err, tt.want)
		}
	}
}
