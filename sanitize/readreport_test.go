package sanitize

import (
	"errors"
	"strings"
	"testing"
)

func TestReadReports(t *testing.T) {
	one := `{"schema":"bytelens.report/v1","policy":"cr=drop"}`
	tests := []struct {
		in      string
		streams []string
		err     string
	}{
		{"\xef\xbb\xbf" + one, []string{""}, ""},
		{`[{"stream":"stdout","schema":"bytelens.report/v1"},{"stream":"stderr","schema":"bytelens.report/v1"}]`, []string{"stdout", "stderr"}, ""},
		{`[{"stream":"stdout","schema":"bytelens.report/v1"},{"stream":"stderr","schema":"other"}]`, nil, "stream stderr: report schema other"},
		{`{"schema":"bytelens.report/v9"}`, nil, "bytelens.report/v9 is not supported"},
		{`{"schema":"bytelens.report/v1","policy":7}`, nil, "bad report"},
		{`{"log":"x"}`, nil, ErrNotReport.Error()},
		{`[]`, nil, ErrNotReport.Error()},
		{"not json", nil, ErrNotReport.Error()},
	}
	for _, tt := range tests {
		reps, err := ReadReports([]byte(tt.in))
		if tt.err != "" {
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("ReadReports(%q) error %v, want %q", tt.in, err, tt.err)
			}
			continue
		}
		var got []string
		for _, r := range reps {
			got = append(got, r.Stream)
		}
		if err != nil || strings.Join(got, ",") != strings.Join(tt.streams, ",") {
			t.Errorf("ReadReports(%q) streams %q, %v; want %q", tt.in, got, err, tt.streams)
		}
	}
	if reps, _ := ReadReports([]byte(one)); reps[0].Policy != "cr=drop" {
		t.Errorf("policy %q", reps[0].Policy)
	}
	if _, err := ReadReports([]byte("{}")); !errors.Is(err, ErrNotReport) {
		t.Errorf("{}: %v", err)
	}
	reps := []StreamReport{{Stream: "stdout"}, {Stream: "stderr"}}
	if r, ok := PickReport(reps, ""); !ok || r.Stream != "stdout" {
		t.Errorf("PickReport first: %v %v", r.Stream, ok)
	}
	if r, ok := PickReport(reps, "stderr"); !ok || r.Stream != "stderr" {
		t.Errorf("PickReport stderr: %v %v", r.Stream, ok)
	}
	if r, ok := PickReport([]StreamReport{{}}, "stderr"); !ok || r.Stream != "" {
		t.Errorf("PickReport of a single report: %v %v", r.Stream, ok)
	}
	if _, ok := PickReport(reps, "input"); ok {
		t.Error("PickReport input: found")
	}
}
