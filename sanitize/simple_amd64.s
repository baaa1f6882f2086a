//go:build !purego

#include "go_asm.h"
#include "textflag.h"

// func simpleRun(recs *[batchRecords]decode.Record, i uint, next uint32, chunk, buf []byte, s, o uint32) (j uint, s1, o1, t uint32, counts uint64)
//
// The loop of simpleRunGo with its limits tested once a block: a block
// is as many records as can each advance s and o by 16 (a record taken
// advances each by at most 16) with both still below their limits
// (len-15) before the block's last, and no more than the batch holds past
// i, so that inside a block a record costs no test of them; after a
// block the limits are tested again, as simpleRunGo tests them before
// every record, and the loop goes on. A record r (AX, then its end e less
// next) is taken when it has no bit of simpleBad, n-1 = e-s-1 is below
// 16 and its class (BX, then the byte offset of its step) is not
// simpleNone. The 16 bytes at s are written at o through X0, kept by the
// step's keep and U+FFFD (X2) where it keeps none; the step's count is
// added to the counters, and o advanced by n for text (t = e then), else
// by count's top byte.
//
// Memory operations, not instructions, bound this loop on Zen 1 (two
// address units for loads and stores together): a record is five loads
// (the record, its class, the 16 bytes at s, keep, count) and one store,
// in 34 instructions. A loop of 29 instructions with each field of the
// step in memory (eleven loads and two stores) ran 20.5M instructions
// where this runs 23.3M for 2 MiB of uniform random bytes, and took more
// time (BENCHMARKS.md, uni15).
//
// Registers: DI &recs[i], R11 the end of the block, R9 chunk, R10 buf,
// SI s, R8 o, R14 next, R12 t, R13 the counters, R15 &simpleTables, X2
// simpleFFFD.
TEXT ·simpleRun(SB), NOSPLIT, $0-112
	MOVQ recs+0(FP), DI
	MOVQ i+8(FP), AX
	LEAQ (DI)(AX*8), DI
	MOVL next+16(FP), R14
	MOVQ chunk_base+24(FP), R9
	MOVQ buf_base+48(FP), R10
	MOVL s+72(FP), SI
	MOVL o+76(FP), R8
	XORL R12, R12
	XORL R13, R13
	LEAQ ·simpleTables(SB), R15
	MOVQ $const_simpleFFFD, AX
	MOVQ AX, X2

block:
	// The records of the block: the room to the nearer limit, over 16
	// rounded up, and no further than the batch's end.
	MOVQ buf_len+56(FP), AX
	SUBQ $15, AX
	SUBQ R8, AX
	JLE done
	MOVQ chunk_len+32(FP), CX
	SUBQ $15, CX
	SUBQ SI, CX
	JLE done
	CMPQ CX, AX
	CMOVQLT CX, AX
	ADDQ $15, AX
	SHRQ $4, AX
	LEAQ (DI)(AX*8), R11
	MOVQ recs+0(FP), CX
	ADDQ $(const_batchRecords*8), CX
	CMPQ R11, CX
	CMOVQHI CX, R11
	CMPQ DI, R11
	JAE done

loop:
	MOVQ (DI), AX
	MOVL AX, BX
	ANDL $const_simpleIndex, BX
	MOVBLZX simpleTable_class(R15)(BX*1), BX
	TESTL $const_simpleBad, AX
	JNZ done
	SHRQ $24, AX
	SUBL R14, AX
	MOVL AX, DX
	SUBL SI, DX
	LEAL -1(DX), CX
	CMPL CX, $16
	JAE done
	SHLL $5, BX
	JEQ done
	MOVOU (R9)(SI*1), X0
	MOVOU simpleTable_step+simpleStep_keep(R15)(BX*1), X1
	PAND X1, X0
	PANDN X2, X1
	POR X1, X0
	MOVOU X0, (R10)(R8*1)
	MOVQ simpleTable_step+simpleStep_count(R15)(BX*1), CX
	ADDQ CX, R13
	SHRQ $const_laneOut, CX
	CMPL BX, $(const_simpleText*simpleStep__size)
	CMOVLEQ DX, CX
	CMOVLEQ AX, R12
	ADDL CX, R8
	MOVL AX, SI
	ADDQ $8, DI
	CMPQ DI, R11
	JB loop
	JMP block

done:
	SUBQ recs+0(FP), DI
	SHRQ $3, DI
	MOVQ DI, j+80(FP)
	MOVL SI, s1+88(FP)
	MOVL R8, o1+92(FP)
	MOVL R12, t+96(FP)
	MOVQ R13, counts+104(FP)
	RET
