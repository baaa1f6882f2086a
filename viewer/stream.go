package viewer

import (
	"sort"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/bytelens/bytelens/capture"
	"github.com/bytelens/bytelens/decode"
)

// streamView is one stream of the capture with its own place: cursor, top
// row, marks, index and caches, so switching streams comes back to where
// it was.
type streamView struct {
	s       *capture.Stream
	src     source
	idx     *index
	rows    rows
	frames  []capture.Event // EventFrame events, by offset
	cursor  int64
	top     int64
	marks   map[rune]int64
	started bool

	clean  *cleanWin    // the cleaned text around the cursor, cached
	full   decode.Token // the last token extended past a window
	fullOK bool

	scr *screenCache // the screen pane's models, made when first shown
}

// newStreamView returns the view of stream id of a capture.
func newStreamView(id int, s *capture.Stream, o Options) *streamView {
	src := source{r: s.Data, n: s.Len}
	sv := &streamView{s: s, src: src, idx: newIndex(id, src, o.Sanitize, o.Check), marks: map[rune]int64{}}
	sv.rows.src, sv.rows.bpr = src, int64(rowWidths[0])
	for _, e := range s.Events {
		if e.Kind == capture.EventFrame {
			sv.frames = append(sv.frames, e)
			if e.Off > 0 && e.Off < s.Len {
				sv.idx.frames = append(sv.idx.frames, e.Off)
			}
		}
	}
	return sv
}

// start starts the background pass the first time the stream is shown.
func (sv *streamView) start() tea.Cmd {
	if sv.started {
		return nil
	}
	sv.started = true
	return sv.idx.start()
}

// frameAt returns the index of the frame that holds off, or -1.
func (sv *streamView) frameAt(off int64) int {
	return sort.Search(len(sv.frames), func(i int) bool { return sv.frames[i].Off > off }) - 1
}

// frameStartIn returns the index of the first frame that starts in
// [from, to), or -1.
func (sv *streamView) frameStartIn(from, to int64) int {
	i := sort.Search(len(sv.frames), func(i int) bool { return sv.frames[i].Off >= from })
	if i < len(sv.frames) && sv.frames[i].Off < to {
		return i
	}
	return -1
}
