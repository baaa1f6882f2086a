package capture

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/bytelens/bytelens/render"
	"github.com/bytelens/bytelens/sanitize"
)

// TestCleanMarksFrames: ttyrec.tty splits ESC [ 3 | 2 m across its two
// frames; the cleaned text joins it and the report counts one split.
func TestCleanMarksFrames(t *testing.T) {
	c, err := Open("testdata/samples/ttyrec.tty", OpenOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	var buf bytes.Buffer
	rep, err := Clean(&buf, &c.Streams[0], sanitize.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Anomalies.Split != 1 || !bytes.Contains(buf.Bytes(), []byte("split:green\n")) {
		t.Errorf("split %d, text %q", rep.Anomalies.Split, buf.Bytes())
	}
	if rep.BytesIn != c.Streams[0].Len {
		t.Errorf("bytes in %d, stream %d", rep.BytesIn, c.Streams[0].Len)
	}
}

// TestReportJSON checks the JSON forms of ReportJSON: one stream gives
// the report object without its stream name, several the array, and a
// display comes last and only when there is one.
func TestReportJSON(t *testing.T) {
	rep := sanitize.Report{Schema: sanitize.Schema}
	disp := map[string]int{"cols": 80}
	for _, tc := range []struct {
		name string
		reps []StreamReport
		want []string // in order
		not  []string
	}{
		{"one stream", []StreamReport{{Stream: render.LineString("output"), Report: rep}}, []string{`{"schema":"bytelens.report/v1"`}, []string{`"stream"`, `"display"`, `loader_removed`}},
		{"one with display", []StreamReport{{Stream: render.LineString("output"), Report: rep, Display: disp}}, []string{`{"schema":"bytelens.report/v1"`, `"display":{"cols":80}}`}, []string{`"stream"`}},
		{"two streams", []StreamReport{{Stream: render.LineString("stdout"), Report: rep, Display: disp}, {Stream: render.LineString("stderr"), Report: rep}},
			[]string{`[{"stream":"stdout","schema"`, `"display":{"cols":80}},{"stream":"stderr"`}, []string{`"display":null`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b, err := json.Marshal(ReportJSON(tc.reps))
			if err != nil {
				t.Fatal(err)
			}
			s, at := string(b), 0
			for _, w := range tc.want {
				i := strings.Index(s[at:], w)
				if i < 0 {
					t.Fatalf("%s: no %s after offset %d", s, w, at)
				}
				at += i + len(w)
			}
			for _, n := range tc.not {
				if strings.Contains(s, n) {
					t.Errorf("%s holds %s", s, n)
				}
			}
		})
	}
}
