package capture

import (
	"bytes"
	"encoding/binary"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/bytelens/bytelens/capture/store"
)

// ttyrecFrame builds one ttyrec frame: a 12-byte little-endian header
// (sec, usec, len) and the payload. n < 0 means len(payload).
func ttyrecFrame(sec, usec uint32, n int64, payload string) []byte {
	if n < 0 {
		n = int64(len(payload))
	}
	b := binary.LittleEndian.AppendUint32(nil, sec)
	b = binary.LittleEndian.AppendUint32(b, usec)
	b = binary.LittleEndian.AppendUint32(b, uint32(n))
	return append(b, payload...)
}

func cat(parts ...[]byte) []byte { return bytes.Join(parts, nil) }

// loadBytes loads data as Load does, with the script timing given as bytes
// rather than a path; it fails the test on error and checks invariants.
func loadBytes(t testing.TB, data []byte, format string, timing []byte, opts OpenOptions) *Capture {
	t.Helper()
	opts.Format = format
	var c *Capture
	var err error
	if timing == nil {
		c, err = Load(bytes.NewReader(data), int64(len(data)), opts)
	} else {
		l := newLoader(bytes.NewReader(data), int64(len(data)), opts)
		if err = l.loadScript(timing, "", true); err == nil {
			c = l.finish()
		}
	}
	if err != nil {
		t.Fatalf("load: %v", err)
	}
	checkInvariants(t, c)
	return c
}

// warned reports whether some warning contains all of the substrings.
func warned(c *Capture, subs ...string) bool {
next:
	for _, w := range c.Warnings {
		s := w.String()
		for _, sub := range subs {
			if !strings.Contains(s, sub) {
				continue next
			}
		}
		return true
	}
	return false
}

func TestOpenErrors(t *testing.T) {
	dir := t.TempDir()
	empty := filepath.Join(dir, "empty")
	if err := os.WriteFile(empty, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		path string
		opts OpenOptions
		is   error
		msg  string
	}{
		{"missing", filepath.Join(dir, "nope"), OpenOptions{}, fs.ErrNotExist, "open capture " + filepath.Join(dir, "nope") + ": no such file"},
		{"directory", dir, OpenOptions{}, ErrIsDir, "open capture " + dir + ": is a directory"},
		{"device", os.DevNull, OpenOptions{}, ErrNotRegular, "not a regular file"},
		{"unknown format", empty, OpenOptions{Format: "betamax"}, ErrUnknownFormat, `unknown capture format "betamax"`},
		{"artifact that is not one", empty, OpenOptions{Format: "bytelens-artifact"}, store.ErrFormat, "raw artifact"},
		{"missing timing", empty, OpenOptions{Timing: filepath.Join(dir, "nope.timing")}, fs.ErrNotExist, "open timing "},
		{"timing is a directory", empty, OpenOptions{Timing: dir}, ErrIsDir, "open timing "},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := Open(tt.path, tt.opts)
			if err == nil {
				c.Close()
				t.Fatal("Open succeeded")
			}
			if !errors.Is(err, tt.is) {
				t.Errorf("error %q does not wrap %v", err, tt.is)
			}
			if !strings.Contains(err.Error(), tt.msg) {
				t.Errorf("error %q does not contain %q", err, tt.msg)
			}
		})
	}
	t.Run("permission", func(t *testing.T) {
		if os.Geteuid() == 0 {
			t.Skip("root reads files whatever their mode")
		}
		p := filepath.Join(dir, "secret")
		if err := os.WriteFile(p, []byte("x"), 0); err != nil {
			t.Fatal(err)
		}
		_, err := Open(p, OpenOptions{})
		if !errors.Is(err, fs.ErrPermission) {
			t.Errorf("error %v does not wrap fs.ErrPermission", err)
		}
	})
}

