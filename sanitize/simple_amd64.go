//go:build !purego

package sanitize

import (
	"unsafe"

	"github.com/bytelens/bytelens/decode"
)

// simpleRun is simpleRunGo in amd64 assembly (simple_amd64.s), with its
// contract, for i below batchRecords (the batch ends at stopRecord, which
// it does not take): it reads and writes nothing but the records of recs
// from i to the batch's end and the 16 bytes at s in chunk and at o in
// buf of each record it takes, within the limits that simpleRunGo tests
// before each record. In Go the compiler keeps the record, its end, next
// and both limits on the stack and computes three addresses again at
// every record (about 49 instructions and 13 loads and stores a record);
// here every value stays in a register, the limits are tested once a
// block of records, and a record is six loads and stores (BENCHMARKS.md,
// uni15: on uniform random bytes about 9% less time in Bytes).
//
//go:noescape
func simpleRun(recs *[batchRecords]decode.Record, i uint, next uint32, chunk, buf []byte, s, o uint32) (j uint, s1, o1, t uint32, counts uint64)

// The assembly scales a class to its step's offset by a shift of 5.
var _ [unsafe.Sizeof(simpleStep{}) - 32]byte
var _ [32 - unsafe.Sizeof(simpleStep{})]byte
