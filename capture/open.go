package capture

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"

	"github.com/bytelens/bytelens/capture/store"
)

// OpenOptions control how [Open] and [Load] read a capture. The zero value
// sniffs the format and uses the default limits.
type OpenOptions struct {
	// Format overrides content sniffing with a format name that
	// ParseFormat accepts; "" sniffs.
	Format string
	// Timing is the path of a script(1) timing file (classic or advanced,
	// told apart by content). With Timing set, a file that does not sniff
	// as another format is loaded as a typescript.
	Timing string
	// MaxDecoded caps, in bytes, the stream data built in memory for
	// formats that need decoding, and how far CI-log loaders scan for
	// events; 0 means DefaultMaxDecoded. Data past the cap is dropped with
	// a warning and Capture.Truncated set.
	MaxDecoded int64
	// MaxEvents caps the number of events per stream; 0 means
	// DefaultMaxEvents. Further events are dropped with a warning; their
	// bytes stay in the stream.
	MaxEvents int
}

// sniffLen is how many leading bytes sniffers see.
const sniffLen = 64 << 10

// maxTiming caps the size of a timing file read into memory, in bytes.
const maxTiming = 64 << 20

// Open loads the capture at path. The format is sniffed from the content
// unless opts.Format names one. Raw bytes are not read into memory: streams
// of raw, ttyrec, script and CI-log captures read from the open file, so
// the caller must Close the capture.
//
// Errors name the path and wrap the underlying error: fs.ErrNotExist,
// fs.ErrPermission, ErrIsDir, ErrNotRegular, ErrUnknownFormat,
// a *LineError, or a read error. Malformed content is mostly not an error:
// everything valid is loaded and the rest is described in
// Capture.Warnings. The exception is a docker json-file or journalctl -o
// json log with a line that does not load whole, sniffed or asked for: it
// is refused with a *LineError rather than loaded without that line. An
// empty file loads as a raw capture with one empty stream and a warning.
func Open(path string, opts OpenOptions) (*Capture, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("open capture %s: %w", path, unwrapPath(err))
	}
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("open capture %s: %w", path, unwrapPath(err))
	}
	if fi.IsDir() {
		f.Close()
		return nil, fmt.Errorf("open capture %s: %w", path, ErrIsDir)
	}
	if !fi.Mode().IsRegular() {
		f.Close()
		return nil, fmt.Errorf("open capture %s: %w", path, ErrNotRegular)
	}
	c, usesFile, err := load(f, fi.Size(), opts, path)
	if err != nil {
		f.Close()
		return nil, err
	}
	c.Path = path
	if usesFile {
		c.closer = f
	} else {
		f.Close()
	}
	return c, nil
}

// Load loads a capture of size bytes from r, as Open does for a file; use it
// for standard input after reading it into memory (bytes.NewReader) or into
// a temporary file. Streams may keep reading from r, which must stay valid
// while the capture is used; Close does not close r. opts.Timing, if set, is
// still a path.
func Load(r io.ReaderAt, size int64, opts OpenOptions) (*Capture, error) {
	if size < 0 {
		return nil, errors.New("load capture: negative size")
	}
	c, _, err := load(r, size, opts, "")
	return c, err
}

// Sniff reports the format of a capture of size bytes read from r, judged
// from its content: bytelens raw artifacts, script(1) typescripts,
// asciicast, docker json-file and journalctl JSON and export logs, ttyrec,
// Jenkins console logs, GitHub Actions and GitLab CI logs, and logs with
// RFC 3339 line prefixes; anything else is FormatRaw. For script it always reports FormatScript, and for asciicast
// the version in the header.
func Sniff(r io.ReaderAt, size int64) (Format, error) {
	head, err := readHead(r, size)
	if err != nil {
		return 0, err
	}
	return sniffBuiltin(r, head, size), nil
}

// readHead reads the first sniffLen bytes of r.
func readHead(r io.ReaderAt, size int64) ([]byte, error) {
	n := min(size, sniffLen)
	head := make([]byte, n)
	m, err := r.ReadAt(head, 0)
	if m == int(n) {
		return head, nil
	}
	if err == nil || err == io.EOF {
		err = io.ErrUnexpectedEOF
	}
	return nil, err
}

