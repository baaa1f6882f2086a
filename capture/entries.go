package capture

import (
	"fmt"
	"time"

	"github.com/bytelens/bytelens/capture/store"
)

// StoreEntry is the JSON form of a store entry (store ls --json), its
// strings cleaned like an envelope's.
type StoreEntry struct {
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

// NewStoreEntry returns the JSON form of e: the manifest's argv is exact,
// and is cleaned (CleanField) for agents, as is a temporary file's name.
func NewStoreEntry(e store.Entry) StoreEntry {
	se := StoreEntry{Kind: string(e.Kind), Bytes: e.Size, Time: e.ModTime.UTC()}
	if e.Kind == store.KindTemp {
		se.Name, _ = CleanField(e.Name)
		se.InProgress = e.InProgress
	} else {
		se.Ref = e.Ref.String()
	}
	for i, a := range e.Argv {
		c, changed := CleanField(a)
		se.Argv = append(se.Argv, c)
		if changed {
			se.MetadataCleaned = append(se.MetadataCleaned, fmt.Sprintf("argv[%d]", i))
		}
	}
	return se
}

// EntryName returns how store ls and prune name e: its reference, or for
// a temporary file its name quoted for a shell.
func EntryName(e store.Entry) string {
	if e.Kind == store.KindTemp {
		return ShellQuote([]string{e.Name})
	}
	return e.Ref.String()
}

// EntryCommand returns what store ls says of e: the command that made it
// quoted for a shell, what a temporary file is, or "-".
func EntryCommand(e store.Entry) string {
	switch {
	case e.Kind == store.KindTemp && e.InProgress:
		return "(being written by a run)"
	case e.Kind == store.KindTemp:
		return "(left by a run that died; store prune removes it)"
	case e.Argv != nil:
		return ShellQuote(e.Argv)
	}
	return "-"
}
