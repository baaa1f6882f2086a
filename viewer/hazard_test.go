package viewer

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/muesli/termenv"

	"github.com/bytelens/bytelens/capture"
	"github.com/bytelens/bytelens/decode"
	"github.com/bytelens/bytelens/sanitize"
)

// castOf returns an asciicast v2 recording whose output events are
// frames, in order.
func castOf(t *testing.T, frames ...string) *capture.Capture {
	t.Helper()
	var b bytes.Buffer
	b.WriteString(`{"version": 2, "width": 80, "height": 24}` + "\n")
	for i, f := range frames {
		s, err := json.Marshal(f)
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(&b, "[%d.5, \"o\", %s]\n", i, s)
	}
	c, err := capture.Load(bytes.NewReader(b.Bytes()), int64(b.Len()), capture.OpenOptions{Format: "cast"})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// TestHazardKeySplitFrames checks that w stops at sequences a frame
// boundary of a recording cuts, as the report's split anomaly counts
// them: a colour that is harmless whole and a title, and that the status
// line says which frames each straddles and why that matters; and that
// the report pane's anomalies/split row visits them too. Text cut by a
// boundary and whole sequences are no stop.
func TestHazardKeySplitFrames(t *testing.T) {
	t.Parallel()
	frames := []string{
		"plain \x1b[3", "1mred\x1b[0m te", "xt \x1b]0;ti", "tle\x07 done\x1b[1m bold\x1b[0m\r\n",
	}
	all := strings.Join(frames, "")
	csi, osc := int64(strings.Index(all, "\x1b[31m")), int64(strings.Index(all, "\x1b]0;"))
	c := castOf(t, frames...)
	d := newDriver(t, c, Options{Name: "split.cast"}, testStyles(termenv.Ascii, false), 120, 30, nil)
	if rep, _ := d.m.sv().idx.report(); rep.Anomalies.Split != 2 {
		t.Fatalf("the report counts %d split sequences, want 2", rep.Anomalies.Split)
	}
	want := []struct {
		off int64
		why []string
	}{
		{csi, []string{"CSI", "split across frames 1/2", "cleans one frame at a time"}},
		{osc, []string{"OSC", "split across frames 3/4", "cleans one frame at a time", "window title"}},
	}
	var got []int64
	for i := range len(want) + 1 {
		d.press("w")
		if i == len(want) {
			break
		}
		got = append(got, d.m.sv().cursor)
		msg := d.m.msg.String()
		for _, w := range want[i].why {
			if !strings.Contains(msg, w) {
				t.Errorf("stop %d at %d: message %q does not say %q", i, d.m.sv().cursor, msg, w)
			}
		}
	}
	if msg := d.m.msg.String(); !strings.HasPrefix(msg, "no next hazard found") {
		t.Errorf("w past the last hazard: message %q", msg)
	}
	if offs := []int64{want[0].off, want[1].off}; !slices.Equal(got, offs) {
		t.Errorf("w stops at %v, want %v", got, offs)
	}
	d.press("W")
	if c := d.m.sv().cursor; c != csi || !strings.Contains(d.m.msg.String(), "split across frames 1/2") {
		t.Errorf("W from the title: cursor %d, message %q; want the CSI at %d", c, d.m.msg, csi)
	}
	// The report pane's split row finds the same places.
	d.selectItem("anomalies", "split")
	if got, want := d.visits(), []int64{csi, osc}; !slices.Equal(got, want) {
		t.Errorf("anomalies/split visits %v, want %v", got, want)
	}
}

// TestHazardKeyFormat checks that w stops at the format characters the
// sanitizer flags (a run of invisible characters once, each bidi
// control), under the default policy and under format-chars=keep, and
// not at those its table keeps by context: a selector after a base that
// takes it, a ZWJ.
func TestHazardKeyFormat(t *testing.T) {
	t.Parallel()
	data := "\u2764\uFE0F ok \u0628\u200D\u062A \u200B\u2060x \u202Ey\u202C a\uFE0F.\n"
	run, rlo, pdf, vs := strings.Index(data, "\u200B"), strings.Index(data, "\u202E"), strings.Index(data, "\u202C"), strings.LastIndex(data, "\uFE0F")
	want := []int64{int64(run), int64(rlo), int64(pdf), int64(vs)}
	for _, o := range []Options{{}, {Sanitize: sanitize.Options{FormatChars: sanitize.FormatKeep}}} {
		d := newDriver(t, load(t, []byte(data)), o, testStyles(termenv.Ascii, false), 120, 30, nil)
		var got []int64
		for range len(want) + 1 {
			d.press("w")
			if strings.HasPrefix(d.m.msg.String(), "no ") {
				break
			}
			got = append(got, d.m.sv().cursor)
		}
		if !slices.Equal(got, want) {
			t.Errorf("format-chars=%s: w stops at %v, want %v", o.Sanitize.FormatChars, got, want)
		}
	}
}

// TestHazardKeyHiddenText checks that w and W stop, in byte order with
// the tokens, at the screen model's hidden-text findings of deception
// rank: on a file-name trap whose CR and EL hide "rm -rf ~/", w goes to
// the hidden command first, then the CR, then the EL, the status line
// naming the finding as the screen pane does; and that before the screen
// pass has run, w says the findings are not computed.
func TestHazardKeyHiddenText(t *testing.T) {
	t.Parallel()
	in := "files: a.txt\r\n\x1b[31mrm -rf ~/\x1b[0m\r\x1b[Kb.txt\r\n"
	rm, cr, el := int64(strings.Index(in, "rm -rf")), int64(strings.Index(in, "\r\x1b[K")), int64(strings.Index(in, "\x1b[K"))
	d := newDriver(t, load(t, []byte(in)), Options{}, testStyles(termenv.Ascii, false), 160, 40, nil)
	d.press("w")
	if c, msg := d.m.sv().cursor, d.m.msg.String(); c != cr || !strings.Contains(msg, "not computed yet") {
		t.Errorf("w before the screen pass: cursor %d, message %q; want the CR at %d and a note that findings are not computed", c, msg, cr)
	}
	d.press("S<home>")
	want := []struct {
		off int64
		why []string
	}{
		{rm, []string{"hidden text at 0x00000013 (19)", "erased, rank", "by EL", "text rm -rf ~/", "replaced by b.txt"}},
		{cr, []string{"CR without LF"}},
		{el, []string{"CSI K", "erase: text on screen is wiped"}},
	}
	for i, w := range want {
		d.press("w")
		c, msg := d.m.sv().cursor, d.m.msg.String()
		if c != w.off {
			t.Errorf("stop %d: cursor %d, want %d (message %q)", i, c, w.off, msg)
			continue
		}
		for _, s := range w.why {
			if !strings.Contains(msg, s) {
				t.Errorf("stop %d at %d: message %q does not say %q", i, c, msg, s)
			}
		}
		if strings.Contains(msg, "not computed") || strings.Contains(msg, "known only") {
			t.Errorf("stop %d: message %q says findings are missing after the pass", i, msg)
		}
	}
	d.press("WW")
	if c := d.m.sv().cursor; c != rm || !strings.Contains(d.m.msg.String(), "text rm -rf ~/") {
		t.Errorf("W twice from the EL: cursor %d, message %q; want the hidden text at %d", c, d.m.msg, rm)
	}
}

// TestFormatWhyBidi checks the words for bidi controls: the ones that
// end reordering (PDF, PDI) do not say the text after them is
// reordered; those that start it do.
func TestFormatWhyBidi(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		r    rune
		want string
	}{
		{0x2069, "U+2069: ends the reordering an earlier control began"},
		{0x202C, "U+202C: ends the reordering an earlier control began"},
		{0x2067, "U+2067: the text after it is shown reordered"},
		{0x202E, "U+202E: the text after it is shown reordered"},
	} {
		if got := formatWhy(tc.r); !strings.Contains(got, tc.want) {
			t.Errorf("formatWhy(%U) = %q, want it to say %q", tc.r, got, tc.want)
		}
	}
}

// TestSplitFrames checks how the status line names the frames a token
// spans, numbered from 1 as the title bar numbers them: bytes before
// the first frame (a typescript's header) are not "frame 0".
func TestSplitFrames(t *testing.T) {
	t.Parallel()
	sv := &streamView{frames: []capture.Event{{Kind: capture.EventFrame, Off: 10}, {Kind: capture.EventFrame, Off: 20}, {Kind: capture.EventFrame, Off: 30}}}
	for _, c := range []struct {
		off, n int64
		want   string
	}{
		{0, 5, ""},
		{12, 5, ""},
		{15, 10, "frames 1/2"},
		{15, 20, "frames 1 to 3"},
		{5, 10, "the bytes before frame 1 and frame 1"},
		{5, 20, "the bytes before frame 1 to frame 2"},
	} {
		tok := decode.Token{Off: c.off, Len: c.n}
		if got := sv.splitFrames(&tok); got != c.want {
			t.Errorf("token at %d+%d: %q, want %q", c.off, c.n, got, c.want)
		}
	}
}
