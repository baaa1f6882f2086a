package decode

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// TestSkipWords checks skipText, which goes eight bytes at a time
// (skipWords), against skipRunes, which goes a character at a time: every
// byte from 80 then a choice of second and third bytes (every class of
// wordClass, the edges of the second bytes Unicode 15 Table 3-7 allows),
// at every place in a word and across the next, in each word of a block
// of four, amid text of five scripts, whole and cut short, must end the
// run at the same byte.
func TestSkipWords(t *testing.T) {
	step := 1
	if testing.Short() {
		step = 3
	}
	seconds := []byte{0x00, 0x09, 0x0A, 0x1B, 0x20, 0x5A, 0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xA4, 0xBF, 0xC0, 0xC2, 0xC3, 0xD0, 0xDF, 0xE0, 0xE4, 0xED, 0xEF, 0xF0, 0xFF}
	thirds := []byte{0x09, 0x1B, 0x41, 0x80, 0xA0, 0xBF, 0xC3, 0xE0, 0xF0}
	for _, fill := range []string{"ab", "жы", "नम", "終了", "aé"} {
		text := strings.Repeat(fill, 24/len(fill)+1)[:24]
		for b0 := 0x80; b0 < 0x100; b0 += step {
			for _, b1 := range seconds {
				for _, b2 := range thirds {
					for _, j := range []int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 17, 20, 23, 26} {
						pre := strings.Repeat("x", j) + fill
						k := len(pre)
						p := []byte(pre + string([]byte{byte(b0), b1, b2}) + text)
						for _, q := range [][]byte{p, p[:k+2], p[:k+9]} {
							if got, want := skipText(q, 0), skipRunes(q, 0, len(q)); got != want {
								t.Fatalf("skipText(% x) = %d, skipRunes = %d", q, got, want)
							}
						}
					}
				}
			}
		}
	}
}

// TestSkipWordsRandom checks skipText against skipRunes from every byte
// of random mixes of whole characters of every length, TAB, LF, controls,
// lone continuation bytes and cut characters.
func TestSkipWordsRandom(t *testing.T) {
	pieces := []string{"a", "word ", "\t", "\n", "é", "ж", "ओ", "\u0800", "終", "\uffee", "\U0001F600", "\x1b", "\x7f", "\x00",
		"\u00a0", "\u200b", "\u3000", "\xc2\x9b", "\x80", "\xbf", "\xe0\x9f\x80", "\xed\x9f\xbf", "\xe4\xb8", "\xd0", "\xff"}
	r := rand.New(rand.NewPCG(12, 6))
	for range 2000 {
		var b strings.Builder
		for b.Len() < 64 {
			if r.IntN(4) == 0 {
				b.WriteString(pieces[r.IntN(len(pieces))])
			} else {
				b.WriteString(pieces[4+r.IntN(6)]) // runs of text
			}
		}
		p := []byte(b.String())
		for i := range p {
			if got, want := skipText(p, i), skipRunes(p, i, len(p)); got != want {
				t.Fatalf("skipText(% x, %d) = %d, skipRunes = %d", p, i, got, want)
			}
		}
	}
}

// FuzzSkipText checks skipText against skipRunes from every byte of any
// input; the seeds are runs of text of several scripts that words
// (skipWords) take whole, with a stop near their end.
func FuzzSkipText(f *testing.F) {
	for _, s := range []string{
		"ошибка соединения 終了 处理 नमस्ते naïve café\n", "ऀ\u0900ठ\u0fff\ue000\uffefé\u07ff",
		"жжжжжжжжжжжж\x1b", "終了終了終了終了\xe4\xb8", "नमस्ते\u00a0नमस्ते\x80", "\u0800\u0800\u0800\u0800\xe0\x9f\xbf",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, p []byte) {
		for i := range p {
			if got, want := skipText(p, i), skipRunes(p, i, len(p)); got != want {
				t.Fatalf("skipText(% x, %d) = %d, skipRunes = %d", p, i, got, want)
			}
		}
	})
}
