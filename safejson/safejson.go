// Package safejson is bytelens's one JSON encoder. It encodes like
// encoding/json and then writes, inside string literals, every character
// that some terminal would act on or that hides text as a \uXXXX escape:
// DEL U+007F (which encoding/json leaves raw), the C1 controls
// U+0080–U+009F (VTE, PuTTY and Windows Terminal act on C1 encoded in
// UTF-8), LINE SEPARATOR U+2028 and PARAGRAPH SEPARATOR
// U+2029, every Unicode format character (general category Cf), the
// variation selectors and other default-ignorable code points, and every
// character decode.ClassifyFormat has a policy for. Characters above
// U+FFFF are written as a UTF-16 surrogate pair (RFC 8259, section 7).
// What encoding/json already escapes (C0, '"', '\\', invalid UTF-8 as
// \ufffd, and by default '<', '>' and '&') stays escaped.
//
// So `cat report.json` is inert on any terminal, and decoding the output
// with encoding/json gives back exactly the value encoding/json would
// have given. Other text, Cyrillic or CJK included, is written as UTF-8.
package safejson

import (
	"bytes"
	"encoding/json"
	"io"
	"unicode"
	"unicode/utf8"

	"github.com/bytelens/bytelens/decode"
)

// Marshal returns the JSON encoding of v as json.Marshal does, with the
// characters the package doc lists escaped. Errors are those of
// json.Marshal.
func Marshal(v any) ([]byte, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	return Escape(b), nil
}

// MarshalIndent is Marshal with json.MarshalIndent's prefix and indent.
func MarshalIndent(v any, prefix, indent string) ([]byte, error) {
	b, err := json.MarshalIndent(v, prefix, indent)
	if err != nil {
		return nil, err
	}
	return Escape(b), nil
}

// An Encoder writes JSON values to an output stream like json.Encoder,
// each followed by a newline, with the characters the package doc lists
// escaped. Each Encode makes one Write call.
type Encoder struct {
	w          io.Writer
	prefix     string
	indent     string
	escapeHTML bool
	buf        bytes.Buffer
}

// NewEncoder returns an Encoder that writes to w. As with json.Encoder,
// HTML characters are escaped until SetEscapeHTML(false).
func NewEncoder(w io.Writer) *Encoder { return &Encoder{w: w, escapeHTML: true} }

// SetIndent makes later values indented as json.Encoder.SetIndent does.
func (e *Encoder) SetIndent(prefix, indent string) { e.prefix, e.indent = prefix, indent }

// SetEscapeHTML sets whether '<', '>' and '&' are escaped inside strings,
// as json.Encoder.SetEscapeHTML does. The characters the package doc
// lists are escaped either way.
func (e *Encoder) SetEscapeHTML(on bool) { e.escapeHTML = on }

// Encode writes the JSON encoding of v and a newline to the stream. It
// returns json's encoding error or the writer's error.
func (e *Encoder) Encode(v any) error {
	e.buf.Reset()
	enc := json.NewEncoder(&e.buf)
	enc.SetIndent(e.prefix, e.indent)
	enc.SetEscapeHTML(e.escapeHTML)
	if err := enc.Encode(v); err != nil {
		return err
	}
	_, err := e.w.Write(Escape(e.buf.Bytes()))
	return err
}

