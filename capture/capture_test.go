package capture

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// Small helpers that build expected events.
func frame(off, n int64, t time.Duration) Event {
	return Event{Kind: EventFrame, Off: off, Len: n, Time: t}
}
func region(k EventKind, off, n int64, t time.Duration) Event {
	return Event{Kind: k, Off: off, Len: n, Time: t}
}
func exitAt(off int64, t time.Duration, code int) Event {
	return Event{Kind: EventExit, Off: off, Time: t, Code: code}
}

const (
	us = time.Microsecond
	ms = time.Millisecond
)

func readTestdata(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestHandChecked checks loaded captures against values worked out by hand
// from xxd dumps and the format rules (testdata/rec/README.md,
// research/capture-and-agents.md §1), independently of the golden files.
func TestHandChecked(t *testing.T) {
	// The pty byte stream of payload.sh, identical in every pty recording
	// of the shared samples (raw, ttyrec payloads, typescript data).
	samplePTY := readTestdata(t, "samples/asciinema-raw.out")
	// The pty byte stream of rec/hostile.sh: the pipe capture with CRLF.
	hostilePTY := bytes.ReplaceAll(readTestdata(t, "rec/hostile-pipe.raw"), []byte("\n"), []byte("\r\n"))

	type want struct {
		format     Format
		cols, rows int
		exit       int // -1: unknown
		lossy      bool
		streams    map[string]int64   // name → Len
		events     map[string][]Event // name → events
		data       map[string][]byte  // name → bytes of the stream, or of [from:] when from is set
		from       int64              // offset in "output" where data["output"] starts
		warnings   int
	}
	tests := []struct {
		f fixture
		w want
	}{
		{fixture{name: "ttyrec", path: "samples/ttyrec.tty"}, want{
			// Frame 1 header at 0: sec 1795952862 usec 889139 len 164;
			// frame 2 header at 176: sec 1795952863 usec 190749 len 45.
			format: FormatTTYRec, exit: -1,
			streams: map[string]int64{"output": 209},
			events:  map[string][]Event{"output": {frame(0, 164, 0), frame(164, 45, 301610*us)}},
			data:    map[string][]byte{"output": samplePTY},
		}},
		{fixture{name: "cast-v2", path: "samples/asciinema-v2.cast"}, want{
			format: FormatAsciicastV2, cols: 80, rows: 24, exit: -1, lossy: true,
			streams: map[string]int64{"output": 218},
			events:  map[string][]Event{"output": {frame(0, 173, 4329*us), frame(173, 45, 305931*us)}},
			// The second event starts in the middle of ESC [ 3 2 m.
			data: map[string][]byte{"output": []byte("2mgreen\x1b[0m\r\nerase:XXXX\r\x1b[2Kover\r\nto-stderr\r\n")}, from: 173,
		}},
		{fixture{name: "cast-v3", path: "samples/asciinema-v3.cast"}, want{
			// Intervals 0.004, 0.302, 0.001 summed; "x" "3" at the end.
			format: FormatAsciicastV3, cols: 80, rows: 24, exit: 3, lossy: true,
			streams: map[string]int64{"output": 218},
			events:  map[string][]Event{"output": {frame(0, 173, 4*ms), frame(173, 45, 306*ms), exitAt(218, 307*ms, 3)}},
		}},
		{fixture{name: "cast-v2-stdin", path: "samples/asciinema-v2-stdin.cast"}, want{
			format: FormatAsciicastV2, cols: 80, rows: 24, exit: -1, lossy: true,
			streams: map[string]int64{"output": 18, "input": 3},
			events: map[string][]Event{
				"output": {frame(0, 6, 2828*us), frame(6, 2, 1445613*us), frame(8, 10, 1750511*us)},
				"input":  {frame(0, 2, 1445453*us), frame(2, 1, 1750188*us)},
			},
			data: map[string][]byte{"input": []byte("hi\r"), "output": []byte("name? hi\r\ngot:hi\r\n")},
		}},
		{fixture{name: "script-classic", path: "samples/script-classic.typescript", timing: "samples/script-classic.timing"}, want{
			// Header line 0x00–0x62 (99 bytes); timing 164 + 45 bytes;
			// footer "\nScript done on …" from 0x134 (308) to the end (374).
			format: FormatScriptTiming, exit: 3,
			streams: map[string]int64{"output": 374},
			events: map[string][]Event{"output": {
				region(EventHeader, 0, 99, 0), frame(99, 164, 10114*us), frame(263, 45, 303977*us),
				region(EventFooter, 308, 66, 303977*us), exitAt(308, 303977*us, 3),
			}},
			data: map[string][]byte{"output": samplePTY}, from: 99,
		}},
		{fixture{name: "script-no-timing", path: "samples/script-classic.typescript"}, want{
			format: FormatScript, exit: 3,
			streams: map[string]int64{"output": 374},
			events: map[string][]Event{"output": {
				region(EventHeader, 0, 99, 0), region(EventFooter, 308, 66, 0), exitAt(308, 0, 3),
			}},
		}},
		{fixture{name: "script-adv", path: "samples/script-adv.typescript", timing: "samples/script-adv.timing"}, want{
			// O 0.010146 164, O 0.293834 45, H EXIT_CODE 3.
			format: FormatScriptAdvanced, exit: 3,
			streams: map[string]int64{"output": 374},
			events: map[string][]Event{"output": {
				region(EventHeader, 0, 99, 0), frame(99, 164, 10146*us), frame(263, 45, 303980*us),
				region(EventFooter, 308, 66, 303980*us), exitAt(308, 303980*us, 3),
			}},
		}},
		{fixture{name: "script-io", path: "samples/script-io.typescript", timing: "samples/script-io.timing"}, want{
			// Header 188 bytes (0x00–0xbb); then O6 I2 O2 I1 O2 O8 S O8
			// (29 data bytes); footer at 0xd9 (217), 66 bytes. Output is
			// header + 26 output bytes + footer = 280; input is "hi\r".
			format: FormatScriptAdvanced, cols: 80, rows: 24, exit: 0,
			streams: map[string]int64{"output": 280, "input": 3},
			events: map[string][]Event{
				"output": {
					region(EventHeader, 0, 188, 0), frame(188, 6, 829*us), frame(194, 2, 1003034*us),
					frame(196, 2, 1306950*us), frame(198, 8, 1307034*us),
					{Kind: EventResize, Off: 206, Time: 1411303 * us, Cols: 100, Rows: 30},
					frame(206, 8, 1809837*us), region(EventFooter, 214, 66, 1809837*us), exitAt(214, 1809837*us, 0),
				},
				"input": {frame(0, 2, 1002692*us), frame(2, 1, 1306912*us)},
			},
			data: map[string][]byte{"input": []byte("hi\r"), "output": []byte("name? hi\r\ngot:hi\r\n30 100\r\n\nScript done on ")}, from: 188,
		}},
		{fixture{name: "script-mismatch", path: "samples/script-io.typescript", timing: "samples/script-classic.timing"}, want{
			// The classic timing wants 164 bytes; the typescript has 29.
			format: FormatScriptTiming, cols: 80, rows: 24, exit: 0, warnings: 1,
			streams: map[string]int64{"output": 283},
			events: map[string][]Event{"output": {
				region(EventHeader, 0, 188, 0), frame(188, 29, 10114*us),
				region(EventFooter, 217, 66, 10114*us), exitAt(217, 10114*us, 0),
			}},
		}},
		{fixture{name: "gitlab", path: "samples/gitlab-ci-synth.log"}, want{
			// section_start at 0x37 (55): 36 bytes + "\r\e[0K";
			// section_end at 0x18c (396): 34 bytes + "\r\e[0K".
			format: FormatGitLabCI, exit: -1,
			streams: map[string]int64{"output": 479},
			events: map[string][]Event{"output": {
				{Kind: EventSectionStart, Off: 55, Len: 41, Label: "step_script"},
				{Kind: EventSectionEnd, Off: 396, Len: 39, Time: time.Second, Label: "step_script"},
			}},
		}},
		{fixture{name: "raw", path: "samples/pipe-stdout.bin"}, want{
			format: FormatRaw, exit: -1, streams: map[string]int64{"output": 191},
			events: map[string][]Event{"output": nil},
		}},
		{fixture{name: "rec-hostile-ttyrec", path: "rec/hostile.tty"}, want{
			format: FormatTTYRec, exit: -1,
			streams: map[string]int64{"output": 229},
			events:  map[string][]Event{"output": {frame(0, 200, 0), frame(200, 29, 400877*us)}},
			data:    map[string][]byte{"output": hostilePTY},
		}},
		{fixture{name: "rec-hostile-cast", path: "rec/hostile.cast"}, want{
			format: FormatAsciicastV2, cols: 80, rows: 24, exit: -1, lossy: true,
			streams: map[string]int64{"output": 229},
			events:  map[string][]Event{"output": {frame(0, 200, 5054*us), frame(200, 29, 406602*us)}},
			data:    map[string][]byte{"output": hostilePTY},
		}},
		{fixture{name: "rec-hostile-script-classic", path: "rec/hostile-classic.typescript", timing: "rec/hostile-classic.timing"}, want{
			format: FormatScriptTiming, cols: 80, rows: 24, exit: 2,
			streams: map[string]int64{"output": 429},
			events: map[string][]Event{"output": {
				region(EventHeader, 0, 134, 0), frame(134, 200, 1880*us), frame(334, 29, 404419*us),
				region(EventFooter, 363, 66, 404419*us), exitAt(363, 404419*us, 2),
			}},
			data: map[string][]byte{"output": hostilePTY}, from: 134,
		}},
		{fixture{name: "rec-hostile-script-adv", path: "rec/hostile-adv.typescript", timing: "rec/hostile-adv.timing"}, want{
			format: FormatScriptAdvanced, cols: 80, rows: 24, exit: 2,
			streams: map[string]int64{"output": 429},
			events: map[string][]Event{"output": {
				region(EventHeader, 0, 134, 0), frame(134, 200, 2518*us), frame(334, 29, 404119*us),
				region(EventFooter, 363, 66, 404119*us), exitAt(363, 404119*us, 2),
			}},
		}},
		{fixture{name: "rec-git-log-script", path: "rec/git-log.typescript", timing: "rec/git-log.timing"}, want{
			format: FormatScriptTiming, cols: 80, rows: 24, exit: 0,
			streams: map[string]int64{"output": 542},
			events: map[string][]Event{"output": {
				region(EventHeader, 0, 181, 0), frame(181, 179, 3541*us), frame(360, 116, 3894*us),
				region(EventFooter, 476, 66, 3894*us), exitAt(476, 3894*us, 0),
			}},
		}},
		{fixture{name: "rec-git-log-ttyrec", path: "rec/git-log.tty"}, want{
			format: FormatTTYRec, exit: -1,
			streams: map[string]int64{"output": 229},
			events:  map[string][]Event{"output": {frame(0, 101, 0), frame(101, 128, 319*us)}},
		}},
		{fixture{name: "rec-ls-color", path: "rec/ls-color.cast"}, want{
			format: FormatAsciicastV2, cols: 80, rows: 24, exit: -1, lossy: true,
			streams: map[string]int64{"output": 645},
			events:  map[string][]Event{"output": {frame(0, 645, 19610*us)}},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.f.name, func(t *testing.T) {
			c := openFixture(t, tt.f)
			w := tt.w
			if c.Format != w.format {
				t.Errorf("Format = %v, want %v", c.Format, w.format)
			}
			if c.Cols != w.cols || c.Rows != w.rows {
				t.Errorf("size = %dx%d, want %dx%d", c.Cols, c.Rows, w.cols, w.rows)
			}
			if gotExit := map[bool]int{true: c.ExitCode, false: -1}[c.ExitKnown]; gotExit != w.exit {
				t.Errorf("exit = %d, want %d", gotExit, w.exit)
			}
			if c.Lossy != w.lossy {
				t.Errorf("Lossy = %v, want %v", c.Lossy, w.lossy)
			}
			if len(c.Warnings) != w.warnings {
				t.Errorf("warnings = %v, want %d", c.Warnings, w.warnings)
			}
			if len(c.Streams) != len(w.streams) {
				t.Errorf("%d streams, want %d", len(c.Streams), len(w.streams))
			}
			for name, n := range w.streams {
				s := c.Stream(name)
				if s == nil {
					t.Fatalf("no stream %q", name)
				}
				if s.Len != n {
					t.Errorf("stream %s: Len = %d, want %d", name, s.Len, n)
				}
				if !eventsEqual(s.Events, w.events[name]) {
					t.Errorf("stream %s events:\ngot  %+v\nwant %+v", name, s.Events, w.events[name])
				}
				if want, ok := w.data[name]; ok {
					got := streamBytes(t, s)
					if name == StreamOutput {
						got = got[w.from:]
					}
					if !bytes.HasPrefix(got, want) {
						t.Errorf("stream %s bytes from %d:\ngot  %q\nwant %q", name, w.from, got, want)
					}
				}
			}
		})
	}
}

func eventsEqual(a, b []Event) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// TestStreamThrough checks that Through reads the stream through the
// wrapper it is given and leaves the stream itself alone.
func TestStreamThrough(t *testing.T) {
	st := &Stream{Name: StreamOutput, Data: strings.NewReader("abcdef"), Len: 6}
	var read int
	c := st.Through(func(r io.ReaderAt) io.ReaderAt {
		return readerAtFunc(func(p []byte, off int64) (int, error) { n, err := r.ReadAt(p, off); read += n; return n, err })
	})
	b := make([]byte, 4)
	if n, _ := c.Data.ReadAt(b, 1); n != 4 || string(b) != "bcde" || read != 4 || c.Name != st.Name || c.Len != 6 {
		t.Errorf("read %q (%d counted) from %+v", b, read, c)
	}
	if _, ok := st.Data.(*strings.Reader); !ok {
		t.Errorf("the stream's own Data changed to %T", st.Data)
	}
}

type readerAtFunc func(p []byte, off int64) (int, error)

func (f readerAtFunc) ReadAt(p []byte, off int64) (int, error) { return f(p, off) }
