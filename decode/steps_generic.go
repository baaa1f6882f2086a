//go:build !amd64 || purego

package decode

// steps is Scan's inner loop (stepsGo): the Go loop, where there is no
// assembly for GOARCH or the purego build tag is set.
func steps(t *scanTable, q []byte, i int, s uint32, recs []Record, n, lim int, at Record) (int, uint32, int) {
	return t.stepsGo(q, i, s, recs, n, lim, at)
}

// stepsPair says that stepsBlock writes the second slot of a step only
// for a step of two or three records (stepsRare: infoMany): in Go the
// store, its bounds check and the spills around it cost more on dense and
// coloured input (purego on amd64: dense 1.14×, git log --stat 1.08× the
// time) than the mispredicts it saves on random bytes (0.92×; BENCHMARKS.md,
// uni12).
const stepsPair = false

// stepsRare is the step that stepsBlock branches on besides a special one.
const stepsRare = infoMany

// fillSteps is a no-op: next2 is for the assembly.
func (t *scanTable) fillSteps() {}
