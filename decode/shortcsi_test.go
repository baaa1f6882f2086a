package decode

import "testing"

// TestShortCSITables checks that fuseShortCSI fuses in every table: the
// ESC of every ground row is marked, every final byte has a record and
// the sequence ends in ground.
func TestShortCSITables(t *testing.T) {
	for k := range uint8(4) {
		tab := scanTableOf(k)
		for s := uint32(scanGround); s <= scanText; s += scanWidth {
			if tab.info[s+uint32(tab.class[0x1B])]&infoShortCSI == 0 {
				t.Fatalf("table %d: ESC in row %d not marked", k, s)
			}
		}
		for b := range 256 {
			if final := b >= 0x40 && b <= 0x7E; (tab.csiRec[b] != 0) != final {
				t.Fatalf("table %d: csiRec[%#x] is %#x", k, b, tab.csiRec[b])
			}
		}
		if tab.csiNext != scanGround {
			t.Fatalf("table %d: a short CSI ends in row %d", k, tab.csiNext)
		}
	}
}