func TestOpenEmptyAndClose(t *testing.T) {
	p := filepath.Join(t.TempDir(), "empty")
	if err := os.WriteFile(p, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, format := range []string{"", "raw", "asciicast", "ttyrec", "script", "github", "gitlab", "docker", "timestamped", "jenkins", "journald-json", "journald-export"} {
		t.Run("format="+format, func(t *testing.T) {
			c, err := Open(p, OpenOptions{Format: format})
			if err != nil {
				t.Fatal(err)
			}
			checkInvariants(t, c)
			if s := c.Stream(StreamOutput); s == nil || s.Len != 0 {
				t.Errorf("output stream = %+v, want empty", s)
			}
			if !warned(c, "empty file") {
				t.Errorf("warnings %v lack %q", c.Warnings, "empty file")
			}
			if err := c.Close(); err != nil {
				t.Error(err)
			}
			if err := c.Close(); err != nil {
				t.Errorf("second Close: %v", err)
			}
			// Standard input, loaded without a path, is an input, not a file.
			c, err = Load(bytes.NewReader(nil), 0, OpenOptions{Format: format})
			if err != nil {
				t.Fatal(err)
			}
			if !warned(c, "empty input") || warned(c, "empty file") {
				t.Errorf("Load warnings %v, want %q", c.Warnings, "empty input")
			}
		})
	}
}

func TestTTYRecDamage(t *testing.T) {
	f1 := ttyrecFrame(100, 500000, -1, "hello")
	tests := []struct {
		name     string
		data     []byte
		len      int64
		events   []Event
		warnings []string // substrings of one warning each
		nwarn    int      // number of warnings
	}{
		{
			name:     "truncated frame keeps partial data",
			data:     cat(f1, ttyrecFrame(101, 0, 100, strings.Repeat("x", 40))),
			len:      45,
			events:   []Event{frame(0, 5, 0), frame(5, 40, 500*ms)},
			warnings: []string{"offset 17: frame truncated: header says 100 bytes, 40 present"},
			nwarn:    1,
		},
		{
			name:     "length 2^32-1 kept as unframed chunk",
			data:     cat(f1, ttyrecFrame(101, 0, 1<<32-1, "rest of file")),
			len:      17,
			events:   []Event{frame(0, 5, 0), frame(5, 12, 500*ms)},
			warnings: []string{"offset 17: frame length 4294967295 exceeds", "12 bytes are kept as one unframed chunk"},
			nwarn:    1,
		},
		{
			name:     "trailing partial header",
			data:     cat(f1, []byte{1, 2, 3, 4, 5}),
			len:      5,
			events:   []Event{frame(0, 5, 0)},
			warnings: []string{"offset 17: 5 trailing bytes are too short"},
			nwarn:    1,
		},
		{
			name:     "usec out of range and time going backwards",
			data:     cat(f1, ttyrecFrame(100, 2000000, -1, "a"), ttyrecFrame(99, 0, -1, "b")),
			len:      7,
			events:   []Event{frame(0, 5, 0), frame(5, 1, 499999*us), frame(6, 1, 499999*us)},
			warnings: []string{"offset 17: usec field", "offset 30: frame timestamp goes backwards"},
			nwarn:    2,
		},
		{
			name:   "empty frame",
			data:   cat(f1, ttyrecFrame(100, 600000, -1, "")),
			len:    5,
			events: []Event{frame(0, 5, 0), frame(5, 0, 100*ms)},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := loadBytes(t, tt.data, "ttyrec", nil, OpenOptions{})
			s := c.Stream(StreamOutput)
			if s.Len != tt.len {
				t.Errorf("Len = %d, want %d", s.Len, tt.len)
			}
			if !eventsEqual(s.Events, tt.events) {
				t.Errorf("events:\ngot  %+v\nwant %+v", s.Events, tt.events)
			}
			for _, w := range tt.warnings {
				if !warned(c, w) {
					t.Errorf("warnings %v lack %q", c.Warnings, w)
				}
			}
			if len(c.Warnings) != tt.nwarn {
				t.Errorf("warnings = %v, want %d", c.Warnings, tt.nwarn)
			}
		})
	}
}

