package viewer

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"io"
	"time"
	"unicode/utf8"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/bytelens/bytelens/decode"
	"github.com/bytelens/bytelens/render"
	"github.com/bytelens/bytelens/sanitize"
)

// stepBudget is roughly how long one step of a search runs before it
// reports progress and yields: long enough that redrawing the screen
// after each step costs a small share of a search, short enough that keys
// typed meanwhile are answered at once.
const stepBudget = 80 * time.Millisecond

// job is a search that runs in steps off the UI goroutine: seeking the
// next sequence or report class, searching cleaned text or hex bytes.
type job interface {
	// step works for about stepBudget. It returns done when the job has
	// ended, with found and off set when it found its place.
	step() (done, found bool, off int64, err error)
	// progress returns the share of the work done, 0 to 1.
	progress() float64
	// name says what the job looks for, for the status line.
	name() string
}

// jobMsg reports a finished step of job number gen.
type jobMsg struct {
	gen   int
	done  bool
	found bool
	off   int64
	err   error
}

// runStep returns the command that runs one step of j.
func runStep(gen int, j job) tea.Cmd {
	return func() tea.Msg {
		done, found, off, err := j.step()
		return jobMsg{gen: gen, done: done, found: found, off: off, err: err}
	}
}

// startJob starts j, replacing any running job. The job belongs to the
// cursor where it started: when the user moves the cursor or shows
// another stream before it ends, stopMovedJob stops it, so that a late
// result never moves the cursor away from where the user put it.
func (m *model) startJob(j job) tea.Cmd {
	m.jobGen++
	m.job = j
	m.jobAt, m.jobStream = m.sv().cursor, m.cur
	return runStep(m.jobGen, j)
}

// stopMovedJob stops the running job when the cursor is no longer where
// it started.
func (m *model) stopMovedJob() {
	if m.job == nil || m.sv().cursor == m.jobAt && m.cur == m.jobStream {
		return
	}
	if m.msg.IsZero() {
		m.setMsg(false, "stopped looking for %s: the cursor moved", m.job.name())
	}
	m.job = nil
}

// jobDone handles a finished step: the next step, or the result.
func (m *model) jobDone(msg jobMsg) tea.Cmd {
	if msg.gen != m.jobGen || m.job == nil {
		return nil // a job the user replaced or cancelled
	}
	j := m.job
	switch {
	case msg.err != nil:
		m.job, m.err = nil, msg.err
	case !msg.done:
		return runStep(m.jobGen, j)
	case msg.found:
		m.job = nil
		m.jump(msg.off)
		if sk, ok := j.(*seek); ok && sk.it == &hazardItem {
			m.err = m.hazardFound(sk, true, msg.off)
			return nil
		}
		if _, ok := j.(*diffSeek); ok {
			if r, ok := m.cmp.findingAt(msg.off); ok {
				m.msg, m.warn = render.Concat(render.Line(fmt.Appendf(nil, "%s at %s: finding ", j.name(), offsetText(msg.off))), r.name), false
				return nil
			}
		}
		m.setMsg(false, "%s at %s", j.name(), offsetText(msg.off))
	default:
		m.job = nil
		if sk, ok := j.(*seek); ok && sk.it == &hazardItem {
			m.err = m.hazardFound(sk, false, 0)
			return nil
		}
		if sk, ok := j.(*seek); ok && sk.it == &reportItems[m.sel] && m.focus != paneReport {
			// ] and [ from another pane: say which class they sought.
			m.setMsg(true, "no %s found (%s/%s, selected in the report pane: ] and [ seek that class; tab to it, then j/k, to choose another)", j.name(), sk.it.group, sk.it.name)
			return nil
		}
		m.setMsg(true, "no %s found", j.name())
	}
	return nil
}

// scanner decodes blocks of a stream for a job: from the index's
// checkpoints where the pass has been, and from its own decoder beyond.
type scanner struct {
	x     *index
	local map[int64]decode.Decoder // checkpoints the job took itself
}

func newScanner(x *index) *scanner { return &scanner{x: x, local: map[int64]decode.Decoder{}} }

// at returns the decoder state at the start of block b.
func (s *scanner) at(b int64) (decode.Decoder, error) {
	x := s.x
	x.mu.Lock()
	if b < int64(len(x.cps)) {
		d := x.cps[b]
		x.mu.Unlock()
		return d, nil
	}
	d := x.cps[len(x.cps)-1]
	x.mu.Unlock()
	for k := b; k > d.Offset()/checkpointEvery; k-- {
		if l, ok := s.local[k]; ok {
			d = l
			break
		}
	}
	for d.Offset() < b*checkpointEvery {
		p, err := x.src.read(d.Offset(), checkpointEvery)
		if err != nil {
			return d, err
		}
		d.Feed(p, func(*decode.Token) {})
		s.local[d.Offset()/checkpointEvery] = d
	}
	return d, nil
}

