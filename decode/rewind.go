package decode

// Rewind puts d, a Decoder driven by Scan, back at stream offset off, a
// token boundary at or after the offset where the latest Scan call began
// (the end of the last token it wrote a record for that is not embedded),
// in ground: it forgets the bytes it read past off (an escape, sequence,
// string or UTF-8 character still open, in which Scan wrote no record), as
// if it had not been fed them. A caller that keeps those bytes passes them
// again, with what follows them, to the next Scan or Feed. Its options,
// and the counts of TakeTextBlanks, are kept.
func (d *Decoder) Rewind(off int64) {
	d.off, d.scan, d.u8n, d.state = off, scanGround, 0, stateGround
}