func TestCastDamage(t *testing.T) {
	const hdr = `{"version": 2, "width": 80, "height": 24}` + "\n"
	tests := []struct {
		name     string
		data     string
		opts     OpenOptions
		cols     int
		out      string
		events   []Event
		warnings []string
	}{
		{
			name: "malformed line skipped with its number",
			data: hdr + `[0.1, "o", "a"]` + "\n" + `[0.2, "o", "b"` + "\n" + `[0.3, "o", "c"]` + "\n",
			cols: 80, out: "ac",
			events:   []Event{frame(0, 1, 100*ms), frame(1, 1, 300*ms)},
			warnings: []string{"capture line 3: malformed event line"},
		},
		{
			name: "wrong types and short arrays",
			data: hdr + `["0.1", "o", "a"]` + "\n" + `[0.1, 5, "a"]` + "\n" + `[0.1, "o"]` + "\n" + `{}` + "\n",
			cols: 80, events: nil,
			warnings: []string{"capture line 2: malformed event line skipped", "(4 times; first here)"},
		},
		{
			name: "resize marker exit and unknown codes",
			data: hdr + `[0.1, "r", "5000x50"]` + "\n" + `[0.2, "m", "chapter \u001b[31m1"]` + "\n" + `[0.3, "z", "?"]` + "\n" + `[0.4, "x", "7"]` + "\n" + `[0.5, "r", "bad"]` + "\n",
			cols: 80,
			events: []Event{
				{Kind: EventResize, Time: 100 * ms, Cols: 1000, Rows: 50},
				{Kind: EventMarker, Time: 200 * ms, Label: "chapter \x1b[31m1"},
				exitAt(0, 400*ms, 7),
			},
			warnings: []string{"line 2: resize clamped to 1000x50", "line 4: 1 events with unknown codes", `line 6: malformed "r" event`},
		},
		{
			name: "v2 time going backwards is clamped",
			data: hdr + `[0.5, "o", "a"]` + "\n" + `[0.2, "o", "b"]` + "\n" + `[-1, "o", "c"]` + "\n",
			cols: 80, out: "abc",
			events:   []Event{frame(0, 1, 500*ms), frame(1, 1, 500*ms), frame(2, 1, 500*ms)},
			warnings: []string{"line 3: event time goes backwards", "line 4: negative or out-of-range event time"},
		},
		{
			name: "absurd header size clamped",
			data: `{"version": 2, "width": 100000, "height": -3}` + "\n",
			cols: 1000, warnings: []string{"terminal size clamped to 1000x0"},
		},
		{
			name: "v3 intervals comments and term",
			data: `{"version":3,"term":{"cols":100,"rows":30}}` + "\n# comment\n\n" + `[0.5, "o", "a"]` + "\n" + `[0.25, "i", "k"]` + "\n" + `[0.25, "o", "b"]` + "\n",
			cols: 100, out: "ab",
			events: []Event{frame(0, 1, 500*ms), frame(1, 1, time.Second)},
		},
		{
			name: "decoded limit truncates",
			data: hdr + `[0.1, "o", "0123456789"]` + "\n" + `[0.2, "o", "abcdef"]` + "\n",
			opts: OpenOptions{MaxDecoded: 12},
			cols: 80, out: "0123456789ab",
			events:   []Event{frame(0, 10, 100*ms), frame(10, 2, 200*ms)},
			warnings: []string{"line 3: decoded data exceeds 12 bytes"},
		},
		{
			name: "event limit",
			data: hdr + `[0.1, "o", "a"]` + "\n" + `[0.2, "o", "b"]` + "\n" + `[0.3, "o", "c"]` + "\n",
			opts: OpenOptions{MaxEvents: 2},
			cols: 80, out: "abc",
			events:   []Event{frame(0, 1, 100*ms), frame(1, 1, 200*ms)},
			warnings: []string{"stream output: 1 events beyond the limit of 2 were dropped"},
		},
		{
			name: "broken header still loads events",
			data: `{"version": 2, "width": 80` + "\n" + `[0.1, "o", "a"]` + "\n",
			opts: OpenOptions{Format: "asciicast-v2"},
			out:  "a", events: []Event{frame(0, 1, 100*ms)},
			warnings: []string{"capture line 1: header is not a one-line JSON object"},
		},
		{
			name: "v1 document",
			data: "{\n  \"version\": 1,\n  \"width\": 90,\n  \"height\": 20,\n  \"stdout\": [[0.5, \"a\\u001b[3\"], [0.25, \"1mb\"], [\"x\", 1]]\n}\n",
			cols: 90, out: "a\x1b[31mb",
			events:   []Event{frame(0, 4, 500*ms), frame(4, 3, 750*ms)},
			warnings: []string{"1 malformed stdout frames skipped (first is frame 2)"},
		},
		// Asked for by name, a v1 document cut short keeps the frames
		// before the cut (sniffed, it is loaded as raw: TestSniff).
		{
			name: "v1 document cut in a frame",
			data: `{"version": 1, "width": 70, "stdout": [[0.5, "a"], [0.25, "b"], [0.1, "c`,
			opts: OpenOptions{Format: "asciicast-v1"},
			cols: 70, out: "ab",
			events:   []Event{frame(0, 1, 500*ms), frame(1, 1, 750*ms)},
			warnings: []string{"capture offset 62: asciicast v1 document ends early: 2 frames complete before this offset kept"},
		},
		{
			name:     "v1 document cut after a frame",
			data:     "{\n  \"version\": 1,\n  \"stdout\": [[0.5, \"a\"],",
			opts:     OpenOptions{Format: "asciicast"},
			out:      "a",
			events:   []Event{frame(0, 1, 500*ms)},
			warnings: []string{"asciicast v1 document ends early: 1 frames complete"},
		},
		// JSON does not order an object's members: a v1 document whose
		// "stdout" comes before its "version" (a recorder that sorts its
		// keys) is cut short as any other is.
		{
			name: "v1 document with stdout first cut after its version",
			data: `{"stdout": [[0.5, "a"], [0.25, "b"]], "version": 1, "width": 70, "title": "t`,
			opts: OpenOptions{Format: "asciicast-v1"},
			cols: 70, out: "ab",
			events:   []Event{frame(0, 1, 500*ms), frame(1, 1, 750*ms)},
			warnings: []string{"capture offset 63: asciicast v1 document ends early: 2 frames complete before this offset kept"},
		},
		// Of a member twice, the last counts, as json.Unmarshal reads a
		// whole document: a cut one does not show the first "stdout" too.
		{
			name: "v1 document with stdout twice cut in the second",
			data: `{"version": 1, "width": 70, "stdout": [[0.5, "a"]], "stdout": [[0.25, "b"], [0.1, "c`,
			opts: OpenOptions{Format: "asciicast-v1"},
			cols: 70, out: "b",
			events:   []Event{frame(0, 1, 250*ms)},
			warnings: []string{"asciicast v1 document ends early: 1 frames complete"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			format := tt.opts.Format
			c := loadBytes(t, []byte(tt.data), format, nil, tt.opts)
			if c.Format.family() != FormatAsciicastV2 {
				t.Fatalf("Format = %v, want an asciicast", c.Format)
			}
			if c.Cols != tt.cols {
				t.Errorf("Cols = %d, want %d", c.Cols, tt.cols)
			}
			s := c.Stream(StreamOutput)
			if got := string(streamBytes(t, s)); got != tt.out {
				t.Errorf("output = %q, want %q", got, tt.out)
			}
			if !eventsEqual(s.Events, tt.events) {
				t.Errorf("events:\ngot  %+v\nwant %+v", s.Events, tt.events)
			}
			for _, w := range tt.warnings {
				if !warned(c, w) {
					t.Errorf("warnings %v lack %q", c.Warnings, w)
				}
			}
			if !c.Lossy {
				t.Error("asciicast not marked lossy")
			}
		})
	}
}

