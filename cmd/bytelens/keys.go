package main

import (
	"github.com/bytelens/bytelens/capture/store"
	"github.com/bytelens/bytelens/render"
	"github.com/bytelens/bytelens/seal"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

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
		return usageError{err}
	}
	if sl != nil {
		st.SetSealer(sl)
	}
	return nil
}

func newKeygenCmd(s *streams) *cobra.Command {
	return &cobra.Command{
		Use:     "keygen FILE",
		Short:   "Write a new age identity for encrypting raw artifacts (mode 0600) and print its recipient",
		Long:    help("store-keygen"),
		Example: help("store-keygen.example"),
		Args:    cobra.ExactArgs(1),
		RunE: func(_ *cobra.Command, args []string) error {
			r, err := seal.Keygen(args[0])
			if err != nil {
				return err
			}
			return s.out.Println(render.TextString(r))
		},
	}
}
