package command

import (
	"errors"
	"io"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bytelens/bytelens/capture"
	"github.com/bytelens/bytelens/capture/store"
	"github.com/spf13/pflag"
)

// TestCaptureFlags checks that the capture flags set the open options,
// that "-" reads the stdin given, and that a missing FILE is worded by
// render.FileError.
func TestCaptureFlags(t *testing.T) {
	fs := pflag.NewFlagSet("t", pflag.ContinueOnError)
	c := CaptureFlags(fs, strings.NewReader("a\rb\n"), func() (*store.Store, error) { t.Fatal("store opened"); return nil, nil })
	if err := fs.Parse([]string{"--format", "raw", "--timing", "t.tm", "--stream", "output"}); err != nil {
		t.Fatal(err)
	}
	if o := c.Options(); o.Format != "raw" || o.Timing != "t.tm" || c.Stream != "output" {
		t.Errorf("options %+v, stream %q", o, c.Stream)
	}
	c.Timing = ""
	in, err := c.OpenArg([]string{"-"}, capture.ArgOptions{Whole: true})
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	sts, err := in.Capture.Select("")
	if err != nil || len(sts) != 1 {
		t.Fatalf("streams %v, %v", sts, err)
	}
	b, _ := io.ReadAll(sts[0].Reader())
	if string(b) != "a\rb\n" {
		t.Errorf("stdin read as %q", b)
	}
	missing := filepath.Join(t.TempDir(), "nope")
	if _, err := c.OpenArg([]string{missing}, capture.ArgOptions{}); err == nil || err.Error() != missing+": no such file" {
		t.Errorf("missing file: %v", err)
	}
}

// TestOpenArgStoreError opens a REF whose store cannot be opened because
// the --identity file is missing: the identity's *fs.PathError was taken
// for the argument's, so clean, report, hex, screen and view said
// "restricted:sha256:…: no such file" (exit 1) for an artifact that is
// there. The store's error comes back as it is, a usage error naming the
// identity file.
func TestOpenArgStoreError(t *testing.T) {
	k := &Keys{Identity: filepath.Join(t.TempDir(), "none")}
	t.Setenv(store.EnvStore, filepath.Join(t.TempDir(), "store"))
	fs := pflag.NewFlagSet("t", pflag.ContinueOnError)
	c := CaptureFlags(fs, strings.NewReader(""), k.OpenStore)
	ref := store.RefPrefix + strings.Repeat("0", 64)
	_, err := c.OpenArg([]string{ref}, capture.ArgOptions{})
	var ue UsageError
	if !errors.As(err, &ue) || !strings.Contains(err.Error(), k.Identity) || strings.Contains(err.Error(), ref) {
		t.Errorf("err %v, want a UsageError naming the identity file", err)
	}
}
