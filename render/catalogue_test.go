package render

import (
	"fmt"
	"strings"
	"testing"

	"github.com/bytelens/bytelens/ctlfunc"
	"github.com/bytelens/bytelens/decode"
	"github.com/bytelens/bytelens/sanitize"
)

// entryBytes spells a token of e's function, in the form that v (nil for
// the entry itself) selects; ok is false for keys no token of that kind
// carries (C1 codes that introduce a sequence or string).
func entryBytes(e *ctlfunc.Entry, v *ctlfunc.Variant) (p string, ok bool) {
	params := "2"
	payload := "x"
	if v != nil {
		switch v.When {
		case ctlfunc.WhenP0:
			params = fmt.Sprint(v.Lo)
		case ctlfunc.WhenAnyParam:
			params = fmt.Sprint(v.Params[0])
		case ctlfunc.WhenSGRConceal:
			params = "8"
		case ctlfunc.WhenRead:
			payload = "?"
			if v.Field > 1 {
				payload = "c;?"
			}
		case ctlfunc.WhenLinkClose:
			payload = ";"
		case ctlfunc.WhenPrefix:
			payload = strings.TrimPrefix(v.Prefix, fmt.Sprint(e.Command)+";") + "x"
		}
	} else if e.Command == 8 {
		payload = ";http://example.com/"
	}
	switch e.Kind {
	case decode.KindC0:
		return string(rune(e.Final)), e.Final != 0x1B && e.Final != '\t' && e.Final != '\n'
	case decode.KindC1:
		switch e.Final {
		case 0x90, 0x98, 0x9B, 0x9D, 0x9E, 0x9F:
			return "", false
		}
		return string(rune(e.Final)), true
	case decode.KindESC:
		return "\x1b" + string(rune(e.Final)), true
	case decode.KindCSI:
		p := "\x1b["
		if e.Private != 0 {
			p += string(rune(e.Private))
		}
		if v == nil && len(e.Variants) > 0 && e.Variants[0].When == ctlfunc.WhenP0 {
			params = "9999" // a value no variant selects
		}
		return p + params + e.Inter + string(rune(e.Final)), true
	case decode.KindOSC:
		return fmt.Sprintf("\x1b]%d;%s\a", e.Command, payload), true
	case decode.KindDCS:
		return "\x1bP" + e.Selector + "\x1b\\", true
	case decode.KindScreenTitle:
		return "\x1bkx\x1b\\", true
	}
	return "", false
}

// TestCatalogueClasses: for every function of the catalogue and every
// form of it, the description calls it a query exactly when the
// sanitizer raises the query advisory for it, and the advisory classes
// the sanitizer raises are the ones the catalogue gives the function the
// description names. The six queries once described but not flagged
// (DECREQTPARM, DECRQPSR, DECRQCRA, DECRQLP, XTREPORTSGR, DECID) are among
// them.
func TestCatalogueClasses(t *testing.T) {
	queries := map[string]bool{}
	for _, e := range ctlfunc.All() {
		forms := []*ctlfunc.Variant{nil}
		for i := range e.Variants {
			forms = append(forms, &e.Variants[i])
		}
		for _, v := range forms {
			in, ok := entryBytes(e, v)
			if !ok {
				continue
			}
			tk := firstToken(t, in)
			f, ok := ctlfunc.Lookup(&tk)
			if !ok || f.Entry != e {
				t.Errorf("%q: looked up %v, want the entry %q %q", in, f.Entry, e.Mnemonic, e.Description)
				continue
			}
			want := e.Classes
			if v != nil {
				want = v.Classes
			}
			desc := Describe(&tk).String()
			adv := sanitize.Advisories(&tk)
			if adv != want || f.Classes != want {
				t.Errorf("%q (%s): advisories %v, function %v, want %v", in, desc, adv, f.Classes, want)
			}
			if got := strings.Contains(desc, ctlfunc.QueryNote); got != (adv&ctlfunc.Query != 0) {
				t.Errorf("%q: description %q, advisories %v", in, desc, adv)
			}
			if dec := Decision(&tk, sanitize.Options{}).String(); adv != 0 && !strings.Contains(dec, "flagged "+strings.Join(adv.Names(), ", ")) {
				t.Errorf("%q: decision %q does not name %v", in, dec, adv)
			}
			if adv&ctlfunc.Query != 0 {
				queries[f.Mnemonic] = true
			}
		}
	}
	for _, m := range []string{"DECREQTPARM", "DECRQPSR", "DECRQCRA", "DECRQLP", "XTREPORTSGR", "DECID"} {
		if !queries[m] {
			t.Errorf("%s does not raise query", m)
		}
	}
}

// TestDescriptionsNameNoQuery: no description of the catalogue says
// "query" or "replies" on its own; the query note comes from the class.
func TestDescriptionsNameNoQuery(t *testing.T) {
	for _, e := range ctlfunc.All() {
		texts := []string{e.Description}
		for _, v := range e.Variants {
			texts = append(texts, v.Description)
		}
		for _, s := range texts {
			if strings.Contains(s, "(query") || strings.Contains(s, "terminal replies") {
				t.Errorf("%s %q: the query note belongs to the class", e.Mnemonic, s)
			}
		}
	}
}
