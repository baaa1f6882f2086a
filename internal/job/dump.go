package job

import (
	"errors"
	"io"

	"github.com/bytelens/bytelens/capture"
	"github.com/bytelens/bytelens/dump"
	"github.com/bytelens/bytelens/internal/command"
	"github.com/bytelens/bytelens/iostreams"
)

// Dump writes to w each stream of in that stream picks ("" for all)
// with d (dump.Streams), the capture's notes first to e.Notes: a
// recording gives the terminal bytes it holds, not the file's own bytes.
// Raw stdin (in.Raw) is read as it arrives (dump.Stdin); when w is a
// pipe that nobody reads any more (iostreams.ErrOutputGone), Dump ends
// as quietly as SIGPIPE would, with a command.ExitError of ExitFailure.
func (e Env) Dump(w io.Writer, in *capture.Input, stream string, d dump.Dumper) error {
	if in.Capture == nil {
		err := dump.Stdin(w, in.Raw, d)
		if errors.Is(err, iostreams.ErrOutputGone) {
			return command.ExitError{Code: command.ExitFailure}
		}
		return err
	}
	WriteNotes(e.Notes, in.Capture)
	sts, err := in.Capture.Select(stream)
	if err != nil {
		return err
	}
	return dump.Streams(w, sts, d)
}
