package viewer

import (
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/muesli/termenv"
)

// TestDetailPane checks what the detail pane shows for the token under
// the cursor: a 190-byte OSC 8 target whole (escaped, wrapped), OSC 52
// data decoded from base64 and escaped, a title, the code point, name
// and script of a character with a warning for a word of mixed scripts,
// and payload sizes only with --hide-payloads.
func TestDetailPane(t *testing.T) {
	t.Parallel()
	target := "https://evil.example/" + strings.Repeat("a", 163) + "/x?\x01=1"
	link := "see \x1b]8;;" + target + "\x1b\\here\x1b]8;;\x1b\\\n"
	clip := "\x1b]52;c;" + "cm0gLXJmIH4KG1szMW0=" + "\x07\n" // "rm -rf ~\n\x1b[31m"
	for _, tc := range []struct {
		name, data string
		at         string // goto
		hide       bool
		want       []string
		not        []string
	}{
		{"link", link, "4", false, []string{"target (190 bytes):", "https://evil.example/aaaa", "/x?␁=1"}, nil},
		// NULs executed between ESC and ]: the target is read from its
		// own bytes, not two bytes after ESC.
		{"link-nul", "a\x1b\x00\x00]8;;https://evil.example/path\x1b\\label\x1b]8;;\x1b\\\n", "1", false, []string{"target (25 bytes):", "https://evil.example/path"}, nil},
		{"link-hidden", link, "4", true, []string{"payload: 193 bytes, hidden (--hide-payloads)"}, []string{"evil.example"}},
		{"clipboard", clip, "0", false, []string{"selection (1 byte):", "data, base64 (20 bytes):", "cm0gLXJmIH4KG1szMW0=", "data, decoded (14 bytes):", "rm -rf ~␊␛[31m"}, nil},
		{"title", "\x1b]0;my title\x07", "0", false, []string{"title (8 bytes):", "my title"}, nil},
		{"cyrillic", "p\u0430ypal ok\n", "1", false, []string{"U+0430 CYRILLIC SMALL LETTER A", "script: Cyrillic", "the word pаypal mixes scripts (Latin, Cyrillic)"}, nil},
		{"nbsp", "a\u00a0b\n", "1", false, []string{"U+00A0 NO-BREAK SPACE", "UTF-8 C2 A0"}, []string{"mixes scripts"}},
		{"csi", "\x1b[1;38:5:208m", "0", false, []string{"parameters: P1=1, P2=38, P3=5 (sub-parameter), P4=208 (sub-parameter)"}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := newDriver(t, load(t, []byte(tc.data)), Options{HidePayloads: tc.hide}, testStyles(termenv.Ascii, false), 120, 40, nil)
			d.press("g" + tc.at + "<enter>")
			if !d.m.lay.shown[paneDetail] {
				t.Fatal("no detail pane at 120x40")
			}
			text := strings.Join(d.m.f.detail, "\n")
			// Wrapped rows joined: a payload split over rows reads whole.
			joined := strings.ReplaceAll(text, " \n", "")
			for _, w := range tc.want {
				if !strings.Contains(text, w) && !strings.Contains(strings.ReplaceAll(text, "\n", ""), w) {
					t.Errorf("detail pane has no %q:\n%s", w, text)
				}
			}
			for _, n := range tc.not {
				if strings.Contains(joined, n) {
					t.Errorf("detail pane has %q:\n%s", n, text)
				}
			}
			if probs := viewProblems(d.m.View(), 120, 40); len(probs) > 0 {
				t.Errorf("unsafe View: %q", probs)
			}
		})
	}
}

// TestRemovalMarkers checks that the cleaned-text pane marks each removal
// by class (colour, invisible, cursor or control, string, query), with
// distinct glyphs in the Unicode and the ASCII sets, underlined when there
// is no colour so that ASCII markers stand apart from text; and that the
// full help names each.
func TestRemovalMarkers(t *testing.T) {
	t.Parallel()
	data := []byte("a\x1b[31mb\u202ec\x1b[2Kd\x1b]0;t\x07e\x1b[6nf\n")
	for _, tc := range []struct {
		ascii bool
		want  string
	}{{false, "a␥b␢c␤d␣e␠f"}, {true, "a=b%c>d$e?f"}} {
		p := termenv.Ascii
		if tc.ascii {
			p = termenv.ANSI // NO_COLOR keeps attributes
		}
		d := newDriver(t, load(t, data), Options{ASCII: tc.ascii, NoColor: true}, testStyles(p, false), 120, 40, nil)
		d.press("<end>?")
		var row strings.Builder
		for _, pc := range d.m.f.text[d.m.f.textCur].pieces {
			if pc.mark {
				row.WriteString(pc.rm.Mark(tc.ascii).String())
			} else {
				row.WriteString(pc.s.String())
			}
		}
		if got := strings.TrimRight(row.String(), " "); got != tc.want {
			t.Errorf("ascii %v: cleaned row %q, want %q", tc.ascii, got, tc.want)
		}
		v := d.m.View()
		if tc.ascii && !strings.Contains(v, "4m=\x1b[0m") {
			t.Errorf("ascii: the = marker is not underlined:\n%q", v)
		}
		for _, name := range []string{"removed: colour/style", "removed: invisible", "removed: cursor/control", "removed: string", "removed: query"} {
			if !strings.Contains(v, name) {
				t.Errorf("ascii %v: the help has no legend entry %q", tc.ascii, name)
			}
		}
	}
}

// TestTooSmall checks that a terminal too small for any layout says what
// size is needed, wrapped so that it is read whole at 20x5.
func TestTooSmall(t *testing.T) {
	t.Parallel()
	d := newDriver(t, load(t, demo), Options{}, testStyles(termenv.Ascii, false), 20, 5, nil)
	v := strings.ReplaceAll(d.m.View(), "\n", "")
	if !strings.Contains(v, "terminal too small (20x5): needs at least 26x7") {
		t.Errorf("View at 20x5 does not say what is needed:\n%s", d.m.View())
	}
	d.send(tea.WindowSizeMsg{Width: 26, Height: 7})
	if d.m.lay.tooSmall {
		t.Errorf("26x7, the size asked for, is too small:\n%s", d.m.View())
	}
}

// TestEmptyCapture checks that an empty capture opens and says so.
func TestEmptyCapture(t *testing.T) {
	t.Parallel()
	d := newDriver(t, load(t, nil), Options{}, testStyles(termenv.Ascii, false), 100, 30, nil)
	if v := d.m.View(); !strings.Contains(v, "the capture is empty") || !strings.Contains(v, "(empty stream)") {
		t.Errorf("an empty capture does not say so:\n%s", v)
	}
}
