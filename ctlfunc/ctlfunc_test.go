package ctlfunc

import (
	"bytes"
	"testing"

	"github.com/bytelens/bytelens/decode"
)

// TestKeysUnique: no two entries share a key, so every entry is reachable
// by Lookup.
func TestKeysUnique(t *testing.T) {
	seen := map[Key]string{}
	for _, e := range All() {
		if prev, ok := seen[e.Key]; ok {
			t.Errorf("key %+v of %q already belongs to %q", e.Key, e.Description, prev)
		}
		seen[e.Key] = e.Description
		if e.Description == "" && e.Detail == DetailNone {
			t.Errorf("%+v has no description", e.Key)
		}
	}
}

func TestLookup(t *testing.T) {
	tests := []struct {
		tok      decode.Token
		mnemonic string
		classes  Class
	}{
		{decode.Token{Kind: decode.KindCSI, Final: 'x'}, "DECREQTPARM", Query},
		{decode.Token{Kind: decode.KindCSI, Final: 'y', Inter: [2]byte{'*'}, NInter: 1}, "DECRQCRA", Query},
		{decode.Token{Kind: decode.KindCSI, Final: 'n', Param: [decode.MaxParams]uint16{6}, NParam: 1}, "DSR", Query},
		{decode.Token{Kind: decode.KindCSI, Final: 'n', Param: [decode.MaxParams]uint16{0}, NParam: 1}, "DSR", 0},
		{decode.Token{Kind: decode.KindCSI, Final: 't', Param: [decode.MaxParams]uint16{40}, NParam: 1}, "DECSLPP", 0},
		{decode.Token{Kind: decode.KindCSI, Private: '?', Final: 'h', Param: [decode.MaxParams]uint16{25, 1049}, NParam: 2}, "DECSET", AltScreen},
		{decode.Token{Kind: decode.KindESC, Final: 'Z'}, "DECID", Query},
		{decode.Token{Kind: decode.KindC1, Final: 0x8D}, "RI", CursorMove},
		{decode.Token{Kind: decode.KindOSC, Command: 52, Prefix: [decode.PrefixLen]byte{'5', '2', ';', 'c', ';', '?'}, NPrefix: 6, Payload: 6}, "", Clipboard | Query},
	}
	for _, tc := range tests {
		f, ok := Lookup(&tc.tok)
		if !ok || f.Mnemonic != tc.mnemonic || f.Classes != tc.classes {
			t.Errorf("%+v: %q %v %v, want %q %v", tc.tok.Kind, f.Mnemonic, f.Classes, ok, tc.mnemonic, tc.classes)
		}
	}
	if _, ok := Lookup(&decode.Token{Kind: decode.KindCSI, Final: 'y', Inter: [2]byte{'%'}, NInter: 1}); ok {
		t.Error("CSI % y found")
	}
}

// scan finds t's entry by comparing keys with every entry, the way a
// reader would: the reference for the look-up table (entryNum).
func scan(t *decode.Token) *Entry {
	kind, final := t.Kind, t.Final
	if kind == decode.KindESC && final >= 0x40 && final <= 0x5F {
		kind, final = decode.KindC1, final+0x40 // ESC Fe spells a C1 control
	}
	for _, e := range All() {
		if e.Kind != kind {
			continue
		}
		switch kind {
		case decode.KindC0, decode.KindC1, decode.KindESC:
			if e.Final == final && final != 0 || kind == decode.KindC0 && e.Final == final {
				return e
			}
		case decode.KindCSI:
			if e.Private == t.Private && e.Inter == string(t.Intermediates()) && e.Final == final {
				return e
			}
		case decode.KindOSC:
			if e.Command == t.Command {
				return e
			}
		case decode.KindDCS:
			if bytes.HasPrefix(t.PayloadPrefix(), []byte(e.Selector)) {
				return e
			}
		case decode.KindScreenTitle:
			return e
		}
	}
	return nil
}

