//go:build !amd64 || purego

package sanitize

import "github.com/bytelens/bytelens/decode"

// recallRunAsm says that quickRecords calls recallRun: not where there is
// no assembly for GOARCH or the purego build tag is set, as the Go loop
// (recallRunGo) is not faster there than quickRecords' own.
const recallRunAsm = false

// recallRun is recallRunGo, where quickRecords does not call it.
func recallRun(recs *[batchRecords]decode.Record, i uint, next uint32, chunk, buf []byte, s, o uint32, quick *[1 << memoBits]quickSlot) (j uint, s1, o1, t uint32) {
	return recallRunGo(recs, i, next, chunk, buf, s, o, quick)
}
