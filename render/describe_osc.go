package render

import (
	"github.com/bytelens/bytelens/decode"
)

// osc describes an operating system command from the catalogue, by its
// number.
func (d *describer) osc(t *decode.Token) {
	if t.Command < 0 {
		d.s("OSC: no command number")
		d.payload(t)
		return
	}
	d.s("OSC ")
	d.n(int64(t.Command))
	d.s(": ")
	if !d.function(t) {
		d.s("unrecognised command")
	}
	d.payload(t)
}

// shellMark appends the mark letter of an OSC 133 (FinalTerm semantic
// prompts).
func (d *describer) shellMark(t *decode.Token) {
	q := t.PayloadPrefix()
	if len(q) <= 4 {
		return
	}
	switch q[4] {
	case 'A':
		d.s(": prompt start")
	case 'B':
		d.s(": prompt end, command input start")
	case 'C':
		d.s(": command output start")
	case 'D':
		d.s(": command finished")
	case 'P':
		d.s(": prompt properties")
	}
}

// dcs describes a device control string by its selector: the parameter,
// intermediate and final bytes at the start of its payload (xterm ctlseqs
// "Device-Control functions"; tmux passthrough; sixel from DEC STD 070).
func (d *describer) dcs(t *decode.Token) {
	if d.function(t) {
		d.payload(t)
		return
	}
	// Functions named by their final byte after parameters and
	// intermediates (DEC STD 070; ReGIS, sixel).
	q := t.PayloadPrefix()
	// Parameters (digits, ';'), intermediates, then the final byte.
	i := 0
	for i < len(q) && (q[i] >= '0' && q[i] <= '9' || q[i] == ';') {
		i++
	}
	j := i
	for j < len(q) && q[j] >= 0x20 && q[j] <= 0x2F {
		j++
	}
	final := byte(0)
	if j < len(q) {
		final = q[j]
	}
	switch {
	case final == 'q' && j == i:
		d.s("DCS: sixel graphics")
	case final == '|' && j == i:
		d.s("DECUDK: user-defined keys")
	case final == '{' && j == i:
		d.s("DECDLD: downloadable soft font")
	case final == 'p' && j == i:
		d.s("DCS: ReGIS graphics")
	case final == 'r' && j > i && q[i] == '$':
		d.s("DECRPSS: report of a selection or setting (a terminal's reply, echoed)")
	case final == 't' && j > i && q[i] == '$':
		d.s("DECRSPS: restore presentation state")
	default:
		d.s("DCS: device control string")
	}
	d.payload(t)
}
