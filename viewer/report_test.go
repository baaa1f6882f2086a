package viewer

import (
	"slices"
	"strings"
	"testing"

	"github.com/muesli/termenv"

	"github.com/bytelens/bytelens/decode"
	"github.com/bytelens/bytelens/sanitize"
)

// selectItem focuses the report pane and moves its selection to the row
// of group/name, by keys.
func (d *driver) selectItem(group, name string) {
	d.t.Helper()
	for range numPanes {
		if d.m.focus == paneReport {
			break
		}
		d.press("<tab>")
	}
	for range len(reportItems) {
		if it := &reportItems[d.m.sel]; it.group == group && it.name == name {
			return
		}
		d.press("j")
	}
	d.t.Fatalf("the report pane has no row %s/%s (focus %d)", group, name, d.m.focus)
}

// visits returns where ] stops, from the top, until it finds no more.
func (d *driver) visits() []int64 {
	d.t.Helper()
	d.press("<home>")
	var got []int64
	for range 64 {
		d.press("]")
		if strings.HasPrefix(d.m.msg.String(), "no ") {
			return got
		}
		got = append(got, d.m.sv().cursor)
	}
	d.t.Fatalf("] never stopped: %v", got)
	return nil
}

// TestFormatItemsAskTheSanitizer checks that the report pane's
// removed/format and kept/format rows visit the format characters the
// sanitizer removed and kept, which it decides by context: a selector
// after a base that takes it is kept, after another character or another
// selector removed, after a digit kept only in a keycap; U+1160 after a leading jamo and U+115F before a vowel
// jamo are kept, elsewhere removed; ZWJ is kept; a run of removed
// characters is one place, as the report's invisible finding is.
func TestFormatItemsAskTheSanitizer(t *testing.T) {
	t.Parallel()
	// Each piece is marked: k kept, r the start of a removed run.
	pieces := []struct {
		mark byte
		text string
	}{
		{0, "\u2764"}, {'k', "\uFE0F"}, {'r', "\uFE0F"}, // a second selector is removed
		{0, " a"}, {'r', "\uFE0F"}, // ASCII a takes no selector
		{0, " #"}, {'k', "\uFE0F"}, {0, "\u20E3"}, // a keycap
		{0, " 7"}, {'r', "\uFE0F"}, {0, " "}, // a digit alone takes none
		{0, " \u1100"}, {'k', "\u1160"}, // a jamo filler after a leading jamo
		{0, " x"}, {'r', "\u1160"},
		{0, " "}, {'k', "\u115F"}, {0, "\u1161"}, // a choseong filler before a vowel jamo
		{0, " "}, {'r', "\u115F"}, {0, "z"},
		{0, " \u0628"}, {'k', "\u200D"}, {0, "\u062A "}, // ZWJ between Arabic letters
		{'r', "\u200B"}, {0, "\u2060\u2063"}, // one run of three
		{0, " \u8FBA"}, {'k', "\U000E0100"}, {0, " q"}, {'r', "\U000E0100"},
		{0, " \u2028 end\n"}, // a LINE SEPARATOR becomes LF: neither row
	}
	var data []byte
	var kept, removed []int64
	for _, p := range pieces {
		switch p.mark {
		case 'k':
			kept = append(kept, int64(len(data)))
		case 'r':
			removed = append(removed, int64(len(data)))
		}
		data = append(data, p.text...)
	}
	_, rep, _ := sanitize.Map(data, sanitize.Options{})
	var invisible []int64
	for _, f := range rep.Findings {
		if f.Kind == "invisible" {
			invisible = append(invisible, f.Offset)
		}
	}
	if !slices.Equal(invisible, removed) {
		t.Fatalf("the report's invisible findings are at %v, the test expects %v", invisible, removed)
	}
	if rep.Kept.Format != int64(len(kept)) {
		t.Fatalf("the report keeps %d format characters, the test marks %d", rep.Kept.Format, len(kept))
	}

	d := newDriver(t, load(t, data), Options{}, testStyles(termenv.Ascii, false), 120, 30, nil)
	d.selectItem("removed", "format")
	if got := d.visits(); !slices.Equal(got, invisible) {
		t.Errorf("removed/format visits %v, the report's invisible findings are at %v", got, invisible)
	}
	d.selectItem("kept", "format")
	if got := d.visits(); !slices.Equal(got, kept) {
		t.Errorf("kept/format visits %v, the sanitizer kept %v", got, kept)
	}
	d.selectItem("kept", "line_separators")
	if got, want := d.visits(), []int64{int64(strings.Index(string(data), "\u2028"))}; !slices.Equal(got, want) {
		t.Errorf("kept/line_separators visits %v, want %v", got, want)
	}

	// Under format-chars=keep nothing is removed and every format
	// character is kept.
	var all []int64
	for tk := range decode.Tokens(data) {
		if tk.Kind == decode.KindFormat {
			all = append(all, tk.Off)
		}
	}
	d = newDriver(t, load(t, data), Options{Sanitize: sanitize.Options{FormatChars: sanitize.FormatKeep}}, testStyles(termenv.Ascii, false), 120, 30, nil)
	d.selectItem("removed", "format")
	d.press("]")
	if msg := d.m.msg.String(); !strings.HasPrefix(msg, "no ") {
		t.Errorf("removed/format under format-chars=keep: %q, want nothing found", msg)
	}
	d.selectItem("kept", "format")
	if got := d.visits(); !slices.Equal(got, all) {
		t.Errorf("kept/format under format-chars=keep visits %v, want every format character %v", got, all)
	}
}

