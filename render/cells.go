package render

import (
	"unicode/utf8"

	"github.com/bytelens/bytelens/decode"
	"github.com/bytelens/bytelens/sanitize"
)

// Cell is one piece of a pane row: a byte's hex digits or glyph, with the
// byte offset it shows.
type Cell struct {
	// Text is what to draw: two hex digits, or one glyph one cell wide
	// (two for a wide character under GlyphOptions.WidePairs, then the
	// next cell is empty).
	Text Safe
	// Class is the byte's class in its context.
	Class Class
	// Off is the stream offset in bytes of the byte shown.
	Off int64
	// Len is the number of bytes the cell shows (1 for hex and glyph
	// cells).
	Len int64
}

// GlyphOptions select how GlyphCells draws bytes.
type GlyphOptions struct {
	// HidePayloads draws every payload byte of a control string as the
	// uniform marker ░ (ASCII: #) instead of escaping it.
	HidePayloads bool
	// ASCII uses only ASCII glyphs, for fonts without Control Pictures:
	// '.' for NUL, C0 and DEL, '<' for CR, '$' for LF (as cat -A), '_' for
	// TAB, '^' for ESC, '!' for a
	// raw C1 byte, '?' for invalid UTF-8, '*' for the lead byte of a
	// character not drawn, '~' for a continuation byte, '%' for a format
	// character, '#' for a hidden payload byte. Characters of the text
	// are still drawn, so a viewer tells these glyphs from text by their
	// class's style.
	ASCII bool
	// WidePairs draws a wide character (CJK, 2 cells) on its lead byte's
	// cell when the next byte of the same character is in the requested
	// range; that next cell is then empty (Width 0) so the row keeps one
	// cell per byte in total. Without it every cell is exactly 1 cell
	// wide and a wide character is drawn as ‹ on its lead byte.
	WidePairs bool
}

// Glyphs of the per-byte grid (Unicode set; the ASCII set is in
// GlyphOptions.ASCII's doc).
const (
	glyphC1      = "⋄" // U+22C4: a raw C1 byte, or the lead byte of a UTF-8 C1
	glyphInvalid = "␦" // U+2426 SUBSTITUTE FORM TWO: a byte of invalid UTF-8
	glyphLead    = "‹" // U+2039: the lead byte of a character not drawn in the grid
	glyphCont    = "›" // U+203A: a continuation byte
	glyphFormat  = "␢" // U+2422 BLANK SYMBOL: the lead byte of a format character
	glyphHidden  = "░" // U+2591 LIGHT SHADE: a hidden payload byte
)

// Delimiters of the chips, sizes and anomaly notes of the glyph stream
// ("‹CSI 31m›", "‹24 bytes›", "‹aborted›").
const (
	markOpen  = "‹" // U+2039
	markClose = "›" // U+203A
)

// Removal is the class of what the sanitizer removed at one place of the
// cleaned text, for the marker drawn there: what a reader of the cleaned
// text would want to know was there.
type Removal uint8

// Removal classes, least telling first: a place where several things
// were removed takes the class of the most telling (RemovalOf).
const (
	RemovalStyle     Removal = iota // SGR colours and attributes
	RemovalInvisible                // format characters: bidi controls, zero-width and tag characters
	RemovalCursor                   // cursor moves, erases, CR and BS, other controls and escapes
	RemovalString                   // control strings: OSC (titles, links, clipboard), DCS, APC, PM, SOS
	RemovalQuery                    // queries: the terminal would have typed a reply
	NumRemovals
)

// removalNames and removalGlyphs give each class its name and its marker
// in the Unicode and the ASCII sets. The Unicode markers are Control
// Pictures (one cell in every width mode) that the byte grid does not use
// for anything else (␢ is a format character there too); the ASCII ones are text characters, which a viewer must also
// tell apart by style (NO_COLOR: an attribute).
var (
	removalNames  = [NumRemovals]string{"colour/style", "invisible", "cursor/control", "string", "query"}
	removalGlyphs = [2][NumRemovals]string{
		{"␥", glyphFormat, "␤", "␣", "␠"},
		{"=", "%", ">", "$", "?"},
	}
)

// String names the class ("string").
func (r Removal) String() string { return removalNames[r] }

// Mark returns the marker a caller draws in cleaned text where the
// sanitizer removed something of class r, from the ASCII set when ascii
// is set. Build markers with Mark only: Text and Line escape the Unicode
// ones when they come from a capture ("<U+2425>"), the whole Control
// Pictures block being render's own.
func (r Removal) Mark(ascii bool) Safe {
	if ascii {
		return Safe{removalGlyphs[1][r]}
	}
	return Safe{removalGlyphs[0][r]}
}

