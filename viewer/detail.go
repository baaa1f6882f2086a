package viewer

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/runenames"

	"github.com/bytelens/bytelens/decode"
	"github.com/bytelens/bytelens/render"
	"github.com/bytelens/bytelens/sanitize"
)

// maxDetailPayload is the most payload bytes the detail pane reads and
// shows of one control string (it draws every frame); past it, it says
// how many it left out.
const maxDetailPayload = 4 << 10

// detailField is one labelled part of the detail pane. A field with wrap
// set is a payload, drawn wrapped over as many rows as it needs and
// styled as payload.
type detailField struct {
	label string
	value render.Safe
	wrap  bool
}

// detailFields describes the token t under the cursor: its name, span and
// meaning (render.Describe, worded for the viewer), its parameters, and for a control string its whole payload
// escaped (an OSC 8 target, a title, OSC 52 data decoded from base64,
// DCS/APC/PM/SOS contents) unless hide is set; for text, the character at
// cursor: its code point, name and script, and a warning when the word
// around it mixes scripts. data holds bytes of the stream from offset
// at on: for a control string its introducer and payload (up to
// maxDetailPayload bytes of it), for text the part around cursor.
func detailFields(t *decode.Token, meaning render.Safe, data []byte, at, cursor int64, hide bool) []detailField {
	name := sanitize.Name(t)
	if kind := t.Kind.String(); !strings.EqualFold(name, kind) {
		name = kind + " " + name
	}
	head := fmt.Sprintf("%s at %s, %s", name, offsetText(t.Off), byteCount(t.Len))
	fields := []detailField{
		{label: "token", value: render.Line([]byte(head))},
		{label: "meaning", value: meaning},
	}
	if why := hazardWhy(t); why != "" && !(t.Kind == decode.KindC0 && t.Final == '\r') {
		fields = append(fields, detailField{label: "hazard", value: render.Line([]byte(why))})
	}
	switch {
	case t.Kind == decode.KindCSI:
		fields = append(fields, csiFields(t)...)
	case t.Kind.IsString():
		fields = append(fields, payloadFields(t, data, hide)...)
	case t.Kind == decode.KindText:
		fields = append(fields, textFields(data, cursor-at)...)
	case t.Kind == decode.KindFormat || t.Kind == decode.KindC1 && t.Intro == decode.IntroUTF8:
		fields = append(fields, runeFields(t.Rune)...)
	}
	return fields
}

// csiFields lists a CSI's parameters by position, sub-parameters marked.
func csiFields(t *decode.Token) []detailField {
	var b strings.Builder
	for i, p := range t.Params() {
		if i > 0 {
			b.WriteString(", ")
		}
		sub := ""
		if t.Sub&(1<<i) != 0 {
			sub = " (sub-parameter)"
		}
		fmt.Fprintf(&b, "P%d=%d%s", i+1, p, sub)
	}
	if n := int(t.ParamCount) - int(t.NParam); n > 0 {
		fmt.Fprintf(&b, ", and %d more not stored", n)
	}
	out := []detailField{}
	if b.Len() > 0 {
		out = append(out, detailField{label: "parameters", value: render.Line([]byte(b.String()))})
	}
	if t.Private != 0 || t.NInter > 0 {
		out = append(out, detailField{label: "marks", value: render.Line(fmt.Appendf(nil, "private %q, intermediates %q", string(rune(t.Private)), t.Intermediates()))})
	}
	return out
}

