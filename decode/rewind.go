package decode

// Rewind puts d back at stream offset off, a token boundary at or after
// the offset where the latest Feed or Scan call began (where the last
// token it emitted, or wrote a record for, that is not embedded ended),
// in ground: it forgets the bytes it read past off (an escape, sequence
// or string still open, in which it emitted nothing), as if it had not
// been fed them. A caller that keeps those bytes feeds them again, with
// what follows them. Its options, and the counts of TakeTextBlanks, are
// kept.
func (d *Decoder) Rewind(off int64) {
	d.off, d.scan, d.u8n, d.state = off, scanGround, 0, stateGround
}
