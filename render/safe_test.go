package render

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/bytelens/bytelens/safejson"
)

// TestSafeMarshalJSON: a Safe is written as the JSON string of its text,
// byte for byte what the string gives under each encoder (HTML escaped
// or not, safejson), so that a JSON output's field can change from string
// to Safe without changing the document; and what a hostile name becomes
// decodes to no control, C1, bidi override or line separator. Read back,
// a Safe is made safe again (Line).
func TestSafeMarshalJSON(t *testing.T) {
	hostile := "x\x1b]52;c;SElKQUNL\x07\u009b31m\x9b\u202e\u2028\n\t\"\\<&>␛é终"
	for _, s := range []Safe{{}, Line([]byte(hostile)), Text([]byte(hostile)), Sprintf("a\tb\n%s", hostile), TextString("stdout")} {
		type withSafe struct {
			S Safe `json:"s"`
		}
		type withString struct {
			S string `json:"s"`
		}
		for _, enc := range []struct {
			name string
			f    func(any) ([]byte, error)
		}{
			{"json.Marshal", json.Marshal},
			{"no HTML escape", func(v any) ([]byte, error) {
				var b bytes.Buffer
				e := json.NewEncoder(&b)
				e.SetEscapeHTML(false)
				err := e.Encode(v)
				return b.Bytes(), err
			}},
			{"safejson", safejson.Marshal},
		} {
			got, err := enc.f(withSafe{s})
			want, _ := enc.f(withString{s.s})
			if err != nil || !bytes.Equal(got, want) {
				t.Errorf("%s of %q = %s, %v; want %s", enc.name, s.s, got, err, want)
			}
		}
		var back struct{ S string }
		if b, _ := json.Marshal(withSafe{s}); json.Unmarshal(b, &back) != nil || back.S != s.s {
			t.Errorf("%q decodes back as %q", s.s, back.S)
		}
	}
	// Read back into a Safe, a string is checked as Line checks it.
	for in, want := range map[string]string{`"stdout"`: "stdout", `null`: "", `"a\u001b]0;t\u0007\u009b\u202e\u2028\n␛"`: "a␛]0;t␇<U+009B><U+202E><U+2028>␊<U+241B>"} {
		var got Safe
		if err := json.Unmarshal([]byte(in), &got); err != nil || got.s != want {
			t.Errorf("Unmarshal(%s) = %q, %v; want %q", in, got.s, err, want)
		}
	}
	if err := json.Unmarshal([]byte(`1`), new(Safe)); err == nil {
		t.Error("Unmarshal of a number: no error")
	}
	var back struct{ S string }
	b, _ := json.Marshal(struct{ S Safe }{Line([]byte(hostile))})
	json.Unmarshal(b, &back)
	for _, r := range back.S {
		if r < 0x20 || r >= 0x7F && r < 0xA0 || r == 0x202E || r == 0x2028 {
			t.Errorf("decoded %q holds %U", back.S, r)
		}
	}
}
