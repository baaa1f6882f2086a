package main

import (
	"context"
	"github.com/bytelens/bytelens/capture"
	"os"
	"os/signal"
	"syscall"

	"github.com/bytelens/bytelens/capture/store"
	"github.com/bytelens/bytelens/mcpserver"
	"github.com/spf13/cobra"
)

func newMCPCmd(s *streams) *cobra.Command {
	maxOutput, maxRaw := store.Bytes(capture.DefaultMaxOutput), store.Bytes(capture.DefaultMaxRaw)
	var isolate bool
	cmd := withHelp("mcp", &cobra.Command{
		Use:  "mcp",
		Args: cobra.NoArgs,
	})
	policy := addPolicyFlags(cmd.Flags())
	cmd.Flags().Var(&maxOutput, "max-output", "cleaned `bytes` of each stream in a run result (suffixes K, M, G)")
	cmd.Flags().Var(&maxRaw, "max-raw", "raw `bytes` stored per stream (suffixes K, M, G; -1 no limit)")
	cmd.Flags().BoolVar(&isolate, "isolate", false, "run each command as bytelens run --isolate does (Linux namespaces); run calls fail where they are unavailable")
	cmd.RunE = func(*cobra.Command, []string) error {
		o := mcpserver.Options{Sanitize: *policy, MaxOutput: int64(maxOutput), MaxRaw: int64(maxRaw), Log: s.stderr, Isolate: isolate, Version: currentVersion().Version}
		// Without a usable store the server still runs, and says why.
		if o.Store, o.StoreErr = store.OpenDefault(); o.Store != nil {
			if err := keys.Use(o.Store); err != nil {
				return err
			}
		}
		ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
		defer stop()
		return mcpserver.Serve(ctx, s.stdin, s.stdout, o)
	}
	return cmd
}
