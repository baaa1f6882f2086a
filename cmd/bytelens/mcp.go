package main

import (
	"context"
	"io"
	"os"
	"os/signal"
	"syscall"

	"github.com/bytelens/bytelens/capture/store"
	"github.com/bytelens/bytelens/mcpserver"
	"github.com/spf13/cobra"
)

func newMCPCmd(s *streams) *cobra.Command {
	var maxOutput, maxRaw store.Bytes
	var isolate bool
	cmd := &cobra.Command{
		Use:   "mcp",
		Short: "Serve the run, excerpt, report and verify tools over MCP on stdio",
		Long: `Mcp is a Model Context Protocol server on stdin and stdout (newline-
delimited JSON-RPC). Its tools give an agent cleaned text only:

  run      run a command (argv, no shell) with pipes and a time limit
           (default 120 s); the cleaned output, what was removed, and ref
  excerpt  lines from..to of a record, or the lines matching a pattern
  report   the removal report of a record or of a line range
  verify   whether a file holds a record's raw bytes (digests only)

Records go to the restricted store ($BYTELENS_STORE, else
$XDG_STATE_HOME/bytelens/store); without a usable store, run still works
and says why no record was kept. Standard output carries JSON-RPC only;
logs go to standard error, escaped.`,
		Args: cobra.NoArgs,
	}
	policy := addPolicyFlags(cmd.Flags())
	cmd.Flags().Var(&maxOutput, "max-output", "cleaned `bytes` of each stream in a run result (suffixes K, M, G)")
	cmd.Flags().Var(&maxRaw, "max-raw", "raw `bytes` stored per stream (suffixes K, M, G; -1 no limit)")
	cmd.Flags().BoolVar(&isolate, "isolate", false, "run each command as bytelens run --isolate does (Linux namespaces); run calls fail where they are unavailable")
	cmd.RunE = func(cmd *cobra.Command, _ []string) error {
		sopts := *policy
		o := mcpserver.Options{Sanitize: sopts, MaxOutput: int64(maxOutput), MaxRaw: int64(maxRaw), Log: s.stderr, Isolate: isolate}
		o.Store, o.StoreErr = store.OpenDefault()
		if o.Store != nil {
			if err := useKeys(o.Store); err != nil {
				return err
			}
		}
		ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
		defer stop()
		return mcpserver.Serve(ctx, io.NopCloser(s.stdin), nopWriteCloser{s.stdout}, o)
	}
	return cmd
}

type nopWriteCloser struct{ io.Writer }

func (nopWriteCloser) Close() error { return nil }
