package viewer

import "bytes"

// dispRow is one row of the hex and glyph panes: the bytes of one data row,
// or a squeeze row standing for a run of rows identical to the row above
// it, as hexdump's "*" does.
type dispRow struct {
	off     int64 // offset of the row's first byte
	n       int   // bytes shown (a data row at the end of the stream may be short)
	squeeze bool
	end     int64 // squeeze rows: offset just past the last row squeezed
}

// rows lays out display rows over one stream with bpr bytes per row. It
// finds runs of identical rows by reading around them, and caches the runs
// it found, so a run of a gigabyte of zeros is scanned once.
type rows struct {
	src  source
	bpr  int64
	runs [][2]int64 // recent runs [lo, hi) of identical full rows, hi-lo >= 2 rows
	buf  []byte     // scan's buffer, reused
	read int64      // bytes scan has read since layout began
	span int64      // the run span in bytes; 0 means runSpan
}

// scanChunk is how many bytes a run scan reads at a time.
const scanChunk = 1 << 20

// setWidth sets the row width, dropping runs found at another width.
func (r *rows) setWidth(bpr int) {
	if bpr > 0 && int64(bpr) != r.bpr {
		r.bpr, r.runs = int64(bpr), nil
	}
}

// rowStart returns the start of the row holding off.
func (r *rows) rowStart(off int64) int64 { return off - off%r.bpr }

// lastRow returns the start of the last row of the stream.
func (r *rows) lastRow() int64 { return r.rowStart(max(0, r.src.n-1)) }

// full reports whether the row at off is a whole row.
func (r *rows) full(off int64) bool { return off+r.bpr <= r.src.n }

// runSpan bounds the runs of identical rows: a run never crosses a
// multiple of runSpan bytes (the first row start at or after it), so that
// finding one reads at most runSpan bytes, however long the stretch of
// identical bytes, and every run is the same whichever of its rows the
// scan starts from. A longer stretch shows as one squeeze row per span.
const runSpan = 16 << 20

// layoutScan is how many bytes layout lets the run scans read before it
// stops adding rows: a screen of squeeze rows over a gigabyte of
// identical rows shows the first two runs (32 MiB), the rest as the view
// scrolls.
const layoutScan = 2 * runSpan

// spanOf returns the rows [lo, hi) of the run span holding the row at off.
func (r *rows) spanOf(off int64) (lo, hi int64) {
	span := r.span
	if span <= 0 {
		span = runSpan
	}
	up := func(x int64) int64 { return (x + r.bpr - 1) / r.bpr * r.bpr }
	c := off / span
	if up(c*span) > off {
		c--
	}
	return up(c * span), up((c + 1) * span)
}

// run returns the run [lo, hi) of identical full rows that holds the row
// at off, inside its run span; a row like neither neighbour is a run of
// one.
func (r *rows) run(off int64) (lo, hi int64, err error) {
	if !r.full(off) {
		return off, off + r.bpr, nil
	}
	for _, x := range r.runs {
		if off >= x[0] && off < x[1] {
			return x[0], x[1], nil
		}
	}
	row, err := r.src.read(off, r.bpr)
	if err != nil {
		return 0, 0, err
	}
	spanLo, spanHi := r.spanOf(off)
	hi, err = r.scan(row, off+r.bpr, 1, spanHi)
	if err != nil {
		return 0, 0, err
	}
	lo, err = r.scan(row, off-r.bpr, -1, spanLo)
	if err != nil {
		return 0, 0, err
	}
	lo += r.bpr
	if hi-lo >= 2*r.bpr {
		if len(r.runs) >= 16 {
			r.runs = r.runs[1:]
		}
		r.runs = append(r.runs, [2]int64{lo, hi})
	}
	return lo, hi, nil
}

// scan walks rows from off in direction dir (+1 or -1) while they equal
// row, and returns the offset of the first row that differs (or that is
// past either end, or past limit: before it going back, at or after it
// going on). It reads a few rows first, then ever more, up to scanChunk
// bytes at a time.
func (r *rows) scan(row []byte, off int64, dir int64, limit int64) (int64, error) {
	b := r.bpr
	chunk := int64(4)
	for {
		if off < 0 || !r.full(off) || dir > 0 && off >= limit || dir < 0 && off < limit {
			return off, nil
		}
		// Whole rows in the direction of travel, starting with off.
		avail := (min(r.src.n, limit) - off) / b
		if dir < 0 {
			avail = (off-limit)/b + 1
		}
		if avail <= 0 { // a short last row before limit
			return off, nil
		}
		k := min(chunk, avail)
		chunk = min(2*chunk, scanChunk/b)
		start := off
		if dir < 0 {
			start = off - (k-1)*b
		}
		r.read += k * b
		p, err := r.src.readInto(r.buf, start, k*b)
		if err != nil {
			return 0, err
		}
		r.buf = p
		// The k rows all equal row when the first does and the chunk
		// equals itself shifted by a row: two comparisons of memory
		// instead of one per row.
		if bytes.Equal(p[:b], row) && bytes.Equal(p[b:], p[:len(p)-int(b)]) {
			off += dir * k * b
			continue
		}
		for i := range k {
			j := i
			if dir < 0 {
				j = k - 1 - i
			}
			if !bytes.Equal(p[j*b:(j+1)*b], row) {
				return start + j*b, nil
			}
		}
		off += dir * k * b
	}
}

// layout returns up to k display rows starting at top, a row start; fewer
// once the run scans have read layoutScan bytes, but never before the
// cursor's row. The row holding cursor is always shown as a data row.
func (r *rows) layout(top, cursor int64, k int) ([]dispRow, error) {
	out := make([]dispRow, 0, k)
	cur := r.rowStart(cursor)
	r.read = 0
	for off := top; len(out) < k && off < r.src.n && (r.read < layoutScan || off <= cur); {
		d, err := r.rowAt(off, cur)
		if err != nil {
			return nil, err
		}
		out = append(out, d)
		off = d.next(r.bpr)
	}
	return out, nil
}

// next returns the offset of the display row after d.
func (d dispRow) next(bpr int64) int64 {
	if d.squeeze {
		return d.end
	}
	return d.off + bpr
}

// rowAt returns the display row that starts at off, a row start, with the
// cursor's row at cur.
func (r *rows) rowAt(off, cur int64) (dispRow, error) {
	data := dispRow{off: off, n: int(min(r.bpr, r.src.n-off))}
	lo, hi, err := r.run(off)
	if err != nil || off == lo || off == cur {
		return data, err
	}
	end := hi
	if cur > off && cur < hi {
		end = cur
	}
	if end-off <= r.bpr {
		return data, nil
	}
	return dispRow{off: off, squeeze: true, end: end}, nil
}

// prev returns the start of the display row before the one at off, a row
// start greater than 0, with the cursor at cursor.
func (r *rows) prev(off, cursor int64) (int64, error) {
	p, cur := off-r.bpr, r.rowStart(cursor)
	lo, _, err := r.run(p)
	if err != nil || p == lo || p == cur {
		return p, err
	}
	start := lo + r.bpr
	if cur >= start && cur < p {
		start = cur + r.bpr
	}
	if off-start <= r.bpr {
		return p, nil
	}
	return start, nil
}
