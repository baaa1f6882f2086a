// Package render turns bytes and decode tokens into display-safe text:
// hex cells, per-byte glyph cells, an escaped glyph stream, one-line
// descriptions of sequences and what the sanitizer did with them.
//
// Every string render returns is a Safe: only graphic runes, spaces and,
// where lines are asked for, LF — no C0, no C1, no DEL, no ESC, no Unicode
// format characters, no invalid UTF-8 (DESIGN.md, "render: nothing reaches
// the terminal unescaped"). Only this package can build a non-empty Safe,
// and it builds one only from glyph tables, from ASCII it wrote itself, or
// from capture text it has checked rune by rune.
//
// render returns cell classes, not colours: the viewer alone maps a Class
// to a style. Every glyph render draws for a byte, a control or a marker
// is one terminal cell wide in every terminal, East-Asian-ambiguous-wide
// mode included: Control Pictures (U+2400–U+2426), ⋄, ░, ‹, › and ASCII.
// Only characters of the capture's own text can be two cells wide.
//
// Those glyphs and markers are render's alone: when the capture's text
// holds one of them it is escaped like a format character ("<U+241B>",
// or ‹ › in the per-byte grid), so that text cannot imitate an escaped
// control, a chip or a payload size.
package render

import (
	"encoding/json"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/bytelens/bytelens/decode"
	"github.com/bytelens/bytelens/internal/cellwidth"
)

// Safe is display-safe text: only graphic runes, spaces and (where lines
// are asked for) LF; no C0, C1, DEL, ESC, Unicode format characters (Cf),
// other default-ignorable code points, line or paragraph separators,
// private-use or unassigned code points, or invalid UTF-8. The one
// exception is TAB written by bytelens itself in a Sprintf format, for
// text/tabwriter columns (Writer.Columns turns it into spaces). Only
// package render can construct a non-empty Safe; the zero value is the
// empty string.
type Safe struct{ s string }

// String returns the text. It is safe to write to a terminal as is.
func (s Safe) String() string { return s.s }

// MarshalJSON writes the text as a JSON string, so that a JSON output can
// hold a name only as Safe: a stream, file or corpus case that a capture
// or a directory chose, which jq -r or an agent decodes, comes out
// escaped as Line escapes it. '"' and '\\' are escaped, and the TAB and LF
// that Text and Sprintf may keep are written as \t and \n; a Safe holds
// no other control. The encoder still escapes the document as a whole
// (package safejson; encoding/json escapes HTML characters unless told
// not to), as it escapes a string.
func (s Safe) MarshalJSON() ([]byte, error) {
	b := make([]byte, 0, len(s.s)+2)
	b = append(b, '"')
	for i := 0; i < len(s.s); i++ {
		switch c := s.s[i]; c {
		case '"', '\\':
			b = append(b, '\\', c)
		case '\t':
			b = append(b, '\\', 't')
		case '\n':
			b = append(b, '\\', 'n')
		default:
			b = append(b, c)
		}
	}
	return append(b, '"'), nil
}

// UnmarshalJSON reads a JSON string (null gives the empty Safe) as Line
// makes it safe: a document read back is not trusted, whoever wrote it.
// So a name that MarshalJSON wrote with an LF (Text) comes back with ␊,
// and one with render's own glyphs comes back with them escaped.
func (s *Safe) UnmarshalJSON(b []byte) error {
	var t string
	if err := json.Unmarshal(b, &t); err != nil {
		return err
	}
	*s = LineString(t)
	return nil
}

// Len returns the length of the text in bytes.
func (s Safe) Len() int { return len(s.s) }

// IsZero reports whether s is empty.
func (s Safe) IsZero() bool { return s.s == "" }

