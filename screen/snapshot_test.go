package screen

import (
	"testing"
	"unsafe"
)

// cellsOf returns every cell of both screens of m, holes cleared, and
// its cursor.
func cellsOf(m *Model) ([]Cell, cursor) {
	var out []Cell
	for i := range m.grids {
		for y := range m.rows {
			for _, c := range m.grids[i].line(y, m.cols) {
				c.hole = 0
				out = append(out, c)
			}
		}
	}
	return out, m.cur
}

// TestSnapshot: a Snapshot restores every cell, span and pen of both
// screens; fed the rest of the stream, the restored model ends as the
// whole stream does; it takes a small part of a clone's cell memory.
func TestSnapshot(t *testing.T) {
	for _, r := range recordings(t) {
		whole := feed(t, Options{}, string(r.data))
		wantEnd, _ := cellsOf(whole)
		for cut := 0; cut < len(r.data); cut += 211 {
			m, _ := New(Options{Findings: true, Timed: true})
			m.Feed(r.data[:cut])
			s := m.Snapshot()
			got, gc := cellsOf(s.Model())
			want, wc := cellsOf(m)
			for i := range want {
				if got[i] != want[i] {
					t.Fatalf("%s at %d: cell %d restored %+v, want %+v", r.name, cut, i, got[i], want[i])
				}
			}
			if gc != wc || s.Offset() != int64(cut) {
				t.Fatalf("%s at %d: cursor %+v offset %d, want %+v %d", r.name, cut, gc, s.Offset(), wc, cut)
			}
			c := s.Model()
			c.Feed(r.data[cut:])
			c.End()
			end, _ := cellsOf(c)
			for i := range wantEnd {
				if end[i] != wantEnd[i] {
					t.Fatalf("%s from %d: cell %d at the end %+v, want %+v", r.name, cut, i, end[i], wantEnd[i])
				}
			}
			if full := int64(2 * m.cols * m.rows * int(unsafe.Sizeof(Cell{}))); s.Bytes() > full/4 {
				t.Errorf("%s at %d: snapshot takes %d bytes, a clone's cells %d", r.name, cut, s.Bytes(), full)
			}
		}
	}
}
