package render

import (
	"errors"
	"io/fs"
)

// HintError is an error with a second line for people, Tip, that a
// command prints as "hint: ..." after the error (both escaped).
type HintError struct {
	Err error
	Tip string
}

func (e HintError) Error() string   { return e.Err.Error() }
func (e HintError) Unwrap() error   { return e.Err }
func (e HintError) SafeError() Safe { return ErrorText(e.Err) }

// Hint returns the tip.
func (e HintError) Hint() string { return e.Tip }

// FileError words err, from opening, reading or writing the file name,
// for a person: "NAME: no such file"; "NAME: permission denied" with a
// hint to check the file's mode and owner; other errors as they are,
// and so an error about another file (a *fs.PathError of another path,
// such as the identity file a store needs).
func FileError(name string, err error) error {
	var pe *fs.PathError
	switch {
	case errors.As(err, &pe) && pe.Path != name:
		return err
	case errors.Is(err, fs.ErrNotExist):
		return Errorf("%s: no such file", name)
	case errors.Is(err, fs.ErrPermission):
		return HintError{Errorf("%s: permission denied", name), "check the file's mode and owner"}
	}
	return err
}
