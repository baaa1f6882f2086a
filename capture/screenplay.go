package capture

import (
	"fmt"

	"github.com/bytelens/bytelens/sanitize"
	"github.com/bytelens/bytelens/screen"
)

// ScreenOptions are a caller's choices for [ModelScreen].
type ScreenOptions struct {
	// Cols and Rows are the size to use when the capture states none
	// (--size); 0 means screen.DefaultCols×screen.DefaultRows.
	Cols, Rows int
	// Findings records the hidden-text findings (screen.Model.Findings).
	Findings bool
	// Policy gives the decode grammar alternatives the cleaner uses, so
	// that the model parses the bytes as cleaning did: C1 (introducers or
	// lone) and APCBEL. Its other fields do not apply.
	Policy sanitize.Options
}

// ModelScreen plays stream st of c through a new screen model up to byte
// end of the stream (at most st.Len), with the size and newline mode
// that [SetupScreen] chooses, and ends the model (screen.Model.End) when
// end reaches the end of the stream. The setup is returned so that a
// report can state it. Errors are the model's (a size it refuses) or
// [PlayScreen]'s.
func ModelScreen(c *Capture, st *Stream, end int64, o ScreenOptions) (*screen.Model, ScreenSetup, error) {
	set := SetupScreen(c, st, o.Cols, o.Rows)
	m, err := screen.New(screen.Options{Cols: set.Cols, Rows: set.Rows, NewlineCRLF: set.NewlineCRLF, Findings: o.Findings,
		Timed: c != nil && c.Timed, LoneC1: o.Policy.C1 == sanitize.C1Lone, APCBEL: o.Policy.APCBEL})
	if err != nil {
		return nil, set, err
	}
	if err := PlayScreen(m, st, end); err != nil {
		return nil, set, err
	}
	if end >= st.Len {
		m.End()
	}
	return m, set, nil
}

// ScreenEnd returns the offset in stream st up to which a screen is
// played: at, a byte offset, when it is not negative; else the end of the
// frame-th frame (1-based) of a recording when frame is positive; else
// the end of the stream. The error says that at lies past the end of st
// ("past the end of stream NAME (LEN bytes)", for a caller to prefix with
// at as its user gave it) or that st has fewer frames.
func ScreenEnd(st *Stream, at int64, frame int) (int64, error) {
	switch {
	case at > st.Len:
		return 0, fmt.Errorf("past the end of stream %s (%d bytes)", st.Name, st.Len)
	case at >= 0:
		return at, nil
	case frame > 0:
		end, ok := FrameEnd(st, frame)
		if !ok {
			return 0, fmt.Errorf("stream %s has fewer than %d frames", st.Name, frame)
		}
		return end, nil
	}
	return st.Len, nil
}
