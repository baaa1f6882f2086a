package capture

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"testing"
	"time"

	"github.com/bytelens/bytelens/internal/golden"
	"github.com/bytelens/bytelens/sanitize"
)

// goldenCapture is the JSON form of a loaded capture that golden files hold.
// Stream bytes appear only as a length and a SHA-256, never inline.
type goldenCapture struct {
	Format      string         `json:"format"`
	Lossy       bool           `json:"lossy,omitempty"`
	LossyReason string         `json:"lossy_reason,omitempty"`
	Cols        int            `json:"cols,omitempty"`
	Rows        int            `json:"rows,omitempty"`
	Start       string         `json:"start,omitempty"`
	Exit        *int           `json:"exit,omitempty"`
	Timed       bool           `json:"timed,omitempty"`
	Truncated   bool           `json:"truncated,omitempty"`
	Meta        []Field        `json:"meta,omitempty"`
	Streams     []goldenStream `json:"streams"`
	Warnings    []string       `json:"warnings,omitempty"`
}

type goldenStream struct {
	Name    string        `json:"name"`
	Len     int64         `json:"len"`
	SHA256  string        `json:"sha256"`
	Events  []goldenEvent `json:"events,omitempty"`
	Removed []Removal     `json:"removed,omitempty"`
}

type goldenEvent struct {
	Kind  string `json:"kind"`
	Off   int64  `json:"off"`
	Len   int64  `json:"len,omitempty"`
	Time  string `json:"time,omitempty"`
	Cols  int    `json:"cols,omitempty"`
	Rows  int    `json:"rows,omitempty"`
	Code  *int   `json:"code,omitempty"`
	Label string `json:"label,omitempty"`
}

// streamBytes reads a whole stream through its ReaderAt.
func streamBytes(t testing.TB, s *Stream) []byte {
	t.Helper()
	b, err := io.ReadAll(s.Reader())
	if err != nil {
		t.Fatalf("stream %s: read: %v", s.Name, err)
	}
	if int64(len(b)) != s.Len {
		t.Fatalf("stream %s: read %d bytes, Len %d", s.Name, len(b), s.Len)
	}
	return b
}

func toGolden(t testing.TB, c *Capture) goldenCapture {
	g := goldenCapture{
		Format: c.Format.String(), Lossy: c.Lossy, LossyReason: c.LossyReason,
		Cols: c.Cols, Rows: c.Rows, Timed: c.Timed, Truncated: c.Truncated, Meta: c.Meta,
	}
	if !c.Start.IsZero() {
		g.Start = c.Start.Format(time.RFC3339Nano)
	}
	if c.ExitKnown {
		g.Exit = &c.ExitCode
	}
	for i := range c.Streams {
		s := &c.Streams[i]
		sum := sha256.Sum256(streamBytes(t, s))
		gs := goldenStream{Name: s.Name, Len: s.Len, SHA256: hex.EncodeToString(sum[:]), Removed: s.Removed}
		for _, e := range s.Events {
			ge := goldenEvent{Kind: e.Kind.String(), Off: e.Off, Len: e.Len, Cols: e.Cols, Rows: e.Rows, Label: e.Label}
			if c.Timed {
				ge.Time = e.Time.String()
			}
			if e.Kind == EventExit {
				code := e.Code
				ge.Code = &code
			}
			gs.Events = append(gs.Events, ge)
		}
		g.Streams = append(g.Streams, gs)
	}
	for _, w := range c.Warnings {
		g.Warnings = append(g.Warnings, w.String())
	}
	return g
}

// fixture is one capture file under testdata with its golden file.
type fixture struct {
	name   string // golden file name, without .json
	path   string // under testdata
	timing string // under testdata, or ""
	format string // OpenOptions.Format
	clean  bool   // also compare the cleaned text with golden/NAME.clean.txt
}

var fixtures = []fixture{
	// Copies of /work/shared/samples.
	{name: "samples-asciinema-raw", path: "samples/asciinema-raw.out"},
	{name: "samples-asciinema-v2", path: "samples/asciinema-v2.cast"},
	{name: "samples-asciinema-v2-stdin", path: "samples/asciinema-v2-stdin.cast"},
	{name: "samples-asciinema-v3", path: "samples/asciinema-v3.cast"},
	{name: "samples-ttyrec", path: "samples/ttyrec.tty"},
	{name: "samples-script-classic", path: "samples/script-classic.typescript", timing: "samples/script-classic.timing"},
	{name: "samples-script-classic-notiming", path: "samples/script-classic.typescript"},
	{name: "samples-script-adv", path: "samples/script-adv.typescript", timing: "samples/script-adv.timing"},
	{name: "samples-script-io", path: "samples/script-io.typescript", timing: "samples/script-io.timing"},
	{name: "samples-script-mismatch", path: "samples/script-io.typescript", timing: "samples/script-classic.timing"},
	{name: "samples-github-actions", path: "samples/github-actions-synth.log"},
	{name: "samples-gitlab-ci", path: "samples/gitlab-ci-synth.log"},
	{name: "samples-pipe-stdout", path: "samples/pipe-stdout.bin"},
	{name: "samples-tmux-capture-pane-e", path: "samples/tmux-capture-pane-e.txt"},
	// Service logs written by the tools themselves or by their encoders;
	// testdata/logs/README.md says how.
	{name: "logs-docker-json", path: "logs/docker-json.log", clean: true},
	{name: "logs-kubectl-timestamps", path: "logs/kubectl-timestamps.log", clean: true},
	{name: "logs-docker-timestamps", path: "logs/docker-timestamps.log", clean: true},
	{name: "logs-jenkins", path: "logs/jenkins-console.log", clean: true},
	{name: "logs-journald-json", path: "logs/journald.json", clean: true},
	{name: "logs-journald-export", path: "logs/journald.export", clean: true},
}

