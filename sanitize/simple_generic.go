//go:build !amd64 || purego

package sanitize

import "github.com/bytelens/bytelens/decode"

// simpleRun is quickRecords' step for simple records (simpleRunGo): the Go
// loop, where there is no assembly for GOARCH or the purego build tag is
// set.
func simpleRun(recs *[batchRecords]decode.Record, i uint, next uint32, chunk, buf []byte, s, o uint32) (j uint, s1, o1, t uint32, counts uint64) {
	return simpleRunGo(recs, i, next, chunk, buf, s, o)
}
