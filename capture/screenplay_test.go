package capture

import (
	"strings"
	"testing"
	"time"

	"github.com/bytelens/bytelens/sanitize"
)

func TestModelScreen(t *testing.T) {
	raw := "one\ntwo\x1b[8msecret\x1b[0m\n\x9b31mred\n"
	c, err := Load(strings.NewReader(raw), int64(len(raw)), OpenOptions{Format: "raw"})
	if err != nil {
		t.Fatal(err)
	}
	st := c.Stream(StreamOutput)
	for _, tc := range []struct {
		name     string
		end      int64
		o        ScreenOptions
		rows     []string // first rows shown
		cursorY  int
		size     string
		findings bool
	}{
		// Raw bytes: LF taken as CR LF; the capture states no size.
		{"whole", st.Len, ScreenOptions{Findings: true}, []string{"one", "twosecret", "red"}, 3, "default", true},
		{"size", st.Len, ScreenOptions{Cols: 40, Rows: 5}, []string{"one", "twosecret", "red"}, 3, "--size", false},
		// C1 lone (the cleaner's policy): 9B is one control, not a CSI
		// introducer, so "31m" is text.
		{"c1 lone", st.Len, ScreenOptions{Policy: sanitize.Options{C1: sanitize.C1Lone}}, []string{"one", "twosecret", "31mred"}, 3, "default", false},
		{"prefix", 4, ScreenOptions{}, []string{"one", ""}, 1, "default", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m, set, err := ModelScreen(c, st, tc.end, tc.o)
			if err != nil {
				t.Fatal(err)
			}
			if set.SizeSource != tc.size || !set.NewlineCRLF {
				t.Errorf("setup %+v, want size from %s and CR LF", set, tc.size)
			}
			for y, want := range tc.rows {
				if got := string(m.AppendLine(nil, y)); got != want {
					t.Errorf("row %d: %q, want %q", y, got, want)
				}
			}
			if _, y := m.Cursor(); y != tc.cursorY {
				t.Errorf("cursor row %d, want %d", y, tc.cursorY)
			}
			if got := len(m.Findings()) > 0; got != tc.findings {
				t.Errorf("findings %v, want %v", m.Findings(), tc.findings)
			}
		})
	}
}

func TestScreenEnd(t *testing.T) {
	st := &Stream{Name: "output", Len: 10, Events: []Event{{Kind: EventFrame, Off: 0, Len: 4, Time: time.Second}, {Kind: EventFrame, Off: 4, Len: 6}}}
	for _, tc := range []struct {
		at    int64
		frame int
		end   int64
		err   string
	}{
		{-1, 0, 10, ""}, {0, 0, 0, ""}, {10, 0, 10, ""}, {3, 2, 3, ""}, {-1, 1, 4, ""}, {-1, 2, 10, ""},
		{11, 0, 0, "past the end of stream output (10 bytes)"},
		{-1, 3, 0, "stream output has fewer than 3 frames"},
	} {
		end, err := ScreenEnd(st, tc.at, tc.frame)
		if end != tc.end || (err == nil) != (tc.err == "") || err != nil && err.Error() != tc.err {
			t.Errorf("ScreenEnd(at %d, frame %d) = %d, %v; want %d, %q", tc.at, tc.frame, end, err, tc.end, tc.err)
		}
	}
}

// A resize to zero in either dimension (a raw capture's leading
// "ESC [ 8 ; 0 ; 0 t", an asciicast "r" event "0x0" or "-1x-1", which the
// loader clamps to 0) states no size: that dimension keeps the one in
// effect, and the screen still plays instead of failing the whole command.
func TestPlayScreenZeroResize(t *testing.T) {
	for _, tc := range []struct {
		name, raw, format string
		cols, rows        int
		row0              string
	}{
		{"raw 0x0 prefix", "\x1b[8;0;0thello", "raw", 80, 24, "hello"},
		{"raw 0 cols", "\x1b[8;5;0thello", "raw", 80, 5, "hello"},
		{"cast 0x0", `{"version":2,"width":40,"height":10}` + "\n" + `[0.1,"o","hi"]` + "\n" + `[0.2,"r","0x0"]` + "\n" + `[0.3,"o"," there"]` + "\n", "", 40, 10, "hi there"},
		{"cast negative", `{"version":2,"width":40,"height":10}` + "\n" + `[0.1,"r","-1x7"]` + "\n" + `[0.2,"o","x"]` + "\n", "", 40, 7, "x"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, err := Load(strings.NewReader(tc.raw), int64(len(tc.raw)), OpenOptions{Format: tc.format})
			if err != nil {
				t.Fatal(err)
			}
			st := c.Stream(StreamOutput)
			m, _, err := ModelScreen(c, st, st.Len, ScreenOptions{})
			if err != nil {
				t.Fatalf("ModelScreen: %v", err)
			}
			if cols, rows := m.Size(); cols != tc.cols || rows != tc.rows {
				t.Errorf("size %dx%d, want %dx%d", cols, rows, tc.cols, tc.rows)
			}
			if got := string(m.AppendLine(nil, 0)); got != tc.row0 {
				t.Errorf("row 0 %q, want %q", got, tc.row0)
			}
		})
	}
}
