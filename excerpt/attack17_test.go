package excerpt

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bytelens/bytelens/capture/store"
	"github.com/bytelens/bytelens/sanitize"
)

// TestAttack17PlantedFormatChars checks that a cleaned text rewritten on
// disk (by a command run without --isolate) cannot hand the agent a
// format character that the record's policy never writes: checkText
// cleaned the text with every format character kept, so a bidi override,
// an isolate, a zero-width space or a tag character in stdout.txt of a
// record cleaned under format-chars=strip reached excerpt and the MCP
// excerpt tool as they were, unreported (attack17). Those a script needs
// by their neighbours (a ZWNJ between Persian letters) may be there under
// strip, and a record cleaned under format-chars=keep may hold any.
func TestAttack17PlantedFormatChars(t *testing.T) {
	for _, tc := range []struct {
		name string
		opts sanitize.Options
		text string // two lines, for a record of as many bytes each
		ok   bool
	}{
		{"RLO", sanitize.Options{}, "l\u202ee1\nline2\n", false},
		{"LRI", sanitize.Options{}, "line1\nl\u2066e2\n", false},
		{"ZWSP", sanitize.Options{}, "l\u200be1\nline2\n", false},
		{"tag", sanitize.Options{}, "l\U000e0041e1\nline2\n", false},
		{"line separator", sanitize.Options{}, "l\u2028e1\nline2\n", false},
		{"RLO escape policy", sanitize.Options{FormatChars: sanitize.FormatEscape}, "l\u202ee1\nline2\n", false},
		{"ZWNJ in Persian", sanitize.Options{}, "م\u200cی\nline2\n", true},
		{"RLO keep policy", sanitize.Options{FormatChars: sanitize.FormatKeep}, "l\u202ee1\nline2\n", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			st := newStore(t)
			line1, line2, _ := strings.Cut(tc.text, "\n")
			ref := putWith(t, st, tc.opts, "", strings.Repeat("a", len(line1))+"\n"+strings.Repeat("e", len(line2)-1)+"\n")
			dir := filepath.Join(st.Dir(), "clean", ref.Hex())
			if err := os.WriteFile(filepath.Join(dir, "stdout.txt"), []byte(tc.text), 0o600); err != nil {
				t.Fatal(err)
			}
			r, err := Open(st, ref)
			if err != nil {
				t.Fatal(err)
			}
			ex, err := r.Lines("stdout", 1, 2)
			if tc.ok {
				if err != nil || len(ex.Lines) != 2 || ex.Lines[0].Text+"\n"+ex.Lines[1].Text+"\n" != tc.text {
					t.Errorf("Lines: %+v, %v; want the text as it is", ex, err)
				}
				return
			}
			if !errors.Is(err, store.ErrFormat) {
				t.Errorf("Lines: got %+v, error %v, want an error wrapping store.ErrFormat", ex, err)
			}
			gx, err := r.Grep(t.Context(), "stdout", GrepOptions{Pattern: "e"})
			if !errors.Is(err, store.ErrFormat) {
				t.Errorf("Grep: got %+v, error %v, want an error wrapping store.ErrFormat", gx, err)
			}
		})
	}
}

// TestAttack17PlantedMetaFormatChars: meta.json was checked by cleaning
// its strings with every format character kept, so a bidi override, an
// isolate or a tag character written into its command or a finding's
// sequence reached the report tool and excerpt --report --json as they
// were (attack17). bytelens writes those strings cleaned by the default
// policy (capture.CleanField, <U+202E> in findings), which never writes
// them.
func TestAttack17PlantedMetaFormatChars(t *testing.T) {
	for _, planted := range []string{"\u202e", "\u2066", "\U000e0041", "\u200b", "\u2028"} {
		st := newStore(t)
		ref := put(t, st, "", "line1\n")
		meta := filepath.Join(st.Dir(), "clean", ref.Hex(), "meta.json")
		b, err := os.ReadFile(meta)
		if err != nil {
			t.Fatal(err)
		}
		b = bytes.Replace(b, []byte(`"command":"`), []byte(`"command":"`+planted), 1)
		if err := os.WriteFile(meta, b, 0o600); err != nil {
			t.Fatal(err)
		}
		if r, err := Open(st, ref); !errors.Is(err, store.ErrFormat) {
			t.Errorf("%+q in the command: opened (%v), error %v, want an error wrapping store.ErrFormat", planted, r != nil, err)
		}
	}
}
