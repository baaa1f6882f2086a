//go:build !purego

package sanitize

import "github.com/bytelens/bytelens/decode"

// recallRunAsm says that quickRecords calls recallRun: on amd64, where it
// is assembly.
const recallRunAsm = true

// recallRun is recallRunGo in amd64 assembly (recall_amd64.s), with its
// contract: it reads the records of recs from i to the one it stops at,
// the 16 bytes at s in chunk of each record it takes, and the first quick
// slot of each CSI's key, and writes the 16 bytes at o in buf of each
// text it takes and the hits of the slots it counts in, within the
// limits recallRunGo tests before each record.
//
//go:noescape
func recallRun(recs *[batchRecords]decode.Record, i uint, next uint32, chunk, buf []byte, s, o uint32, quick *[1 << memoBits]quickSlot) (j uint, s1, o1, t uint32)
