package viewer

import (
	"io"
	"slices"
	"sync"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/bytelens/bytelens/decode"
	"github.com/bytelens/bytelens/sanitize"
)

const (
	// checkpointEvery is the distance in bytes between decoder checkpoints,
	// and the size of a block in the index of token kinds.
	checkpointEvery = 64 << 10
	// indexStep is how many bytes one background step reads before it
	// reports progress.
	indexStep = 4 << 20
	// maxCatchUp is the furthest, in bytes, the viewer decodes forward from
	// a checkpoint to show a place the background pass has not reached.
	// Past it decoding restarts just before the place, and the view says it
	// is approximate until the pass catches up.
	maxCatchUp = 4 << 20
	// resync is how far before a place an approximate decode starts.
	resync = 4 << 10
	// syncBack is how far before a place past maxCatchUp the viewer
	// looks for a synchronizing point to decode from exactly.
	syncBack = 1 << 20
)

// Bits of a block mask: bit k for each decode.Kind k, and three more.
const (
	bitCR      = 1 << (16 + iota) // a CR control
	bitBS                         // a BS control
	bitAnomaly                    // a token with an anomaly flag
)

// tokenBits returns the block-mask bits of t.
func tokenBits(t *decode.Token) uint32 {
	b := uint32(1) << t.Kind
	if t.Kind == decode.KindC0 {
		switch t.Final {
		case '\r':
			b |= bitCR
		case '\b':
			b |= bitBS
		}
	}
	if t.Flags&^decode.FlagEmbedded != 0 {
		b |= bitAnomaly
	}
	return b
}

// index is what the background pass learns about one stream: decoder
// checkpoints, which kinds of token begin in each block, and the removal
// report. Two chains of tea.Cmd steps build it side by side, one decoding
// and one sanitizing, so each can use a core; the UI reads their results
// under mu.
type index struct {
	id    int // stream number, carried by progress messages
	src   source
	opts  sanitize.Options
	check func() error

	mu         sync.Mutex
	cps        []decode.Decoder // cps[i] is the state before byte i*checkpointEvery
	masks      []uint32         // masks[i]: kinds of the tokens that begin in block i
	decoded    int64            // bytes decoded
	settled    int64            // every token that begins before this offset has ended
	rep        sanitize.Report  // report of the first reported bytes
	reported   int64            // bytes sanitized
	decodeDone bool
	reportDone bool

	// Owned by the running decode step.
	dec decode.Decoder
	cur uint32 // mask of the block being decoded
	// Owned by the running report step.
	w      *sanitize.Writer
	frames []int64 // offsets of the frame boundaries after 0, in order; set before start
	// Owned by the UI: checkpoints it made ahead of the pass.
	extra map[int64]decode.Decoder
}

// newIndex returns an index of src under opts. check, if not nil, is
// called before every step and its error ends the pass.
func newIndex(id int, src source, opts sanitize.Options, check func() error) *index {
	d := decoderFor(opts)
	return &index{
		id: id, src: src, opts: opts, check: check,
		cps:   []decode.Decoder{d},
		dec:   d,
		w:     sanitize.NewWriter(io.Discard, opts),
		extra: map[int64]decode.Decoder{},
	}
}

// decoderFor returns the decoder the sanitizer uses under o.
func decoderFor(o sanitize.Options) decode.Decoder {
	return decode.Decoder{LoneC1: o.C1 == sanitize.C1Lone, APCBEL: o.APCBEL, MaxPayload: o.MaxPayload}
}

// indexMsg reports a finished step of the background pass.
type indexMsg struct {
	id     int
	report bool // a sanitize step, not a decode step
	err    error
}

// start returns the commands that run the first step of both chains.
func (x *index) start() tea.Cmd { return tea.Batch(x.decodeStep, x.reportStep) }

// next returns the command for the step after the one msg reports, or nil
// when that chain is done.
func (x *index) next(msg indexMsg) tea.Cmd {
	x.mu.Lock()
	defer x.mu.Unlock()
	switch {
	case msg.report && !x.reportDone:
		return x.reportStep
	case !msg.report && !x.decodeDone:
		return x.decodeStep
	}
	return nil
}

// decodeStep decodes the next indexStep bytes, taking a checkpoint at
// every multiple of checkpointEvery and completing each block's mask.
func (x *index) decodeStep() tea.Msg {
	if x.check != nil {
		if err := x.check(); err != nil {
			return indexMsg{id: x.id, err: err}
		}
	}
	p, err := x.src.read(x.dec.Offset(), indexStep)
	if err != nil {
		return indexMsg{id: x.id, err: err}
	}
	for len(p) > 0 {
		n := min(int64(len(p)), checkpointEvery-x.dec.Offset()%checkpointEvery)
		x.dec.Feed(p[:n], x.maskToken)
		p = p[n:]
		if x.dec.Offset()%checkpointEvery == 0 {
			x.mu.Lock()
			x.cps = append(x.cps, x.dec)
			x.masks = append(x.masks, x.cur)
			x.decoded = x.dec.Offset()
			if x.dec.InGround() {
				x.settled = x.decoded
			}
			x.mu.Unlock()
			x.cur = 0
		}
	}
	if x.dec.Offset() >= x.src.n {
		d := x.dec
		d.End(x.maskToken)
	}
	x.mu.Lock()
	defer x.mu.Unlock()
	x.decoded = x.dec.Offset()
	if x.dec.InGround() {
		x.settled = x.decoded
	}
	if x.decoded >= x.src.n {
		if x.decoded%checkpointEvery != 0 || x.decoded == 0 {
			x.masks = append(x.masks, x.cur)
		}
		x.decodeDone = true
		x.settled = x.decoded
	}
	return indexMsg{id: x.id}
}

