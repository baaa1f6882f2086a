package extract

import (
	"crypto/sha256"
	"encoding/hex"
	"io"

	"github.com/bytelens/bytelens/capture/store"
	"github.com/bytelens/bytelens/excerpt"
	"github.com/bytelens/bytelens/render"
)

// VerifySchema is the version of a Verification's JSON form.
const VerifySchema = "bytelens.verify/v1"

// Verification is what Verify found.
type Verification struct {
	Schema     string `json:"schema"`
	Ref        string `json:"ref"`
	FileSHA256 string `json:"file_sha256"`
	FileBytes  int64  `json:"file_bytes"`
	Match      bool   `json:"match"`
	// Sealed says the artifact is encrypted at rest, so that the file was
	// compared with the digests kept in the clear, not with its bytes.
	Sealed bool `json:"sealed,omitempty"`
	// Matches name what the file holds: the artifact, or every stream
	// whose stored bytes it holds (two empty streams both match an empty
	// file).
	Matches []Match `json:"matches"`

	sum [sha256.Size]byte
}

// Match is one thing a file matched.
type Match struct {
	// Name is "artifact" or a stream name, escaped (render.Line): the
	// artifact's writer chose it.
	Name render.Safe `json:"name"`
	// StoredBytes and SeenBytes are a stream's stored and written byte
	// counts; Prefix says it passed the raw limit, so that only its stored
	// prefix was compared.
	StoredBytes int64 `json:"stored_bytes"`
	SeenBytes   int64 `json:"seen_bytes"`
	Prefix      bool  `json:"prefix,omitempty"`

	artifact bool // the whole artifact, not a stream a manifest may name "artifact"
}

// Verify compares the SHA-256 of what file gives (opened only after the
// artifact checks out) with the artifact ref and with each of its
// streams' stored bytes, by a streaming hash: no stream is read into
// memory. An artifact encrypted at rest whose record keeps its digests in
// the clear (excerpt.Record.Match) is compared with them without the
// identity, so that a holder of the recipients only can verify; otherwise
// it is decrypted (store.ErrEncrypted without an identity). A stream that
// passed the raw limit matches by its stored prefix, never by an empty
// one, which holds none of it. The error is the store's or file's.
func Verify(st *store.Store, ref store.Ref, file func() (io.ReadCloser, error)) (*Verification, error) {
	if st.IsSealed(ref) {
		if rec, err := excerpt.Open(st, ref); err == nil {
			v, err := digest(ref, file)
			if err != nil {
				return nil, err
			}
			v.Sealed = true
			if what := rec.Match(v.FileSHA256); what != "" {
				v.Matches = append(v.Matches, Match{Name: render.LineString(what), StoredBytes: v.FileBytes, SeenBytes: v.FileBytes})
			}
			v.Match = len(v.Matches) > 0
			return v, nil
		}
	}
	a, err := st.OpenArtifact(ref)
	if err != nil {
		return nil, err
	}
	defer a.Close()
	v, err := digest(ref, file)
	if err != nil {
		return nil, err
	}
	if v.sum == ref {
		v.Matches = append(v.Matches, Match{Name: render.LineString("artifact"), StoredBytes: v.FileBytes, SeenBytes: v.FileBytes, artifact: true})
	} else {
		for i := range a.Streams {
			sm := &a.Streams[i]
			if sm.SHA256 != v.sum || sm.Truncated() && sm.Len == 0 {
				continue
			}
			v.Matches = append(v.Matches, Match{Name: render.LineString(sm.Name), StoredBytes: sm.Len, SeenBytes: sm.Seen, Prefix: sm.Truncated()})
		}
	}
	v.Match = len(v.Matches) > 0
	return v, nil
}

// digest opens file and hashes it into a Verification with no matches.
func digest(ref store.Ref, file func() (io.ReadCloser, error)) (*Verification, error) {
	r, err := file()
	if err != nil {
		return nil, err
	}
	defer r.Close()
	h := sha256.New()
	n, err := io.Copy(h, r)
	if err != nil {
		return nil, err
	}
	v := &Verification{Schema: VerifySchema, Ref: ref.String(), FileBytes: n, Matches: []Match{}}
	h.Sum(v.sum[:0])
	v.FileSHA256 = hex.EncodeToString(v.sum[:])
	return v, nil
}

// WriteText prints what Verify found for a person, a line per match or
// one "no match" line; it returns w.Err().
func (v *Verification) WriteText(w *render.Writer) error {
	if !v.Match {
		w.Printf("no match: sha256:%s (%d bytes) is neither the artifact nor any of its streams\n", v.FileSHA256, v.FileBytes)
	}
	for _, m := range v.Matches {
		switch {
		case v.Sealed:
			w.Printf("match: %s (%d bytes; compared by digest, the artifact is encrypted)\n", m.Name, m.StoredBytes)
		case m.artifact:
			w.Printf("match: artifact %s (%d bytes)\n", v.Ref, m.StoredBytes)
		case m.Prefix:
			w.Printf("match: %s (the first %d of %d bytes; the stream passed the raw limit)\n", m.Name, m.StoredBytes, m.SeenBytes)
		case m.StoredBytes == 0:
			w.Printf("match: %s (0 bytes: the command wrote nothing to it)\n", m.Name)
		default:
			w.Printf("match: %s (%d bytes)\n", m.Name, m.StoredBytes)
		}
	}
	return w.Err()
}
