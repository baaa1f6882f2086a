// Package hostile generates random terminal byte streams for the property
// tests of decode and sanitize: mostly bytes that matter to the grammar
// (ESC and the introducers after it, C1 in both spellings, terminators,
// CAN/SUB, CR/LF/BS, parameter bytes, UTF-8 leads and continuation bytes,
// format characters), with one byte in eight uniform.
package hostile

import "math/rand/v2"

// alphabet holds the bytes Bytes draws from; repeats weight them.
const alphabet = "\x1b\x1b\x1b[]P_^Xk\\\x07\x9b\x9c\x9d\x90\xc2\xc2\xe2\x80\x8b\xae\x9c\x18\x1a" +
	"\r\r\n\n\t\b;:0123456789?mH8 ab\xd0\xe6\x7f\xff\xf0\x9f"

// Bytes returns n bytes drawn with r.
func Bytes(r *rand.Rand, n int) []byte {
	p := make([]byte, n)
	for i := range p {
		if r.IntN(8) == 0 {
			p[i] = byte(r.IntN(256))
		} else {
			p[i] = alphabet[r.IntN(len(alphabet))]
		}
	}
	return p
}
