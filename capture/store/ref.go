// Package store keeps raw command output as restricted evidence: a
// content-addressed directory of framed raw artifacts (see docs/artifact.md)
// and the cleaned envelopes linked to them, with separate retention.
//
// Everything in a store is reached through a [Ref], a validated
// "restricted:sha256:<64 lowercase hex digits>" reference. Directories are
// created with mode 0700 and files with mode 0600; every file appears by an
// atomic rename after an fsync, so a crash never leaves a partial artifact
// under a name a reader would open. A blob whose content does not match its
// digest is reported as [ErrCorrupt] and never returned.
//
// The package imports only the standard library.
package store

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
)

// RefPrefix is the prefix of every reference to a raw artifact.
const RefPrefix = "restricted:sha256:"

// Errors reported by the package. They are wrapped with context; test them
// with errors.Is.
var (
	// ErrBadRef reports a reference that is not exactly RefPrefix followed
	// by 64 lowercase hexadecimal digits.
	ErrBadRef = errors.New("invalid reference")
	// ErrNotFound reports that the store holds no blob for a reference.
	ErrNotFound = errors.New("not in store")
	// ErrCorrupt reports a blob whose content does not hash to its
	// reference, or an artifact whose records disagree with its trailer.
	ErrCorrupt = errors.New("corrupt blob")
	// ErrFormat reports bytes that do not follow the raw artifact format.
	ErrFormat = errors.New("malformed raw artifact")
	// ErrPermissions reports a store directory that group or others can
	// access.
	ErrPermissions = errors.New("store directory is not private")
)

// Ref is the SHA-256 digest that names a raw artifact. Its zero value names
// no artifact; use [Ref.IsZero] to test for it.
type Ref [sha256.Size]byte

// ParseRef parses s, which must be RefPrefix followed by exactly 64
// lowercase hexadecimal digits and nothing else. Any other form (uppercase
// digits, a wrong length, a path such as "../x", surrounding space) is
// refused with an error wrapping [ErrBadRef]; the error does not repeat s.
func ParseRef(s string) (Ref, error) {
	var r Ref
	if len(s) != len(RefPrefix)+2*sha256.Size || s[:len(RefPrefix)] != RefPrefix {
		return r, fmt.Errorf("%w: want %s followed by 64 lowercase hex digits", ErrBadRef, RefPrefix)
	}
	h := s[len(RefPrefix):]
	for i := 0; i < len(h); i++ {
		c := h[i]
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f') {
			return r, fmt.Errorf("%w: digest must be 64 lowercase hex digits", ErrBadRef)
		}
	}
	if _, err := hex.Decode(r[:], []byte(h)); err != nil {
		return Ref{}, fmt.Errorf("%w: %v", ErrBadRef, err)
	}
	return r, nil
}

// String returns the reference in its external form,
// "restricted:sha256:<hex>".
func (r Ref) String() string { return RefPrefix + r.Hex() }

// Hex returns the digest as 64 lowercase hexadecimal digits.
func (r Ref) Hex() string { return hex.EncodeToString(r[:]) }

// IsZero reports whether r is the zero Ref, which names no artifact.
func (r Ref) IsZero() bool { return r == Ref{} }

// MarshalText implements encoding.TextMarshaler with [Ref.String].
func (r Ref) MarshalText() ([]byte, error) { return []byte(r.String()), nil }

// UnmarshalText implements encoding.TextUnmarshaler with [ParseRef].
func (r *Ref) UnmarshalText(b []byte) error {
	p, err := ParseRef(string(b))
	if err != nil {
		return err
	}
	*r = p
	return nil
}

// parseHexName parses a file name of 64 lowercase hex digits, the form the
// store gives its blobs.
func parseHexName(name string) (Ref, bool) {
	r, err := ParseRef(RefPrefix + name)
	return r, err == nil
}
