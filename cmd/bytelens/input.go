package main

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
)

// openInput opens the FILE argument of a command: "-" or none is stdin.
// It refuses directories and names the file in every error.
func openInput(s *streams, args []string) (io.Reader, string, func() error, error) {
	if len(args) == 0 || args[0] == "-" {
		return s.stdin, "stdin", func() error { return nil }, nil
	}
	name := args[0]
	f, err := os.Open(name)
	if err != nil {
		return nil, name, nil, fileError(name, err)
	}
	if st, err := f.Stat(); err == nil && st.IsDir() {
		f.Close()
		return nil, name, nil, fmt.Errorf("%s is a directory, not a capture", name)
	}
	return f, name, f.Close, nil
}

// fileError words an error opening name for a person.
func fileError(name string, err error) error {
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return fmt.Errorf("%s: no such file", name)
	case errors.Is(err, fs.ErrPermission):
		return hintError{fmt.Errorf("%s: permission denied", name), "check the file's mode and owner"}
	}
	return err
}
