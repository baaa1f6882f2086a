package sanitize

import (
	"bytes"
	"cmp"
	"slices"
	"sort"

	"github.com/bytelens/bytelens/screen"
)

// screenMap is the offset map of CRScreen. Lines come out in the order of
// the screen, not of the input (a cursor-up repaint draws a line above
// text written before it), so the map is not a list of points increasing
// in both: it is the screen's segments, each a piece of output and the
// input bytes that drew its cells. Input that draws nothing shown (a
// control, text overwritten or erased) belongs to the text drawn by the
// input just before it: its segment's input is extended up to the next
// byte that draws a character shown, and such input maps to the end of
// that text, after its line feed when the line ends there. A line's input
// runs from the first byte that drew a character on it to the end of the
// last one's extended input.
type screenMap struct {
	segs []screen.Segment // in output order; Out is an output offset
	n    int64            // output length
	// lineOut[l] is where line l of the output starts; lineIn[l],
	// lineEnd[l] its input range, empty (at the end of the range of the
	// line before) for a line no input drew.
	lineOut, lineIn, lineEnd []int64
	// byIn holds the indices of the segments with input, by input
	// offset; inEnd[k] is where the input of segment byIn[k] extends to,
	// after[k] the output offset its undrawn input maps to.
	byIn         []int32
	inEnd, after []int64
}

// index builds the lines and the input order of the segments of text,
// the whole output of input bytes.
func (s *screenMap) index(text []byte, input int64) {
	s.n = int64(len(text))
	s.lineOut = append(s.lineOut[:0], 0)
	for i := 0; ; {
		j := bytes.IndexByte(text[i:], '\n')
		if j < 0 || i+j+1 == len(text) {
			break
		}
		i += j + 1
		s.lineOut = append(s.lineOut, int64(i))
	}
	for i, g := range s.segs {
		if g.Off >= 0 {
			s.byIn = append(s.byIn, int32(i))
		}
	}
	slices.SortStableFunc(s.byIn, func(a, b int32) int { return cmp.Compare(s.segs[a].Off, s.segs[b].Off) })
	s.inEnd, s.after = make([]int64, len(s.byIn)), make([]int64, len(s.byIn))
	s.lineIn, s.lineEnd = make([]int64, len(s.lineOut)), make([]int64, len(s.lineOut))
	for l := range s.lineIn {
		s.lineIn[l] = -1
	}
	for k, i := range s.byIn {
		g := s.segs[i]
		s.inEnd[k] = input
		if k+1 < len(s.byIn) {
			s.inEnd[k] = max(g.Off+g.Len, s.segs[s.byIn[k+1]].Off)
		}
		s.after[k] = s.outEnd(int(i))
		if s.after[k] < s.n && text[s.after[k]] == '\n' {
			s.after[k]++
		}
		l := s.line(int64(g.Out))
		if s.lineIn[l] < 0 || g.Off < s.lineIn[l] {
			s.lineIn[l] = g.Off
		}
		s.lineEnd[l] = max(s.lineEnd[l], s.inEnd[k])
	}
	for l := range s.lineIn {
		if s.lineIn[l] < 0 {
			end := int64(0)
			if l > 0 {
				end = s.lineEnd[l-1]
			}
			s.lineIn[l], s.lineEnd[l] = end, end
		}
	}
}

// line returns the line holding output offset out.
func (s *screenMap) line(out int64) int {
	return sort.Search(len(s.lineOut), func(l int) bool { return s.lineOut[l] > out }) - 1
}

// outEnd returns where the output of segment i ends.
func (s *screenMap) outEnd(i int) int64 {
	if i+1 < len(s.segs) {
		return int64(s.segs[i+1].Out)
	}
	return s.n
}

// toInput is OffsetMap.ToInput: the bytes that drew the character at out,
// exactly for text copied as it is; for a blank or a line feed, the input
// of its line.
func (s *screenMap) toInput(out int64) (start, end int64) {
	i := sort.Search(len(s.segs), func(i int) bool { return int64(s.segs[i].Out) > out }) - 1
	if i < 0 || out >= s.n {
		return 0, 0
	}
	g := s.segs[i]
	if g.Off < 0 {
		l := s.line(out)
		return s.lineIn[l], s.lineEnd[l]
	}
	if s.outEnd(i)-int64(g.Out) == g.Len {
		start = g.Off + out - int64(g.Out)
		return start, start + 1
	}
	return g.Off, g.Off + g.Len
}

// toOutput is OffsetMap.ToOutput: the output of the character the byte at
// in drew, when it is shown at the end; for input that draws nothing
// shown, an empty span at the end of the text drawn just before it.
func (s *screenMap) toOutput(in int64) (start, end int64) {
	k := sort.Search(len(s.byIn), func(k int) bool { return s.segs[s.byIn[k]].Off > in }) - 1
	if k < 0 {
		return 0, 0
	}
	i := int(s.byIn[k])
	g := s.segs[i]
	if in >= g.Off+g.Len {
		return s.after[k], s.after[k]
	}
	start, end = int64(g.Out), s.outEnd(i)
	if end-start == g.Len {
		start += in - g.Off
		return start, start + 1
	}
	return start, end
}
