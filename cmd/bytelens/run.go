package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"syscall"
	"time"

	"github.com/bytelens/bytelens/capture"
	"github.com/bytelens/bytelens/capture/store"
	"github.com/bytelens/bytelens/excerpt"
	"github.com/bytelens/bytelens/iostreams"
	"github.com/bytelens/bytelens/render"
	"github.com/bytelens/bytelens/sanitize"
	"github.com/spf13/cobra"
)

type runFlags struct {
	maxOutput, maxRaw             store.Bytes
	timeout, waitDelay, killGrace time.Duration
	stdin, decision               string
	text, saveEnvelope, noStore   bool
	compact, exitCode             bool
	agent, isolate                bool
	policy                        *sanitize.Options
}

func newRunCmd(s *streams) *cobra.Command {
	f := &runFlags{maxOutput: capture.DefaultMaxOutput, maxRaw: capture.DefaultMaxRaw, waitDelay: capture.DefaultWaitDelay}
	cmd := &cobra.Command{
		Use:   "run [flags] -- CMD [ARG...]",
		Short: "Run a command with pipes and print its cleaned output as a JSON envelope",
		Long: `Run runs CMD with pipes (never a pseudo-terminal), stdin from /dev/null
unless --stdin, in a new session without a controlling terminal: /dev/tty
fails for it. With --isolate (Linux) it also runs in new user, PID and
mount namespaces, where it can neither see nor signal bytelens nor open
your terminals by name (README: what it does not protect). stdout and
stderr are each cleaned by their own streaming
sanitizer; the raw bytes go to the restricted store ($BYTELENS_STORE, else
$XDG_STATE_HOME/bytelens/store, else ~/.local/state/bytelens/store) and
the envelope references them.

Nothing CMD starts outlives run: when CMD has ended and its output is
read (or --wait-delay passed), at --timeout, or when bytelens gets
SIGINT, SIGTERM or SIGHUP, every process it started is killed (SIGTERM,
then SIGKILL after --kill-grace), those that left its session included
(Linux: a child subreaper adopts them); they are killed too if bytelens
itself is killed.

Each stream keeps its head and tail within --max-output; the envelope
says which lines and bytes lie between them and the excerpt command that
prints them.

It prints one JSON object, schema bytelens.envelope/v2 (docs/envelope.md),
--compact without zero counters, empty fields and the chunk list, or with
--text a labelled form for people. The command's exit code is in the
envelope's exit_code field. bytelens run exits 0 when it printed an
envelope, whatever the command's exit code (with --exit-code: the
command's own status, 128+N for signal N); 1 when it could not run the
command; 2 for a usage error. A store that fails (full, read-only, not
private) costs the raw artifact only: the envelope is printed with
store_error saying why.`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error { return runRun(cmd.Context(), s, f, args) },
	}
	fs := cmd.Flags()
	fs.SetInterspersed(false)
	fs.Var(&f.maxOutput, "max-output", "cleaned `bytes` kept per stream in the envelope (suffixes K, M, G; -1 no limit)")
	fs.Var(&f.maxRaw, "max-raw", "raw `bytes` stored per stream (suffixes K, M, G; -1 no limit)")
	fs.DurationVar(&f.timeout, "timeout", 0, "kill the command's process group after this `duration` (0: no limit)")
	fs.DurationVar(&f.killGrace, "kill-grace", 0, "send SIGTERM and wait this `duration` before SIGKILL (0: SIGKILL at once)")
	fs.DurationVar(&f.waitDelay, "wait-delay", capture.DefaultWaitDelay, "stop reading this `duration` after the command exits if a grandchild holds a pipe")
	fs.StringVar(&f.stdin, "stdin", "", "read the command's stdin from `FILE` instead of /dev/null")
	fs.StringVar(&f.decision, "decision", "", "attach the approval record in JSON `FILE` as the envelope's decision field (its strings may hold no control character but TAB and LF)")
	fs.BoolVar(&f.text, "text", false, "print a labelled form for people instead of JSON")
	fs.BoolVar(&f.agent, "agent", false, "print the cleaned stdout, then the cleaned stderr after a [stderr] line, then one [bytelens: ...] footer line (for coding-agent hooks)")
	fs.BoolVar(&f.saveEnvelope, "save-envelope", false, "also keep the envelope in the store, linked to the raw artifact")
	fs.BoolVar(&f.noStore, "no-store", false, "keep no raw artifact (raw_artifact is empty)")
	fs.BoolVar(&f.compact, "compact", false, "leave zero counters, empty fields and the chunk list out of the JSON envelope")
	fs.BoolVar(&f.exitCode, "exit-code", false, "exit with the command's own status (128+N for signal N) once the envelope is printed")
	fs.BoolVar(&f.isolate, "isolate", false, "Linux: run the command in its own user, PID and mount namespaces (fails where they are unavailable)")
	f.policy = addPolicyFlags(fs)
	return cmd
}

