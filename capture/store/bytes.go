package store

import "strconv"

// Bytes is a size in bytes given on the command line: a flag.Value and
// pflag.Value parsed by ParseBytes (a decimal integer with an optional
// binary suffix K, M or G, KiB, MiB and GiB also accepted, or -1 for no
// limit). Its String is the decimal count.
type Bytes int64

// Set parses s with ParseBytes.
func (b *Bytes) Set(s string) error {
	n, err := ParseBytes(s)
	if err == nil {
		*b = Bytes(n)
	}
	return err
}

// String returns the size in decimal bytes.
func (b *Bytes) String() string { return strconv.FormatInt(int64(*b), 10) }

// Type names the value in flag usage ("bytes").
func (b *Bytes) Type() string { return "bytes" }
