package safejson

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/bytelens/bytelens/decode"
)

func TestMarshalEscapes(t *testing.T) {
	for _, tc := range []struct{ name, in, want string }{
		{"ascii", "plain text", `"plain text"`},
		{"c1 csi", "a\u009b31mb", `"a\u009b31mb"`},
		{"c1 range", "\u0080\u009f", `"\u0080\u009f"`},
		{"nbsp kept", "\u00a0", "\"\u00a0\""},
		{"line separators", "a\u2028b\u2029c", `"a\u2028b\u2029c"`},
		{"bidi override", "x\u202ey", `"x\u202ey"`},
		{"zero width", "\u200b\u200d\ufeff\u00ad", `"\u200b\u200d\ufeff\u00ad"`},
		{"variation selector", "\u2764\ufe0f", "\"\u2764\\ufe0f\""},
		{"hangul filler", "\u3164", `"\u3164"`},
		{"tag character", "\U000E0041", `"\udb40\udc41"`},
		{"supplementary selector", "\U000E0100", `"\udb40\udd00"`},
		{"cyrillic and cjk kept", "рћक终", `"рћक终"`},
		{"emoji kept", "\U0001F600", "\"\U0001F600\""},
		{"c0 as encoding/json", "\x1b]52;c;x\x07", `"\u001b]52;c;x\u0007"`},
		{"del", "a\x7fb", `"a\u007fb"`},
		{"invalid utf-8", "\xff\xc2", `"\ufffd\ufffd"`},
		{"html", "<a&b>", `"\u003ca\u0026b\u003e"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Marshal(tc.in)
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != tc.want {
				t.Errorf("Marshal(%q) = %s, want %s", tc.in, got, tc.want)
			}
		})
	}
}

func TestMarshalKeysAndRaw(t *testing.T) {
	v := map[string]any{"k\u009d": json.RawMessage("\"r\u202e\""), "n": 1}
	got, err := Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	if want := `{"k\u009d":"r\u202e","n":1}`; string(got) != want {
		t.Errorf("got %s, want %s", got, want)
	}
}

func TestMarshalIndent(t *testing.T) {
	got, err := MarshalIndent(struct {
		A string `json:"a"`
	}{"\u2066"}, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	if want := "{\n  \"a\": \"\\u2066\"\n}"; string(got) != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

func TestEncoder(t *testing.T) {
	var b bytes.Buffer
	enc := NewEncoder(&b)
	enc.SetEscapeHTML(false)
	for _, s := range []string{"<\u0085>", "ok"} {
		if err := enc.Encode(s); err != nil {
			t.Fatal(err)
		}
	}
	if want := "\"<\\u0085>\"\n\"ok\"\n"; b.String() != want {
		t.Errorf("got %q, want %q", b.String(), want)
	}
	b.Reset()
	enc = NewEncoder(&b)
	enc.SetIndent(">", "\t")
	if err := enc.Encode([]string{"\u2029"}); err != nil {
		t.Fatal(err)
	}
	if want := "[\n>\t\"\\u2029\"\n>]\n"; b.String() != want {
		t.Errorf("got %q, want %q", b.String(), want)
	}
}

func TestMarshalError(t *testing.T) {
	if _, err := Marshal(func() {}); err == nil {
		t.Error("Marshal(func) gave no error")
	}
	if err := NewEncoder(&bytes.Buffer{}).Encode(make(chan int)); err == nil {
		t.Error("Encode(chan) gave no error")
	}
}

func TestEscapeUnchangedSharesInput(t *testing.T) {
	js := []byte(`{"a":"рћ"}`)
	if got := Escape(js); &got[0] != &js[0] {
		t.Error("Escape copied JSON that needed no escape")
	}
}

// actionable is the oracle for the property tests, written from the
// package doc independently of needsEscape: what may not appear as a raw
// character in the output.
func actionable(r rune) bool {
	return r == 0x7F || r >= 0x80 && r <= 0x9F || r == 0x2028 || r == 0x2029 ||
		unicode.In(r, unicode.Cf, unicode.Variation_Selector, unicode.Other_Default_Ignorable_Code_Point) ||
		decode.ClassifyFormat(r) != decode.FormatNone
}

// short returns s quoted, cut to 80 bytes, for failure messages.
func short(s string) string {
	if len(s) > 80 {
		return strconv.Quote(s[:80]) + "..."
	}
	return strconv.Quote(s)
}

// checkInert fails t when out holds a byte >= 0x80 that is not part of a
// valid UTF-8 character, or a character that is actionable (DEL included).
func checkInert(t *testing.T, in string, out []byte) {
	t.Helper()
	for i := 0; i < len(out); {
		r, n := utf8.DecodeRune(out[i:])
		if r == utf8.RuneError && n <= 1 {
			t.Fatalf("input %s: output has invalid UTF-8 at %d: %s", short(in), i, short(string(out[i:])))
		}
		if actionable(r) {
			t.Fatalf("input %s: output has raw U+%04X at %d", short(in), r, i)
		}
		i += n
	}
	if off := LoneSurrogate(out); off >= 0 {
		t.Fatalf("input %s: output has a lone surrogate escape at %d", short(in), off)
	}
}

// checkRoundTrip fails t unless out decodes to what encoding/json's own
// encoding of in decodes to (in itself when in is valid UTF-8).
func checkRoundTrip(t *testing.T, in string, out []byte) {
	t.Helper()
	var got string
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatalf("input %s: output %s does not decode: %v", short(in), short(string(out)), err)
	}
	want := strings.ToValidUTF8(in, "\uFFFD")
	std, _ := json.Marshal(in)
	if err := json.Unmarshal(std, &want); err != nil {
		t.Fatal(err)
	}
	if got != want {
		t.Fatalf("input %s: decoded %s, want %s", short(in), short(got), short(want))
	}
	if utf8.ValidString(in) && got != in {
		t.Fatalf("valid input %s decoded as %s", short(in), short(got))
	}
}

// pool holds the characters the random strings are drawn from: the edges
// of every escaped range, their neighbours, and ordinary text.
var pool = []string{
	"a", " ", "\"", "\\", "<", "\n", "\x00", "\x1b", "\x7f",
	"\u0080", "\u0085", "\u009b", "\u009c", "\u009f", "\u00a0", "\u00ad", "\u00ae",
	"\u061c", "\u180e", "\u200b", "\u200f", "\u2028", "\u2029", "\u202a", "\u202e",
	"\u2060", "\u2064", "\u2066", "\u2069", "\u206f", "\u3164", "\ufe00", "\ufe0f",
	"\ufeff", "\ufff9", "\ufffb", "\ufffd", "\U0001D173", "\U000E0001", "\U000E007F",
	"\U000E0100", "\U000E01EF", "р", "ћ", "终", "\U0001F600",
	"\xc2", "\x9b", "\xe2\x80", "\xed\xa0\x80", "\xf4\x90\x80\x80", "\xff",
}

// randomString returns up to 16 pieces from pool or random runes.
func randomString(rng *rand.Rand) string {
	var b strings.Builder
	for range rng.IntN(17) {
		if rng.IntN(4) == 0 {
			b.WriteRune(rune(rng.IntN(unicode.MaxRune + 1)))
		} else {
			b.WriteString(pool[rng.IntN(len(pool))])
		}
	}
	return b.String()
}

func TestPropertyRandomStrings(t *testing.T) {
	rng := rand.New(rand.NewPCG(10, 2028))
	n := 5000
	if testing.Short() {
		n = 1000
	}
	for range n {
		s := randomString(rng)
		out, err := Marshal(map[string]string{s: s})
		if err != nil {
			t.Fatal(err)
		}
		checkInert(t, s, out)
		var m map[string]string
		if err := json.Unmarshal(out, &m); err != nil {
			t.Fatalf("input %q: %v", s, err)
		}
		std, _ := json.Marshal(map[string]string{s: s})
		var want map[string]string
		_ = json.Unmarshal(std, &want)
		if !reflect.DeepEqual(m, want) {
			t.Fatalf("input %q: decoded %q, want %q", s, m, want)
		}
		out, _ = Marshal(s)
		checkRoundTrip(t, s, out)
	}
}

// TestEveryRune checks every code point once, all in one string: no
// actionable character comes out raw, and the string decodes back to
// itself.
func TestEveryRune(t *testing.T) {
	var b strings.Builder
	for r := rune(0); r <= unicode.MaxRune; r++ {
		if r < 0xD800 || r > 0xDFFF {
			b.WriteRune(r)
		}
	}
	s := b.String()
	out, err := Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	checkInert(t, s, out)
	checkRoundTrip(t, s, out)
}

func FuzzMarshal(f *testing.F) {
	for _, s := range pool {
		f.Add(s + "x" + s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		out, err := Marshal(s)
		if err != nil {
			t.Fatal(err)
		}
		checkInert(t, s, out)
		checkRoundTrip(t, s, out)
	})
}

func TestLoneSurrogate(t *testing.T) {
	for _, tc := range []struct {
		js   string
		want int
	}{
		{`"plain"`, -1},
		{`"\ud83d\ude00"`, -1},
		{`"\uD83D\uDE00 ok"`, -1},
		{`"\ud800"`, 1},
		{`["ok", "x\ud800y"]`, 9},
		{`"\udc00"`, 1},
		{`"\ud800\u0041"`, 1},
		{`"\ud800\ud800"`, 1},
		{`"\\ud800"`, -1},
		{`{"\ud800": 1}`, 2},
		{`"\u00e9\"\ud800"`, 9},
		{`"\ud83d\ude00\udfff"`, 13},
	} {
		if !json.Valid([]byte(tc.js)) {
			t.Fatalf("%s is not valid JSON", tc.js)
		}
		if got := LoneSurrogate([]byte(tc.js)); got != tc.want {
			t.Errorf("LoneSurrogate(%s) = %d, want %d", tc.js, got, tc.want)
		}
	}
}

// TestWriteIndented checks that a document is MarshalIndent's with two
// spaces and a final line feed, written at once.
func TestWriteIndented(t *testing.T) {
	v := map[string]any{"name": "a\x1b[31m<b>", "n": []int{1, 2}}
	want, err := MarshalIndent(v, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	var w countingWriter
	if err := WriteIndented(&w, v); err != nil || w.b.String() != string(want)+"\n" || w.writes != 1 {
		t.Errorf("WriteIndented: %q in %d writes (%v), want %q", w.b.String(), w.writes, err, string(want)+"\n")
	}
	if !strings.Contains(w.b.String(), `\u001b[31m\u003cb\u003e`) {
		t.Errorf("not escaped: %q", w.b.String())
	}
}

type countingWriter struct {
	b      bytes.Buffer
	writes int
}

func (c *countingWriter) Write(p []byte) (int, error) { c.writes++; return c.b.Write(p) }
