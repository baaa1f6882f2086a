package render

// Class is a cell class for styling: what a byte is, in its context. The
// viewer maps classes to colours; render never does. Hex and glyph cells
// of the same byte always have the same class.
type Class uint8

// Cell classes. The byte classes follow hexyl's categories (null, ASCII
// printable, ASCII whitespace, ASCII other, non-ASCII), made finer; bytes
// inside a sequence or control string take the sequence's class instead.
const (
	// ClassText is printable ASCII (0x21–0x7E) in text.
	ClassText Class = iota
	// ClassSpace is the space 0x20 in text.
	ClassSpace
	// ClassWhitespace is TAB or LF in text, or executed inside a sequence.
	ClassWhitespace
	// ClassNUL is the byte 0x00.
	ClassNUL
	// ClassC0 is any other C0 control (0x01–0x1F but TAB, LF and ESC).
	ClassC0
	// ClassESC is an ESC (0x1B) that introduces nothing: a lone ESC cut
	// short by another ESC, CAN, SUB, a non-ASCII byte or the end of input.
	ClassESC
	// ClassDEL is the byte 0x7F.
	ClassDEL
	// ClassC1 is a C1 control that introduces nothing, in either spelling:
	// a raw byte 0x80–0x9F, or both bytes of C2 80–C2 9F.
	ClassC1
	// ClassUTF8Lead is the first byte of a well-formed UTF-8 character in
	// text.
	ClassUTF8Lead
	// ClassUTF8Cont is a continuation byte of a well-formed UTF-8
	// character in text.
	ClassUTF8Cont
	// ClassInvalid is a byte of ill-formed UTF-8 (one maximal subpart, or
	// a lone byte 0xA0–0xFF).
	ClassInvalid
	// ClassFormat is a byte of a Unicode format character the sanitizer
	// has a policy for (bidi controls, zero-width characters, tags,
	// variation selectors, soft hyphen).
	ClassFormat
	// ClassSequence is a byte of an escape sequence or CSI, or the
	// introducer or terminator of a control string.
	ClassSequence
	// ClassPayload is a payload byte of a control string (OSC, DCS, APC,
	// PM, SOS, ESC k): between its introducer and its terminator.
	ClassPayload
	// ClassOffset is an offset column.
	ClassOffset
	// ClassMuted is render's own furniture: separators, padding, squeeze
	// lines.
	ClassMuted

	numClasses
)

var classNames = [numClasses]string{
	ClassText: "text", ClassSpace: "space", ClassWhitespace: "whitespace",
	ClassNUL: "nul", ClassC0: "c0", ClassESC: "esc", ClassDEL: "del",
	ClassC1: "c1", ClassUTF8Lead: "utf8-lead", ClassUTF8Cont: "utf8-cont",
	ClassInvalid: "invalid", ClassFormat: "format", ClassSequence: "sequence",
	ClassPayload: "payload", ClassOffset: "offset", ClassMuted: "muted",
}

// String returns the class's short name ("text", "utf8-lead", "payload").
func (c Class) String() string {
	if c < numClasses {
		return classNames[c]
	}
	return "class?"
}

// Classes lists every class in order, for building style tables.
func Classes() []Class {
	cs := make([]Class, numClasses)
	for i := range cs {
		cs[i] = Class(i)
	}
	return cs
}
