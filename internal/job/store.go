package job

import (
	"io"
	"time"

	"github.com/bytelens/bytelens/capture"
	"github.com/bytelens/bytelens/capture/store"
	"github.com/bytelens/bytelens/render"
	"github.com/bytelens/bytelens/safejson"
)

// ListStore writes the store entries es: to data one JSON object per
// line (capture.StoreEntry) when asJSON, else to out as aligned columns
// REFERENCE, KIND, BYTES, TIME (RFC 3339, UTC) and COMMAND under a
// header.
func ListStore(data io.Writer, out *render.Writer, es []store.Entry, asJSON bool) error {
	if asJSON {
		enc := safejson.NewEncoder(data)
		for _, e := range es {
			if err := enc.Encode(capture.NewStoreEntry(e)); err != nil {
				return err
			}
		}
		return nil
	}
	tw := out.Columns(0, 0, 2)
	tw.Printf("REFERENCE\tKIND\tBYTES\tTIME\tCOMMAND\n")
	for _, e := range es {
		tw.Printf("%s\t%s\t%d\t%s\t%s\n", capture.EntryName(e), e.Kind, e.Size, e.ModTime.UTC().Format(time.RFC3339), capture.EntryCommand(e))
	}
	return tw.Flush()
}
