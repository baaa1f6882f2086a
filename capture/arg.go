package capture

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/bytelens/bytelens/capture/store"
)

// ArgOptions say how [OpenArg] opens a command's FILE argument.
type ArgOptions struct {
	OpenOptions
	// Stdin is read for the argument "-" or "".
	Stdin io.Reader
	// Store opens the store that a "restricted:sha256:<hex>" reference
	// is read from, with the keys that decrypt it.
	Store func() (*store.Store, error)
	// Specials reads a FIFO, device or socket named as the argument as
	// Stdin is read, under the name "stdin"; without it such a file gives
	// ErrNotRegular.
	Specials bool
	// Stream is the stream the command asks for ("" for all): raw stdin
	// has one, StreamOutput, and naming another is a *RawStdinError.
	Stream string
	// Whole loads raw stdin whole ([Input.LoadWhole]) instead of returning
	// it unread, for a command that reads it twice (the screen model).
	Whole bool
}

// ErrRawStdin is wrapped by the *RawStdinError of an option that does not
// apply to stdin read as raw bytes.
var ErrRawStdin = errors.New("option does not apply to raw stdin")

// RawStdinError is [OpenArg]'s refusal of an option that does not apply
// to stdin read as raw bytes: a timing file, or a stream other than
// StreamOutput. It wraps ErrRawStdin; Hint names the --format that would
// read stdin as a recording.
type RawStdinError struct {
	// Timing is set for a timing file; else Stream names the stream asked
	// for.
	Timing bool
	Stream string
}

func (e *RawStdinError) Error() string {
	if e.Timing {
		return "--timing applies to a script(1) typescript, and stdin is read as raw bytes"
	}
	return fmt.Sprintf("raw stdin has one stream, %s; --stream %s names none", StreamOutput, e.Stream)
}

// Hint names the --format that reads stdin as a recording.
func (e *RawStdinError) Hint() string {
	if e.Timing {
		return "give --format script to read stdin as a typescript"
	}
	return "give --format to read stdin as a recording with several streams"
}

func (e *RawStdinError) Unwrap() error { return ErrRawStdin }

// ErrRefOptions is [OpenArg]'s refusal of --format or --timing with a
// "restricted:" reference: the store records the artifact's format, so
// neither applies.
var ErrRefOptions = errors.New("--format and --timing do not apply to a restricted: reference, whose artifact is read as stored")

// Input is a command's FILE argument, opened by [OpenArg]: a capture, or
// raw bytes to stream. The caller closes it.
type Input struct {
	// Name names the input in messages: "stdin", the path or the
	// reference.
	Name string
	// Capture is the loaded capture; nil when the input is raw stdin,
	// which Raw streams in constant memory.
	Capture *Capture
	// Raw is raw stdin, unread, when Capture is nil.
	Raw io.Reader
	// close closes a special file opened in place of Stdin.
	close func() error
	// sniffed is set when the format was sniffed (OpenOptions.Format "").
	sniffed bool
}

// Close closes the capture and any file opened for the input.
func (in *Input) Close() error {
	var err error
	if in.Capture != nil {
		err = in.Capture.Close()
	}
	if in.close != nil {
		err = errors.Join(err, in.close())
	}
	return err
}