// tokens calls fn for each token that begins in block b, decoding on past
// the block until the last of them has ended.
func (s *scanner) tokens(b int64, fn func(t *decode.Token)) error {
	d, err := s.at(b)
	if err != nil {
		return err
	}
	src := s.x.src
	start := b * checkpointEvery
	end := min(src.n, start+checkpointEvery)
	emit := func(t *decode.Token) {
		if t.Off >= start && t.Off < end {
			fn(t)
		}
	}
	for off := start; off < src.n && (off < end || !d.InGround()); {
		n := int64(checkpointEvery)
		if off >= end {
			n = 4 << 10
		}
		p, err := src.read(off, n)
		if err != nil {
			return err
		}
		d.Feed(p, emit)
		off += int64(len(p))
	}
	if d.Offset() >= src.n {
		d.End(emit)
	}
	return nil
}

// findings returns the sanitizer's findings that cover bytes of block b,
// in order, in stream offsets; frame boundaries are marked as the report
// marks them, so split sequences are found too.
func (s *scanner) findings(b int64, opts sanitize.Options) ([]sanitize.Finding, error) {
	src := s.x.src
	start := b * checkpointEvery
	end := min(src.n, start+checkpointEvery)
	// The sanitizer starts where the decoder is in ground: at the first
	// token that begins in the block, and runs until the last has ended
	// and a character more, which decides a CR or U+115F held at the end.
	g, stop := int64(-1), end
	var first decode.Kind
	if err := s.tokens(b, func(t *decode.Token) {
		if t.Flags&decode.FlagEmbedded == 0 {
			if g < 0 {
				g, first = t.Off, t.Kind
			}
			stop = max(stop, t.End())
		}
	}); err != nil {
		return nil, err
	}
	stop = min(src.n, stop+utf8.UTFMax)
	if first == decode.KindFormat && g >= 0 && b > 0 {
		// What the policy makes of a format character depends on the
		// text and format characters just before it: start there.
		cs, ce := int64(-1), int64(-1)
		if err := s.tokens(b-1, func(t *decode.Token) {
			switch {
			case t.Flags&decode.FlagEmbedded != 0:
				return
			case t.Kind == decode.KindText, t.Kind == decode.KindFormat && (cs < 0 || ce != t.Off):
				cs = t.Off
			case t.Kind != decode.KindFormat:
				cs = -1
			}
			ce = t.End()
		}); err != nil {
			return nil, err
		}
		if cs >= 0 && ce == g {
			g = cs
		}
	}
	var hits []sanitize.Finding
	for g >= 0 && g < end {
		p, err := src.read(g, stop-g)
		if err != nil {
			return nil, err
		}
		w := sanitize.NewWriter(io.Discard, opts)
		writeFramed(w, p, g, s.x.frames)
		// A CR or format character near the end may wait on text further
		// on (past controls and strings): go on until nothing waits.
		for at := stop; !w.Settled() && at < src.n; {
			q, err := src.read(at, 4<<10)
			if err != nil {
				return nil, err
			}
			if len(q) == 0 {
				break
			}
			writeFramed(w, q, at, s.x.frames)
			at += int64(len(q))
		}
		_ = w.Close() // io.Discard never fails
		rep := w.Report()
		next := int64(-1)
		for _, f := range rep.Findings {
			f.Offset += g
			if f.Offset < end && f.Offset+max(1, f.Bytes) > start {
				hits = append(hits, f)
			}
			next = max(next, f.Offset+max(1, f.Bytes))
		}
		if rep.FindingsOmitted == 0 || next <= g {
			break
		}
		g = next // more findings than a report lists: go on after the last
	}
	return hits, nil
}

// seek finds the next or previous place that a report item counts.
type seek struct {
	sc   *scanner
	it   *reportItem
	opts sanitize.Options
	from int64 // the cursor
	dir  int64 // +1 or -1
	b    int64 // next block to look at
	b0   int64
	nb   int64
	// scr is a hidden-text finding of the screen model that counts as a
	// place (the hazard keys'); scr.off is -1 for other seeks.
	scr screenStop
}

