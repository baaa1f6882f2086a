package decode
import ("testing";"bytes")
func BenchmarkTmpScan(b *testing.B) {
	p := append(append([]byte("\x1b["), bytes.Repeat([]byte("1;"), 50000)...), 'm')
	recs := make([]Record, 1024)
	var d Decoder
	b.SetBytes(int64(len(p)))
	for b.Loop() {
		for q := p; len(q) > 0; { m, _ := d.Scan(q, recs); q = q[m:] }
	}
}