// OpenArg opens arg, a command's FILE argument: "-" or "" is stdin, which
// is returned unread (Input.Raw) when o.Format is "" or "raw" and loaded
// whole (at most MaxInput bytes) otherwise; a "restricted:" reference is
// opened from the store; a path is opened with [Open].
//
// Errors: an unknown o.Format wraps ErrUnknownFormat before arg is
// looked at (for a reference, see below); a malformed reference wraps
// store.ErrBadRef; a path that cannot be stat'ed, or a special file that
// cannot be opened, gives the *fs.PathError of package os (wrapping
// fs.ErrNotExist, fs.ErrPermission…), and no other error is one; a
// directory gives an error wrapping ErrIsDir; stdin over the limit wraps
// ErrInputTooLarge; raw stdin with o.Timing, or with o.Stream naming
// another stream than StreamOutput, gives a *RawStdinError; a reference
// with o.Format or o.Timing gives ErrRefOptions; otherwise the errors of
// Open, of o.Store and of [OpenArtifact].
func OpenArg(arg string, o ArgOptions) (*Input, error) {
	in := &Input{Name: arg, sniffed: o.Format == ""}
	if o.Format != "" && !IsRefArg(arg) {
		if _, err := ParseFormat(o.Format); err != nil {
			return nil, err
		}
	}
	switch {
	case arg == "" || arg == "-":
		in.Name = "stdin"
		if err := in.open(o.Stdin, o); err != nil {
			return nil, err
		}
		return in, nil
	case IsRefArg(arg):
		ref, err := store.ParseRef(arg)
		if err != nil {
			return nil, err
		}
		if o.Format != "" || o.Timing != "" {
			return nil, ErrRefOptions
		}
		st, err := o.Store()
		if err != nil {
			return nil, err
		}
		if in.Capture, err = OpenArtifact(st, ref); err != nil {
			return nil, err
		}
		return in, nil
	}
	fi, err := os.Stat(arg)
	switch {
	case err != nil:
		return nil, err
	case fi.IsDir():
		return nil, fmt.Errorf("%s %w, not a capture", arg, ErrIsDir)
	case o.Specials && !fi.Mode().IsRegular():
		f, err := os.Open(arg)
		if err != nil {
			return nil, err
		}
		in.Name, in.close = "stdin", f.Close
		if err := in.open(f, o); err != nil {
			f.Close()
			return nil, err
		}
		return in, nil
	}
	if in.Capture, err = Open(arg, o.OpenOptions); err != nil {
		return nil, err
	}
	return in, nil
}

// IsRefArg reports whether [OpenArg] takes arg as a reference to a raw
// artifact in the store: it starts with store.RefPrefix.
func IsRefArg(arg string) bool { return strings.HasPrefix(arg, store.RefPrefix) }

// open sets in from r read as stdin: unread for raw bytes (loaded whole
// with o.Whole) once o's other options are checked against them, else
// loaded whole with o.
func (in *Input) open(r io.Reader, o ArgOptions) error {
	switch {
	case o.Format != "" && o.Format != "raw":
		return in.LoadWhole(r, o.OpenOptions)
	case o.Timing != "":
		return &RawStdinError{Timing: true}
	case o.Stream != "" && o.Stream != StreamOutput:
		return &RawStdinError{Stream: o.Stream}
	case o.Whole:
		return in.LoadWhole(r, OpenOptions{Format: "raw"})
	}
	in.Raw = r
	return nil
}

// LoadWhole reads r whole (ReadInput, at most MaxInput bytes) and loads it
// as in's capture with o; used for raw stdin by a command that needs it
// again (the screen model). More than MaxInput bytes gives an error
// "stdin: …" wrapping ErrInputTooLarge.
func (in *Input) LoadWhole(r io.Reader, o OpenOptions) error {
	b, err := ReadInput(r, 0)
	if errors.Is(err, ErrInputTooLarge) {
		return fmt.Errorf("stdin: %w", err)
	} else if err != nil {
		return err
	}
	in.Capture, err = Load(bytes.NewReader(b), int64(len(b)), o)
	in.Raw = nil
	return err
}

// SniffError is the refusal of a format that was sniffed, not asked for,
// whose loader skipped or changed input (Capture.Warnings): a file whose
// first line looks like a recording must not choose what the rest of it
// cleans to, so the reading fails closed.
type SniffError struct {
	// Name names the input as Input.Name does.
	Name string
	// Format is the sniffed format.
	Format Format
	// Warning is the loader's first warning.
	Warning Warning
}

func (e *SniffError) Error() string {
	return fmt.Sprintf("%s looks like %s, but loading it skipped or changed input (%s)", e.Name, e.Format, e.Warning)
}

// Hint names the two ways out: the bytes as they are, or the format
// asked for (OpenOptions.Format, a command's --format).
func (e *SniffError) Hint() string {
	return fmt.Sprintf("--format raw cleans the file's bytes as they are; --format %s accepts the %s reading", e.Format, e.Format)
}

// CheckSniff returns a *SniffError when in's capture has a sniffed format
// other than raw and its loader warned; nil otherwise.
func (in *Input) CheckSniff() error {
	c := in.Capture
	if !in.sniffed || c.Format == FormatRaw || len(c.Warnings) == 0 {
		return nil
	}
	return &SniffError{Name: in.Name, Format: c.Format, Warning: c.Warnings[0]}
}