// newSeek returns a job that finds the first place after (dir +1) or
// before (dir -1) from that it counts.
func newSeek(x *index, it *reportItem, opts sanitize.Options, from, dir int64) *seek {
	b := from / checkpointEvery
	return &seek{sc: newScanner(x), it: it, opts: opts, from: from, dir: dir, b: b, b0: b, nb: int64(x.blocks()), scr: screenStop{off: -1}}
}

func (j *seek) name() string {
	if j.dir < 0 {
		return "previous " + j.it.name
	}
	return "next " + j.it.name
}

func (j *seek) progress() float64 {
	if j.dir > 0 {
		return float64(j.b-j.b0) / float64(max(1, j.nb-j.b0))
	}
	return float64(j.b0-j.b) / float64(max(1, j.b0+1))
}

func (j *seek) step() (done, found bool, off int64, err error) {
	deadline := time.Now().Add(stepBudget)
	for ; j.b >= 0 && j.b < j.nb; j.b += j.dir {
		if time.Now().After(deadline) {
			return false, false, 0, nil
		}
		var hits []int64
		if mask, known := j.sc.x.mask(int(j.b)); !known || mask&j.it.need != 0 {
			var err error
			if hits, err = j.it.places(j.sc, j.b, &j.opts); err != nil {
				return true, false, 0, err
			}
		}
		// The nearest place past the cursor in direction dir, the screen
		// finding counted when it lies in this block.
		best := int64(-1)
		nearer := func(h int64) {
			if (h-j.from)*j.dir > 0 && (best < 0 || (h-best)*j.dir < 0) {
				best = h
			}
		}
		for _, h := range hits {
			nearer(h)
		}
		if j.scr.off >= 0 && j.scr.off/checkpointEvery == j.b {
			nearer(j.scr.off)
		}
		if best >= 0 {
			return true, true, best, nil
		}
	}
	return true, false, 0, nil
}

// textSearch finds the next place whose cleaned text holds a query. It
// sanitizes the stream in pieces that start and end where the decoder is
// in ground, from the checkpoint in ground before the cursor, wrapping
// around at the end.
type textSearch struct {
	x       *index
	q       []byte
	fold    bool // ASCII case-insensitive: the query has no upper case
	opts    sanitize.Options
	from    int64
	pos     int64          // start of the next piece
	d       decode.Decoder // decoder in ground at pos
	wrapped bool
	done    int64 // bytes searched
	pre     prefilter
	buf     []byte // the piece read, reused
}

// textPiece is how many bytes the text search sanitizes at a time.
const textPiece = 1 << 20

// newTextSearch returns a search for q in the cleaned text after from;
// it ignores ASCII case when fold is set or q has no upper case.
func newTextSearch(x *index, q string, fold bool, opts sanitize.Options, from int64) *textSearch {
	j := &textSearch{x: x, q: []byte(q), opts: opts, from: from}
	j.fold = fold || smartFold(j.q)
	if j.fold {
		j.q = asciiLower(j.q)
	}
	j.pre = newPrefilter(j.q, j.fold, opts)
	j.d = decoderFor(opts)
	x.mu.Lock()
	for b := min(from/checkpointEvery, int64(len(x.cps))-1); b >= 0; b-- {
		if x.cps[b].InGround() {
			j.d = x.cps[b]
			break
		}
	}
	x.mu.Unlock()
	j.pos = j.d.Offset()
	return j
}

func (j *textSearch) name() string { return "text " + string(j.q) }

func (j *textSearch) progress() float64 {
	return float64(j.done) / float64(max(1, j.x.src.n))
}