// RemovalOf returns the class of a removed token t (sanitize's
// advisories for queries, cursor moves and erases; the kind otherwise).
func RemovalOf(t *decode.Token) Removal {
	adv := sanitize.Advisories(t)
	switch {
	case adv&sanitize.AdvQuery != 0:
		return RemovalQuery
	case t.Kind.IsString():
		return RemovalString
	case t.Kind == decode.KindFormat:
		return RemovalInvisible
	case t.Kind == decode.KindCSI && t.Final == 'm' && t.Private == 0 && t.NInter == 0 && adv&^sanitize.AdvSGRConceal == 0:
		return RemovalStyle
	}
	return RemovalCursor
}

// glyphSet is one set of glyphs, built once: ascii is indexed by byte.
type glyphSet struct {
	ascii                                   [128]Safe
	c1, invalid, lead, cont, format, hidden Safe
}

var (
	glyphSets  [2]glyphSet // [0] Unicode, [1] ASCII
	hexTable   [256]Safe   // two lowercase hex digits per byte
	c0Pictures [128]string // Control Pictures for C0 and DEL; "" elsewhere
	asciiClass [256]Class  // class of a byte in text
	// markers are the non-ASCII runes render draws for bytes, controls
	// and its own markers, and that it therefore escapes when they come
	// from a capture (see isMarker). Built in init from the tables above,
	// so that a new glyph is covered without a second list.
	markers markerSet
)

func init() {
	for b := range 256 {
		hexTable[b] = Safe{string([]byte{hexDigits[b>>4], hexDigits[b&0xF]})}
	}
	for b := range 0x20 {
		c0Pictures[b] = string(rune(0x2400 + b))
	}
	c0Pictures[0x7F] = "␡"
	uni, asc := &glyphSets[0], &glyphSets[1]
	for b := range 128 {
		switch {
		case b >= 0x20 && b < 0x7F:
			uni.ascii[b] = Safe{string(rune(b))}
			asc.ascii[b] = uni.ascii[b]
		default:
			uni.ascii[b] = Safe{c0Pictures[b]}
			asc.ascii[b] = Safe{"."}
		}
	}
	asc.ascii['\t'], asc.ascii['\n'], asc.ascii['\r'], asc.ascii[0x1B] = Safe{"_"}, Safe{"$"}, Safe{"<"}, Safe{"^"}
	*uni = glyphSet{ascii: uni.ascii, c1: Safe{glyphC1}, invalid: Safe{glyphInvalid},
		lead: Safe{glyphLead}, cont: Safe{glyphCont}, format: Safe{glyphFormat}, hidden: Safe{glyphHidden}}
	*asc = glyphSet{ascii: asc.ascii, c1: Safe{"!"}, invalid: Safe{"?"},
		lead: Safe{"*"}, cont: Safe{"~"}, format: Safe{"%"}, hidden: Safe{"#"}}

	var own []string
	for _, g := range glyphSets {
		for _, s := range g.ascii {
			own = append(own, s.s)
		}
		own = append(own, g.c1.s, g.invalid.s, g.lead.s, g.cont.s, g.format.s, g.hidden.s)
	}
	own = append(own, c0Pictures[:]...)
	own = append(own, markOpen, markClose)
	markers = newMarkerSet(own)

	for b := range 256 {
		switch {
		case b == 0:
			asciiClass[b] = ClassNUL
		case b == '\t' || b == '\n':
			asciiClass[b] = ClassWhitespace
		case b == 0x1B:
			asciiClass[b] = ClassESC
		case b < 0x20:
			asciiClass[b] = ClassC0
		case b == ' ':
			asciiClass[b] = ClassSpace
		case b < 0x7F:
			asciiClass[b] = ClassText
		case b == 0x7F:
			asciiClass[b] = ClassDEL
		case b < 0xC0:
			asciiClass[b] = ClassUTF8Cont
		default:
			asciiClass[b] = ClassUTF8Lead
		}
	}
}

// walker visits the bytes of a window range with the token covering
// each, advancing through the index instead of searching per byte.
type walker struct {
	w   *Window
	j   int // position in w.top of the current token, or -1
	end int64
}

func newWalker(w *Window, off int64) walker {
	w.ensureIndex()
	return walker{w: w, j: w.topAt(off), end: -1}
}

