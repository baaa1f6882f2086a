package decode

import "sync"

// The decoder is a Mealy machine: for each byte, one load from a class
// table (byte → class) and one from a transition table ([state][class] →
// next state and action). The tables are not written by hand: they are
// built, once, from the state functions of ground.go, escape.go, csi.go,
// strings.go and utf8.go, each a switch over byte ranges that reads like
// its state in the DEC parser diagram. Bytes that every state treats alike
// share a class.
//
// An action is a short list of ops for the token builder (decoder.go):
// where a token ends, which one begins. The scanner only records the byte
// index and the action; the builder runs the ops afterwards, over the
// whole batch, and reads the token's own bytes for the details (final
// byte, parameters, OSC number, payload prefix).

// family groups the states of one part of the diagram.
type family uint8

const (
	famGround             family = iota // ground
	famEscape                           // escape
	famEscapeIntermediate               // escape intermediate
	famCSI                              // CSI entry, param, intermediate and ignore (csi.go)
	famString                           // OSC string, DCS passthrough, SOS/PM/APC string, ESC k string
	famStringEsc                        // an ESC inside a control string: ST or an abort
	famGroundUnit                       // a UTF-8 unit in ground (addition to the diagram)
	famCSIUnit                          // a non-ASCII character aborting a CSI (addition)
	famStringUnit                       // a UTF-8 unit in a control string payload (addition)
)

// group says which terminators end a control string, besides ESC \.
type group struct {
	bel bool // BEL ends it (OSC, ESC k, APC under APCBEL)
	c1  bool // C1 ST ends it (the string was opened by a C1 introducer)
}

// unit is a UTF-8 unit in progress (Unicode 15 Table 3-7): have bytes
// read, need continuation bytes still expected, the next one in lo–hi.
type unit struct {
	have, need uint8
	lo, hi     byte
	c2         bool // the lead is C2: U+0080–U+009F are C1 controls
	check      bool // the character may be a format character (ground only)
}

// stateDesc describes one state of the machine.
type stateDesc struct {
	fam family
	g   group
	u   unit
}

// options are the Decoder fields that change the grammar.
type options struct{ loneC1, apcBEL bool }

const numVariants = 4 // options.loneC1 × options.apcBEL

func variant(o options) int {
	v := 0
	if o.loneC1 {
		v |= 1
	}
	if o.apcBEL {
		v |= 2
	}
	return v
}

// opCode is one thing the builder does at a byte (decoder.go, apply).
type opCode uint8

const (
	opNone opCode = iota
	// Single tokens.
	opC0            // a C0 control at i
	opDEL           // DEL at i
	opC1            // a raw C1 control at i
	opC1UTF8        // a C1 control spelled C2 xx, ending at i
	opInvalid       // a lone invalid byte at i
	opInvalidBefore // an ill-formed unit of n bytes ending before i
	opCheck         // a complete character of n bytes ending at i whose lead may start a format character
	opEmbedded      // a C0 control, TAB or LF executed inside an escape or CSI
	// Sequences and strings.
	opBeginESC     // ESC at i begins an escape
	opBeginESCPrev // ESC at i-1 begins an escape (after a string it aborted)
	opIntro        // ESC, then p[i]: the escape becomes a CSI or a control string
	opBeginC1      // a raw C1 introducer at i
	opBeginC1UTF8  // a C1 introducer spelled C2 p[i]
	opEndFinal     // p[i] is the final byte of the escape or CSI
	opAbort        // the token ends before i, cut short by n (an Abort)
	opAbortAt      // the token ends just after i, cut short by a non-ASCII character
	opAbortPrev    // the token ends before i-1, cut short by n
	opEndBEL       // BEL at i ends the string
	opEndST        // ESC \ ends the string at i
	opEndC1        // a raw C1 ST at i ends the string
	opEndC1UTF8    // U+009C ends the string at i
	opAmbiguous    // a C1 ST kept as payload
)

// op is an opCode with its argument.
type op struct {
	code opCode
	n    uint8
}

// maxOps bounds the ops of one action.
const maxOps = 4

// action is the ops run at one byte, in order.
type action struct {
	n   uint8
	ops [maxOps]op
}

// step is what a state function returns: the ops to run at this byte, the
// next state, and whether the byte is then handled again in that state
// (the DEC diagram's transitions that leave a state without consuming,
// and the maximal-subpart rule's "the offending byte starts afresh").
type step struct {
	a    action
	next stateDesc
	redo bool
}

func to(s stateDesc, ops ...op) step {
	var a action
	a.n = uint8(copy(a.ops[:], ops))
	return step{a: a, next: s}
}

func redo(s stateDesc, ops ...op) step {
	st := to(s, ops...)
	st.redo = true
	return st
}

// The states that have no parameters.
var (
	sGround             = stateDesc{fam: famGround}
	sEscape             = stateDesc{fam: famEscape}
	sEscapeIntermediate = stateDesc{fam: famEscapeIntermediate}
	sCSI                = stateDesc{fam: famCSI}
	sStringEsc          = stateDesc{fam: famStringEsc}
)