func (j *textSearch) step() (done, found bool, off int64, err error) {
	src := j.x.src
	deadline := time.Now().Add(stepBudget)
	for !time.Now().After(deadline) {
		if j.pos >= src.n || j.wrapped && j.pos > j.from {
			if j.wrapped || j.from == 0 {
				return true, false, 0, nil
			}
			j.wrapped, j.pos, j.d = true, 0, decoderFor(j.opts)
		}
		// The piece ends at a point in ground: a checkpoint of the index
		// where it has one, else where decoding on finds one.
		g, gd := j.x.groundAfter(j.pos + textPiece)
		decodeOn := g < 0
		for off, d := j.pos, j.d; decodeOn && off < src.n && (g < 0 || off < j.pos+textPiece); {
			p, err := src.read(off, 4<<10)
			if err != nil {
				return true, false, 0, err
			}
			d.Feed(p, func(*decode.Token) {})
			off += int64(len(p))
			if d.InGround() || off >= src.n {
				g, gd = off, d
			}
		}
		tail := min(src.n, g+int64(len(j.q))*4+64)
		in, err := src.readInto(j.buf, j.pos, tail-j.pos)
		if err != nil {
			return true, false, 0, err
		}
		j.buf = in
		if !j.pre.mayMatch(in) {
			j.done += g - j.pos
			j.pos, j.d = g, gd
			continue
		}
		// Clean without the offset map first: most pieces hold no match,
		// and the map costs a point per token.
		text, _ := sanitize.Bytes(in, j.opts)
		hay := text
		if j.fold {
			hay = asciiLower(text)
		}
		if bytes.Contains(hay, j.q) {
			_, _, om := sanitize.Map(in, j.opts)
			for k := 0; k <= len(hay); {
				i := bytes.Index(hay[k:], j.q)
				if i < 0 {
					break
				}
				s, _ := om.ToInput(int64(k + i))
				at := j.pos + s
				if at >= g {
					break
				}
				if !j.wrapped && at > j.from || j.wrapped && at <= j.from {
					return true, true, at, nil
				}
				k += i + 1
			}
		}
		j.done += g - j.pos
		j.pos, j.d = g, gd
	}
	return false, false, 0, nil
}

// smartFold reports whether a query ignores case by itself: it has no
// upper-case ASCII letter.
func smartFold(q []byte) bool { return bytes.Equal(q, asciiLower(q)) }

// asciiLower returns p with ASCII letters in lower case; other bytes, and
// so every offset, are kept.
func asciiLower(p []byte) []byte { return appendLower(make([]byte, 0, len(p)), p) }

// appendLower appends p to dst with ASCII letters in lower case, eight
// bytes at a time.
func appendLower(dst, p []byte) []byte {
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	n := len(dst)
	dst = append(dst, p...)
	d := dst[n:]
	i := 0
	for ; i+8 <= len(d); i += 8 {
		w := binary.LittleEndian.Uint64(d[i:])
		// Each byte's low seven bits plus an offset set its high bit
		// from 'A' on, and from past 'Z' on; no sum carries into the
		// next byte. Bytes with their own high bit set are not letters.
		low := w &^ highs
		upper := (low + ones*(0x80-'A')) &^ (low + ones*(0x80-'Z'-1)) &^ w & highs
		binary.LittleEndian.PutUint64(d[i:], w|upper>>2) // 0x80>>2 is 'a'-'A'
	}
	for ; i < len(d); i++ {
		if d[i]-'A' < 26 {
			d[i] += 'a' - 'A'
		}
	}
	return dst
}

// hexSearch finds the next place where the raw bytes equal a pattern,
// wrapping around at the end: a pattern typed in hex, or with text set
// the text of a raw-text search, which lands inside payloads too. With
// fold it ignores ASCII case.
type hexSearch struct {
	src     source
	pat     []byte
	text    bool
	fold    bool
	from    int64
	pos     int64
	wrapped bool
	done    int64
}

// hexPiece is how many bytes the hex search reads at a time.
const hexPiece = 8 << 20

func newHexSearch(src source, pat []byte, from int64) *hexSearch {
	return &hexSearch{src: src, pat: pat, from: from, pos: from + 1}
}

func (j *hexSearch) name() string {
	if j.text {
		return "raw text " + string(j.pat)
	}
	return "bytes"
}

func (j *hexSearch) progress() float64 { return float64(j.done) / float64(max(1, j.src.n)) }

func (j *hexSearch) step() (done, found bool, off int64, err error) {
	deadline := time.Now().Add(stepBudget)
	for !time.Now().After(deadline) {
		limit := j.src.n
		if j.wrapped {
			limit = min(j.src.n, j.from+int64(len(j.pat)))
		}
		if j.pos+int64(len(j.pat)) > limit {
			if j.wrapped {
				return true, false, 0, nil
			}
			j.wrapped, j.pos = true, 0
			continue
		}
		n := min(hexPiece, limit-j.pos)
		p, err := j.src.read(j.pos, n)
		if err != nil {
			return true, false, 0, err
		}
		pat := j.pat
		if j.fold {
			p, pat = asciiLower(p), asciiLower(pat)
		}
		if i := bytes.Index(p, pat); i >= 0 {
			return true, true, j.pos + int64(i), nil
		}
		step := max(1, n-int64(len(j.pat))+1)
		j.pos += step
		j.done += step
	}
	return false, false, 0, nil
}
