package command

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/bytelens/bytelens/capture/store"
	"github.com/bytelens/bytelens/render"
	"github.com/bytelens/bytelens/seal"
	"github.com/spf13/pflag"
)

// TestKeys checks the key flags: they set Keys, a bad recipient is a
// usage error when a store is opened, a store that cannot be opened gets
// the BYTELENS_STORE hint, and a bad REF is store's error.
func TestKeys(t *testing.T) {
	t.Setenv(seal.EnvRecipients, "")
	t.Setenv(seal.EnvIdentity, "")
	dir := filepath.Join(t.TempDir(), "store")
	t.Setenv(store.EnvStore, dir)
	fs := pflag.NewFlagSet("t", pflag.ContinueOnError)
	k := KeyFlags(fs)
	if err := fs.Parse([]string{"--encrypt-to", "age1nope", "--identity", "id.txt"}); err != nil || k.EncryptTo != "age1nope" || k.Identity != "id.txt" {
		t.Fatalf("flags: %+v, %v", k, err)
	}
	var ue UsageError
	if _, err := k.OpenStore(); !errors.As(err, &ue) {
		t.Errorf("bad recipient: %v, want a usage error", err)
	}
	k = &Keys{}
	if st, err := k.OpenStore(); err != nil || st == nil {
		t.Errorf("OpenStore: %v", err)
	}
	if _, _, err := k.OpenRef("sha256:nope"); !errors.Is(err, store.ErrBadRef) {
		t.Errorf("OpenRef bad: %v, want store.ErrBadRef", err)
	}
	file := filepath.Join(t.TempDir(), "file")
	os.WriteFile(file, nil, 0o600)
	t.Setenv(store.EnvStore, filepath.Join(file, "store"))
	var he render.HintError
	if _, err := k.OpenStore(); !errors.As(err, &he) || he.Hint() != "set BYTELENS_STORE to a private directory (mode 0700)" {
		t.Errorf("store under a file: %v, want the BYTELENS_STORE hint", err)
	}
}