func runRun(ctx context.Context, s *streams, f *runFlags, args []string) error {
	if f.noStore && f.saveEnvelope {
		return usagef("--save-envelope needs the store; drop --no-store")
	}
	sopts := *f.policy
	opts := capture.RunOptions{
		Sanitize:  sopts,
		MaxOutput: int64(f.maxOutput),
		MaxRaw:    int64(f.maxRaw),
		Timeout:   f.timeout,
		KillGrace: f.killGrace,
		WaitDelay: f.waitDelay,
		Isolate:   f.isolate,
	}
	if opts.MaxOutput == 0 || opts.MaxRaw == 0 {
		return usagef("--max-output and --max-raw must be positive, or -1 for no limit")
	}
	if f.decision != "" {
		var err error
		if opts.Decision, err = readDecision(f.decision); err != nil {
			return err
		}
	}
	if f.text && f.compact {
		return usagef("--compact shapes the JSON envelope; drop it or --text")
	}
	if f.agent && (f.text || f.compact) {
		return usagef("--agent is its own output form; drop --text and --compact")
	}
	// A store that cannot be opened costs the raw artifact, not the run.
	var storeErr error
	if !f.noStore {
		if opts.Store, storeErr = store.OpenDefault(); storeErr == nil {
			opts.Store.SetSidecar(excerpt.Sidecar(sopts)) // the cleaned text for bytelens excerpt
			if err := useKeys(opts.Store); err != nil {
				return err
			}
		}
	}
	if ctx == nil {
		ctx = context.Background()
	}
	ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM, syscall.SIGHUP)
	defer stop()

	c := exec.Command(args[0], args[1:]...)
	if f.stdin != "" {
		in, err := os.Open(f.stdin)
		if err != nil {
			return fmt.Errorf("--stdin: %w", err)
		}
		defer in.Close()
		c.Stdin, opts.StdinName = in, f.stdin
	}
	p, counted := iostreams.RunProgress(s.tty, args[0])
	opts.Progress = counted
	env, err := capture.Run(ctx, c, opts)
	p.Finish()
	if err != nil {
		return err
	}
	if storeErr != nil {
		env.StoreError, _ = capture.CleanField("raw artifact not kept: " + storeErr.Error() + " (set BYTELENS_STORE to a private directory, mode 0700, or pass --no-store)")
	}
	if f.saveEnvelope {
		env.SaveTo(opts.Store)
	}
	if err := writeEnvelope(s, &env, f); err != nil {
		return err
	}
	if f.exitCode {
		return exitError{env.ExitStatus()}
	}
	return nil
}

// writeEnvelope prints env as --agent, --text, --compact or plain JSON
// ask. The text forms are for people and agents: what cleaning keeps
// (format characters under --format-chars keep, invisible fillers) is
// escaped too.
func writeEnvelope(s *streams, env *capture.Envelope, f *runFlags) error {
	switch {
	case f.agent:
		return env.WriteAgentText(render.InertWriter(s.stdout))
	case f.text:
		return env.WriteText(render.InertWriter(s.stdout))
	}
	js, err := env.JSON(f.compact)
	if err != nil {
		return err
	}
	_, err = s.stdout.Write(js)
	return err
}

// readDecision reads the --decision file (capture.ReadDecision); a record
// it refuses is a usage error.
func readDecision(path string) (json.RawMessage, error) {
	fh, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("--decision: %w", err)
	}
	defer fh.Close()
	b, err := capture.ReadDecision(fh)
	switch {
	case errors.Is(err, capture.ErrDecision):
		return nil, usagef("--decision: %q: %v", path, err)
	case err != nil:
		return nil, fmt.Errorf("--decision: %w", err)
	}
	return b, nil
}
