package capture

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/bytelens/bytelens/capture/store"
	"github.com/bytelens/bytelens/sanitize"
)

// Defaults that the zero values of [RunOptions] fields stand for.
const (
	// DefaultMaxOutput is the default limit on cleaned text kept per
	// stream, in bytes (64 KiB).
	DefaultMaxOutput = 64 << 10
	// DefaultMaxRaw is the default limit on raw bytes stored per stream,
	// in bytes (64 MiB).
	DefaultMaxRaw = 64 << 20
	// DefaultWaitDelay is how long the collector keeps reading after the
	// command exits before it stops waiting for pipes that a grandchild
	// holds open.
	DefaultWaitDelay = time.Second
	// DefaultMaxChunks is the default limit on chunk entries listed in an
	// envelope.
	DefaultMaxChunks = 4096
)

// readSize is the size of one read from a pipe, in bytes: the largest chunk.
const readSize = 32 << 10

// RunOptions configures [Run]. Its zero value means the documented defaults.
type RunOptions struct {
	// Sanitize is the policy for both streams' cleaners.
	Sanitize sanitize.Options
	// MaxOutput is the number of cleaned bytes kept per stream in the
	// envelope. Past it the text is cut at the last line boundary (or, in a
	// line longer than the limit, at the last character boundary) and
	// marked truncated; the stream is still read to its end, cleaned and
	// counted. Zero means DefaultMaxOutput; negative means no limit.
	MaxOutput int64
	// MaxRaw is the number of raw bytes per stream stored in the raw
	// artifact; later bytes are counted but not stored. Zero means
	// DefaultMaxRaw; negative means no limit.
	MaxRaw int64
	// Timeout, if positive, is how long the command may run before its
	// whole process group is killed and the envelope says TimedOut.
	Timeout time.Duration
	// KillGrace, if positive, makes a kill send SIGTERM to the process
	// group first and SIGKILL after KillGrace; zero sends SIGKILL at once.
	KillGrace time.Duration
	// WaitDelay bounds how long the collector keeps reading after the
	// command exits: a grandchild that keeps a pipe open cannot hang Run
	// (the envelope then says WaitDelayExpired). It is also set as the
	// command's exec.Cmd.WaitDelay. Zero means DefaultWaitDelay.
	WaitDelay time.Duration
	// MaxChunks is the number of chunk entries listed in the envelope; the
	// rest are counted in ChunksOmitted. Zero means DefaultMaxChunks;
	// negative means no limit.
	MaxChunks int
	// Store, if not nil, receives the raw artifact; the envelope
	// references it in RawArtifact. With a nil Store no raw bytes are kept.
	Store *store.Store
	// StdinName is recorded in the envelope's stdin field. If empty it is
	// os.DevNull when cmd.Stdin is nil and "caller" otherwise.
	StdinName string
	// Decision is the caller's approval record, a JSON value attached to
	// the envelope as its own field. It must pass [CheckDecision]: valid
	// JSON whose strings hold no control (but TAB and LF) or format
	// character.
	Decision json.RawMessage
}

func (o *RunOptions) defaults() {
	if o.MaxOutput == 0 {
		o.MaxOutput = DefaultMaxOutput
	}
	if o.MaxRaw == 0 {
		o.MaxRaw = DefaultMaxRaw
	}
	if o.WaitDelay <= 0 {
		o.WaitDelay = DefaultWaitDelay
	}
	if o.MaxChunks == 0 {
		o.MaxChunks = DefaultMaxChunks
	}
}

// errTimeout is the cause of a context that ended at RunOptions.Timeout.
var errTimeout = errors.New("timeout")

