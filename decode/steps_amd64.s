//go:build !purego

#include "go_asm.h"
#include "textflag.h"

// func steps(t *scanTable, q []byte, i int, s uint32, recs []Record, n, lim int, at Record) (stop int, state uint32, count int)
//
// The loop of stepsGo (with stepsPair) with no bounds check and no stack
// traffic. A byte b at state row s (AX):
//
//	DX  = &t.next[class[b]] - &t.next[0] + t: the address of both rows'
//	      entries but for s, so that the chain from one state to the next
//	      is one load, next[s+class] = (DX)(AX*2) plus the field offset
//	R9  = info[s+class]; R10 = info&infoEmits, its emission's offset
//	X0  = (emits[..][0:2] + at) & stepsKeep[b], both lanes at once,
//	      stored at recs[n] and recs[n+1] (DI) in one 16-byte store
//
// then n += info&infoCount, or, on the rare path, the third record of an
// infoThree step, or, for infoSpecial, a return before the step but for
// a skip in scanText, where the run of printable ASCII, TAB and LF is
// passed over eight bytes at a time and the byte that ends it is stepped
// from scanText, or returned at if it is the lead byte of a plain
// character (textLen 2 or 3: skipASCII in stepsGo). Before
// each byte, a return if n is past lim: one compare of DI with R15, not on
// the chain, taken once a call. Writing the second slot of every step
// leaves only steps of three records (about 7K a MiB of uniform random
// bytes) and special ones on the rare path: the branch on one record or
// two, in random order on random bytes, mispredicted 127K times a MiB
// (BENCHMARKS.md, uni12).
//
// Registers: R8 t, SI the end of q, CX the index from the end (negative),
// AX the state, DI &recs[n], R15 &recs[lim], R14 &stepsKeep, X13 at in
// both lanes, X14 1<<24 and X2 8<<24 in both (a step's and a word's
// advance of at).
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
	MOVQ at+88(FP), X13
	PUNPCKLQDQ X13, X13
	MOVQ $(1<<24), R11
	MOVQ R11, X14
	PUNPCKLQDQ X14, X14
	MOVQ $(8<<24), R11
	MOVQ R11, X2
	PUNPCKLQDQ X2, X2
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
	MOVBLZX (SI)(CX*1), R12
	MOVBLZX scanTable_class(R8)(R12*1), BX
	SHLL $4, R12
	MOVOU (R14)(R12*1), X1
	LEAQ scanTable_next2(R8)(BX*2), DX
	MOVWLZX scanTable_info-scanTable_next2(DX)(AX*1), R9
	MOVL R9, R10
	ANDL $const_infoEmits, R10
	MOVOU scanTable_emits(R8)(R10*1), X0
	PADDQ X13, X0
	PAND X1, X0
	MOVOU X0, (DI)
	TESTL $(const_infoSpecial|const_infoThree), R9
	JNZ rare

step:
	MOVWLZX (DX)(AX*1), AX
	ANDL $const_infoCount, R9
	LEAQ (DI)(R9*8), DI
	PADDQ X14, X13
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
	// infoSpecial: stop before the step (the slots written above are
	// room past the records), but for a skip in a text run. infoThree:
	// em[2], then the step.
	TESTL $const_infoSpecial, R9
	JNZ special
	MOVQ scanTable_emits+16(R8)(R10*1), R11
	MOVQ X13, R13
	ADDQ R13, R11
	MOVQ X1, R12
	ANDQ R12, R11
	MOVQ R11, 16(DI)
	JMP step

special:
	// A skip step in scanText (a printable byte, no record, the state
	// stays) goes on over the run of printable ASCII, TAB and LF, as
	// stepsGo does with skipASCII: eight bytes at a time while eight are
	// left, then one at a time. R9–R12, BX and DX are free here.
	TESTL $const_infoSkip, R9
	JZ done
	CMPL AX, $(2*const_scanText)
	JNE done

text:
	// The byte at CX is on the run: past it.
	PADDQ X14, X13
	INCQ CX
	JZ done

words:
	CMPQ CX, $-8
	JGT tail
	// R10 = the high bit of each byte of the word that is not printable
	// ASCII: with t = w & 0x7F.., t + 0x60.. carries into a byte's top
	// bit from 0x20 up and t + 0x01.. at 0x7F only, no carry crossing a
	// byte, and w's own top bit is a byte of 0x80 or more.
	MOVQ (SI)(CX*1), R9
	MOVQ $0x7f7f7f7f7f7f7f7f, R10
	ANDQ R9, R10
	MOVQ $0x6060606060606060, R11
	ADDQ R10, R11
	NOTQ R11
	MOVQ $0x0101010101010101, R12
	ADDQ R12, R10
	ORQ R9, R10
	ORQ R11, R10
	MOVQ $0x8080808080808080, R11
	ANDQ R11, R10
	JNZ found
	ADDQ $8, CX
	PADDQ X2, X13
	TESTQ CX, CX
	JNZ words
	JMP done

found:
	BSFQ R10, R10
	SHRQ $3, R10
	ADDQ R10, CX
	SHLQ $24, R10
	MOVQ R10, X0
	PUNPCKLQDQ X0, X0
	PADDQ X0, X13

stop:
	// The byte at CX ends the printable run: TAB and LF go on with it
	// (textLen 1), the lead byte of a plain character is left to Scan
	// (skipText), any other byte is stepped from scanText.
	MOVBLZX (SI)(CX*1), BX
	LEAQ ·textLen(SB), R9
	MOVBLZX (R9)(BX*1), R9
	CMPL R9, $1
	JEQ text
	JHI done
	JMP loop

tail:
	// Fewer than eight bytes left.
	MOVBLZX (SI)(CX*1), BX
	SUBL $0x20, BX
	CMPL BX, $(0x7E-0x20)
	JHI stop
	PADDQ X14, X13
	INCQ CX
	JNZ tail
	JMP done