func sniffBuiltin(r io.ReaderAt, head []byte, size int64) Format {
	b := trimBOM(head)
	switch {
	case size == 0:
		return FormatRaw
	case store.Sniff(head):
		return FormatArtifact
	case bytes.HasPrefix(b, []byte(scriptStarted)):
		return FormatScript
	}
	if f, ok := sniffCast(b); ok {
		return f
	}
	switch {
	case sniffDocker(head):
		return FormatDockerJSON
	case sniffJournalJSON(head):
		return FormatJournalJSON
	case sniffJournalExport(head):
		return FormatJournalExport
	case sniffTTYRec(r, size):
		return FormatTTYRec
	case sniffJenkins(head):
		return FormatJenkins
	case sniffGitHub(b):
		return FormatGitHubActions
	case sniffGitLab(b):
		return FormatGitLabCI
	case sniffTimestamped(head):
		return FormatTimestamped
	}
	return FormatRaw
}

// load chooses and runs a loader. usesSource reports whether the capture's
// streams read from r.
func load(r io.ReaderAt, size int64, opts OpenOptions, path string) (c *Capture, usesSource bool, err error) {
	what := "capture"
	if path != "" {
		what = "capture " + path
	}
	head, err := readHead(r, size)
	if err != nil {
		return nil, false, fmt.Errorf("read %s: %w", what, err)
	}
	var format Format
	if opts.Format != "" {
		format, err = ParseFormat(opts.Format)
		if err != nil {
			return nil, false, fmt.Errorf("open %s: %w", what, err)
		}
	} else {
		format = sniffBuiltin(r, head, size)
		if opts.Timing != "" && format == FormatRaw {
			format = FormatScript
		}
	}

	l := newLoader(r, size, opts)
	switch {
	case size == 0 && path == "": // standard input, which is not a file
		l.warnf(0, -1, "empty input")
	case size == 0:
		l.warnf(0, -1, "empty file")
	}
	switch format.family() {
	case FormatAsciicastV2:
		err = l.loadCast(format, opts.Format == "")
	case FormatTTYRec:
		err = l.loadTTYRec()
	case FormatScript:
		var timing []byte
		if opts.Timing != "" {
			timing, err = readTiming(opts.Timing, l)
			if err != nil {
				return nil, false, err
			}
		}
		err = l.loadScript(timing, path, opts.Timing != "")
	case FormatGitHubActions:
		err = l.loadGitHub()
	case FormatGitLabCI:
		err = l.loadGitLab()
	case FormatArtifact:
		err = l.loadArtifact()
	case FormatDockerJSON:
		err = l.loadDocker()
	case FormatTimestamped:
		err = l.loadTimestamped()
	case FormatJenkins:
		err = l.loadJenkins()
	case FormatJournalJSON:
		err = l.loadJournalJSON()
	case FormatJournalExport:
		err = l.loadJournalExport()
	default:
		l.loadRaw()
	}
	if err != nil {
		return nil, false, fmt.Errorf("read %s: %w", what, err)
	}
	return l.finish(), l.usesSource, nil
}

// readTiming reads a timing file into memory, up to maxTiming bytes.
func readTiming(path string, l *loader) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("open timing %s: %w", path, unwrapPath(err))
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, fmt.Errorf("open timing %s: %w", path, unwrapPath(err))
	}
	if fi.IsDir() {
		return nil, fmt.Errorf("open timing %s: %w", path, ErrIsDir)
	}
	b, err := io.ReadAll(io.LimitReader(f, maxTiming+1))
	if err != nil {
		return nil, fmt.Errorf("read timing %s: %w", path, unwrapPath(err))
	}
	if len(b) > maxTiming {
		b = b[:maxTiming]
		if i := bytes.LastIndexByte(b, '\n'); i >= 0 {
			b = b[:i+1]
		}
		l.warn(Warning{Source: "timing", Off: int64(len(b)), Msg: fmt.Sprintf("timing file larger than %d bytes; the rest is ignored", maxTiming)})
	}
	return b, nil
}

// unwrapPath strips an *fs.PathError so that messages do not repeat the
// path; errors.Is still matches fs.ErrNotExist and fs.ErrPermission.
func unwrapPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

func trimBOM(b []byte) []byte { return bytes.TrimPrefix(b, []byte("\xef\xbb\xbf")) }