// Run runs cmd, an unstarted command, and collects its output into an
// [Envelope]. It connects stdout and stderr to pipes (never a
// pseudo-terminal), each read concurrently and cleaned by its own streaming
// sanitizer; stdin is the null device unless cmd.Stdin is set. The command
// runs in its own process group (on Unix), which Run kills whole when ctx
// ends or opts.Timeout passes. Both pipes are drained to the end whatever
// the limits, so the command never blocks on a full pipe. Run numbers the
// reads across both streams in the order it made them and records their
// time offsets; with opts.Store set it writes the raw bytes, stream by
// stream in that order, as a raw artifact and references it.
//
// cmd.Stdout and cmd.Stderr must be nil; Run sets them, and sets
// cmd.SysProcAttr's process group and cmd.WaitDelay. A non-zero exit, a
// signal, a timeout or a cancelled ctx is reported in the envelope with a
// nil error. The error is non-nil when the command could not be started
// (it wraps the exec error, such as exec.ErrNotFound), when opts is
// invalid, or when the raw artifact could not be written; the envelope is
// then the zero value, or, for a store failure, complete but without
// RawArtifact.
func Run(ctx context.Context, cmd *exec.Cmd, opts RunOptions) (Envelope, error) {
	opts.defaults()
	if cmd.Stdout != nil || cmd.Stderr != nil || cmd.Process != nil {
		return Envelope{}, errors.New("capture: Run needs an unstarted exec.Cmd with nil Stdout and Stderr")
	}
	var decision json.RawMessage
	if len(opts.Decision) > 0 {
		var buf bytes.Buffer
		if err := json.Compact(&buf, opts.Decision); err != nil {
			return Envelope{}, fmt.Errorf("capture: decision is not valid JSON: %w", err)
		}
		if err := CheckDecision(buf.Bytes()); err != nil {
			return Envelope{}, fmt.Errorf("capture: %w", err)
		}
		decision = buf.Bytes()
	}
	cwd, err := workDir(cmd.Dir)
	if err != nil {
		return Envelope{}, fmt.Errorf("capture: %w", err)
	}
	stdinName := opts.StdinName
	if stdinName == "" {
		stdinName = "caller"
		if cmd.Stdin == nil {
			stdinName = os.DevNull
		}
	}
	argv := cmd.Args
	if len(argv) == 0 {
		argv = []string{cmd.Path}
	}
	env := Envelope{Schema: EnvelopeSchema, Decision: decision}
	env.setMetadata(argv, cwd, stdinName)

	c := &collector{maxChunks: opts.MaxChunks, maxRaw: opts.MaxRaw}
	for i, name := range [2]string{"stdout", "stderr"} {
		s := &c.streams[i]
		s.id, s.name = uint8(i+1), name
		s.text = &capBuffer{limit: opts.MaxOutput}
		s.san = sanitize.NewWriter(s.text, opts.Sanitize)
	}

	var pipes [2]struct{ r, w *os.File }
	for i := range pipes {
		if pipes[i].r, pipes[i].w, err = os.Pipe(); err != nil {
			closePipes(pipes[:])
			return Envelope{}, fmt.Errorf("capture: %w", err)
		}
	}
	cmd.Stdout, cmd.Stderr = pipes[0].w, pipes[1].w
	cmd.WaitDelay = opts.WaitDelay
	setProcessGroup(cmd)

	env.Started = time.Now().UTC()
	c.start = time.Now()
	var blob *store.Writer
	if opts.Store != nil {
		if blob, err = opts.Store.NewWriter(); err != nil {
			closePipes(pipes[:])
			return Envelope{}, fmt.Errorf("capture: %w", err)
		}
		m := store.Manifest{
			Started: env.Started, MaxRaw: opts.MaxRaw,
			Streams: []store.StreamDesc{{ID: store.StreamStdout, Name: "stdout"}, {ID: store.StreamStderr, Name: "stderr"}},
		}
		m.SetExact(argv, cwd, stdinName) // the only place the exact values are kept
		c.art, err = store.NewArtifactWriter(blob, m)
		if err != nil {
			blob.Abort()
			closePipes(pipes[:])
			return Envelope{}, fmt.Errorf("capture: %w", err)
		}
	}

	if err := cmd.Start(); err != nil {
		if blob != nil {
			blob.Abort()
		}
		closePipes(pipes[:])
		return Envelope{}, fmt.Errorf("capture: %w", err)
	}
	// The child holds the write ends now; the collector must not, or the
	// pipes would never reach end of file.
	pipes[0].w.Close()
	pipes[1].w.Close()

	var readers sync.WaitGroup
	for i := range pipes {
		readers.Go(func() { c.drain(&c.streams[i], pipes[i].r) })
	}
	readersDone := make(chan struct{})
	go func() { readers.Wait(); close(readersDone) }()

	// The killer ends the process group when ctx ends or the timeout
	// passes, until collection is over.
	kctx, cancel := context.WithCancelCause(ctx)
	if opts.Timeout > 0 {
		var cancelT context.CancelFunc
		kctx, cancelT = context.WithTimeoutCause(kctx, opts.Timeout, errTimeout)
		defer cancelT()
	}
	defer cancel(nil)
	stop := make(chan struct{})
	var timedOut, canceled bool
	var killer sync.WaitGroup
	killer.Go(func() {
		select {
		case <-kctx.Done():
			timedOut = errors.Is(context.Cause(kctx), errTimeout)
			canceled = !timedOut
			killGroup(cmd.Process, opts.KillGrace, stop)
		case <-stop:
		}
	})

	werr := cmd.Wait()
	select {
	case <-readersDone:
	case <-time.After(opts.WaitDelay):
		// A grandchild holds a pipe open: stop reading.
		env.WaitDelayExpired = true
		for i := range pipes {
			pipes[i].r.SetReadDeadline(time.Now())
		}
		<-readersDone
	}
	close(stop)
	killer.Wait()
	for i := range pipes {
		pipes[i].r.Close()
	}
	end := time.Now()

	var ee *exec.ExitError
	if werr != nil && !errors.As(werr, &ee) && !errors.Is(werr, exec.ErrWaitDelay) {
		if blob != nil {
			blob.Abort()
		}
		return Envelope{}, fmt.Errorf("capture: %w", werr)
	}
	env.DurationMS = end.Sub(c.start).Milliseconds()
	env.ExitCode = cmd.ProcessState.ExitCode()
	env.Signal = env.cleanField("signal", signalName(cmd.ProcessState))
	env.TimedOut, env.Canceled = timedOut, canceled

	for i := range c.streams {
		s := &c.streams[i]
		s.san.Close()
		es := EnvelopeStream{
			Report:       s.san.Report(),
			Truncated:    s.text.truncated,
			BytesRaw:     s.raw,
			BytesCleaned: s.text.total,
			BytesKept:    int64(len(s.text.buf)),
		}
		if c.art != nil {
			es.BytesRawStored = c.art.Stored(s.id)
			es.RawTruncated = es.BytesRawStored < s.raw
		}
		if i == 0 {
			env.Stdout, env.Streams.Stdout = string(s.text.buf), es
		} else {
			env.Stderr, env.Streams.Stderr = string(s.text.buf), es
		}
	}
	env.Chunks, env.ChunksOmitted = c.chunks, c.omitted
	if env.Chunks == nil {
		env.Chunks = []EnvelopeChunk{}
	}

	if blob != nil {
		serr := c.storeErr
		if serr == nil {
			serr = c.art.Finish(store.Trailer{ExitCode: env.ExitCode, Signal: env.Signal, TimedOut: env.TimedOut, DurationNS: int64(end.Sub(c.start))})
		}
		if serr != nil {
			blob.Abort()
			return env, fmt.Errorf("capture: writing raw artifact: %w", serr)
		}
		ref, err := blob.Commit()
		if err != nil {
			return env, fmt.Errorf("capture: writing raw artifact: %w", err)
		}
		env.RawArtifact = ref.String()
	}
	return env, nil
}

