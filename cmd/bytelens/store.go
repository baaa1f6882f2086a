package main

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/bytelens/bytelens/capture"
	"github.com/bytelens/bytelens/capture/store"
	"github.com/bytelens/bytelens/safejson"
	"github.com/spf13/cobra"
)

func init() { subcommands = append(subcommands, newStoreCmd) }

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
				ref, command := e.Ref.String(), "-"
				switch {
				case e.Kind == store.KindTemp:
					ref, command = capture.ShellQuote([]string{e.Name}), tempState(e)
				case e.Argv != nil:
					command = capture.ShellQuote(e.Argv)
				}
				tw.Printf("%s\t%s\t%d\t%s\t%s\n", ref, e.Kind, e.Size, e.ModTime.UTC().Format(time.RFC3339), command)
			}
			return tw.Flush()
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print one JSON object per line")
	return cmd
}

// tempState says what a temporary file is, for store ls.
func tempState(e store.Entry) string {
	if e.InProgress {
		return "(being written by a run)"
	}
	return "(left by a run that died; store prune removes it)"
}

type entryJSON struct {
	Ref  string `json:"ref,omitempty"`
	Kind string `json:"kind"`
	// Name and InProgress are set for temporary files only.
	Name       string    `json:"name,omitempty"`
	InProgress bool      `json:"in_progress,omitempty"`
	Bytes      int64     `json:"bytes"`
	Time       time.Time `json:"time"`
	Argv       []string  `json:"argv,omitempty"`
	// MetadataCleaned names the argv elements ("argv[N]") that cleaning
	// changed, as in the envelope; the exact values stay in the manifest.
	MetadataCleaned []string `json:"metadata_cleaned,omitempty"`
}

func writeEntriesJSON(s *streams, es []store.Entry) error {
	enc := safejson.NewEncoder(s.stdout)
	for _, e := range es {
		ej := entryJSON{Kind: string(e.Kind), Bytes: e.Size, Time: e.ModTime.UTC()}
		if e.Kind == store.KindTemp {
			ej.Name, _ = capture.CleanField(e.Name)
			ej.InProgress = e.InProgress
		} else {
			ej.Ref = e.Ref.String()
		}
		// The manifest's argv is exact; as JSON for agents it is cleaned
		// like the envelope's.
		for i, a := range e.Argv {
			c, changed := capture.CleanField(a)
			ej.Argv = append(ej.Argv, c)
			if changed {
				ej.MetadataCleaned = append(ej.MetadataCleaned, fmt.Sprintf("argv[%d]", i))
			}
		}
		if err := enc.Encode(ej); err != nil {
			return err
		}
	}
	return nil
}

func newStorePruneCmd(s *streams) *cobra.Command {
	var rawAge, envAge, cleanAge age
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
			if !rawAge.set && !envAge.set && !cleanAge.set {
				return usagef("give --raw-older-than, --envelopes-older-than, --clean-older-than or several")
			}
			st, err := openStore()
			if err != nil {
				return err
			}
			now := time.Now()
			o := store.PruneOptions{DryRun: dryRun, TempBefore: now}
			if rawAge.set {
				o.RawBefore = now.Add(-rawAge.d)
			}
			if envAge.set {
				o.EnvelopesBefore = now.Add(-envAge.d)
			}
			removed, err := st.Prune(o)
			if err == nil && cleanAge.set {
				var rc []store.Entry
				rc, err = st.PruneClean(now.Add(-cleanAge.d), dryRun)
				removed = append(removed, rc...)
			}
			verb := "removed"
			if dryRun {
				verb = "would remove"
			}
			for _, e := range removed {
				name := e.Ref.String()
				if e.Kind == store.KindTemp {
					name = capture.ShellQuote([]string{e.Name})
				}
				s.out.Printf("%s %s %s\n", verb, e.Kind, name)
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

// age is a flag value: a non-negative Go duration or a whole number of
// days ("30d").
type age struct {
	d   time.Duration
	set bool
}

func (a *age) String() string {
	if !a.set {
		return ""
	}
	return a.d.String()
}

func (a *age) Type() string { return "age" }

func (a *age) Set(s string) error {
	if n, ok := strings.CutSuffix(s, "d"); ok {
		days, err := strconv.ParseInt(n, 10, 64)
		if err != nil || days < 0 || days > 100_000 {
			return fmt.Errorf("want a duration such as 36h or 30d")
		}
		a.d, a.set = time.Duration(days)*24*time.Hour, true
		return nil
	}
	d, err := time.ParseDuration(s)
	if err != nil || d < 0 {
		return fmt.Errorf("want a duration such as 36h or 30d")
	}
	a.d, a.set = d, true
	return nil
}