// WriteIndented writes v to w as one JSON document for people and
// tools alike: the Encoder's escaping, indented by two spaces, ended by a
// line feed, in one Write call. Errors are json's or w's.
func WriteIndented(w io.Writer, v any) error {
	enc := NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

// Escape rewrites valid JSON text js so that every character the package
// doc lists is a \uXXXX escape. It relies on one property of JSON: outside
// string literals, valid JSON is ASCII, so every non-ASCII character is
// inside a string, where an escape means the same character. It returns
// js itself, not a copy, when nothing needs escaping; invalid UTF-8 is
// written as \ufffd, as encoding/json writes it.
func Escape(js []byte) []byte {
	i := firstUnsafe(js)
	if i < 0 {
		return js
	}
	out := make([]byte, 0, len(js)+32)
	out = append(out, js[:i]...)
	for i < len(js) {
		b := js[i]
		if b < utf8.RuneSelf && b != 0x7F {
			out = append(out, b)
			i++
			continue
		}
		r, n := utf8.DecodeRune(js[i:])
		switch {
		case r == utf8.RuneError && n <= 1:
			out = appendEscape(out, utf8.RuneError)
		case needsEscape(r):
			out = appendEscape(out, r)
		default:
			out = append(out, js[i:i+n]...)
		}
		i += n
	}
	return out
}

// firstUnsafe returns the offset of the first character of js that Escape
// rewrites, or -1.
func firstUnsafe(js []byte) int {
	for i := 0; i < len(js); {
		if js[i] < utf8.RuneSelf && js[i] != 0x7F {
			i++
			continue
		}
		r, n := utf8.DecodeRune(js[i:])
		if r == utf8.RuneError && n <= 1 || needsEscape(r) {
			return i
		}
		i += n
	}
	return -1
}

// needsEscape reports whether r, DEL or a non-ASCII rune, must be written
// as an escape: DEL, C1, U+2028, U+2029, a format character (Cf), a variation
// selector or other default-ignorable code point, or a character with a
// format policy in decode.
func needsEscape(r rune) bool {
	switch {
	case r == 0x7F, r >= 0x80 && r <= 0x9F, r == 0x2028, r == 0x2029:
		return true
	case r < 0xAD:
		return false
	}
	return unicode.Is(unicode.Cf, r) ||
		unicode.Is(unicode.Variation_Selector, r) ||
		unicode.Is(unicode.Other_Default_Ignorable_Code_Point, r) ||
		decode.ClassifyFormat(r) != decode.FormatNone
}

const hexDigits = "0123456789abcdef"

// appendEscape appends r as \uXXXX, or as a surrogate pair of two such
// escapes when r is above U+FFFF.
func appendEscape(dst []byte, r rune) []byte {
	if r > 0xFFFF {
		r -= 0x10000
		dst = appendU16(dst, 0xD800+(r>>10))
		return appendU16(dst, 0xDC00+(r&0x3FF))
	}
	return appendU16(dst, r)
}

// appendU16 appends \u and four lowercase hex digits of u.
func appendU16(dst []byte, u rune) []byte {
	return append(dst, '\\', 'u', hexDigits[u>>12&0xF], hexDigits[u>>8&0xF], hexDigits[u>>4&0xF], hexDigits[u&0xF])
}

// LoneSurrogate returns the byte offset in the JSON text js of the first
// \uXXXX escape that is a UTF-16 surrogate outside a pair — a high
// surrogate (D800–DBFF) not directly followed by an escaped low one
// (DC00–DFFF), or a low surrogate on its own — or -1 when there is none.
// RFC 8259 (section 8.2) leaves what such a string means unpredictable:
// encoding/json decodes it as U+FFFD, other parsers refuse it, so a
// document that holds one is not the same value to every reader. js must
// be valid JSON (json.Valid).
func LoneSurrogate(js []byte) int {
	inString := false
	for i := 0; i < len(js); i++ {
		switch c := js[i]; {
		case c == '"':
			inString = !inString
		case c != '\\' || !inString:
		case i+1 < len(js) && js[i+1] == 'u':
			r := hex4(js[i+2:])
			switch {
			case r >= 0xD800 && r <= 0xDBFF:
				if len(js) < i+12 || js[i+6] != '\\' || js[i+7] != 'u' {
					return i
				}
				if lo := hex4(js[i+8:]); lo < 0xDC00 || lo > 0xDFFF {
					return i
				}
				i += 11
			case r >= 0xDC00 && r <= 0xDFFF:
				return i
			default:
				i += 5
			}
		default:
			i++ // the escaped character
		}
	}
	return -1
}

// hex4 returns the value of the four hex digits p starts with, or -1.
func hex4(p []byte) rune {
	if len(p) < 4 {
		return -1
	}
	var r rune
	for _, c := range p[:4] {
		switch {
		case c >= '0' && c <= '9':
			r = r<<4 | rune(c-'0')
		case c >= 'a' && c <= 'f':
			r = r<<4 | rune(c-'a'+10)
		case c >= 'A' && c <= 'F':
			r = r<<4 | rune(c-'A'+10)
		default:
			return -1
		}
	}
	return r
}