// setMetadata sets Command, Argv, Cwd and Stdin from the exact values,
// each cleaned by CleanField, and lists in MetadataCleaned those that
// changed.
func (e *Envelope) setMetadata(argv []string, cwd, stdin string) {
	e.MetadataCleaned = []string{}
	e.Argv = make([]string, len(argv))
	changed := false
	for i, a := range argv {
		var c bool
		e.Argv[i], c = CleanField(a)
		changed = changed || c
	}
	// Command is built from the cleaned argv, so that it shows nothing
	// (not even escaped) of what the cleaning removed.
	cmdExact := ShellQuote(argv)
	e.Command, _ = CleanField(ShellQuote(e.Argv))
	if changed || e.Command != cmdExact {
		e.MetadataCleaned = append(e.MetadataCleaned, "command")
	}
	for i, a := range argv {
		if e.Argv[i] != a {
			e.MetadataCleaned = append(e.MetadataCleaned, fmt.Sprintf("argv[%d]", i))
		}
	}
	e.Cwd = e.cleanField("cwd", cwd)
	e.Stdin = e.cleanField("stdin", stdin)
}

// cleanField returns s cleaned by CleanField and adds name to
// MetadataCleaned if that changed it.
func (e *Envelope) cleanField(name, s string) string {
	c, changed := CleanField(s)
	if changed {
		e.MetadataCleaned = append(e.MetadataCleaned, name)
	}
	return c
}

