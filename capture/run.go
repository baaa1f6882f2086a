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
	// Progress, if not nil, is called after each read from the command's
	// pipes with the raw bytes read so far from its stdout and from its
	// stderr. Calls are serialized (Run makes them holding the
	// collector's lock) and must return quickly: meanwhile neither pipe
	// is read.
	Progress func(stdout, stderr int64)
	// Isolate runs the command (on Linux) in new user, PID and mount
	// namespaces, under the same uid and gid: it gets a /proc of its own
	// PID namespace, where the collector and every process outside have
	// no pid (so it cannot stop or signal them, and Timeout holds), and a
	// /dev that holds only null, zero, full, random, urandom, tty, the
	// /proc/self/fd links, a tmpfs on /dev/shm and a private devpts
	// instance on /dev/pts, where the user's terminals are not (so it
	// cannot open one by name and write to it); the consoles, serial
	// lines, the kernel log and every other device node are absent. Its
	// capability bounding set is emptied, so a command running as root
	// cannot undo the mounts. The directory of Store, if set, is an
	// empty read-only tmpfs for it (so it cannot rewrite the raw
	// artifacts and cleaned text of other runs), and the socket
	// directories of tmux and GNU screen are empty writable ones (so it
	// cannot type into the user's panes). The rest of the
	// filesystem, the network and the user's other processes' sockets
	// stay shared. Where
	// the namespaces cannot be made, Run fails with an error wrapping
	// [ErrIsolation] and runs nothing.
	Isolate bool
}

