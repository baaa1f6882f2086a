package sanitize

import "github.com/bytelens/bytelens/decode"

// CRFate is what the sanitizer makes of a run of CRs, which it knows only
// once the output after the run is known.
type CRFate uint8

// Fates of a run of CRs.
const (
	// CRUnsettled: nothing after the run wrote output before the tokens
	// ended (at the end of the stream such a run is removed, unflagged).
	CRUnsettled CRFate = iota
	// CRBeforeLF: the next output is LF (CRLF, a pty's CR CR LF, or a VT
	// or FF made LF), which is the line break.
	CRBeforeLF
	// CROverwrites: the next output is anything else, painted over the
	// line: one LF under CRLines, flagged overwrite.
	CROverwrites
)

// SettleCR returns what the sanitizer makes, under o, of the run of CRs
// that the CR token toks[i] belongs to. It runs the policy over toks from
// the first, so that what is open before the run (a link whose target
// LinksAppend writes, held format characters) counts as it does in the
// stream, until the run is settled. data holds the input bytes from
// stream offset off on, which the text tokens among toks lie in; toks
// must not include tokens cut at the end of data (render.Window's Open
// ones).
func SettleCR(toks []decode.Token, i int, data []byte, off int64, o Options) CRFate {
	if i < 0 || i >= len(toks) || toks[i].Kind != decode.KindC0 || toks[i].Final != '\r' {
		return CRUnsettled
	}
	c := getCleaner(o)
	defer c.release()
	c.chunk, c.base = data[:len(data):len(data)], off // capped: no word loaded past data (feed)
	for j := range toks {
		c.each(&toks[j])
		if j == i {
			c.crFate = CRUnsettled // a run before this one may have settled on the way
		}
		if j >= i && c.crFate != CRUnsettled {
			break
		}
	}
	return c.crFate
}
