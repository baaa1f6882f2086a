package main

import (
	"context"
	"time"

	"github.com/bytelens/bytelens/capture"
	"github.com/bytelens/bytelens/capture/store"
	"github.com/bytelens/bytelens/internal/command"
	"github.com/bytelens/bytelens/internal/job"
	"github.com/bytelens/bytelens/sanitize"
	"github.com/spf13/cobra"
)

// runFlags are the flags of run.
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
	cmd := withHelp("run", &cobra.Command{
		Use:  "run [flags] -- CMD [ARG...]",
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error { return runRun(cmd.Context(), s, f, args) },
	})
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

// runRun checks the combinations of f, collects the command args
// (job.Env.Collect) and prints its envelope in the form asked; with
// --exit-code it exits with the command's own status.
func runRun(ctx context.Context, s *streams, f *runFlags, args []string) error {
	for _, d := range []struct {
		flag, zero string // zero: what 0 means
		d          time.Duration
	}{{"--timeout", "no limit", f.timeout}, {"--kill-grace", "SIGKILL at once", f.killGrace}, {"--wait-delay", "the default, 1s", f.waitDelay}} {
		if d.d < 0 {
			return usagef("%s %v: a duration must not be negative (0: %s)", d.flag, d.d, d.zero)
		}
	}
	form := job.FormJSON
	switch {
	case f.noStore && f.saveEnvelope:
		return usagef("--save-envelope needs the store; drop --no-store")
	case f.maxOutput == 0 || f.maxRaw == 0:
		return usagef("--max-output and --max-raw must be positive, or -1 for no limit")
	case f.text && f.compact:
		return usagef("--compact shapes the JSON envelope; drop it or --text")
	case f.agent && (f.text || f.compact):
		return usagef("--agent is its own output form; drop --text and --compact")
	case f.agent:
		form = job.FormAgent
	case f.text:
		form = job.FormText
	case f.compact:
		form = job.FormCompact
	}
	opts := capture.RunOptions{
		Sanitize:  *f.policy,
		MaxOutput: int64(f.maxOutput),
		MaxRaw:    int64(f.maxRaw),
		Timeout:   f.timeout,
		KillGrace: f.killGrace,
		WaitDelay: f.waitDelay,
		Isolate:   f.isolate,
	}
	env, err := s.env().Collect(ctx, args, opts, job.Collect{Stdin: f.stdin, Decision: f.decision, NoStore: f.noStore, SaveEnvelope: f.saveEnvelope, Keys: keys.Use})
	if err != nil {
		return err
	}
	if err := job.WriteEnvelope(s.stdout, &env, form); err != nil {
		return err
	}
	if f.exitCode {
		return command.ExitError{Code: env.ExitStatus()}
	}
	return nil
}