// at returns the innermost token covering off (nil if none), whether it is
// open, and the enclosing non-embedded token. Offsets must not decrease
// between calls.
func (k *walker) at(off int64) (t *decode.Token, open bool) {
	w := k.w
	if k.j >= 0 {
		e := w.top[k.j]
		t := &w.Tokens[e.idx]
		if off >= t.Off+t.Len {
			k.j++
			if k.j >= len(w.top) || w.top[k.j].off != off {
				k.j = w.topAt(off)
			}
		}
	} else {
		k.j = w.topAt(off)
	}
	if k.j < 0 {
		return nil, false
	}
	e := w.top[k.j]
	idx := e.idx
	if e.emb != e.idx {
		if x := w.embeddedAt(e, off); x >= 0 {
			idx = x
		}
	}
	return &w.Tokens[idx], w.IsOpen(idx)
}

// classOf returns the class of the byte b at stream offset off inside the
// token t (nil when no token covers it).
func classOf(t *decode.Token, open bool, off int64, b byte) Class {
	if t == nil {
		if b >= 0x80 {
			return ClassInvalid
		}
		return asciiClass[b]
	}
	switch t.Kind {
	case decode.KindText, decode.KindC0:
		return asciiClass[b]
	case decode.KindDEL:
		return ClassDEL
	case decode.KindC1:
		return ClassC1
	case decode.KindESC:
		if t.Len == 1 && !open {
			return ClassESC
		}
		return ClassSequence
	case decode.KindNF, decode.KindCSI:
		return ClassSequence
	case decode.KindOSC, decode.KindDCS, decode.KindAPC, decode.KindPM, decode.KindSOS, decode.KindScreenTitle:
		if s, e := payloadSpan(t); off >= s && off < e {
			return ClassPayload
		}
		return ClassSequence
	case decode.KindInvalid:
		if open {
			return asciiClass[b] // a character cut by the window's end
		}
		return ClassInvalid
	case decode.KindFormat:
		return ClassFormat
	}
	return ClassInvalid
}

// clip returns the window indices [i, j) of n bytes from stream offset off,
// clipped to the window.
func clip(w *Window, off int64, n int) (i, j int) {
	start, end := off, off+int64(max(n, 0))
	start = max(start, w.Off)
	end = min(end, w.End())
	if end <= start {
		return 0, 0
	}
	return int(start - w.Off), int(end - w.Off)
}

// HexCells returns one Cell per byte for n bytes from stream offset off,
// clipped to the window (fewer cells when the range leaves it): Text is two
// lowercase hex digits, Class the byte's class in its context — sequence
// bytes ClassSequence, payload bytes ClassPayload, otherwise the byte's
// own class (NUL, printable ASCII, space, TAB/LF, other C0, ESC, DEL, C1,
// UTF-8 lead, UTF-8 continuation, invalid, format). It allocates only the
// returned slice.
func HexCells(w *Window, off int64, n int) []Cell {
	return AppendHexCells(nil, w, off, n)
}

// AppendHexCells is HexCells appending to dst, for callers that reuse a
// buffer; it allocates only when dst must grow.
func AppendHexCells(dst []Cell, w *Window, off int64, n int) []Cell {
	i, j := clip(w, off, n)
	if i == j {
		return dst
	}
	base := len(dst)
	dst = grow(dst, j-i)
	cells := dst[base:]
	k := newWalker(w, w.Off+int64(i))
	for x := i; x < j; x++ {
		p := w.Off + int64(x)
		b := w.Data[x]
		t, open := k.at(p)
		cells[x-i] = Cell{Text: hexTable[b], Class: classOf(t, open, p, b), Off: p, Len: 1}
	}
	return dst
}

// grow extends dst by n cells.
func grow(dst []Cell, n int) []Cell {
	if cap(dst)-len(dst) < n {
		d := make([]Cell, len(dst), len(dst)+n)
		copy(d, dst)
		dst = d
	}
	return dst[:len(dst)+n]
}

