package main

import (
	"time"

	"github.com/bytelens/bytelens/capture"
	"github.com/bytelens/bytelens/capture/store"
	"github.com/bytelens/bytelens/internal/command"
	"github.com/bytelens/bytelens/render"
	"github.com/bytelens/bytelens/safejson"
	"github.com/bytelens/bytelens/seal"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
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
			if asJSON {
				enc := safejson.NewEncoder(s.stdout)
				for _, e := range es {
					if err := enc.Encode(capture.NewStoreEntry(e)); err != nil {
						return err
					}
				}
				return nil
			}
			tw := s.out.Columns(0, 0, 2)
			tw.Printf("REFERENCE\tKIND\tBYTES\tTIME\tCOMMAND\n")
			for _, e := range es {
				tw.Printf("%s\t%s\t%d\t%s\t%s\n", capture.EntryName(e), e.Kind, e.Size, e.ModTime.UTC().Format(time.RFC3339), capture.EntryCommand(e))
			}
			return tw.Flush()
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

// openStore opens the default store with a hint on failure.
func openStore() (*store.Store, error) {
	st, err := store.OpenDefault()
	if err != nil {
		return nil, render.HintError{Err: err, Tip: "set BYTELENS_STORE to a private directory (mode 0700)"}
	}
	return st, useKeys(st)
}

// openRef parses the REF argument and opens the store it is read from.
func openRef(arg string) (*store.Store, store.Ref, error) {
	ref, err := store.ParseRef(arg)
	if err != nil {
		return nil, ref, err
	}
	st, err := openStore()
	return st, ref, err
}

// keyFlags are the global --encrypt-to and --identity flags. newRoot
// binds them afresh for each run, and every store this package opens
// gets them through useKeys.
var keyFlags struct{ encryptTo, identity string }

// addKeyFlags registers the key flags on the root's persistent flags.
func addKeyFlags(fs *pflag.FlagSet) {
	keyFlags.encryptTo, keyFlags.identity = "", ""
	fs.StringVar(&keyFlags.encryptTo, "encrypt-to", "", "encrypt new raw artifacts to these age `RECIPIENTS` (age1..., comma-separated, or a file of them; default $"+seal.EnvRecipients+")")
	fs.StringVar(&keyFlags.identity, "identity", "", "age identity `FILE` that decrypts encrypted raw artifacts (default $"+seal.EnvIdentity+")")
}

// useKeys gives st the sealer the key flags or their environment
// variables name, if any.
func useKeys(st *store.Store) error {
	sl, err := seal.FromFlags(keyFlags.encryptTo, keyFlags.identity)
	if err != nil {
		return command.UsageError{Err: err}
	}
	if sl != nil {
		st.SetSealer(sl)
	}
	return nil
}

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
