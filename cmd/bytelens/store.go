package main

import (
	"time"

	"github.com/bytelens/bytelens/capture"
	"github.com/bytelens/bytelens/capture/store"
	"github.com/bytelens/bytelens/internal/command"
	"github.com/bytelens/bytelens/internal/job"
	"github.com/bytelens/bytelens/render"
	"github.com/bytelens/bytelens/seal"
	"github.com/spf13/cobra"
)

func newStoreCmd(s *streams) *cobra.Command {
	cmd := withHelp("store", &cobra.Command{
		Use:  "store",
		Args: cobra.NoArgs,
	})
	cmd.AddCommand(newStoreLsCmd(s), newStorePruneCmd(s), newKeygenCmd(s))
	return cmd
}

func newStoreLsCmd(s *streams) *cobra.Command {
	var asJSON bool
	cmd := withHelp("store-ls", &cobra.Command{
		Use:  "ls",
		Args: cobra.NoArgs,
		RunE: func(*cobra.Command, []string) error {
			st, err := openStore()
			if err != nil {
				return err
			}
			es, err := st.List()
			if err != nil {
				return err
			}
			return job.ListStore(s.stdout, s.out, es, asJSON)
		},
	})
	cmd.Flags().BoolVar(&asJSON, "json", false, "print one JSON object per line")
	return cmd
}

func newStorePruneCmd(s *streams) *cobra.Command {
	var rawAge, envAge, cleanAge store.Age
	var dryRun bool
	cmd := withHelp("store-prune", &cobra.Command{
		Use:  "prune --raw-older-than D --envelopes-older-than D",
		Args: cobra.NoArgs,
		RunE: func(*cobra.Command, []string) error {
			if !rawAge.IsSet() && !envAge.IsSet() && !cleanAge.IsSet() {
				return usagef("give --raw-older-than, --envelopes-older-than, --clean-older-than or several")
			}
			st, err := openStore()
			if err != nil {
				return err
			}
			now := time.Now()
			removed, err := st.Prune(store.PruneOptions{DryRun: dryRun, TempBefore: now,
				RawBefore: rawAge.Before(now), EnvelopesBefore: envAge.Before(now), CleanBefore: cleanAge.Before(now)})
			verb := "removed"
			if dryRun {
				verb = "would remove"
			}
			for _, e := range removed {
				s.out.Printf("%s %s %s\n", verb, e.Kind, capture.EntryName(e))
			}
			return err
		},
	})
	fs := cmd.Flags()
	fs.Var(&rawAge, "raw-older-than", "remove raw artifacts older than `D`")
	fs.Var(&envAge, "envelopes-older-than", "remove envelopes older than `D`")
	fs.Var(&cleanAge, "clean-older-than", "remove the cleaned text kept for excerpt older than `D`")
	fs.BoolVar(&dryRun, "dry-run", false, "print what would be removed and remove nothing")
	return cmd
}

// keys are the global key flags; newRoot binds them afresh for each run,
// and every store this package opens gets them.
var keys *command.Keys

// openStore opens the default store with the key flags' sealer.
func openStore() (*store.Store, error) { return keys.OpenStore() }

func newKeygenCmd(s *streams) *cobra.Command {
	return withHelp("store-keygen", &cobra.Command{
		Use:  "keygen FILE",
		Args: cobra.ExactArgs(1),
		RunE: func(_ *cobra.Command, args []string) error {
			r, err := seal.Keygen(args[0])
			if err != nil {
				return err
			}
			return s.out.Println(render.TextString(r))
		},
	})
}
