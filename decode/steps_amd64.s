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
// (BENCHMARKS.md, uni12). An ESC in ground (infoShortCSI) that begins a
// short CSI takes the sequence in one step (csi: shortCSI in stepsGo),
// while gate, the mask of the rare path's test, has the bit.
//
// Registers: R8 t, SI the end of q, CX the index from the end (negative),
// AX the state, DI &recs[n], R15 &recs[lim], R14 &stepsKeep, X13 at in
// both lanes, X14 1<<24, X2 8<<24 in both (a step's and a word's
// advance of at). Frame: gate, and tries, the ESCs left to test in vain
// before gate loses infoShortCSI (shortCSITries).
TEXT ·steps(SB), NOSPLIT, $16-120
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
	MOVL $(const_infoSpecial|const_infoThree|const_infoShortCSI), gate-8(SP)
	MOVL $const_shortCSITries, tries-16(SP)
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
	TESTL R9, gate-8(SP)
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
	// infoShortCSI: an ESC in ground, which may begin a short CSI.
	// infoSpecial: stop before the step (the slots written above are
	// room past the records), but for a skip in a text run. infoThree:
	// em[2], then the step.
	TESTL $const_infoShortCSI, R9
	JNZ csi
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

csi:
	// A short CSI from the ESC at CX (shortCSI in stepsGo) is one step:
	// the ESC's record (written above, R9&infoCount of them), then the
	// final byte's, csiRec[F] + at + k<<24 for F at CX+k, with the
	// second slot as stepsPair writes it (at + k<<24: the final byte's
	// emission has one record), and the state csiNext; at moves in both
	// lanes by csiAt[k] and a step. Only while shortCSIMax bytes are left
	// in q and the ESC's record leaves n at or below lim, where the table
	// would step the sequence's every byte; otherwise, as for any other
	// sequence, the ESC is stepped. R10–R12, BX, X0 and X3 are free; DX
	// and R9 are the step's.
	CMPQ CX, $-const_shortCSIMax
	JGT step
	MOVL R9, R10
	ANDL $const_infoCount, R10
	LEAQ (DI)(R10*8), R10
	CMPQ R10, R15
	JGT step
	CMPB 1(SI)(CX*1), $'['
	JNE miss
	// R12 = the top bit of each byte from index 2 on that is not a
	// parameter byte (shortCSIEnd).
	MOVQ (SI)(CX*1), R11
	MOVQ $0x3030303030303030, R12
	XORQ R12, R11
	MOVQ $0x7f7f7f7f7f7f7f7f, R12
	ANDQ R11, R12
	MOVQ $const_shortCSIAdd, BX
	ADDQ BX, R12
	ORQ R11, R12
	MOVQ $const_shortCSIMask, BX
	ANDQ BX, R12
	JZ miss
	BSFQ R12, R12
	// R12 is 8k+7 for the final byte at CX+k: csiAt[k] is 2*R12-14 on.
	MOVOU scanTable_csiAt-14(R8)(R12*2), X3
	SHRQ $3, R12
	ADDQ R12, CX
	MOVBLZX (SI)(CX*1), BX
	MOVQ scanTable_csiRec(R8)(BX*8), R11
	TESTQ R11, R11
	JZ nocsi
	MOVL $const_shortCSITries, tries-16(SP)
	PADDQ X3, X13
	MOVQ R11, X0
	PADDQ X13, X0
	MOVOU X0, (R10)
	LEAQ 8(R10), DI
	PADDQ X14, X13
	MOVWLZX scanTable_csiNext(R8), AX
	SHLL $1, AX
	INCQ CX
	JNZ loop
	JMP done

nocsi:
	// The byte that ends the parameters is no final byte.
	SUBQ R12, CX

miss:
	// No short CSI: after shortCSITries in a row, the ESCs of the rest
	// of the call are stepped without the test (gate), whose branch
	// would mispredict on input of other sequences.
	DECL tries-16(SP)
	JNZ step
	MOVL $(const_infoSpecial|const_infoThree), gate-8(SP)
	JMP step