func TestLineReaderLongLine(t *testing.T) {
	in := "short\n" + strings.Repeat("x", 200000) + "\nlast"
	lr := newLineReader(strings.NewReader(in))
	lr.maxLine = 1000
	type line struct {
		s    string
		off  int64
		long bool
	}
	var got []line
	for {
		b, off, long, err := lr.next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, line{string(b), off, long})
	}
	want := []line{{"short", 0, false}, {"", 6, true}, {"last", 200007, false}}
	if len(got) != len(want) {
		t.Fatalf("got %d lines, want %d", len(got), len(want))
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("line %d = %+v, want %+v", i+1, got[i], want[i])
		}
	}
}

func TestScriptDamage(t *testing.T) {
	const header = "Script started on 2026-11-29 11:47:56+00:00 [COMMAND=\"echo COLUMNS=\\\"999\\\"\" TERM=\"xterm\" TTY=\"/dev/pts/0\" COLUMNS=\"80\" LINES=\"24\"]\n"
	const footer = "\nScript done on 2026-11-29 11:47:57+00:00 [COMMAND_EXIT_CODE=\"5\"]\n"
	h, f := int64(len(header)), int64(len(footer))
	tests := []struct {
		name     string
		ts       string
		timing   string
		format   Format
		exit     int
		events   map[string][]Event
		warnings []string
	}{
		{
			name: "timing shorter than data", ts: header + "abcdef" + footer, timing: "0.5 2\n",
			format: FormatScriptTiming, exit: 5,
			events:   map[string][]Event{"output": {region(EventHeader, 0, h, 0), frame(h, 2, 500*ms), region(EventFooter, h+6, f, 500*ms), exitAt(h+6, 500*ms, 5)}},
			warnings: []string{"timing covers 2 of the typescript's 6 data bytes"},
		},
		{
			name: "malformed timing lines", ts: header + "abcdef" + footer, timing: "0.5 2\nbogus\n0.5 -1\n0.25 4\n",
			format: FormatScriptTiming, exit: 5,
			events:   map[string][]Event{"output": {region(EventHeader, 0, h, 0), frame(h, 2, 500*ms), frame(h+2, 4, 750*ms), region(EventFooter, h+6, f, 750*ms), exitAt(h+6, 750*ms, 5)}},
			warnings: []string{"timing line 2: malformed timing line skipped (2 times; first here)"},
		},
		{
			name: "no footer", ts: header + "abc", timing: "0.5 3\n",
			format: FormatScriptTiming, exit: -1,
			events: map[string][]Event{"output": {region(EventHeader, 0, h, 0), frame(h, 3, 500*ms)}},
		},
		{
			name: "advanced signals, clamped resize and an exit code that disagrees",
			ts:   header + "abcdef" + footer,
			timing: "H 0.000000 START_TIME 2026-11-29 11:47:56+00:00\nO 0.1 3\nS 0.1 SIGWINCH ROWS=5000 COLS=120\nS 0.1 SIGTERM\n" +
				"X 0.1 1\nO 0.1 3\nH 0.000000 EXIT_CODE 6\n",
			format: FormatScriptAdvanced, exit: 6,
			events: map[string][]Event{"output": {
				region(EventHeader, 0, h, 0), frame(h, 3, 100*ms),
				{Kind: EventResize, Off: h + 3, Time: 200 * ms, Cols: 120, Rows: 1000},
				{Kind: EventMarker, Off: h + 3, Time: 300 * ms, Label: "SIGTERM"},
				frame(h+3, 3, 400*ms), region(EventFooter, h+6, f, 400*ms), exitAt(h+6, 400*ms, 6),
			}},
			warnings: []string{"timing line 3: resize clamped to 120x1000", "timing line 5: malformed", "EXIT_CODE 6 differs from the typescript footer's 5"},
		},
		{
			name:   "advanced log-io split with too many bytes",
			ts:     header + "ab" + "X" + "cd" + footer,
			timing: "O 0.1 2\nI 0.1 1\nO 0.1 9\n",
			format: FormatScriptAdvanced, exit: 5,
			events: map[string][]Event{
				"output": {region(EventHeader, 0, h, 0), frame(h, 2, 100*ms), frame(h+2, 2, 300*ms), region(EventFooter, h+4, f, 300*ms), exitAt(h+4, 300*ms, 5)},
				"input":  {frame(0, 1, 200*ms)},
			},
			warnings: []string{"timing line 3: timing and typescript do not match: entry wants 9 bytes at typescript offset " + itoa(h+3) + ", 2 data bytes remain"},
		},
		{
			name: "empty timing", ts: header + "ab" + footer, timing: "",
			format: FormatScriptTiming, exit: 5,
			events:   map[string][]Event{"output": {region(EventHeader, 0, h, 0), region(EventFooter, h+2, f, 0), exitAt(h+2, 0, 5)}},
			warnings: []string{"timing file is empty", "timing covers 0 of the typescript's 2 data bytes"},
		},
		{
			name: "header only", ts: "Script started on x [", timing: "0 1\n",
			format: FormatScriptTiming, exit: -1,
			events:   map[string][]Event{"output": {region(EventHeader, 0, 21, 0), frame(21, 0, 0)}},
			warnings: []string{"timing line 1: timing and typescript do not match"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := loadBytes(t, []byte(tt.ts), "script", []byte(tt.timing), OpenOptions{})
			if c.Format != tt.format {
				t.Errorf("Format = %v, want %v", c.Format, tt.format)
			}
			if gotExit := map[bool]int{true: c.ExitCode, false: -1}[c.ExitKnown]; gotExit != tt.exit {
				t.Errorf("exit = %d, want %d", gotExit, tt.exit)
			}
			if c.Cols != 0 && (c.Cols != 80 || c.Rows != 24) {
				t.Errorf("size = %dx%d, want 80x24 (the last COLUMNS, not the command's)", c.Cols, c.Rows)
			}
			for name, want := range tt.events {
				s := c.Stream(name)
				if s == nil {
					t.Fatalf("no stream %s", name)
				}
				if !eventsEqual(s.Events, want) {
					t.Errorf("stream %s events:\ngot  %+v\nwant %+v", name, s.Events, want)
				}
			}
			if len(c.Streams) != len(tt.events) {
				t.Errorf("%d streams, want %d", len(c.Streams), len(tt.events))
			}
			for _, w := range tt.warnings {
				if !warned(c, w) {
					t.Errorf("warnings %v lack %q", c.Warnings, w)
				}
			}
		})
	}
	t.Run("log-io streams hold the right bytes", func(t *testing.T) {
		c := loadBytes(t, []byte(header+"ab"+"X"+"cd"+footer), "script", []byte("O 0.1 2\nI 0.1 1\nO 0.1 2\n"), OpenOptions{})
		if got, want := string(streamBytes(t, c.Stream(StreamOutput))), header+"abcd"+footer; got != want {
			t.Errorf("output = %q, want %q", got, want)
		}
		if got := string(streamBytes(t, c.Stream(StreamInput))); got != "X" {
			t.Errorf("input = %q, want %q", got, "X")
		}
	})
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }

