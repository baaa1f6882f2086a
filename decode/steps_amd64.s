//go:build !purego

#include "go_asm.h"
#include "textflag.h"

// func steps(t *scanTable, q []byte, i int, s uint32, recs []Record, n, lim int, at Record) (stop int, state uint32, count int)
//
// The loop of stepsGo with no bounds check and no stack traffic. A byte b
// at state row s (AX):
//
//	DX  = &t.next[class[b]] - &t.next[0] + t: the address of both rows'
//	      entries but for s, so that the chain from one state to the next
//	      is one load, next[s+class] = (DX)(AX*2) plus the field offset
//	R9  = info[s+class]; R10 = its emission index times 3
//	R11 = (emits[R10/3][0] + at) & stepsKeep[b], stored at recs[n] (DI)
//
// then n += info&infoCount, or, on the rare path, the two more records of
// an infoMany step, or, for infoSpecial, a return before the step. Before
// each byte, a return if n is past lim: one compare of DI with R15, not on
// the chain, taken once a call.
//
// Registers: R8 t, SI the end of q, CX the index from the end (negative),
// AX the state, DI &recs[n], R15 &recs[lim], R13 at, R14 &stepsKeep.
TEXT ·steps(SB), NOSPLIT, $0-120
	MOVQ t+0(FP), R8
	MOVQ q_base+8(FP), SI
	MOVQ q_len+16(FP), DX
	ADDQ DX, SI
	MOVQ i+32(FP), CX
	SUBQ DX, CX
	MOVWLZX s+40(FP), AX
	SHLL $1, AX
	MOVQ recs_base+48(FP), DI
	MOVQ n+72(FP), DX
	LEAQ (DI)(DX*8), DI
	MOVQ at+88(FP), R13
	LEAQ ·stepsKeep(SB), R14
	MOVQ lim+80(FP), R15
	SHLQ $3, R15
	ADDQ recs_base+48(FP), R15
	TESTQ CX, CX
	JZ done

	PCALIGN $32
loop:
	CMPQ DI, R15
	JGT done
	MOVBLZX (SI)(CX*1), BX
	MOVQ (R14)(BX*8), R12
	MOVBLZX (R8)(BX*1), BX
	LEAQ scanTable_next2(R8)(BX*2), DX
	MOVWLZX scanTable_info-scanTable_next2(DX)(AX*1), R9
	MOVL R9, R10
	SHRL $const_infoEmitShift, R10
	LEAQ (R10)(R10*2), R10
	MOVQ scanTable_emits(R8)(R10*8), R11
	ADDQ R13, R11
	ANDQ R12, R11
	MOVQ R11, (DI)
	TESTL $(const_infoSpecial|const_infoMany), R9
	JNZ rare

step:
	MOVWLZX (DX)(AX*1), AX
	ANDL $const_infoCount, R9
	LEAQ (DI)(R9*8), DI
	ADDQ $(1<<24), R13
	INCQ CX
	JNZ loop

done:
	MOVQ q_len+16(FP), DX
	ADDQ CX, DX
	MOVQ DX, stop+96(FP)
	SHRL $1, AX
	MOVL AX, state+104(FP)
	SUBQ recs_base+48(FP), DI
	SHRQ $3, DI
	MOVQ DI, count+112(FP)
	RET

rare:
	// infoSpecial: stop before the step (the slot written above is room
	// past the records). infoMany: em[1] and em[2], then the step.
	TESTL $const_infoSpecial, R9
	JNZ done
	MOVQ scanTable_emits+8(R8)(R10*8), R11
	ADDQ R13, R11
	ANDQ R12, R11
	MOVQ R11, 8(DI)
	MOVQ scanTable_emits+16(R8)(R10*8), R11
	ADDQ R13, R11
	ANDQ R12, R11
	MOVQ R11, 16(DI)
	JMP step
