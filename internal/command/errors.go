// Package command is what bytelens's commands share beside cobra: errors typed
// by exit code (0 ok, 1 failure, 2 usage), the one function that prints an
// error and picks the exit code, the typing of cobra's argument errors,
// and the flag sets several commands register (policy, fail-on, screen).
// It holds no command's work: that is in the packages the commands call.
package command

import (
	"cmp"
	"errors"
	"fmt"

	"github.com/bytelens/bytelens/render"
)

// Exit codes shared by every subcommand.
const (
	ExitOK      = 0
	ExitFailure = 1
	ExitUsage   = 2
)

// UsageError marks Err as a usage error (exit 2).
type UsageError struct{ Err error }

func (e UsageError) Error() string          { return e.Err.Error() }
func (e UsageError) Unwrap() error          { return e.Err }
func (e UsageError) SafeError() render.Safe { return render.ErrorText(e.Err) }

// Usagef returns a usage error built like render.Errorf: its arguments
// are escaped.
func Usagef(format render.Format, a ...any) error { return UsageError{render.Errorf(format, a...)} }

// ExitError lets a command choose its exit code without printing an error
// (diff exits 1 when inputs differ).
type ExitError struct{ Code int }

func (e ExitError) Error() string { return fmt.Sprintf("exit %d", e.Code) }

// Kind gives the exit code and hint of every error that wraps Err
// (errors.Is), for the packages' errors that mean the same on every
// command: Usage makes it a usage error (exit 2).
type Kind struct {
	Err   error
	Usage bool
	Hint  string
}

// ExitCode prints err on w as "bytelens: error: ...", with a "hint: ..."
// line when it has one, and returns its exit code: an ExitError's own
// code (printing nothing), ExitUsage for a UsageError or a usage kind,
// else ExitFailure. The hint of a render.HintError, or of any error err
// wraps that has a Hint method, comes before the hint of a kind.
func ExitCode(w *render.Writer, err error, kinds []Kind) int {
	var ee ExitError
	if errors.As(err, &ee) {
		return ee.Code
	}
	w.Printf("bytelens: error: %v\n", err)
	var hinted interface{ Hint() string }
	var ue UsageError
	usage, hint := errors.As(err, &ue), ""
	if errors.As(err, &hinted) {
		hint = hinted.Hint()
	}
	for _, k := range kinds {
		if errors.Is(err, k.Err) {
			usage = usage || k.Usage
			hint = cmp.Or(hint, k.Hint)
		}
	}
	if hint != "" {
		w.Printf("hint: %s\n", hint)
	}
	if usage {
		return ExitUsage
	}
	return ExitFailure
}
