package job

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/bytelens/bytelens/capture"
	"github.com/bytelens/bytelens/internal/command"
	"github.com/bytelens/bytelens/render"
	"github.com/bytelens/bytelens/sanitize"
)

// TestReportScreen checks that Report adds the screen's display to the
// output stream only, and only with --screen.
func TestReportScreen(t *testing.T) {
	cast := samples + "asciinema-v2-stdin.cast"
	e, _ := env()
	reps, err := e.Report(open(t, cast, "", capture.ArgOptions{}), "", sanitize.Options{}, &command.Screen{HiddenText: render.HiddenPreview})
	if err != nil || len(reps) != 2 || reps[0].Display != nil || reps[1].Display != nil {
		t.Fatalf("without --screen: %+v, %v", reps, err)
	}
	reps, err = e.Report(open(t, cast, "", capture.ArgOptions{}), "", sanitize.Options{}, &command.Screen{On: true, HiddenText: render.HiddenNone, Size: "40x10"})
	if err != nil {
		t.Fatal(err)
	}
	d, ok := reps[0].Display.(*render.ScreenDisplay)
	if reps[0].Stream.String() != capture.StreamOutput || !ok || d.HiddenText != render.HiddenNone || reps[1].Display != nil {
		t.Fatalf("with --screen: %+v", reps)
	}
	if d.Cols != 80 || d.SizeSource == "" {
		t.Errorf("display %dx%d from %q: the cast's own size comes before --size", d.Cols, d.Rows, d.SizeSource)
	}
	_, err = e.Report(open(t, "-", "abc", capture.ArgOptions{Whole: true}), "", sanitize.Options{}, &command.Screen{On: true, Size: "huge"})
	var ue command.UsageError
	if !errors.As(err, &ue) {
		t.Errorf("bad --size: %v, want a usage error", err)
	}
}

// TestScreens shows the screen of raw stdin at the end, after an offset,
// and refuses an offset past the end.
func TestScreens(t *testing.T) {
	stdin := "one\r\ntwo\x1b[2J\x1b[Hthree"
	for _, tc := range []struct {
		name string
		at   int64
		want []string
		err  string
	}{
		{"end", -1, []string{"after 20 of 20 bytes", "\nthree"}, ""},
		{"at 10", 10, []string{"after 10 of 20 bytes", "\none\ntwo\n"}, ""},
		{"past the end", 99, nil, "--at "},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e, _ := env()
			var out bytes.Buffer
			err := e.Screens(render.NewWriter(&out), open(t, "-", stdin, capture.ArgOptions{Whole: true}), "", &command.Screen{Size: "20x4"}, sanitize.Options{}, tc.at)
			var ue command.UsageError
			if tc.err != "" {
				if !errors.As(err, &ue) || !strings.HasPrefix(err.Error(), tc.err) {
					t.Fatalf("err %v, want a usage error %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			for _, w := range tc.want {
				if !strings.Contains(out.String(), w) {
					t.Errorf("screen %q lacks %q", out.String(), w)
				}
			}
			if !strings.HasPrefix(out.String(), "screen 20x4 (--size)") {
				t.Errorf("header %q", strings.SplitN(out.String(), "\n", 2)[0])
			}
		})
	}
}

// TestPlay checks the setup play states for a recording.
func TestPlay(t *testing.T) {
	in := open(t, samples+"asciinema-v2.cast", "", capture.ArgOptions{})
	st := &in.Capture.Streams[0]
	m, info, err := play(in.Capture, st, st.Len, capture.ScreenOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if cols, rows := m.Size(); cols != 80 || rows != 24 || info.Stream != st.Name || info.End != st.Len || info.Len != st.Len || !info.Timed || info.NewlineCRLF {
		t.Errorf("model %dx%d, info %+v", cols, rows, info)
	}
}
