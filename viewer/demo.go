package viewer

import (
	"bytes"
	_ "embed" // for the demo capture

	"github.com/bytelens/bytelens/capture"
)

// demo is a hand-made capture with one of each hazard, each on a line
// labelled with its name: SGR colours and conceal, cursor moves and
// erases, CR overwrite, BS hiding, OSC 0 title, an OSC 8 link whose label
// differs from its target, OSC 52 write and read, DA and DSR queries, DCS
// DECRQSS and XTGETTCAP, tmux passthrough, an APC (kitty graphics), PM,
// SOS, ESC k, raw 8-bit and UTF-8 C1, C0 and DEL, invalid UTF-8, a bidi
// override, zero-width and tag characters, joiners the sanitizer keeps,
// malformed and aborted sequences, the alternate screen, multilingual
// text, identical rows to squeeze, and an unterminated OSC at the end.
//
//go:embed demo.bin
var demo []byte

// Demo returns the demo capture that bytelens view opens when it is given
// no file.
func Demo() (*capture.Capture, error) {
	return capture.Load(bytes.NewReader(demo), int64(len(demo)), capture.OpenOptions{Format: "raw"})
}