// GlyphCells returns one Cell per byte for n bytes from stream offset off,
// clipped to the window, each exactly one display cell wide (but see
// GlyphOptions.WidePairs), with the same Class HexCells gives the byte.
//
// Printable ASCII is drawn as itself and the space as a space; C0 controls
// as Control Pictures (␀ ␇ ␉ ␊ ␍ ␛ …), DEL as ␡; a raw C1 byte as ⋄ (the
// hex pane shows which); a byte of invalid UTF-8 as ␦. A UTF-8 character
// is drawn on its lead byte, and each continuation byte is ›; a character
// that cannot be drawn alone in one cell (combining and spacing marks,
// emoji and symbols of uncertain width, wide characters without
// WidePairs, anything Text would escape — render's own glyphs and markers
// among them, so that a "␛" or "⋄" of the text cannot pass for a control)
// is ‹ on its lead byte. A format character is ␢ then ›. Sequence bytes
// are drawn as their bytes (ESC as ␛, a C1 introducer as ⋄). Payload
// bytes are escaped — printable ASCII as itself, C0 as Control Pictures,
// non-ASCII as ‹, › or ␦ — styled ClassPayload, or all drawn ░ with
// HidePayloads.
//
// It allocates the returned slice and, when it draws non-ASCII
// characters, one string of the row's bytes that their cells share.
func GlyphCells(w *Window, off int64, n int, o GlyphOptions) []Cell {
	return AppendGlyphCells(nil, w, off, n, o)
}

// AppendGlyphCells is GlyphCells appending to dst, for callers that reuse
// a buffer.
func AppendGlyphCells(dst []Cell, w *Window, off int64, n int, o GlyphOptions) []Cell {
	i, j := clip(w, off, n)
	if i == j {
		return dst
	}
	g := &glyphSets[0]
	if o.ASCII {
		g = &glyphSets[1]
	}
	base := len(dst)
	dst = grow(dst, j-i)
	cells := dst[base:]
	k := newWalker(w, w.Off+int64(i))
	var row string // w.Data[i:rowEnd] as a string, made on first use
	rowEnd := min(len(w.Data), j+utf8.UTFMax)
	for x := i; x < j; x++ {
		p := w.Off + int64(x)
		b := w.Data[x]
		t, open := k.at(p)
		c := classOf(t, open, p, b)
		cell := Cell{Class: c, Off: p, Len: 1}
		switch c {
		case ClassPayload:
			switch {
			case o.HidePayloads:
				cell.Text = g.hidden
			case b < 0x80:
				cell.Text = g.ascii[b]
			default:
				cell.Text = g.nonASCII(b)
			}
		case ClassSequence:
			cell.Text = g.sequenceGlyph(t, p, b)
		case ClassC1:
			if p == t.Off {
				cell.Text = g.c1
			} else {
				cell.Text = g.cont
			}
		case ClassInvalid:
			cell.Text = g.invalid
		case ClassFormat:
			if p == t.Off {
				cell.Text = g.format
			} else {
				cell.Text = g.cont
			}
		case ClassUTF8Cont:
			cell.Text = g.cont
		case ClassUTF8Lead:
			cell.Text = g.lead
			if open {
				break
			}
			r, size := utf8.DecodeRune(w.Data[x:])
			if r == utf8.RuneError && size <= 1 {
				break
			}
			width, ok := gridDrawable(r)
			if !ok || width == 2 && (!o.WidePairs || x+1 >= j) {
				break
			}
			if row == "" {
				row = string(w.Data[i:rowEnd])
			}
			if x+size > rowEnd {
				break
			}
			cell.Text = Safe{row[x-i : x-i+size]}
			if width == 2 {
				cells[x-i] = cell
				x++
				cells[x-i] = Cell{Class: ClassUTF8Cont, Off: p + 1, Len: 1}
				continue
			}
		default:
			cell.Text = g.ascii[b&0x7F]
		}
		cells[x-i] = cell
	}
	return dst
}

// nonASCII returns the marker for a non-ASCII byte shown byte by byte: ‹
// for a byte that can lead a UTF-8 character, › for a continuation byte, ␦
// for any other.
func (g *glyphSet) nonASCII(b byte) Safe {
	switch {
	case b >= 0xC2 && b <= 0xF4:
		return g.lead
	case b >= 0x80 && b <= 0xBF:
		return g.cont
	}
	return g.invalid
}

// sequenceGlyph returns the glyph of byte b at p inside the sequence or
// string t: ASCII bytes by the ASCII table; a C1 introducer or terminator
// as ⋄ (its UTF-8 continuation byte ›); any other non-ASCII byte (a
// character that aborted a CSI) by nonASCII.
func (g *glyphSet) sequenceGlyph(t *decode.Token, p int64, b byte) Safe {
	if b < 0x80 {
		return g.ascii[b]
	}
	if il := introLen(t); p < t.Off+il && t.Intro != decode.Intro7Bit {
		if p == t.Off {
			return g.c1
		}
		return g.cont
	}
	if t.Term == decode.TermC1 {
		_, pe := payloadSpan(t)
		if p == pe {
			return g.c1
		}
		if p > pe {
			return g.cont
		}
	}
	return g.nonASCII(b)
}