// ErrIsolation is wrapped by Run's error when RunOptions.Isolate is set
// and the namespaces cannot be made (user namespaces disabled by sysctl,
// refused by a container's seccomp filter, /proc not mountable, or not
// Linux). The command did not run.
var ErrIsolation = errors.New("isolation unavailable (needs user, PID and mount namespaces)")

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
// sanitizer; stdin is the null device unless cmd.Stdin is set. Both pipes
// are drained to the end whatever the limits, so the command never blocks
// on a full pipe. Run numbers the reads across both streams in the order it
// made them and records their time offsets; with opts.Store set it writes
// the raw bytes, stream by stream in that order, as a raw artifact and
// references it.
//
// The command has no controlling terminal and does not outlive Run. It
// runs in a new session (setsid), so opening /dev/tty fails with ENXIO
// and no signal from the user's terminal reaches it. On Linux it runs
// under a reaper process, a child subreaper (PR_SET_CHILD_SUBREAPER) that
// adopts every orphaned descendant, those that start their own session
// included; when the command has ended and its output has been read (or
// opts.WaitDelay has passed), when opts.Timeout passes, or when ctx ends,
// every process the command started is killed (SIGTERM, then SIGKILL
// after opts.KillGrace) and reaped before Run returns. If the collecting
// process dies, even by SIGKILL, the reaper kills them too
// (PR_SET_PDEATHSIG and the end of a control pipe). Elsewhere on Unix the
// command's session is killed as a process group; descendants that leave
// it may survive.
//
// cmd.Stdout and cmd.Stderr must be nil; Run uses cmd's Path, Args, Env,
// Dir and Stdin and ignores the rest. A non-zero exit, a signal, a timeout
// or a cancelled ctx is reported in the envelope with a nil error, and so
// is a failure of the store: the envelope then has no RawArtifact and
// says why in StoreError. The error is non-nil only when the command
// could not be started (it wraps the exec error, such as
// exec.ErrNotFound) or opts is invalid, and the envelope is then the zero
// value.
func Run(ctx context.Context, cmd *exec.Cmd, opts RunOptions) (Envelope, error) {
	opts.defaults()
	if cmd.Stdout != nil || cmd.Stderr != nil || cmd.Process != nil {
		return Envelope{}, errors.New("capture: Run needs an unstarted exec.Cmd with nil Stdout and Stderr")
	}
	if cmd.Err != nil {
		return Envelope{}, fmt.Errorf("capture: %w", cmd.Err)
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
	exe := cmd.Path
	if !filepath.IsAbs(exe) {
		exe = filepath.Join(cwd, exe)
	}
	env := Envelope{Schema: EnvelopeSchema, Decision: decision, Isolated: opts.Isolate, Limits: opts.limits()}
	env.setMetadata(argv, exe, cwd, stdinName)

	c := &collector{maxChunks: opts.MaxChunks, maxRaw: opts.MaxRaw, progress: opts.Progress}
	for i, name := range [2]string{"stdout", "stderr"} {
		s := &c.streams[i]
		s.id, s.name = uint8(i+1), name
		s.text = &textKeeper{limit: opts.MaxOutput}
		s.san = sanitize.NewWriter(s.text, opts.Sanitize)
	}

	var pipes [2]struct{ r, w *os.File }
	for i := range pipes {
		if pipes[i].r, pipes[i].w, err = os.Pipe(); err != nil {
			closePipes(pipes[:])
			return Envelope{}, fmt.Errorf("capture: %w", err)
		}
	}
	p, err := newProc(cmd, exe, pipes[0].w, pipes[1].w, &opts)
	if err != nil {
		closePipes(pipes[:])
		return Envelope{}, fmt.Errorf("capture: %w", err)
	}

	env.Started = time.Now().UTC()
	c.start = time.Now()
	var blob *store.Writer
	if opts.Store != nil {
		// A store that fails costs the raw artifact, never the output.
		m := store.Manifest{
			Started: env.Started, MaxRaw: opts.MaxRaw,
			Streams: []store.StreamDesc{{ID: store.StreamStdout, Name: "stdout"}, {ID: store.StreamStderr, Name: "stderr"}},
		}
		m.SetExact(argv, cwd, stdinName) // the only place the exact values are kept
		m.Executable = exe
		if blob, err = opts.Store.NewWriter(); err == nil {
			if c.art, err = store.NewArtifactWriter(blob, m); err != nil {
				blob.Abort()
				blob = nil
			}
		}
		if err != nil {
			env.setStoreError("raw artifact not kept", err)
		}
	}

	if err := p.start(); err != nil {
		if blob != nil {
			blob.Abort()
		}
		closePipes(pipes[:])
		return Envelope{}, fmt.Errorf("capture: %w", err)
	}
	// The command holds the write ends now; the collector must not, or the
	// pipes would never reach end of file.
	pipes[0].w.Close()
	pipes[1].w.Close()

	var readers sync.WaitGroup
	for i := range pipes {
		readers.Go(func() { c.drain(&c.streams[i], pipes[i].r) })
	}
	readersDone := make(chan struct{})
	go func() { readers.Wait(); close(readersDone) }()

	kctx := ctx
	if opts.Timeout > 0 {
		var cancel context.CancelFunc
		kctx, cancel = context.WithTimeoutCause(ctx, opts.Timeout, errTimeout)
		defer cancel()
	}
	select {
	case <-p.done():
	case <-kctx.Done():
		env.TimedOut = errors.Is(context.Cause(kctx), errTimeout)
		env.Canceled = !env.TimedOut
		p.teardown()
		<-p.done()
	}
	// The command has ended; what its descendants still write is read
	// for at most the wait delay.
	select {
	case <-readersDone:
	case <-time.After(opts.WaitDelay):
		env.WaitDelayExpired = true
		for i := range pipes {
			pipes[i].r.SetReadDeadline(time.Now())
		}
		<-readersDone
	}
	end := time.Now()
	// Nothing the command started outlives the collection.
	p.teardown()
	st, werr := p.wait()
	for i := range pipes {
		pipes[i].r.Close()
	}
	if werr != nil {
		if blob != nil {
			blob.Abort()
		}
		return Envelope{}, fmt.Errorf("capture: %w", werr)
	}
	env.DurationMS = end.Sub(c.start).Milliseconds()
	env.ExitCode = st.code
	env.Signal = env.cleanField("signal", st.signal)

	for i := range c.streams {
		s := &c.streams[i]
		s.san.Close()
		text := s.text.finish()
		rep := s.san.Report()
		es := EnvelopeStream{
			Removed:      rep.Removed != (sanitize.Counts{}) || rep.Kept.VTFF != 0 || rep.BytesSwallowed != 0,
			Report:       rep,
			Truncated:    text.omitted != nil,
			BytesRaw:     s.raw,
			BytesCleaned: s.text.total,
			BytesKept:    int64(len(text.head) + len(text.tail)),
			Lines:        s.text.lines(),
		}
		if c.art != nil {
			es.BytesRawStored = c.art.Stored(s.id)
			es.RawTruncated = es.BytesRawStored < s.raw
		}
		if i == 0 {
			env.Stdout, env.StdoutOmitted, env.StdoutTail, env.Streams.Stdout = text.head, text.omitted, text.tail, es
		} else {
			env.Stderr, env.StderrOmitted, env.StderrTail, env.Streams.Stderr = text.head, text.omitted, text.tail, es
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
		var ref store.Ref
		if serr == nil {
			ref, serr = blob.Commit()
		} else {
			blob.Abort()
		}
		switch {
		case serr != nil:
			env.setStoreError("raw artifact not kept", serr)
		case blob.SidecarErr() != nil:
			// The excerpt calls would fail: no cleaned text to read.
			env.RawArtifact = ref.String()
			env.setStoreError("cleaned text not kept", blob.SidecarErr())
		default:
			env.RawArtifact = ref.String()
			env.setExcerpts()
		}
	}
	return env, nil
}

// limits returns the limits in force, for the envelope.
func (o *RunOptions) limits() Limits {
	return Limits{
		MaxOutput:   o.MaxOutput,
		MaxRaw:      o.MaxRaw,
		MaxChunks:   o.MaxChunks,
		TimeoutMS:   o.Timeout.Milliseconds(),
		KillGraceMS: o.KillGrace.Milliseconds(),
		WaitDelayMS: o.WaitDelay.Milliseconds(),
		Policy:      o.Sanitize.String(),
	}
}

// setStoreError records why the store failed, cleaned like metadata (the
// message may name the store's path).
func (e *Envelope) setStoreError(what string, err error) {
	e.StoreError, _ = CleanField(what + ": " + err.Error())
}

// proc is a started command as the collector sees it.
type proc interface {
	// start starts the command; an error means it did not run.
	start() error
	// done is closed when the command itself has ended.
	done() <-chan struct{}
	// teardown kills whatever the command started that is still
	// running: SIGTERM, then SIGKILL after the grace period. It may be
	// called more than once.
	teardown()
	// wait waits until every process is gone and returns how the
	// command ended.
	wait() (procStatus, error)
}

// procStatus is how a command ended.
type procStatus struct {
	known  bool   // the status was reported
	code   int    // exit code, or -1 for a signal or an unknown end
	signal string // the signal's name, or ""
}

// setMetadata sets Command, Argv, Executable, Cwd and Stdin from the exact values,
// each cleaned by CleanField, and lists in MetadataCleaned those that
// changed.
func (e *Envelope) setMetadata(argv []string, exe, cwd, stdin string) {
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
	e.Executable = e.cleanField("executable", exe)
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
	progress  func(stdout, stderr int64) // RunOptions.Progress
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
	text *textKeeper
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
	if c.progress != nil {
		c.progress(c.streams[0].raw, c.streams[1].raw)
	}
}

// workDir returns the absolute working directory of the command: dir,
// which must be a directory, or the collector's own when dir is empty.
// It checks dir before the start, whose error would name the reaper's
// executable instead.
func workDir(dir string) (string, error) {
	if dir == "" {
		return os.Getwd()
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", err
	}
	fi, err := os.Stat(abs)
	switch {
	case err != nil:
		return "", fmt.Errorf("working directory %s: %w", abs, errors.Unwrap(err))
	case !fi.IsDir():
		return "", fmt.Errorf("working directory %s is not a directory", abs)
	}
	return abs, nil
}

func closePipes(ps []struct{ r, w *os.File }) {
	for _, p := range ps {
		if p.r != nil {
			p.r.Close()
			p.w.Close()
		}
	}
}
