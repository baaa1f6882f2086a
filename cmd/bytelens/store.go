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
		Use:   "store",
		Short: "List and prune the restricted store of raw artifacts and envelopes",
		Long: `The restricted store keeps raw artifacts (the bytes bytelens run
collected, named by their SHA-256) and, with run --save-envelope, the
cleaned envelopes linked to them. It lives in $BYTELENS_STORE, else
$XDG_STATE_HOME/bytelens/store, else ~/.local/state/bytelens/store, with
directories 0700 and files 0600.`,
		Args: cobra.NoArgs,
	}
	cmd.AddCommand(newStoreLsCmd(s), newStorePruneCmd(s), newKeygenCmd(s)) // keygen: keys.go
	return cmd
}

func newStoreLsCmd(s *streams) *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "ls",
		Short: "List what the store holds: reference, kind, bytes, time, command",
		Args:  cobra.NoArgs,
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
		Use:   "prune --raw-older-than D --envelopes-older-than D",
		Short: "Remove raw artifacts and envelopes, each kind on its own schedule",
		Long: `Prune removes raw artifacts older than --raw-older-than and envelopes
older than --envelopes-older-than, and the cleaned text kept for
bytelens excerpt older than --clean-older-than; a kind whose flag is not given is kept.
Ages are Go durations (90m, 36h) or whole days (30d). Temporary files
left by a run that died are removed too; a file that a run is writing is
locked and never removed, whatever its age.`,
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
