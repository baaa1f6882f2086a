package command

import (
	"github.com/bytelens/bytelens/capture/store"
	"github.com/bytelens/bytelens/render"
	"github.com/bytelens/bytelens/seal"
	"github.com/spf13/pflag"
)

// Keys are the global --encrypt-to and --identity flags: the age
// recipients new raw artifacts are encrypted to and the identity file
// that decrypts them (seal.FromFlags; empty for the environment's).
type Keys struct{ EncryptTo, Identity string }

// KeyFlags registers the key flags on fs (the root's persistent flags).
func KeyFlags(fs *pflag.FlagSet) *Keys {
	k := &Keys{}
	fs.StringVar(&k.EncryptTo, "encrypt-to", "", "encrypt new raw artifacts to these age `RECIPIENTS` (age1..., comma-separated, or a file of them; default $"+seal.EnvRecipients+")")
	fs.StringVar(&k.Identity, "identity", "", "age identity `FILE` that decrypts encrypted raw artifacts (default $"+seal.EnvIdentity+")")
	return k
}

// Use gives st the sealer the key flags or their environment variables
// name, if any; a bad recipient or identity is a usage error.
func (k *Keys) Use(st *store.Store) error {
	sl, err := seal.FromFlags(k.EncryptTo, k.Identity)
	if err != nil {
		return UsageError{Err: err}
	}
	if sl != nil {
		st.SetSealer(sl)
	}
	return nil
}

// OpenStore opens the default store (store.OpenDefault), with a hint on
// failure, and gives it the keys (Use).
func (k *Keys) OpenStore() (*store.Store, error) {
	st, err := store.OpenDefault()
	if err != nil {
		return nil, render.HintError{Err: err, Tip: "set " + store.EnvStore + " to a private directory (mode 0700)"}
	}
	return st, k.Use(st)
}

// OpenRef parses arg as a REF (store.ParseRef) and opens the store it is
// read from (OpenStore).
func (k *Keys) OpenRef(arg string) (*store.Store, store.Ref, error) {
	ref, err := store.ParseRef(arg)
	if err != nil {
		return nil, ref, err
	}
	st, err := k.OpenStore()
	return st, ref, err
}
