package render

import (
	"errors"
	"fmt"
	"io/fs"
	"testing"
)

func TestFileError(t *testing.T) {
	other := errors.New("disk on fire")
	for _, tc := range []struct {
		name, file string
		err        error
		msg, hint  string
	}{
		{"missing", "a.log", &fs.PathError{Op: "open", Path: "a.log", Err: fs.ErrNotExist}, "a.log: no such file", ""},
		{"denied", "b.log", fmt.Errorf("stat: %w", fs.ErrPermission), "b.log: permission denied", "check the file's mode and owner"},
		{"name escaped", "x\x1b]0;t\a", fs.ErrNotExist, "x\u241b]0;t\u2407: no such file", ""},
		{"other", "c.log", other, "disk on fire", ""},
		// Another file's error is not the file's: diff REF REF with a
		// missing --identity said "REF: no such file".
		{"another file", "d.log", fmt.Errorf("identity: %w", &fs.PathError{Op: "open", Path: "/id", Err: fs.ErrNotExist}), "identity: open /id: file does not exist", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := FileError(tc.file, tc.err)
			if got := ErrorText(err).String(); got != tc.msg {
				t.Errorf("message %q, want %q", got, tc.msg)
			}
			var h interface{ Hint() string }
			if hint := ""; errors.As(err, &h) {
				hint = h.Hint()
				if hint != tc.hint {
					t.Errorf("hint %q, want %q", hint, tc.hint)
				}
			} else if tc.hint != "" {
				t.Errorf("no hint, want %q", tc.hint)
			}
		})
	}
}

func TestHintError(t *testing.T) {
	inner := Errorf("bad %s", "x\x07")
	err := HintError{inner, "try y"}
	if !errors.Is(err, inner) || err.Hint() != "try y" || err.SafeError() != ErrorText(inner) || err.Error() != inner.Error() {
		t.Errorf("HintError %#v does not carry its error and tip", err)
	}
}
