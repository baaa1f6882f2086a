package decode

import (
	"reflect"
	"testing"
	"unicode/utf8"
)

// attack7Tokens feeds p to d and returns copies of its tokens.
func attack7Tokens(d *Decoder, p []byte) []Token {
	var toks []Token
	d.Feed(p, func(t *Token) { toks = append(toks, *t) })
	return toks
}

// attack7Rest returns the tokens of feeding p and ending the stream, and
// the offset after.
func attack7Rest(d *Decoder, p []byte) ([]Token, int64) {
	toks := attack7Tokens(d, p)
	d.End(func(t *Token) { toks = append(toks, *t) })
	return toks, d.Offset()
}

// FuzzAttack7TakeText: after any prefix fed, TakeText and TakeWord take p
// only when Feed over p would emit nothing but text, return that text, and
// leave the decoder where Feed leaves it (the same tokens for any suffix).
func FuzzAttack7TakeText(f *testing.F) {
	for _, s := range [][3]string{
		{"abc", "defg", "h"}, {"ab\xe4", "\xb8\xadcd", "x"}, {"\xe0", "\xa0\x80ab", ""}, {"\xe0", "\x80ab", ""},
		{"\xed", "\x9f\xbfa", ""}, {"\xed", "\xa0\x80a", ""}, {"x\xf0\x9f", "\x98\x80", ""}, {"", "\xc2\xa0abcd", ""},
		{"\x1b", "abcdefg", ""}, {"\x1b]0;", "abcd", "\x07"}, {"a\xc2", "\x9c", "b"}, {"", "abcdefghijklmnop", "\xe2"},
		{"", "abcdefghijklmnopq", ""}, {"", "abc\xe4\xb8", "\xad"}, {"", "\xe2\x80\x8b", ""},
		{"", "ab\xe0", "\x80x"}, {"", "ab\xe0", "\xa0\x80"}, {"", "ab\xed", "\xa0\x80"}, {"", "ab\xe0\xa0", "\x80"}, {"x\xe0", "\xa0", "\x80"},
		{"", "abcdefghijklmn\xe4", "\xb8\xad"}, {"", "abcdefghijklmno\xe4", "\xb8\xad"}, {"", "\xc3", "\xa9"}, {"\xc3", "", "\xa9"},
	} {
		f.Add([]byte(s[0]), []byte(s[1]), []byte(s[2]), false)
	}
	f.Fuzz(func(t *testing.T, prefix, p, suffix []byte, lone bool) {
		var a Decoder
		a.LoneC1 = lone
		attack7Tokens(&a, prefix)
		b := a
		w := a
		text, cut, ok := a.TakeText(nil, p)
		if wok := w.TakeWord(p); wok {
			if !ok || cut != 0 || string(text) != string(p) {
				t.Fatalf("%q %q: TakeWord takes it, TakeText gives %q %d %v", prefix, p, text, cut, ok)
			}
			a2 := a
			wt, wo := attack7Rest(&w, suffix)
			at, ao := attack7Rest(&a2, suffix)
			if wo != ao || !reflect.DeepEqual(wt, at) {
				t.Fatalf("%q %q %q: after TakeWord %v %d, after TakeText %v %d", prefix, p, suffix, wt, wo, at, ao)
			}
		}
		stream := append(append([]byte(nil), prefix...), p...)
		toks := attack7Tokens(&b, p)
		if !ok {
			return
		}
		var want []byte
		for _, tk := range toks {
			if tk.Kind != KindText {
				t.Fatalf("%q %q: TakeText took it, Feed emits %v", prefix, p, tk)
			}
			if tk.Rune != 0 {
				want = utf8.AppendRune(want, tk.Rune)
			} else {
				want = append(want, stream[tk.Off:tk.Off+tk.Len]...)
			}
		}
		if string(text) != string(want) {
			t.Fatalf("%q %q: TakeText gives %q (cut %d), Feed %q", prefix, p, text, cut, want)
		}
		at, ao := attack7Rest(&a, suffix)
		bt, bo := attack7Rest(&b, suffix)
		if ao != bo || !reflect.DeepEqual(at, bt) {
			t.Fatalf("%q %q %q: after TakeText %v %d, after Feed %v %d", prefix, p, suffix, at, ao, bt, bo)
		}
	})
}
