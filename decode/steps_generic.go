//go:build !amd64 || purego

package decode

// steps is Scan's inner loop (stepsGo): the Go loop, where there is no
// assembly for GOARCH or the purego build tag is set.
func steps(t *scanTable, q []byte, i int, s uint32, recs []Record, n, lim int, at Record) (int, uint32, int) {
	return t.stepsGo(q, i, s, recs, n, lim, at)
}

// fillSteps is a no-op: next2 is for the assembly.
func (t *scanTable) fillSteps() {}
