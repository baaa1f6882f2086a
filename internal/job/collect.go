package job

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"os/signal"
	"syscall"

	"github.com/bytelens/bytelens/capture"
	"github.com/bytelens/bytelens/capture/store"
	"github.com/bytelens/bytelens/excerpt"
	"github.com/bytelens/bytelens/internal/command"
	"github.com/bytelens/bytelens/iostreams"
	"github.com/bytelens/bytelens/render"
)

// Collect says how Env.Collect runs a command, beyond its
// capture.RunOptions.
type Collect struct {
	// Stdin is the file the command reads as stdin ("" for /dev/null).
	Stdin string
	// Decision is the file of an approval record attached to the
	// envelope (capture.ReadDecision), "" for none.
	Decision string
	// NoStore keeps no raw artifact; SaveEnvelope keeps the envelope in
	// the store too, linked to it.
	NoStore, SaveEnvelope bool
	// Keys, when not nil, gives the default store (store.OpenDefault)
	// the keys that seal raw artifacts at rest.
	Keys func(*store.Store) error
}

// Collect runs args[0] with the arguments args[1:] under o (capture.Run)
// and returns its envelope. The raw bytes go to the default store, with
// the cleaned text beside them for bytelens excerpt; a store that cannot
// be opened costs the raw artifact only, and the envelope's store_error
// says why. SIGINT, SIGTERM and SIGHUP stop the command. A spinner on
// e.TTY shows the bytes read from each stream. Errors: a record that
// c.Decision refuses is a usage error; the errors of c.Keys; a file that
// cannot be read and a command that cannot be started are failures.
func (e Env) Collect(ctx context.Context, args []string, o capture.RunOptions, c Collect) (capture.Envelope, error) {
	var err error
	if c.Decision != "" {
		if o.Decision, err = readDecision(c.Decision); err != nil {
			return capture.Envelope{}, err
		}
	}
	var storeErr error
	if !c.NoStore {
		if o.Store, storeErr = store.OpenDefault(); storeErr == nil {
			o.Store.SetSidecar(excerpt.Sidecar(o.Sanitize))
			if c.Keys != nil {
				if err := c.Keys(o.Store); err != nil {
					return capture.Envelope{}, err
				}
			}
		}
	}
	if ctx == nil {
		ctx = context.Background()
	}
	ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM, syscall.SIGHUP)
	defer stop()
	cmd := exec.Command(args[0], args[1:]...)
	if c.Stdin != "" {
		in, err := openStdin(ctx, c.Stdin)
		if err != nil {
			return capture.Envelope{}, err
		}
		defer in.Close()
		cmd.Stdin, o.StdinName = in, c.Stdin
	}
	p, counted := iostreams.RunProgress(e.TTY, args[0])
	o.Progress = counted
	env, err := capture.Run(ctx, cmd, o)
	p.Finish()
	if err != nil {
		return env, err
	}
	if storeErr != nil {
		env.StoreError, _ = capture.CleanField("raw artifact not kept: " + storeErr.Error() + " (set BYTELENS_STORE to a private directory, mode 0700, or pass --no-store)")
	}
	if c.SaveEnvelope {
		env.SaveTo(o.Store)
	}
	return env, nil
}

// openStdin opens path for the command's stdin. A directory, which the
// command would fail to read, is refused with an error wrapping
// capture.ErrIsDir; a character device other than the harmless ones
// (harmlessDevice) is refused too: through a descriptor of your terminal
// the command can reopen it for writing (/proc/self/fd/0, even under
// --isolate, whose /dev holds none of your terminals) and write control
// sequences to your screen, or change its settings. Opening a FIFO waits for a writer; when ctx ends
// first (a signal), it returns an error wrapping ctx's, and the open
// left waiting closes what it opens.
func openStdin(ctx context.Context, path string) (*os.File, error) {
	type opened struct {
		f   *os.File
		err error
	}
	done := make(chan opened, 1)
	go func() {
		f, err := os.Open(path)
		done <- opened{f, err}
	}()
	var in *os.File
	select {
	case o := <-done:
		if o.err != nil {
			return nil, fmt.Errorf("--stdin: %w", o.err)
		}
		in = o.f
	case <-ctx.Done():
		go func() {
			if o := <-done; o.f != nil {
				o.f.Close()
			}
		}()
		return nil, render.Errorf("--stdin: %s: stopped while waiting for a writer: %w", path, context.Cause(ctx))
	}
	fi, err := in.Stat()
	switch {
	case err != nil:
		err = fmt.Errorf("--stdin: %w", err)
	case fi.IsDir():
		err = render.Errorf("--stdin: %s %w, not a file", path, capture.ErrIsDir)
	case fi.Mode()&fs.ModeCharDevice != 0 && !harmlessDevice(fi):
		err = render.Errorf("--stdin: %s is a terminal or device, which the command could write to through it: give a file or a pipe", path)
	default:
		return in, nil
	}
	in.Close()
	return nil, err
}

// harmlessDevice reports whether fi is one of the devices that run
// --isolate binds into the command's /dev: null, zero, full, random,
// urandom. Writing to them through a reopened stdin reaches nobody.
func harmlessDevice(fi fs.FileInfo) bool {
	for _, name := range []string{"null", "zero", "full", "random", "urandom"} {
		if dev, err := os.Stat("/dev/" + name); err == nil && os.SameFile(fi, dev) {
			return true
		}
	}
	return false
}

// readDecision reads the approval record in the file path
// (capture.ReadDecision); a record it refuses is a usage error.
func readDecision(path string) (json.RawMessage, error) {
	fh, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("--decision: %w", err)
	}
	defer fh.Close()
	b, err := capture.ReadDecision(fh)
	switch {
	case errors.Is(err, capture.ErrDecision):
		return nil, command.Usagef("--decision: %q: %v", path, err)
	case err != nil:
		return nil, fmt.Errorf("--decision: %w", err)
	}
	return b, nil
}

// Envelope forms of bytelens run besides JSON.
const (
	FormJSON    = ""        // one line of JSON
	FormCompact = "compact" // JSON without zero counters, empty fields and chunks
	FormText    = "text"    // a labelled form for people
	FormAgent   = "agent"   // cleaned stdout, [stderr], a [bytelens: ...] footer
)

// WriteEnvelope writes env to w in form. The text forms are for people
// and agents: what cleaning keeps (format characters under
// --format-chars keep, invisible fillers) is escaped too
// (render.InertWriter).
func WriteEnvelope(w io.Writer, env *capture.Envelope, form string) error {
	switch form {
	case FormAgent:
		return env.WriteAgentText(render.InertWriter(w))
	case FormText:
		return env.WriteText(render.InertWriter(w))
	}
	js, err := env.JSON(form == FormCompact)
	if err != nil {
		return err
	}
	_, err = w.Write(js)
	return err
}