// payloadFields shows a control string's payload: split into its fields
// where the command defines them (OSC 8 parameters and target, OSC 52
// selection and data, decoded), whole otherwise, each with its length.
func payloadFields(t *decode.Token, data []byte, hide bool) []detailField {
	start := min(len(data), int(t.PayloadStart()-t.Off))
	p := data[start:min(len(data), start+int(min(t.Payload, maxDetailPayload)))]
	if hide {
		return []detailField{{label: "payload", value: render.Line(fmt.Appendf(nil, "%s, hidden (--hide-payloads)", byteCount(t.Payload)))}}
	}
	cut := ""
	if t.Payload > int64(len(p)) {
		cut = fmt.Sprintf(", the first %d shown", len(p))
	}
	field := func(label string, v []byte) detailField {
		return detailField{label: fmt.Sprintf("%s (%s%s)", label, byteCount(int64(len(v))), cut), value: render.Line(v), wrap: true}
	}
	parts := bytes.SplitN(p, []byte(";"), 3)
	switch {
	case t.Kind == decode.KindOSC && t.Command == 8 && len(parts) == 3:
		out := []detailField{field("link parameters", parts[1])}
		if sanitize.LinkCloses(t) {
			return append(out, detailField{label: "target", value: render.TextString("none: this closes the link")})
		}
		return append(out, field("target", parts[2]))
	case t.Kind == decode.KindOSC && t.Command == 52 && len(parts) == 3:
		out := []detailField{field("selection", parts[1])}
		if bytes.Equal(parts[2], []byte("?")) {
			return append(out, detailField{label: "data", value: render.TextString("? (a read: the terminal would reply with the clipboard)")})
		}
		out = append(out, field("data, base64", parts[2]))
		b64 := parts[2]
		if cut != "" { // whole groups of four only
			b64 = b64[:len(b64)-len(b64)%4]
		}
		dec, err := base64.StdEncoding.DecodeString(string(b64))
		if err != nil {
			return append(out, detailField{label: "decoded", value: render.Line(fmt.Appendf(nil, "not valid base64: %v", err))})
		}
		return append(out, field("data, decoded", dec))
	case t.Kind == decode.KindOSC && t.Command >= 0 && t.Command <= 2 && len(parts) >= 2:
		return []detailField{field("title", p[len(parts[0])+1:])}
	case t.Kind == decode.KindScreenTitle:
		return []detailField{field("title", p)}
	}
	return []detailField{field("payload", p)}
}

// textFields describes the character of text at byte rel of data (text
// bytes) and the word around it.
func textFields(data []byte, rel int64) []detailField {
	i := int(max(0, min(rel, int64(len(data))-1)))
	for i > 0 && !utf8.RuneStart(data[i]) {
		i--
	}
	if i >= len(data) {
		return nil
	}
	r, n := utf8.DecodeRune(data[i:])
	out := runeFields(r)
	if n > 1 {
		out[0].value = render.Concat(out[0].value, render.Line(fmt.Appendf(nil, ", UTF-8 % X", data[i:i+n])))
	}
	// The word: letters, marks and digits around the character.
	inWord := func(r rune) bool { return unicode.IsLetter(r) || unicode.IsMark(r) || unicode.IsDigit(r) }
	s, e := i, i+n
	for s > 0 {
		q, m := utf8.DecodeLastRune(data[:s])
		if !inWord(q) {
			break
		}
		s -= m
	}
	for e < len(data) {
		q, m := utf8.DecodeRune(data[e:])
		if !inWord(q) {
			break
		}
		e += m
	}
	if scripts := wordScripts(data[s:e]); len(scripts) > 1 {
		out = append(out, detailField{
			label: "confusable",
			value: render.Concat(render.TextString("the word "), render.Line(data[s:e]),
				render.Line(fmt.Appendf(nil, " mixes scripts (%s): letters that look alike may not be the same", strings.Join(scripts, ", ")))),
		})
	}
	return out
}

// runeFields gives a code point, its Unicode name (x/text runenames) and
// its script.
func runeFields(r rune) []detailField {
	name := runenames.Name(r)
	if name == "" {
		name = "unnamed"
	}
	return []detailField{
		{label: "character", value: render.Line(fmt.Appendf(nil, "U+%04X %s", r, name))},
		{label: "script", value: render.Line([]byte(scriptOf(r)))},
	}
}

// scriptNames lists the Unicode scripts of the standard library's tables,
// sorted, so scriptOf answers the same way every time.
var scriptNames = func() []string {
	var out []string
	for name := range unicode.Scripts {
		out = append(out, name)
	}
	slices.Sort(out)
	return out
}()

// scriptOf returns the Unicode script of r ("Latin", "Cyrillic",
// "Common"), or "Unknown".
func scriptOf(r rune) string {
	for _, name := range scriptNames {
		if unicode.Is(unicode.Scripts[name], r) {
			return name
		}
	}
	return "Unknown"
}

// wordScripts returns the scripts of the letters of word, in order of
// appearance, leaving out Common and Inherited (digits, marks).
func wordScripts(word []byte) []string {
	var out []string
	for _, r := range string(word) {
		if !unicode.IsLetter(r) {
			continue
		}
		if s := scriptOf(r); s != "Common" && s != "Inherited" && !slices.Contains(out, s) {
			out = append(out, s)
		}
	}
	return out
}

// byteCount writes n bytes as a count: "1 byte", "16 bytes".
func byteCount(n int64) string {
	if n == 1 {
		return "1 byte"
	}
	return fmt.Sprintf("%d bytes", n)
}
