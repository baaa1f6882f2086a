package excerpt

import (
	"bytes"
	"testing"

	"github.com/bytelens/bytelens/sanitize"
)

// FuzzLineSpans: for any stream cut anywhere into two chunks, the lines'
// raw spans tile the stream from 0 to its end, and the lines' texts with
// their LFs are the sanitizer's output.
func FuzzLineSpans(f *testing.F) {
	for _, s := range []string{"a\nb", "a\rb\r\n", "\x1b]0;x\ny\x07z\n", "\xe6\x9b\nq", "\n\n\n", ""} {
		f.Add([]byte(s), uint(1))
	}
	f.Fuzz(func(t *testing.T, raw []byte, cut uint) {
		if len(raw) > 4096 {
			return
		}
		c := int(cut % uint(len(raw)+1))
		st := newStore(t)
		ref := put(t, st, "", string(raw[:c]), string(raw[c:]))
		rec, err := Open(st, ref)
		if err != nil {
			t.Fatal(err)
		}
		sm, _ := rec.Stream("stdout")
		want, _ := sanitize.Bytes(raw, sanitize.Options{})
		if sm.Lines == 0 {
			if len(want) != 0 {
				t.Fatalf("no lines for %q", want)
			}
			return
		}
		ix, err := rec.open("stdout")
		if err != nil {
			t.Fatal(err)
		}
		defer ix.close()
		es, err := ix.entries(0, sm.Lines+1)
		if err != nil {
			t.Fatal(err)
		}
		if es[0] != [2]int64{0, 0} || es[sm.Lines] != [2]int64{int64(len(want)), int64(len(raw))} {
			t.Fatalf("ends %v %v, want text %d raw %d", es[0], es[sm.Lines], len(want), len(raw))
		}
		var got bytes.Buffer
		for i := int64(0); i < sm.Lines; i++ {
			if es[i+1][1] < es[i][1] || es[i+1][0] <= es[i][0] {
				t.Fatalf("line %d: entries %v then %v", i+1, es[i], es[i+1])
			}
			buf := make([]byte, es[i+1][0]-es[i][0])
			ix.text.ReadAt(buf, es[i][0])
			got.Write(buf)
		}
		if !bytes.Equal(got.Bytes(), want) {
			t.Fatalf("text %q, want %q", got.Bytes(), want)
		}
	})
}
