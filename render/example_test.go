package render_test

import (
	"bytes"
	"fmt"
	"os"
	"strings"

	"github.com/bytelens/bytelens/decode"
	"github.com/bytelens/bytelens/render"
	"github.com/bytelens/bytelens/sanitize"
)

func ExampleGlyphs() {
	in := []byte("ok \x1b[31mred\x1b[0m\r\n\x1b]52;c;c2VjcmV0\x07\x9b1m\xff\u202e\n")
	fmt.Print(render.Glyphs(in, render.StreamOptions{}))
	fmt.Print(render.Glyphs(in, render.StreamOptions{Chips: true}))
	// Output:
	// ok ␛[31mred␛[0m␍
	// ␛]52;‹10 bytes›␇<9B>1m<FF><U+202E>
	// ok ‹CSI 31m›red‹CSI 0m›␍
	// ‹OSC 52 write, 13 bytes›‹CSI 1m›<FF><U+202E>
}

func ExampleDescribe() {
	for t := range decode.Tokens([]byte("\x1b[1;31m\x1b[?2004h\x1b]52;c;c2VjcmV0\x07\x1b[6n")) {
		fmt.Printf("%-12s %s\n", sanitize.Name(&t), render.Describe(&t))
		fmt.Printf("%-12s %s\n", "", render.Decision(&t, sanitize.Options{}))
	}
	// Output:
	// CSI 1;31m    SGR: bold, foreground red
	//              removed: CSI (control sequence)
	// CSI ?2004h   DECSET: enable bracketed paste (2004)
	//              removed: CSI (control sequence)
	// OSC 52 write OSC 52: clipboard write, 13 payload bytes, ended by BEL
	//              removed: OSC string, payload dropped; flagged clipboard: the clipboard would have been used
	// CSI 6n       DSR: CPR, cursor position report (query: the terminal replies)
	//              removed: CSI (control sequence); flagged query: a terminal would have replied
}

func ExampleGlyphCells() {
	data := []byte("a\x1b[1m\x1b]0;T\x07é")
	w := render.DecodeEnd(decode.Decoder{}, data)
	for _, c := range render.GlyphCells(&w, 0, len(data), render.GlyphOptions{HidePayloads: true}) {
		start, end := w.Boundary(c.Off)
		fmt.Printf("%s %s %-8s %v %v\n", render.Offset(c.Off), c.Text, c.Class, start, end)
	}
	// Output:
	// 0x00000000 a text     false false
	// 0x00000001 ␛ sequence true false
	// 0x00000002 [ sequence false false
	// 0x00000003 1 sequence false false
	// 0x00000004 m sequence false true
	// 0x00000005 ␛ sequence true false
	// 0x00000006 ] sequence false false
	// 0x00000007 ░ payload  false false
	// 0x00000008 ░ payload  false false
	// 0x00000009 ░ payload  false false
	// 0x0000000a ␇ sequence false true
	// 0x0000000b é utf8-lead false false
	// 0x0000000c › utf8-cont false false
}

func ExampleHexDump() {
	data := []byte("hi \x1b]0;title\x07" + strings.Repeat("\x00", 51) + "end")
	render.HexDump(os.Stdout, bytes.NewReader(data), int64(len(data)), render.HexOptions{})
	// Output:
	// 0x00000000  68 69 20 1b 5d 30 3b 74  69 74 6c 65 07 00 00 00  |hi ␛]░░░░░░░␇␀␀␀|
	// 0x00000010  00 00 00 00 00 00 00 00  00 00 00 00 00 00 00 00  |␀␀␀␀␀␀␀␀␀␀␀␀␀␀␀␀|
	// * 2 identical rows, 0x00000020-0x0000003f
	// 0x00000040  65 6e 64                                          |end|
	// 0x00000043
}

func ExampleText() {
	fmt.Println(render.Text([]byte("tab\there \x1b[1mbold\u202e \xff")))
	// Output:
	// tab␉here ␛[1mbold<U+202E> <FF>
}