// TestFormatItemsAtBlockEdges checks the format rows where the viewer
// scans the stream in blocks (checkpointEvery bytes) and the context that
// decides a character lies in the block before or after it: a selector
// kept after a base at the end of the block before, a removed run that
// crosses into the next block, and U+115F kept before a vowel jamo and
// U+FE0F after a digit kept before a keycap that begins the next block. They visit what the report of the whole stream
// names.
func TestFormatItemsAtBlockEdges(t *testing.T) {
	t.Parallel()
	var data []byte
	at := func(off int, s string) {
		for len(data) < off {
			data = append(data, "filler text line\n"[len(data)%17])
		}
		data = append(data, s...)
	}
	at(checkpointEvery-3, "\u2764\uFE0F")    // the selector begins block 1
	at(2*checkpointEvery-3, "\u200B\u200B")  // a run across blocks 1 and 2
	at(3*checkpointEvery-3, "\u115F\u1161")  // the vowel begins block 3
	at(4*checkpointEvery-4, "#\uFE0F\u20E3") // the keycap begins block 4
	at(4*checkpointEvery+100, "\n")
	_, rep, _ := sanitize.Map(data, sanitize.Options{})
	var removed []int64
	for _, f := range rep.Findings {
		if f.Kind == "invisible" {
			removed = append(removed, f.Offset)
		}
	}
	kept := []int64{checkpointEvery, 3*checkpointEvery - 3, 4*checkpointEvery - 3}
	if want := []int64{2*checkpointEvery - 3}; !slices.Equal(removed, want) || rep.Kept.Format != int64(len(kept)) {
		t.Fatalf("the report: invisible findings at %v, kept %d; the test expects %v, %d", removed, rep.Kept.Format, want, len(kept))
	}
	d := newDriver(t, load(t, data), Options{}, testStyles(termenv.Ascii, false), 120, 30, nil)
	d.selectItem("removed", "format")
	if got := d.visits(); !slices.Equal(got, removed) {
		t.Errorf("removed/format visits %v, the report's invisible findings are at %v", got, removed)
	}
	d.selectItem("kept", "format")
	if got := d.visits(); !slices.Equal(got, kept) {
		t.Errorf("kept/format visits %v, the sanitizer kept %v", got, kept)
	}
}

// TestClassSeekSaysWhichClass checks that ] from a pane other than the
// report pane, finding nothing after the cursor, names the class it
// sought and where to choose another, and that from the report pane it
// says no more.
func TestClassSeekSaysWhichClass(t *testing.T) {
	t.Parallel()
	d := newDriver(t, load(t, []byte("a\x01b plain text\n")), Options{}, testStyles(termenv.Ascii, false), 120, 30, nil)
	d.press("<end>")
	d.press("]")
	if msg := d.m.msg.String(); !strings.HasPrefix(msg, "no next c0 found (removed/c0, selected in the report pane") {
		t.Errorf("] from the hex pane: %q, want the class and the report pane named", msg)
	}
	d.selectItem("removed", "c0")
	d.press("<end>")
	d.press("]")
	if msg := d.m.msg.String(); msg != "no next c0 found" {
		t.Errorf("] from the report pane: %q, want %q", msg, "no next c0 found")
	}
}