// collector numbers the reads of both streams and feeds the raw artifact.
type collector struct {
	start     time.Time
	maxChunks int
	maxRaw    int64
	streams   [2]streamCollector

	mu       sync.Mutex // guards what follows
	seq      uint32
	art      *store.ArtifactWriter
	storeErr error
	chunks   []EnvelopeChunk
	omitted  int64
}

// streamCollector is one stream's state. raw is guarded by collector.mu;
// san and text belong to the stream's reader goroutine until it ends.
type streamCollector struct {
	id   uint8
	name string
	raw  int64
	san  *sanitize.Writer
	text *capBuffer
}

// drain reads r to its end (or to the deadline set when the wait delay
// expires) and never stops early, so the writer is never blocked.
func (c *collector) drain(s *streamCollector, r *os.File) {
	buf := make([]byte, readSize)
	for {
		n, err := r.Read(buf)
		if n > 0 {
			c.chunk(s, buf[:n])
			s.san.Write(buf[:n]) // the cleaner writes to memory; it cannot fail
		}
		if err != nil {
			return
		}
	}
}

// chunk records one read: its sequence number, time and offset, and the raw
// bytes within the stream's limit.
func (c *collector) chunk(s *streamCollector, p []byte) {
	c.mu.Lock()
	defer c.mu.Unlock()
	seq := c.seq
	c.seq++
	t := time.Since(c.start)
	off := s.raw
	s.raw += int64(len(p))
	if c.art != nil && c.storeErr == nil {
		keep := p
		if c.maxRaw >= 0 {
			keep = p[:min(int64(len(p)), max(c.maxRaw-c.art.Stored(s.id), 0))]
		}
		c.storeErr = c.art.Chunk(s.id, seq, t, keep, len(p))
	}
	if c.maxChunks < 0 || len(c.chunks) < c.maxChunks {
		c.chunks = append(c.chunks, EnvelopeChunk{Seq: seq, Stream: s.name, Offset: off, Length: len(p), TMS: t.Milliseconds()})
	} else {
		c.omitted++
	}
}

// capBuffer keeps the first limit bytes of cleaned text, cut back to a line
// boundary when more arrives, and counts everything written.
type capBuffer struct {
	limit     int64 // negative: no limit
	buf       []byte
	total     int64
	truncated bool
}

// Write never fails.
func (b *capBuffer) Write(p []byte) (int, error) {
	b.total += int64(len(p))
	switch {
	case b.truncated:
	case b.limit < 0 || int64(len(b.buf)+len(p)) <= b.limit:
		b.buf = append(b.buf, p...)
	default:
		b.buf = append(b.buf, p[:b.limit-int64(len(b.buf))]...)
		b.truncated = true
		if i := bytes.LastIndexByte(b.buf, '\n'); i >= 0 {
			b.buf = b.buf[:i+1]
		} else {
			// One line longer than the limit: keep whole characters.
			b.buf = trimPartialRune(b.buf)
		}
	}
	return len(p), nil
}

// trimPartialRune drops an incomplete UTF-8 sequence at the end of b.
func trimPartialRune(b []byte) []byte {
	for i := len(b) - 1; i >= 0 && i >= len(b)-utf8.UTFMax; i-- {
		if utf8.RuneStart(b[i]) {
			if !utf8.FullRune(b[i:]) {
				return b[:i]
			}
			break
		}
	}
	return b
}

func workDir(dir string) (string, error) {
	if dir == "" {
		return os.Getwd()
	}
	return filepath.Abs(dir)
}

func closePipes(ps []struct{ r, w *os.File }) {
	for _, p := range ps {
		if p.r != nil {
			p.r.Close()
			p.w.Close()
		}
	}
}
