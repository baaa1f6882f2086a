package ctlfunc

import (
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