// TestTableMatchesScan: the look-up table finds, for every key a token
// can carry, the entry a scan over the catalogue finds.
func TestTableMatchesScan(t *testing.T) {
	var toks []decode.Token
	for b := range 256 {
		toks = append(toks,
			decode.Token{Kind: decode.KindC0, Final: byte(b) & 0x1F},
			decode.Token{Kind: decode.KindC1, Final: 0x80 | byte(b)&0x1F},
			decode.Token{Kind: decode.KindESC, Final: byte(b) & 0x7F})
		for _, m := range []byte{0, '<', '=', '>', '?', '!'} {
			toks = append(toks, decode.Token{Kind: decode.KindCSI, Private: m, Final: byte(b)})
			for i := byte(0x20); i < 0x30; i++ {
				toks = append(toks,
					decode.Token{Kind: decode.KindCSI, Private: m, Inter: [2]byte{i}, NInter: 1, Final: byte(b)},
					decode.Token{Kind: decode.KindCSI, Private: m, Inter: [2]byte{i, '$'}, NInter: 2, Final: byte(b)})
			}
		}
	}
	for n := int32(-1); n < 9000; n++ {
		toks = append(toks, decode.Token{Kind: decode.KindOSC, Command: n})
	}
	for _, sel := range []string{"", "$q", "+qx", "tmux;x", "=1s", "=2s", "1000p", "+p", "q"} {
		tk := decode.Token{Kind: decode.KindDCS, NPrefix: uint8(len(sel))}
		copy(tk.Prefix[:], sel)
		toks = append(toks, tk)
	}
	toks = append(toks, decode.Token{Kind: decode.KindScreenTitle}, decode.Token{Kind: decode.KindAPC}, decode.Token{Kind: decode.KindNF, Final: 'B'})
	found := 0
	for i := range toks {
		tk := &toks[i]
		want := scan(tk)
		if tk.Kind == decode.KindCSI && (tk.Final < 0x40 || tk.Final >= 0x80) {
			want = nil // not a final byte
		}
		f, ok := Lookup(tk)
		if f.Entry != want || ok != (want != nil) {
			t.Errorf("%+v: table %v, scan %v", *tk, f.Entry, want)
		}
		if want != nil {
			found++
		}
	}
	if n := len(All()); found < n {
		t.Errorf("%d keys found, want every one of the %d entries", found, n)
	}
}

// TestAnomaliesInBitOrder: a flag's bit number indexes Anomalies, and
// AnomalyFlags holds exactly its flags.
func TestAnomaliesInBitOrder(t *testing.T) {
	var all decode.Flags
	for i, a := range Anomalies {
		if a.Flag != 1<<i {
			t.Errorf("Anomalies[%d] is %q, flag %#x, want %#x", i, a.Name, a.Flag, 1<<i)
		}
		all |= a.Flag
	}
	if all != AnomalyFlags {
		t.Errorf("AnomalyFlags %#x, Anomalies hold %#x", AnomalyFlags, all)
	}
}

// TestOSCClasses: for every OSC number up to past the table, and none,
// OSCClasses gives the classes ClassesOf gives an OSC of that number whose
// payload selects no variant, and says varies for a function with
// variants.
func TestOSCClasses(t *testing.T) {
	for num := int32(-1); num < oscNumbers+2; num++ {
		tok := decode.Token{Kind: decode.KindOSC, Command: num}
		cl, varies := OSCClasses(num)
		e, ok := Lookup(&tok)
		if wantVaries := ok && len(e.Entry.Variants) > 0; varies != wantVaries {
			t.Errorf("OSC %d: varies %v, want %v", num, varies, wantVaries)
		}
		if !varies && cl != ClassesOf(&tok) {
			t.Errorf("OSC %d: classes %v, want %v", num, cl, ClassesOf(&tok))
		}
		if varies && ok && cl != e.Entry.Classes {
			t.Errorf("OSC %d: classes %v, want the entry's %v", num, cl, e.Entry.Classes)
		}
	}
}
