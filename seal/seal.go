// Package seal encrypts raw artifacts at rest with age
// (filippo.io/age, X25519 recipients), as a store.Sealer.
//
// The deployment it serves: the side that collects output (bytelens run,
// the MCP server, the coding-agent hook) holds only the recipients, the
// public keys, so it can write evidence it cannot read back, even as the
// same user; investigators hold the identity, the secret key, and give it
// to view, extract and clean. The artifact's name stays the SHA-256 of
// its plaintext, and the cleaned text beside it stays readable.
package seal

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"filippo.io/age"
	"github.com/bytelens/bytelens/capture/store"
)

// Environment variables that stand for --encrypt-to and --identity.
const (
	EnvRecipients = "BYTELENS_RECIPIENTS"
	EnvIdentity   = "BYTELENS_IDENTITY"
)

// maxKeyFile is the largest recipients or identity file read, in bytes.
const maxKeyFile = 1 << 20

// Sealer is a store.Sealer over age recipients and identities. The zero
// value neither encrypts nor decrypts.
type Sealer struct {
	recipients []age.Recipient
	identities []age.Identity
}

// ParseRecipients parses spec, a comma- or space-separated list of age
// X25519 recipients ("age1..."), or the name of a file holding one per
// line ("#" comments allowed), as age -R reads it. An empty spec gives
// no recipients.
func ParseRecipients(spec string) ([]age.Recipient, error) {
	spec = strings.TrimSpace(spec)
	if spec == "" {
		return nil, nil
	}
	if !strings.HasPrefix(spec, "age1") {
		f, err := os.Open(spec)
		if err != nil {
			return nil, fmt.Errorf("recipients: %w (want age1... recipients or a file of them)", err)
		}
		defer f.Close()
		rs, err := age.ParseRecipients(io.LimitReader(f, maxKeyFile))
		if err != nil {
			return nil, fmt.Errorf("recipients file: %w", err)
		}
		return rs, nil
	}
	var rs []age.Recipient
	for _, s := range strings.FieldsFunc(spec, func(r rune) bool { return r == ',' || r == ' ' || r == '\n' }) {
		r, err := age.ParseX25519Recipient(s)
		if err != nil {
			return nil, fmt.Errorf("recipient %d: %w", len(rs)+1, err)
		}
		rs = append(rs, r)
	}
	return rs, nil
}

// LoadIdentities reads the age identities in the file path (as written
// by Keygen or age-keygen).
func LoadIdentities(path string) ([]age.Identity, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("identity: %w", err)
	}
	defer f.Close()
	ids, err := age.ParseIdentities(io.LimitReader(f, maxKeyFile))
	if err != nil {
		return nil, fmt.Errorf("identity file: %w", err)
	}
	return ids, nil
}

// New returns a Sealer that encrypts to recipients (none: it does not
// encrypt) and decrypts with identities (none: it cannot decrypt).
func New(recipients []age.Recipient, identities []age.Identity) *Sealer {
	return &Sealer{recipients: recipients, identities: identities}
}

// FromFlags builds a Sealer from a --encrypt-to value and an --identity
// file, each falling back to its environment variable when empty. It
// returns nil when neither is set.
func FromFlags(encryptTo, identity string) (*Sealer, error) {
	if encryptTo == "" {
		encryptTo = os.Getenv(EnvRecipients)
	}
	if identity == "" {
		identity = os.Getenv(EnvIdentity)
	}
	if encryptTo == "" && identity == "" {
		return nil, nil
	}
	rs, err := ParseRecipients(encryptTo)
	if err != nil {
		return nil, err
	}
	var ids []age.Identity
	if identity != "" {
		if ids, err = LoadIdentities(identity); err != nil {
			return nil, err
		}
	}
	return New(rs, ids), nil
}

// Seal implements store.Sealer. With no recipients it returns nil: the
// artifact is written in the clear.
func (s *Sealer) Seal(w io.Writer) (io.WriteCloser, error) {
	if len(s.recipients) == 0 {
		return nil, nil
	}
	return age.Encrypt(w, s.recipients...)
}

// Unseal implements store.Sealer.
func (s *Sealer) Unseal(r io.Reader) (io.Reader, error) {
	if len(s.identities) == 0 {
		return nil, fmt.Errorf("%w: give --identity FILE or set %s", store.ErrEncrypted, EnvIdentity)
	}
	pr, err := age.Decrypt(r, s.identities...)
	var nm *age.NoIdentityMatchError
	if errors.As(err, &nm) {
		return nil, fmt.Errorf("%w: the identity does not match any of its recipients", store.ErrEncrypted)
	}
	return pr, err
}

// Keygen writes a new X25519 identity to path, which must not exist,
// with mode 0600, in age-keygen's format, and returns its recipient (the
// public key to give to --encrypt-to).
func Keygen(path string) (string, error) {
	id, err := age.GenerateX25519Identity()
	if err != nil {
		return "", err
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return "", fmt.Errorf("keygen: %w", err)
	}
	r := id.Recipient().String()
	_, err = fmt.Fprintf(f, "# created: %s\n# public key: %s\n%s\n", time.Now().UTC().Format(time.RFC3339), r, id)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(path)
		return "", fmt.Errorf("keygen: %w", err)
	}
	return r, nil
}
