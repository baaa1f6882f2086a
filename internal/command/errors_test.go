package command

import (
	"bytes"
	"errors"
	"fmt"
	"testing"

	"github.com/bytelens/bytelens/render"
)

var (
	errBadRef = errors.New("bad reference")
	errBig    = errors.New("too large")
)

// kinds is a table like the one bytelens passes.
var kinds = []Kind{{Err: errBadRef, Usage: true}, {Err: errBig, Hint: "save it to a file"}}

func TestExitCode(t *testing.T) {
	for _, tc := range []struct {
		name   string
		err    error
		code   int
		stderr string
	}{
		{"failure", errors.New("disk full"), ExitFailure, "bytelens: error: disk full\n"},
		{"usage", Usagef("--x wants %q", "a\x1b"), ExitUsage, "bytelens: error: --x wants \"a\\x1b\"\n"},
		{"usage kind", fmt.Errorf("open: %w", errBadRef), ExitUsage, "bytelens: error: open: bad reference\n"},
		{"hint kind", fmt.Errorf("stdin: %w", errBig), ExitFailure, "bytelens: error: stdin: too large\nhint: save it to a file\n"},
		{"own hint first", render.HintError{Err: fmt.Errorf("stdin: %w", errBig), Tip: "raise the limit"}, ExitFailure, "bytelens: error: stdin: too large\nhint: raise the limit\n"},
		{"usage of a hint kind", UsageError{fmt.Errorf("stdin: %w", errBig)}, ExitUsage, "bytelens: error: stdin: too large\nhint: save it to a file\n"},
		{"usage with hint", UsageError{render.HintError{Err: errors.New("no"), Tip: "try\ayes"}}, ExitUsage, "bytelens: error: no\nhint: try\u2407yes\n"},
		{"exit code, silent", fmt.Errorf("differ: %w", ExitError{ExitFailure}), ExitFailure, ""},
		{"exit 2, silent", ExitError{ExitUsage}, ExitUsage, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var b bytes.Buffer
			if code := ExitCode(render.NewWriter(&b), tc.err, kinds); code != tc.code {
				t.Errorf("exit %d, want %d", code, tc.code)
			}
			if b.String() != tc.stderr {
				t.Errorf("stderr %q, want %q", b.String(), tc.stderr)
			}
		})
	}
}