// Width returns the display width in terminal cells: every glyph render
// emits is 1 cell, wide East Asian characters of the capture's text are 2,
// combining marks 0. LF counts 0; use Lines for the width of each line.
func (s Safe) Width() int {
	w := 0
	for i := 0; i < len(s.s); {
		b := s.s[i]
		if b < utf8.RuneSelf {
			if b != '\n' {
				w++
			}
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(s.s[i:])
		w += runeWidth(r)
		i += n
	}
	return w
}

// Width returns the display width in cells of text as Safe.Width counts
// it, for measuring output already built from Safe values (a rendered row
// with styling removed). It neither checks nor escapes s: use Text to make
// text safe. TextString(s).Width() is not the same measure, since Text
// escapes render's own glyphs and markers.
func Width(s string) int { return Safe{s}.Width() }

// Lines splits s at LF into lines without the LF. An empty s gives no
// lines; a trailing LF does not start another line.
func (s Safe) Lines() []Safe {
	if s.s == "" {
		return nil
	}
	t := strings.TrimSuffix(s.s, "\n")
	parts := strings.Split(t, "\n")
	out := make([]Safe, len(parts))
	for i, p := range parts {
		out[i] = Safe{p}
	}
	return out
}

// Slice returns the part of one line of s that starts at display column
// from (0-based) and is at most width cells wide. A wide character cut by
// either edge is replaced by a space for the half that is inside, so the
// result is exactly as wide as the line allows. LF and what follows it are
// cut off.
func (s Safe) Slice(from, width int) Safe {
	if width <= 0 {
		return Safe{}
	}
	line := s.s
	if i := strings.IndexByte(line, '\n'); i >= 0 {
		line = line[:i]
	}
	var b strings.Builder
	col := 0
	end := from + width
	for _, r := range line {
		w := runeWidth(r)
		switch {
		case col >= end:
		case col >= from && col+w <= end:
			b.WriteRune(r)
		case w == 2 && col < from && col+w > from, w == 2 && col < end && col+w > end:
			b.WriteByte(' ') // half of a wide character
		}
		col += w
		if col >= end {
			break
		}
	}
	return Safe{b.String()}
}

// Concat joins safe strings; the result is safe.
func Concat(parts ...Safe) Safe {
	n := 0
	for _, p := range parts {
		n += len(p.s)
	}
	b := make([]byte, 0, n)
	for _, p := range parts {
		b = append(b, p.s...)
	}
	return Safe{string(b)}
}

// Spaces returns n spaces (none when n <= 0), for padding.
func Spaces(n int) Safe {
	if n <= 0 {
		return Safe{}
	}
	return Safe{strings.Repeat(" ", n)}
}

// Text makes text display-safe: it checks every rune of p and escapes
// whatever could act on a terminal or hide text, even though cleaned text
// from package sanitize should hold none of it. LF is kept as a line
// break. TAB and other C0 controls become Control Pictures (␉, ␍, ␛), DEL
// ␡; invalid UTF-8 becomes "<FF>" per byte; C1 in UTF-8, format
// characters, other default-ignorable code points, line and paragraph
// separators, private-use and unassigned code points become "<U+202E>".
// So do the characters render uses as glyphs and markers (Control Pictures
// U+2400–U+2426, ⋄ ‹ › ░ and the rest of its glyph tables): a "␛" or "‹"
// in the text comes out as "<U+241B>" or "<U+2039>", so text cannot pass
// for an escaped control or a marker.
func Text(p []byte) Safe {
	return Safe{string(appendText(make([]byte, 0, len(p)), p, true))}
}

// TextString is Text for a string.
func TextString(s string) Safe { return Text([]byte(s)) }

// Line is Text with LF also escaped (as ␊), for one-line contexts.
func Line(p []byte) Safe {
	return Safe{string(appendText(make([]byte, 0, len(p)), p, false))}
}

// LineString is Line for a string: how a name that a file or a person
// chose (a stream, a file, a corpus case) goes into a message or a JSON
// output.
func LineString(s string) Safe { return Line([]byte(s)) }

// appendText appends p escaped as Text describes; LF is kept when lines is
// set.
func appendText(dst, p []byte, lines bool) []byte {
	keep := keepNone
	if lines {
		keep = keepLF
	}
	return appendEscaped(dst, p, keep)
}

// textKeep says which characters appendEscaped writes as themselves that
// Line escapes.
type textKeep uint8

const (
	keepLF      textKeep = 1 << iota // LF, as a line break
	keepTab                          // TAB, for tabwriter columns
	keepMarkers                      // render's own glyphs and markers
	keepNone    textKeep = 0
)

// appendEscaped appends p escaped as Text describes, keeping what keep
// names.
func appendEscaped(dst, p []byte, keep textKeep) []byte {
	for i := 0; i < len(p); {
		b := p[i]
		if b < utf8.RuneSelf {
			switch {
			case b >= 0x20 && b < 0x7F, b == '\n' && keep&keepLF != 0, b == '\t' && keep&keepTab != 0:
				dst = append(dst, b)
			default:
				dst = append(dst, c0Pictures[b]...)
			}
			i++
			continue
		}
		r, n := utf8.DecodeRune(p[i:])
		if r == utf8.RuneError && n <= 1 {
			dst = appendHexByte(dst, b)
			i++
			continue
		}
		if displayable(r) || keep&keepMarkers != 0 && isMarker(r) {
			dst = append(dst, p[i:i+n]...)
		} else {
			dst = appendCodePoint(dst, r)
		}
		i += n
	}
	return dst
}

// displayable reports whether the non-ASCII rune r may be written to a
// terminal as itself: a graphic character (letter, mark, number,
// punctuation, symbol, space separator) that is not a C1 control, not a
// format character, not default-ignorable (Hangul fillers, variation
// selectors, the combining grapheme joiner), not a format character the
// decoder has a policy for, and not one of render's own glyphs and
// markers (isMarker), which text must not be able to imitate.
func displayable(r rune) bool {
	switch {
	case r < 0xA0:
		return r >= 0x20 && r < 0x7F
	case isMarker(r),
		!unicode.IsGraphic(r),
		unicode.Is(unicode.Cf, r),
		unicode.Is(unicode.Other_Default_Ignorable_Code_Point, r),
		unicode.Is(unicode.Variation_Selector, r),
		decode.ClassifyFormat(r) != decode.FormatNone:
		return false
	}
	return true
}

// markerSet is a set of runes: sorted, without duplicates.
type markerSet struct {
	runes  []rune
	lo, hi rune
}

// controlPictures is the assigned part of the Control Pictures block, from
// which render draws C0, DEL, invalid bytes and format characters; the
// pictures it does not draw (␠ ␣ ␤ ␥) look just as much like its markers.
const controlPicturesFirst, controlPicturesLast = 0x2400, 0x2426

// newMarkerSet returns the set of the non-ASCII runes of the strings in
// own, together with the whole Control Pictures block.
func newMarkerSet(own []string) markerSet {
	var rs []rune
	for r := rune(controlPicturesFirst); r <= controlPicturesLast; r++ {
		rs = append(rs, r)
	}
	for _, s := range own {
		for _, r := range s {
			if r >= utf8.RuneSelf {
				rs = append(rs, r)
			}
		}
	}
	slices.Sort(rs)
	rs = slices.Compact(rs)
	return markerSet{runes: rs, lo: rs[0], hi: rs[len(rs)-1]}
}

// isMarker reports whether r is a non-ASCII rune that render draws itself
// as a glyph or marker: a Control Picture, ⋄ ␦ ‹ › ␢ ░ or any other rune
// of its glyph tables and chip delimiters. Such a rune in a capture's text
// is shown escaped ("<U+241B>" in streams and Text, ‹ and › in the per-byte
// grid), so that text cannot pass for an escaped control or a marker.
func isMarker(r rune) bool {
	if r < markers.lo || r > markers.hi {
		return false
	}
	_, found := slices.BinarySearch(markers.runes, r)
	return found
}

const hexDigits = "0123456789abcdef"
const hexUpper = "0123456789ABCDEF"

// appendHexByte appends "<9B>".
func appendHexByte(dst []byte, b byte) []byte {
	return append(dst, '<', hexUpper[b>>4], hexUpper[b&0xF], '>')
}

// appendCodePoint appends "<U+202E>" (four hex digits, or more when
// needed), the spelling sanitize uses for escaped format characters.
func appendCodePoint(dst []byte, r rune) []byte {
	dst = append(dst, "<U+"...)
	digits := 4
	for v := r >> 16; v > 0; v >>= 4 {
		digits++
	}
	for i := digits - 1; i >= 0; i-- {
		dst = append(dst, hexUpper[(r>>(4*i))&0xF])
	}
	return append(dst, '>')
}

// Offset formats a byte offset as "0x00001f00": eight lowercase hex digits,
// more when the offset needs them. A negative offset is shown as "-0x…".
func Offset(off int64) Safe {
	return Safe{string(appendOffset(nil, off))}
}

// appendOffset appends Offset's form of off.
func appendOffset(dst []byte, off int64) []byte {
	u := uint64(off)
	if off < 0 {
		dst = append(dst, '-')
		u = uint64(-off)
	}
	dst = append(dst, '0', 'x')
	return appendHex(dst, u, 8)
}

// appendHex appends u in lowercase hex, zero-padded to at least digits.
func appendHex(dst []byte, u uint64, digits int) []byte {
	n := 1
	for v := u >> 4; v > 0; v >>= 4 {
		n++
	}
	for ; digits > n; digits-- {
		dst = append(dst, '0')
	}
	for i := n - 1; i >= 0; i-- {
		dst = append(dst, hexDigits[(u>>(4*i))&0xF])
	}
	return dst
}

// runeWidth returns the display width in cells of a displayable rune, from
// the width table render shares with package screen.
func runeWidth(r rune) int { return cellwidth.Rune(r) }

// gridDrawable reports whether the non-ASCII rune r may be drawn on its
// own in a cell of the per-byte glyph grid, and how wide it is: it must be
// displayable, not a combining mark (which would merge with the cell
// before it), not a spacing mark (Mc, shaped by some terminals only), and
// not an emoji or symbol whose width terminals disagree on.
func gridDrawable(r rune) (width int, ok bool) {
	if !displayable(r) || unicode.In(r, unicode.M) {
		return 0, false
	}
	switch {
	case r >= 0x2300 && r <= 0x23FF, r >= 0x2600 && r <= 0x27BF,
		r >= 0x2B00 && r <= 0x2BFF, r >= 0x1F000 && r <= 0x1FAFF:
		return 0, false // emoji and symbols: width guesswork (lipgloss#55)
	}
	w := runeWidth(r)
	if w == 0 {
		return 0, false
	}
	return w, true
}
