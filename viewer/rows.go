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

// run returns the run [lo, hi) of identical full rows that holds the row
// at off; a row like neither neighbour is a run of one.
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
	hi, err = r.scan(row, off+r.bpr, 1)
	if err != nil {
		return 0, 0, err
	}
	lo, err = r.scan(row, off-r.bpr, -1)
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
// past either end). It reads a few rows first, then ever more, up to
// scanChunk bytes at a time.
func (r *rows) scan(row []byte, off int64, dir int64) (int64, error) {
	b := r.bpr
	chunk := int64(4)
	for {
		if off < 0 || !r.full(off) {
			return off, nil
		}
		// Whole rows in the direction of travel, starting with off.
		avail := (r.src.n - off) / b
		if dir < 0 {
			avail = off/b + 1
		}
		k := min(chunk, avail)
		chunk = min(2*chunk, scanChunk/b)
		start := off
		if dir < 0 {
			start = off - (k-1)*b
		}
		p, err := r.src.read(start, k*b)
		if err != nil {
			return 0, err
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

// layout returns up to k display rows starting at top, a row start. The
// row holding cursor is always shown as a data row.
func (r *rows) layout(top, cursor int64, k int) ([]dispRow, error) {
	out := make([]dispRow, 0, k)
	cur := r.rowStart(cursor)
	for off := top; len(out) < k && off < r.src.n; {
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