func TestRawResizePrefix(t *testing.T) {
	c := loadBytes(t, []byte("\x1b[8;30;100thello"), "", nil, OpenOptions{})
	if c.Format != FormatRaw || c.Cols != 100 || c.Rows != 30 {
		t.Fatalf("got %v %dx%d, want raw 100x30", c.Format, c.Cols, c.Rows)
	}
	want := []Event{{Kind: EventResize, Cols: 100, Rows: 30}}
	if s := c.Stream(StreamOutput); !eventsEqual(s.Events, want) || s.Len != 16 {
		t.Errorf("stream = %+v", s)
	}
}

func TestGitHubBOM(t *testing.T) {
	c := loadBytes(t, []byte("\xef\xbb\xbf2026-11-29T11:47:47.1000000Z ##[warning]careful\r\n2026-11-29T11:47:48Z done\n"), "", nil, OpenOptions{})
	if c.Format != FormatGitHubActions {
		t.Fatalf("Format = %v", c.Format)
	}
	want := []Event{
		{Kind: EventTimestamp, Off: 3, Len: 29},
		{Kind: EventMarker, Off: 32, Label: "warning"},
		{Kind: EventTimestamp, Off: 52, Len: 21, Time: 900 * ms},
	}
	if s := c.Stream(StreamOutput); !eventsEqual(s.Events, want) {
		t.Errorf("events:\ngot  %+v\nwant %+v", s.Events, want)
	}
}

