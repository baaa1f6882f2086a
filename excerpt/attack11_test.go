package excerpt

import (
	"encoding/binary"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bytelens/bytelens/capture/store"
)

// TestAttack11CorruptSidecar: the cleaned text and line index are files
// in the store that a command run without --isolate, as the same user,
// can rewrite. Lines, Grep and Report of a changed index or text fail
// with store.ErrFormat; they never panic (an index whose offsets go back
// made a slice of negative length: bytelens excerpt and the MCP server
// died), never show bytes past the text (an offset past its end gave
// NULs) and never show a control the cleaner cannot write (ESC, C0 but
// TAB and LF, DEL, C1 in either spelling, invalid UTF-8). Report gives
// a span of the index or the same error.
func TestAttack11CorruptSidecar(t *testing.T) {
	entries := func(es ...[2]uint64) []byte {
		var b []byte
		for _, e := range es {
			b = binary.BigEndian.AppendUint64(b, e[0])
			b = binary.BigEndian.AppendUint64(b, e[1])
		}
		return b
	}
	for _, tc := range []struct {
		name      string
		idx, text []byte
	}{
		{"offsets back", entries([2]uint64{0, 0}, [2]uint64{10, 6}, [2]uint64{2, 12}), nil},
		{"offset past the text", entries([2]uint64{0, 0}, [2]uint64{6, 6}, [2]uint64{200, 12}), nil},
		{"offset past int64", entries([2]uint64{0, 0}, [2]uint64{1<<63 + 5, 6}, [2]uint64{1<<64 - 1, 12}), nil},
		{"raw offsets back", entries([2]uint64{0, 9}, [2]uint64{6, 3}, [2]uint64{12, 12}), nil},
		{"ESC", nil, []byte("l\x1b]0;X\x07\n1ine2\n")},
		{"C1", nil, []byte("li\xc2\x9b1m\nline2\n")},
		{"raw C1", nil, []byte("lin\x9b1m\nline2\n")},
		{"NUL", nil, []byte("line\x00\nline2\n")},
		{"CR", nil, []byte("lin\re\nline2\n")},
		{"DEL", nil, []byte("line\x7f\nline2\n")},
	} {
		t.Run(tc.name, func(t *testing.T) {
			st := newStore(t)
			ref := put(t, st, "", "line1\nline2\n")
			dir := filepath.Join(st.Dir(), "clean", ref.Hex())
			if tc.idx != nil {
				if err := os.WriteFile(filepath.Join(dir, "stdout.idx"), tc.idx, 0o600); err != nil {
					t.Fatal(err)
				}
			}
			if tc.text != nil {
				if err := os.WriteFile(filepath.Join(dir, "stdout.txt"), tc.text, 0o600); err != nil {
					t.Fatal(err)
				}
			}
			r, err := Open(st, ref)
			if err != nil {
				t.Fatal(err)
			}
			check := func(call string, ex any, err error) {
				t.Helper()
				if !errors.Is(err, store.ErrFormat) {
					t.Errorf("%s: got %+v, error %v, want an error wrapping store.ErrFormat", call, ex, err)
				}
			}
			ex, err := r.Lines("stdout", 1, 2)
			check("Lines", ex, err)
			ex, err = r.Grep(t.Context(), "stdout", GrepOptions{Pattern: "l"})
			check("Grep", ex, err)
			// Report reads the index at the range's ends only: an
			// order broken between them gives a span, never a negative one.
			if rr, err := r.Report("stdout", 1, 2); err == nil && (rr.BytesIn < 0 || rr.BytesOut < 0) || err != nil && !errors.Is(err, store.ErrFormat) {
				t.Errorf("Report: got %+v, error %v, want a span or an error wrapping store.ErrFormat", rr, err)
			}
		})
	}
}

// TestAttack11CorruptMeta: meta.json is a store file too, and its strings
// (the command, the policy, the stream report's findings) reach the MCP
// server's report tool and excerpt --report --json as they are. Open
// refuses a meta.json with a string, key or value, that cleaning changes.
func TestAttack11CorruptMeta(t *testing.T) {
	for _, tc := range []struct{ from, to string }{
		{`"command":"`, `"command":"\u001b]0;X\u0007`},
		{`"policy":"`, `"policy":"\u009b2J`},
		{`"findings":[`, `"findings":[{"offset":0,"kind":"title","sequence":"OSC \u001b]0;X\u0007","bytes":3},`},
		{`"csi_finals":{`, `"csi_finals":{"\u001b[":1,`},
	} {
		st := newStore(t)
		ref := put(t, st, "", "line1\x1b]0;t\x07\x1b[31m\nline2\n")
		path := filepath.Join(st.Dir(), "clean", ref.Hex(), "meta.json")
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		changed := strings.Replace(string(b), tc.from, tc.to, 1)
		if changed == string(b) {
			t.Fatalf("meta.json holds no %s: %s", tc.from, b)
		}
		if err := os.WriteFile(path, []byte(changed), 0o600); err != nil {
			t.Fatal(err)
		}
		if r, err := Open(st, ref); !errors.Is(err, store.ErrFormat) {
			t.Errorf("meta.json with %s: got %+v, error %v, want an error wrapping store.ErrFormat", tc.to, r, err)
		}
	}
}