func openFixture(t testing.TB, f fixture) *Capture {
	t.Helper()
	opts := OpenOptions{Format: f.format}
	if f.timing != "" {
		opts.Timing = filepath.Join("testdata", f.timing)
	}
	c, err := Open(filepath.Join("testdata", f.path), opts)
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	t.Cleanup(func() { c.Close() })
	checkInvariants(t, c)
	return c
}

func TestGolden(t *testing.T) {
	for _, f := range append(fixtures, recordedFixtures...) {
		t.Run(f.name, func(t *testing.T) {
			c := openFixture(t, f)
			got, err := json.MarshalIndent(toGolden(t, c), "", "  ")
			if err != nil {
				t.Fatal(err)
			}
			got = append(got, '\n')
			golden.Check(t, filepath.Join("testdata", "golden", f.name+".json"), got)
			if f.clean {
				golden.Check(t, filepath.Join("testdata", "golden", f.name+".clean.txt"), cleanText(t, c))
			}
		})
	}
}

// cleanText returns the cleaned text of each stream of c under the default
// policy, each after a "== stream NAME ==" line.
func cleanText(t *testing.T, c *Capture) []byte {
	var b bytes.Buffer
	for i := range c.Streams {
		fmt.Fprintf(&b, "== stream %s ==\n", c.Streams[i].Name)
		if _, err := Clean(&b, &c.Streams[i], sanitize.Options{}); err != nil {
			t.Fatal(err)
		}
	}
	return b.Bytes()
}

// checkInvariants checks what every loaded capture promises: at least one
// stream, events sorted by offset and inside their stream, frames not
// overlapping, frame times non-decreasing and never negative, sizes clamped, streams readable to
// exactly Len bytes, and warnings bounded.
func checkInvariants(t testing.TB, c *Capture) {
	t.Helper()
	if len(c.Streams) == 0 {
		t.Fatal("capture has no streams")
	}
	if c.Cols < 0 || c.Cols > MaxTermSize || c.Rows < 0 || c.Rows > MaxTermSize {
		t.Errorf("size %dx%d out of range", c.Cols, c.Rows)
	}
	if len(c.Warnings) > MaxWarnings+1 {
		t.Errorf("%d warnings, want at most %d", len(c.Warnings), MaxWarnings+1)
	}
	if c.Lossy != (c.LossyReason != "") {
		t.Errorf("Lossy %v with reason %q", c.Lossy, c.LossyReason)
	}
	for i := range c.Streams {
		s := &c.Streams[i]
		if s.Len < 0 {
			t.Fatalf("stream %s: Len %d", s.Name, s.Len)
		}
		streamBytes(t, s)
		if n, err := s.Data.ReadAt(make([]byte, 1), s.Len); n != 0 || err != io.EOF {
			t.Errorf("stream %s: ReadAt(Len) = %d, %v; want 0, EOF", s.Name, n, err)
		}
		var prevOff, frameEnd int64
		var prevTime time.Duration
		for j, e := range s.Events {
			if e.Off < prevOff {
				t.Errorf("stream %s: event %d (%v) at %d before previous at %d", s.Name, j, e.Kind, e.Off, prevOff)
			}
			prevOff = e.Off
			if e.Off < 0 || e.Len < 0 || e.Off+e.Len > s.Len {
				t.Errorf("stream %s: event %d (%v) span [%d,+%d) outside stream of %d bytes", s.Name, j, e.Kind, e.Off, e.Len, s.Len)
			}
			if e.Time < 0 {
				t.Errorf("stream %s: event %d has negative time %v", s.Name, j, e.Time)
			}
			if !c.Timed && e.Time != 0 {
				t.Errorf("stream %s: untimed capture has event %d at time %v", s.Name, j, e.Time)
			}
			if e.Kind == EventFrame {
				if e.Off < frameEnd {
					t.Errorf("stream %s: frame %d at %d overlaps the previous frame ending at %d", s.Name, j, e.Off, frameEnd)
				}
				frameEnd = e.Off + e.Len
				if e.Time < prevTime {
					t.Errorf("stream %s: frame %d at %v before previous frame at %v", s.Name, j, e.Time, prevTime)
				}
				prevTime = e.Time
			}
			if e.Cols < 0 || e.Cols > MaxTermSize || e.Rows < 0 || e.Rows > MaxTermSize {
				t.Errorf("stream %s: event %d size %dx%d out of range", s.Name, j, e.Cols, e.Rows)
			}
			if len(e.Label) > MaxLabel {
				t.Errorf("stream %s: event %d label of %d bytes", s.Name, j, len(e.Label))
			}
		}
	}
}
