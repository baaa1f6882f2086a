package store

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
)

// SealedMagic is how an encrypted raw artifact begins: the age format's
// header line (https://age-encryption.org/v1). The file's name is still
// the SHA-256 of the plaintext artifact, so references, dedup and digest
// comparisons work without the key.
const SealedMagic = "age-encryption.org/v1\n"

// ErrEncrypted reports a raw artifact encrypted at rest that the store
// cannot decrypt: it has no Sealer or no identity that matches.
var ErrEncrypted = errors.New("raw artifact is encrypted")

// Sealer encrypts raw artifacts at rest and decrypts them for reading
// (package seal implements it with age). The store stays free of the
// cryptography.
type Sealer interface {
	// Seal returns a writer that encrypts what it is given to w; Close
	// finishes the encryption and does not close w. It returns nil when
	// the Sealer has no recipients: the artifact is written in the clear.
	Seal(w io.Writer) (io.WriteCloser, error)
	// Unseal returns the plaintext of the encrypted r. It fails, with an
	// error wrapping ErrEncrypted, when the Sealer holds no identity that
	// matches.
	Unseal(r io.Reader) (io.Reader, error)
}

// SetSealer makes the store encrypt every raw artifact written from now
// on with sl (when sl has recipients) and decrypt encrypted artifacts it
// reads (when sl has an identity). Envelopes and derived files are not
// encrypted: they hold cleaned text only.
func (s *Store) SetSealer(sl Sealer) { s.sealer = sl }

// seal makes the Writer's bytes go through the store's Sealer, if it
// encrypts.
func (w *Writer) seal() error {
	if w.s.sealer == nil {
		return nil
	}
	sw, err := w.s.sealer.Seal(w.f)
	if err != nil {
		return err
	}
	w.sealed, w.out = sw, sw
	return nil
}

// closeSeal finishes the encryption, if any.
func (w *Writer) closeSeal() error {
	if w.sealed == nil {
		return nil
	}
	return w.sealed.Close()
}

// openRawFile opens the raw artifact r for reading its plaintext. A
// plain artifact is the file itself. An encrypted one is decrypted into a
// temporary file in the store's tmp directory that is removed from the
// directory at once, so the plaintext is reachable only through the
// returned file and goes when it is closed. Errors wrap ErrNotFound, or
// ErrEncrypted when the store cannot decrypt it.
func (s *Store) openRawFile(r Ref) (*os.File, error) {
	f, err := s.openBlob(s.rawPath(r), r)
	if err != nil {
		return nil, err
	}
	br := bufio.NewReader(f)
	head, _ := br.Peek(len(SealedMagic))
	if !bytes.Equal(head, []byte(SealedMagic)) {
		if _, err := f.Seek(0, io.SeekStart); err != nil {
			f.Close()
			return nil, fmt.Errorf("store: %w", err)
		}
		return f, nil
	}
	defer f.Close()
	if s.sealer == nil {
		return nil, fmt.Errorf("%w: %s: no identity to decrypt it with", ErrEncrypted, r)
	}
	plain, err := s.sealer.Unseal(br)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", r, err)
	}
	tmp, err := s.createTemp("plain-*.tmp")
	if err != nil {
		return nil, fmt.Errorf("store: %w", err)
	}
	os.Remove(tmp.Name())
	if _, err := io.Copy(tmp, plain); err != nil {
		tmp.Close()
		return nil, fmt.Errorf("%w: %s: decrypting: %v", ErrCorrupt, r, err)
	}
	if _, err := tmp.Seek(0, io.SeekStart); err != nil {
		tmp.Close()
		return nil, fmt.Errorf("store: %w", err)
	}
	return tmp, nil
}

// IsSealed reports whether the store holds r encrypted at rest.
func (s *Store) IsSealed(r Ref) bool {
	f, err := s.openBlob(s.rawPath(r), r)
	if err != nil {
		return false
	}
	defer f.Close()
	head := make([]byte, len(SealedMagic))
	n, _ := io.ReadFull(f, head)
	return string(head[:n]) == SealedMagic
}