func TestSniff(t *testing.T) {
	tests := []struct {
		name string
		data []byte
		want Format
	}{
		{"empty", nil, FormatRaw},
		{"text", []byte("hello\nworld\n"), FormatRaw},
		{"json object", []byte(`{"a": 1}` + "\n"), FormatRaw},
		{"cast v2", []byte(`{"version": 2, "width": 80, "height": 24}` + "\n"), FormatAsciicastV2},
		{"cast v3", []byte(`{"version":3,"term":{"cols":80,"rows":24}}` + "\n"), FormatAsciicastV3},
		{"cast v1 one line", []byte(`{"version": 1, "stdout": []}`), FormatAsciicastV1},
		{"cast v1 pretty", []byte("{\n  \"width\": 80,\n  \"version\": 1,\n  \"stdout\": [\n"), FormatAsciicastV1},
		{"script", []byte("Script started on 2026-11-29 [x]\n"), FormatScript},
		{"ttyrec", cat(ttyrecFrame(1795952862, 889139, -1, "ab"), ttyrecFrame(1795952863, 0, -1, "c")), FormatTTYRec},
		{"ttyrec truncated second frame", cat(ttyrecFrame(5, 0, -1, "ab"), ttyrecFrame(5, 1, 99, "c")), FormatTTYRec},
		{"ttyrec-like but usec too big", ttyrecFrame(5, 1000000, -1, "ab"), FormatRaw},
		{"ttyrec-like first frame too long", ttyrecFrame(5, 0, 99, "ab"), FormatRaw},
		{"zeros", make([]byte, 100), FormatRaw},
		{"ttyrec time jumps years", cat(ttyrecFrame(5, 0, -1, "ab"), ttyrecFrame(1e9, 0, -1, "c")), FormatRaw},
		{"github", []byte("2026-11-29T11:47:47.1000000Z x\n2026-11-29T11:47:47.1000000Z ##[group]Run x\n"), FormatGitHubActions},
		{"github workflow command", []byte("2026-11-29T11:47:47.1000000Z ::add-mask::***\n"), FormatGitHubActions},
		{"github bom", []byte("\xef\xbb\xbf2026-11-29T11:47:47Z ##[endgroup]\n"), FormatGitHubActions},
		{"github timestamps only", []byte("2026-11-29T11:47:47.1000000Z x\n"), FormatTimestamped},
		{"kubectl", []byte("2026-11-29T11:47:47.1004444Z x\n2026-11-29T11:47:47.25Z y\n"), FormatTimestamped},
		{"timestamps with offset", []byte("2026-11-29T12:47:47+01:00 x\n"), FormatTimestamped},
		{"timestamps then a bare line", []byte("2026-11-29T11:47:47Z x\nbare\n"), FormatRaw},
		{"not a time", []byte("2026-13-29T11:47:47Z x\n"), FormatRaw},
		{"docker", []byte(`{"log":"a\n","stream":"stdout","time":"2026-11-29T11:47:47.1004444Z"}` + "\n"), FormatDockerJSON},
		{"docker with attrs", []byte(`{"log":"a\n","stream":"stderr","attrs":{"tag":"x"},"time":"2026-11-29T11:47:47Z"}`), FormatDockerJSON},
		{"json log with more members", []byte(`{"log":"a","stream":"stdout","time":"t","level":"info"}` + "\n"), FormatRaw},
		{"json log without time", []byte(`{"log":"a","stream":"stdout"}` + "\n"), FormatRaw},
		{"journald json", []byte(`{"__CURSOR":"s=1","MESSAGE":"x"}` + "\n"), FormatJournalJSON},
		{"journald json spaced", []byte(`{ "__REALTIME_TIMESTAMP" : "1", "MESSAGE" : [1,2] }` + "\n"), FormatJournalJSON},
		{"journald export", []byte("__CURSOR=s=1\nMESSAGE=x\n\n"), FormatJournalExport},
		{"jenkins", append([]byte("x\n"), jenkinsNote(4)...), FormatJenkins},
		{"jenkins preamble only", []byte("x\x1b[8mha:////4AAA\x1b[0m\n"), FormatJenkins},
		{"not github", []byte("2026-11-29 11:47:47 x\n"), FormatRaw},
		{"gitlab marker", []byte("x\n\x1b[0Ksection_start:1795952867:build\r\x1b[0K"), FormatGitLabCI},
		{"gitlab greeting", []byte("\x1b[0KRunning with gitlab-runner 17.0\n"), FormatGitLabCI},
		{"gitlab word only", []byte("section_start: is a word\n"), FormatRaw},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Sniff(bytes.NewReader(tt.data), int64(len(tt.data)))
			if err != nil {
				t.Fatal(err)
			}
			if got != tt.want {
				t.Errorf("Sniff = %v, want %v", got, tt.want)
			}
		})
	}
}

