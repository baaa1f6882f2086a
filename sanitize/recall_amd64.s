//go:build !purego

#include "go_asm.h"
#include "textflag.h"

// func recallRun(recs *[batchRecords]decode.Record, i uint, next uint32, chunk, buf []byte, s, o uint32, quick *[1 << memoBits]quickSlot) (j uint, s1, o1, t uint32)
//
// The loop of recallRunGo, every value in a register. A record r (AX,
// then its end e less next; DX its length e-s) is taken when it is text
// without flags (BX, its kind and flags, zero) of 1 to maxWide bytes: the
// 16-byte words from s copied to o through X0, o advanced by the length,
// t = e; or
// a CSI without flags of 1 to recallMax bytes whose key, the word at
// s masked to its length (BX), is its first quick slot's (the hash of
// memoWord.slots, with the high word zero), counted there.
//
// Registers: DI &recs[i], R9 chunk, R10 buf, SI s, R8 o, R14 next, R12
// t, R15 quick, R11 len(buf)-15, R13 len(chunk)-15.
TEXT ·recallRun(SB), NOSPLIT, $0-108
	MOVQ recs+0(FP), DI
	MOVQ i+8(FP), AX
	LEAQ (DI)(AX*8), DI
	MOVL next+16(FP), R14
	MOVQ chunk_base+24(FP), R9
	MOVQ chunk_len+32(FP), R13
	SUBQ $15, R13
	MOVQ buf_base+48(FP), R10
	MOVQ buf_len+56(FP), R11
	SUBQ $15, R11
	MOVL s+72(FP), SI
	MOVL o+76(FP), R8
	MOVQ quick+80(FP), R15
	XORL R12, R12

loop:
	CMPQ R8, R11
	JGE done
	CMPQ SI, R13
	JGE done
	MOVQ (DI), AX
	MOVL AX, BX
	ANDL $const_kindFlags, BX
	SHRQ $24, AX
	SUBL R14, AX
	MOVL AX, DX
	SUBL SI, DX
	TESTL BX, BX
	JNZ csi
	LEAL -1(DX), CX
	CMPL CX, $16
	JAE long
	MOVOU (R9)(SI*1), X0
	MOVOU X0, (R10)(R8*1)
	ADDL DX, R8
	MOVL AX, R12
	MOVL AX, SI
	ADDQ $8, DI
	JMP loop

long:
	// Text of 17 to maxWide bytes, 16 at a time (DX the bytes left to
	// copy, less 16, after each word), with room for the last word.
	CMPL DX, $const_maxWide
	JA done
	LEAQ (R8)(DX*1), CX
	CMPQ CX, R11
	JG done
	LEAQ (SI)(DX*1), CX
	CMPQ CX, R13
	JG done
	LEAQ (R9)(SI*1), BX
	LEAQ (R10)(R8*1), CX
	ADDL DX, R8

words:
	MOVOU (BX), X0
	MOVOU X0, (CX)
	ADDQ $16, BX
	ADDQ $16, CX
	SUBL $16, DX
	JA words
	MOVL AX, R12
	MOVL AX, SI
	ADDQ $8, DI
	JMP loop

csi:
	CMPL BX, $const_recallCSI
	JNE done
	LEAL -1(DX), CX
	CMPL CX, $const_recallMax
	JAE done
	// The key: the word at s, its bytes past the CSI's DX shifted out.
	MOVQ (R9)(SI*1), BX
	LEAL (DX*8), CX
	NEGL CX
	SHLQ CX, BX
	SHRQ CX, BX
	MOVQ $const_memoHash, CX
	IMULQ BX, CX
	SHRQ $(64-const_memoBits), CX
	SHLQ $5, CX
	CMPQ quickSlot_key+memoWord_lo(R15)(CX*1), BX
	JNE done
	CMPQ quickSlot_key+memoWord_hi(R15)(CX*1), $0
	JNE done
	INCQ quickSlot_hits(R15)(CX*1)
	MOVL AX, SI
	ADDQ $8, DI
	JMP loop

done:
	SUBQ recs+0(FP), DI
	SHRQ $3, DI
	MOVQ DI, j+88(FP)
	MOVL SI, s1+96(FP)
	MOVL R8, o1+100(FP)
	MOVL R12, t+104(FP)
	RET