// stateFunc returns the step of state s on byte b.
func stateFunc(s stateDesc, b byte, o options) step {
	switch s.fam {
	case famGround:
		return ground(b, o)
	case famEscape:
		return escape(b, o)
	case famEscapeIntermediate:
		return escapeIntermediate(b)
	case famCSI:
		return csi(b, o)
	case famString:
		return controlString(s.g, b, o)
	case famStringEsc:
		return stringEsc(b)
	case famGroundUnit:
		return groundUnit(s.u, b, o)
	case famCSIUnit:
		return csiUnit(s.u, b, o)
	}
	return stringUnit(s.g, s.u, b)
}

// machine holds the tables of one variant of the grammar.
type machine struct {
	class   [256]uint8 // byte → class
	nclass  int
	states  []stateDesc
	actions []action
	// trans[s*nclass+c] is the step of state s on class c: the low 16 bits
	// the next state premultiplied by nclass, the high 16 bits the action.
	trans    [transLen]uint32
	stateIDs map[stateDesc]int
	// skip[st] says which run of bytes state st (premultiplied) keeps to
	// itself without an action, for the scanner to skip in bulk.
	skip [transLen]skipKind
}

// skipKind names a run of bytes that a state consumes without an action
// (TestSkip checks each against the table).
type skipKind uint8

const (
	skipNone    skipKind = iota
	skipGround           // text: skipText
	skipPayload          // printable ASCII payload: skipPrintable
	skipCSI              // CSI parameter and intermediate bytes: skipParams
)

// skipOf returns the skip of state s.
func skipOf(s stateDesc) skipKind {
	switch s.fam {
	case famGround:
		return skipGround
	case famString:
		return skipPayload
	case famCSI:
		return skipCSI
	}
	return skipNone
}

// transLen bounds the transition table (states × classes), a power of two
// so that the scanner's index needs no bounds check.
const transLen = 4096

var (
	machines [numVariants]*machine
	machOnce [numVariants]sync.Once
)

// tables returns the machine of variant v, building it on first use (a
// few milliseconds; TestTables checks it against the state functions).
func tables(v int) *machine {
	machOnce[v].Do(func() { machines[v] = build(options{loneC1: v&1 != 0, apcBEL: v&2 != 0}) })
	return machines[v]
}

// build runs every state function on every byte under options o.
func build(o options) *machine {
	m := &machine{stateIDs: map[stateDesc]int{}}
	actionIDs := map[action]int{}
	intern := func(a action) uint32 {
		id, ok := actionIDs[a]
		if !ok {
			id = len(m.actions)
			actionIDs[a] = id
			m.actions = append(m.actions, a)
		}
		return uint32(id)
	}
	intern(action{})
	stateID := func(s stateDesc) uint32 {
		id, ok := m.stateIDs[s]
		if !ok {
			id = len(m.states)
			m.stateIDs[s] = id
			m.states = append(m.states, s)
		}
		return uint32(id)
	}
	stateID(sGround)
	// full[s][b] = action<<16 | next state, before classes.
	var full [][256]uint32
	for s := 0; s < len(m.states); s++ { // m.states grows as states are found
		full = append(full, [256]uint32{})
		for b := range 256 {
			a, next := resolve(m.states[s], byte(b), o)
			full[s][b] = intern(a)<<16 | stateID(next)
		}
	}
	if len(m.actions) > 1<<16 || len(m.states)*256 > 1<<16 {
		panic("decode: machine too large")
	}
	// Classes: bytes with the same column in every state.
	var first [256]int // a byte's class is that of the first byte with its column
	for b := range 256 {
		first[b] = b
		for c := range b {
			if first[c] == c && sameColumn(full, b, c) {
				first[b] = c
				break
			}
		}
		if first[b] == b {
			m.class[b] = uint8(m.nclass)
			m.nclass++
		} else {
			m.class[b] = m.class[first[b]]
		}
	}
	if len(m.states)*m.nclass > transLen {
		panic("decode: machine too large")
	}
	for s := range m.states {
		m.skip[s*m.nclass] = skipOf(m.states[s])
		for b := range 256 {
			e := full[s][b]
			m.trans[s*m.nclass+int(m.class[b])] = e&^0xFFFF | e&0xFFFF*uint32(m.nclass)
		}
	}
	return m
}

// sameColumn reports whether bytes a and b step alike in every state.
func sameColumn(full [][256]uint32, a, b int) bool {
	for s := range full {
		if full[s][a] != full[s][b] {
			return false
		}
	}
	return true
}

// resolve returns what state s does on b, following redo steps and joining
// their ops.
func resolve(s stateDesc, b byte, o options) (action, stateDesc) {
	st := stateFunc(s, b, o)
	if !st.redo {
		return st.a, st.next
	}
	rest, next := resolve(st.next, b, o)
	a := st.a
	a.n += uint8(copy(a.ops[a.n:], rest.ops[:rest.n]))
	return a, next
}

// stateOf returns the premultiplied index of s.
func (m *machine) stateOf(s stateDesc) uint32 {
	return uint32(m.stateIDs[s] * m.nclass)
}

// desc returns the state at premultiplied index st.
func (m *machine) desc(st uint32) stateDesc { return m.states[int(st)/m.nclass] }