func TestParseFormat(t *testing.T) {
	for f := Format(0); f < numFormats; f++ {
		got, err := ParseFormat(f.String())
		if err != nil || got != f {
			t.Errorf("ParseFormat(%q) = %v, %v", f.String(), got, err)
		}
	}
	for name, want := range map[string]Format{"CAST": FormatAsciicastV2, " tty ": FormatTTYRec, "github": FormatGitHubActions} {
		if got, err := ParseFormat(name); err != nil || got != want {
			t.Errorf("ParseFormat(%q) = %v, %v; want %v", name, got, err, want)
		}
	}
	if _, err := ParseFormat("vhs"); !errors.Is(err, ErrUnknownFormat) {
		t.Errorf("ParseFormat(vhs) error = %v", err)
	}
	if s := Format(200).String(); s != "Format(200)" {
		t.Errorf("Format(200).String() = %q", s)
	}
	if s := EventKind(0).String(); s != "EventKind(0)" {
		t.Errorf("EventKind(0).String() = %q", s)
	}
}

func TestSniffedV1FallsBackToRaw(t *testing.T) {
	data := []byte(`{"version": 1, "stdout": [[0.5, "a"]` + "\n") // cut short
	c := loadBytes(t, data, "", nil, OpenOptions{})
	if c.Format != FormatRaw || c.Lossy || c.Stream(StreamOutput).Len != int64(len(data)) {
		t.Errorf("got %v lossy=%v, want the whole file as raw", c.Format, c.Lossy)
	}
	if !warned(c, "loaded as raw") {
		t.Errorf("warnings %v", c.Warnings)
	}
}

