package main

import (
	"time"

	"github.com/bytelens/bytelens/capture"
	"github.com/bytelens/bytelens/capture/store"
	"github.com/bytelens/bytelens/safejson"
	"github.com/spf13/cobra"
)

func newStoreCmd(s *streams) *cobra.Command {
	cmd := &cobra.Command{
		Use:     "store",
		Short:   "List and prune the restricted store of raw artifacts and envelopes",
		Long:    help("store"),
		Example: help("store.example"),
		Args:    cobra.NoArgs,
	}
	cmd.AddCommand(newStoreLsCmd(s), newStorePruneCmd(s), newKeygenCmd(s)) // keygen: keys.go
	return cmd
}

func newStoreLsCmd(s *streams) *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:     "ls",
		Short:   "List what the store holds: reference, kind, bytes, time, command",
		Long:    help("store-ls"),
		Example: help("store-ls.example"),
		Args:    cobra.NoArgs,
		RunE: func(*cobra.Command, []string) error {
			st, err := openStore()
			if err != nil {
				return err
			}
			es, err := st.List()
			if err != nil {
				return err
			}
			if asJSON {
				return writeEntriesJSON(s, es)
			}
			tw := s.out.Columns(0, 0, 2)
			tw.Printf("REFERENCE\tKIND\tBYTES\tTIME\tCOMMAND\n")
			for _, e := range es {
				tw.Printf("%s\t%s\t%d\t%s\t%s\n", capture.EntryName(e), e.Kind, e.Size, e.ModTime.UTC().Format(time.RFC3339), capture.EntryCommand(e))
			}
			return tw.Flush()
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print one JSON object per line")
	return cmd
}

func writeEntriesJSON(s *streams, es []store.Entry) error {
	enc := safejson.NewEncoder(s.stdout)
	for _, e := range es {
		if err := enc.Encode(capture.NewStoreEntry(e)); err != nil {
			return err
		}
	}
	return nil
}

func newStorePruneCmd(s *streams) *cobra.Command {
	var rawAge, envAge, cleanAge store.Age
	var dryRun bool
	cmd := &cobra.Command{
		Use:     "prune --raw-older-than D --envelopes-older-than D",
		Short:   "Remove raw artifacts and envelopes, each kind on its own schedule",
		Long:    help("store-prune"),
		Example: help("store-prune.example"),
		Args:    cobra.NoArgs,
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
	}
	fs := cmd.Flags()
	fs.Var(&rawAge, "raw-older-than", "remove raw artifacts older than `D`")
	fs.Var(&envAge, "envelopes-older-than", "remove envelopes older than `D`")
	fs.Var(&cleanAge, "clean-older-than", "remove the cleaned text kept for excerpt older than `D`")
	fs.BoolVar(&dryRun, "dry-run", false, "print what would be removed and remove nothing")
	return cmd
}

// openStore opens the default store with a hint on failure.
func openStore() (*store.Store, error) {
	st, err := store.OpenDefault()
	if err != nil {
		return nil, hintError{err, "set BYTELENS_STORE to a private directory (mode 0700)"}
	}
	return st, useKeys(st)
}
