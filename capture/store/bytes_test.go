package store

import (
	"flag"
	"io"
	"testing"
)

func TestBytesFlag(t *testing.T) {
	for _, tc := range []struct {
		arg  string
		want Bytes
		ok   bool
	}{{"65536", 65536, true}, {"64K", 64 << 10, true}, {"2MiB", 2 << 20, true}, {"-1", -1, true}, {"lots", 7, false}} {
		b := Bytes(7)
		fs := flag.NewFlagSet("t", flag.ContinueOnError)
		fs.SetOutput(io.Discard)
		fs.Var(&b, "max", "")
		err := fs.Parse([]string{"-max", tc.arg})
		if (err == nil) != tc.ok || b != tc.want {
			t.Errorf("-max %s: %d, %v; want %d, ok %v", tc.arg, b, err, tc.want, tc.ok)
		}
	}
	if b := Bytes(64 << 10); b.String() != "65536" || b.Type() != "bytes" {
		t.Errorf("String %q Type %q", b.String(), b.Type())
	}
}