func TestWarningLimit(t *testing.T) {
	data := `{"version": 2, "width": 80, "height": 24}` + "\n" + strings.Repeat(`[0.1, "r", "5000x5"]`+"\n", 150)
	c := loadBytes(t, []byte(data), "", nil, OpenOptions{})
	if len(c.Warnings) != MaxWarnings+1 {
		t.Fatalf("%d warnings, want %d", len(c.Warnings), MaxWarnings+1)
	}
	if last := c.Warnings[MaxWarnings].Msg; last != "50 more warnings not shown" {
		t.Errorf("last warning = %q", last)
	}
	if n := len(c.Stream(StreamOutput).Events); n != 150 {
		t.Errorf("%d resize events, want 150", n)
	}
}

// TestOpenLarge opens a sparse 2 GiB raw file: the stream reads from the
// file, so loading is instant and reads at the end work.
func TestOpenLarge(t *testing.T) {
	if testing.Short() {
		t.Skip("creates a sparse 2 GiB file")
	}
	p := filepath.Join(t.TempDir(), "big.raw")
	f, err := os.Create(p)
	if err != nil {
		t.Fatal(err)
	}
	const size = 2 << 30
	if _, err := f.WriteAt([]byte("tail\x1b[0m"), size-8); err != nil {
		t.Skipf("cannot make a sparse file: %v", err)
	}
	f.Close()
	c, err := Open(p, OpenOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	s := c.Stream(StreamOutput)
	if c.Format != FormatRaw || s.Len != size {
		t.Fatalf("got %v with %d bytes", c.Format, s.Len)
	}
	buf := make([]byte, 8)
	if n, err := s.Data.ReadAt(buf, size-8); n != 8 || string(buf) != "tail\x1b[0m" {
		t.Errorf("ReadAt end = %d %q %v", n, buf, err)
	}
	if err := c.Close(); err != nil {
		t.Error(err)
	}
	if _, err := s.Data.ReadAt(buf, 0); err == nil {
		t.Error("read after Close succeeded")
	}
}
