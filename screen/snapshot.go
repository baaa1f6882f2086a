package screen

import (
	"encoding/binary"
	"slices"
	"unsafe"
)

// Snapshot is a checkpoint of a Model in compact form, for keeping many:
// the screens, cursor and modes, without findings and with findings off
// (a checkpoint for drawing, not for hidden text), with the cells encoded against their neighbours, about 2 bytes a cell
// where a Cell takes 48 and nothing for a blank row. Model restores it.
type Snapshot struct {
	m     Model  // the model, its grids without cells
	cells []byte // the cells each row keeps (grid.ext), grid by grid, by physical row
}

// Bits of a cell's head byte in a Snapshot: which fields differ from the
// cell predicted from the one before (the same, with Off moved on by Len
// for a character, kept for a blank).
const (
	snapOff = 1 << iota
	snapLen
	snapFrame
	snapRune
	snapMark
	snapPen
	snapShape // Width and flags
)

// Snapshot returns a compact checkpoint of m; m keeps its findings.
func (m *Model) Snapshot() *Snapshot {
	s := &Snapshot{m: *m}
	c := &s.m
	c.finds, c.delText, c.drawText, c.names, c.times, c.spare, c.keep = nil, nil, nil, nil, nil, spare{}, [2]keptRows{}
	c.p, c.tok, c.lineBuf, c.emit = nil, nil, nil, nil
	c.scrolled, c.scrolledSegs = slices.Clone(m.scrolled), slices.Clone(m.scrolledSegs)
	c.nameTok, c.opts.Findings, c.drawHidden = -1, false, false
	c.pendDel, c.pendDrw = -1, -1
	prev := Cell{Off: -1, Width: 1}
	for i := range c.grids {
		g, src := &c.grids[i], &m.grids[i]
		g.cells = nil
		g.rows, g.wrapped = slices.Clone(src.rows), slices.Clone(src.wrapped)
		g.ext, g.fill = slices.Clone(src.ext), slices.Clone(src.fill)
		for r, e := range src.ext {
			if e == 0 {
				continue
			}
			for _, cell := range src.row(int32(r), int(e), m.cols) {
				s.cells = appendCell(s.cells, &prev, &cell)
			}
		}
	}
	s.cells = slices.Clip(s.cells)
	return s
}

// predict returns the cell expected after prev.
func predict(prev *Cell) Cell {
	p := *prev
	if p.Rune != 0 {
		p.Off += int64(p.Len)
	}
	return p
}

// appendCell appends c encoded against the cell before it, prev, and
// makes it prev. The hole of a finding is not kept: a Snapshot has none.
func appendCell(dst []byte, prev, c *Cell) []byte {
	p := predict(prev)
	head := len(dst)
	dst = append(dst, 0)
	var bits byte
	if c.Off != p.Off {
		bits |= snapOff
		dst = binary.AppendVarint(dst, c.Off-p.Off)
	}
	if c.Len != p.Len {
		bits |= snapLen
		dst = binary.AppendUvarint(dst, uint64(c.Len))
	}
	if c.Frame != p.Frame {
		bits |= snapFrame
		dst = binary.AppendVarint(dst, int64(c.Frame)-int64(p.Frame))
	}
	if c.Rune != p.Rune {
		bits |= snapRune
		dst = binary.AppendUvarint(dst, uint64(uint32(c.Rune)))
	}
	if c.Marks != p.Marks {
		bits |= snapMark
		for _, r := range c.Marks {
			dst = binary.AppendUvarint(dst, uint64(uint32(r)))
		}
	}
	if c.Pen != p.Pen {
		bits |= snapPen
		dst = binary.AppendUvarint(dst, uint64(c.Pen.Fg))
		dst = binary.AppendUvarint(dst, uint64(c.Pen.Bg))
		dst = binary.AppendUvarint(dst, uint64(c.Pen.Attr))
	}
	if c.Width != p.Width || c.flags != p.flags {
		bits |= snapShape
		dst = append(dst, c.Width, c.flags)
	}
	dst[head] = bits
	*prev = *c
	prev.hole = 0
	return dst
}

// readCell decodes the cell at the start of b after prev into prev and
// returns the rest of b.
func readCell(b []byte, prev *Cell) []byte {
	c := predict(prev)
	bits := b[0]
	b = b[1:]
	varint := func() int64 { v, n := binary.Varint(b); b = b[n:]; return v }
	uvarint := func() uint64 { v, n := binary.Uvarint(b); b = b[n:]; return v }
	if bits&snapOff != 0 {
		c.Off += varint()
	}
	if bits&snapLen != 0 {
		c.Len = uint32(uvarint())
	}
	if bits&snapFrame != 0 {
		c.Frame += int32(varint())
	}
	if bits&snapRune != 0 {
		c.Rune = rune(uint32(uvarint()))
	}
	if bits&snapMark != 0 {
		for i := range c.Marks {
			c.Marks[i] = rune(uint32(uvarint()))
		}
	}
	if bits&snapPen != 0 {
		c.Pen = Pen{Fg: Color(uvarint()), Bg: Color(uvarint()), Attr: Attr(uvarint())}
	}
	if bits&snapShape != 0 {
		c.Width, c.flags = b[0], b[1]
		b = b[2:]
	}
	*prev = c
	return b
}

// Model returns a Model restored from s: feeding it the rest of the
// stream gives what feeding the model s was taken of would, findings
// aside. Each call returns a new Model.
func (s *Snapshot) Model() *Model {
	m := new(Model)
	*m = s.m
	m.emit = m.token
	m.scrolled, m.scrolledSegs = slices.Clone(s.m.scrolled), slices.Clone(s.m.scrolledSegs)
	prev := Cell{Off: -1, Width: 1}
	b := s.cells
	for i := range m.grids {
		g, src := &m.grids[i], &s.m.grids[i]
		g.rows, g.wrapped = slices.Clone(src.rows), slices.Clone(src.wrapped)
		g.ext, g.fill = slices.Clone(src.ext), slices.Clone(src.fill)
		g.cells = nil
		for r, e := range g.ext {
			if e == 0 {
				continue
			}
			row := g.row(int32(r), int(e), m.cols)
			for x := range row {
				b = readCell(b, &prev)
				row[x] = prev
			}
		}
	}
	return m
}

// Offset returns the stream offset in bytes the snapshot was taken at.
func (s *Snapshot) Offset() int64 { return s.m.Offset() }

// Bytes returns the memory s takes, in bytes.
func (s *Snapshot) Bytes() int64 {
	n := int64(unsafe.Sizeof(*s)) + int64(cap(s.cells)) + int64(cap(s.m.scrolled)) + int64(cap(s.m.scrolledSegs))*int64(unsafe.Sizeof(Segment{}))
	for i := range s.m.grids {
		g := &s.m.grids[i]
		n += int64(cap(g.rows)+cap(g.ext))*4 + int64(cap(g.wrapped)) + int64(cap(g.fill))*int64(unsafe.Sizeof(rowFill{}))
	}
	return n
}