// maskToken adds t to the mask of the block it begins in.
func (x *index) maskToken(t *decode.Token) {
	b := int(t.Off / checkpointEvery)
	if b >= len(x.masks) { // the block being decoded; only this step appends
		x.cur |= tokenBits(t)
		return
	}
	x.mu.Lock()
	x.masks[b] |= tokenBits(t)
	x.mu.Unlock()
}

// reportStep sanitizes the next indexStep bytes into the report.
func (x *index) reportStep() tea.Msg {
	x.mu.Lock()
	off := x.reported
	x.mu.Unlock()
	p, err := x.src.read(off, indexStep)
	if err != nil {
		return indexMsg{id: x.id, report: true, err: err}
	}
	writeFramed(x.w, p, off, x.frames)
	off += int64(len(p))
	done := off >= x.src.n
	if done {
		_ = x.w.Close()
	}
	rep := x.w.Report()
	x.mu.Lock()
	x.rep, x.reported, x.reportDone = rep, off, done
	x.mu.Unlock()
	return indexMsg{id: x.id, report: true}
}

// writeFramed writes p, the stream's bytes from offset off, to w, and
// marks each frame boundary of frames (stream offsets, in order) that it
// reaches, as capture.Clean marks them, so that the sanitizer counts
// sequences split across frames.
func writeFramed(w *sanitize.Writer, p []byte, off int64, frames []int64) {
	i, _ := slices.BinarySearch(frames, off)
	pos, end := off, off+int64(len(p))
	for ; i < len(frames) && frames[i] < end; i++ {
		_, _ = w.Write(p[pos-off : frames[i]-off]) // the writers here discard
		w.Frame()
		pos = frames[i]
	}
	_, _ = w.Write(p[pos-off:])
}

// status returns the pass's progress: bytes decoded and sanitized, and
// whether both chains are done.
func (x *index) status() (decoded, reported int64, done bool) {
	x.mu.Lock()
	defer x.mu.Unlock()
	return x.decoded, x.reported, x.decodeDone && x.reportDone
}

// report returns the report so far and whether it covers the stream.
func (x *index) report() (sanitize.Report, bool) {
	x.mu.Lock()
	defer x.mu.Unlock()
	return x.rep, x.reportDone
}

// mask returns the mask of block b and whether it is complete: every
// token that begins in the block has ended, a long string included.
func (x *index) mask(b int) (uint32, bool) {
	x.mu.Lock()
	defer x.mu.Unlock()
	if b < len(x.masks) && (x.decodeDone || int64(b+1)*checkpointEvery <= x.settled) {
		return x.masks[b], true
	}
	return 0, false
}

// blocks returns the number of blocks in the stream.
func (x *index) blocks() int { return int((x.src.n + checkpointEvery - 1) / checkpointEvery) }

// decoderAt returns a decoder whose next byte is at off: exact when it
// was resumed from a checkpoint or restarted at a synchronizing point
// (decode.LastSync) in the syncBack bytes before off, approximate (a
// fresh decoder started resync bytes before off, its offsets relative to
// that start) when the nearest checkpoint is more than maxCatchUp bytes
// back and no such point is near. base is the stream offset of the
// returned decoder's offset 0.
func (x *index) decoderAt(off int64) (d decode.Decoder, base int64, exact bool, err error) {
	b := off / checkpointEvery
	x.mu.Lock()
	if b < int64(len(x.cps)) {
		d = x.cps[b]
	} else {
		d = x.cps[len(x.cps)-1]
	}
	x.mu.Unlock()
	for k := b; k > d.Offset()/checkpointEvery; k-- {
		if e, ok := x.extra[k]; ok {
			d = e
			break
		}
	}
	if off-d.Offset() > maxCatchUp {
		// Exact from the last synchronizing point in the syncBack bytes
		// before off (decode.LastSync), or from 0 when they reach it;
		// else approximate.
		start := max(0, off-syncBack)
		p, err := x.src.read(start, off-start)
		if err != nil {
			return d, 0, false, err
		}
		d = decoderFor(x.opts)
		if k := decode.LastSync(p); k >= 0 || start == 0 {
			k = max(k, 0)
			d.Restart(start + int64(k))
			d.Feed(p[k:], func(*decode.Token) {})
			return d, 0, true, nil
		}
		d.Feed(p[len(p)-resync:], func(*decode.Token) {})
		return d, off - resync, false, nil
	}
	for d.Offset() < off {
		n := min(off-d.Offset(), checkpointEvery-d.Offset()%checkpointEvery)
		p, err := x.src.read(d.Offset(), n)
		if err != nil {
			return d, 0, false, err
		}
		d.Skip(p) // decodes only from p's last synchronizing point
		if d.Offset()%checkpointEvery == 0 {
			x.extra[d.Offset()/checkpointEvery] = d
		}
	}
	return d, 0, true, nil
}
