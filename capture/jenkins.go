package capture

import (
	"bufio"
	"bytes"
	"encoding/base64"
	"encoding/binary"
	"io"

	"github.com/bytelens/bytelens/sanitize"
)

// Jenkins ConsoleNotes (hudson.console.ConsoleNote.encodeTo): the preamble,
// the standard base64 of [int32 -len(mac), mac, int32 len(data), data] (or,
// from older versions, of [int32 len(data), data]), where data is a gzipped
// serialized Java object, then the postamble. The preamble conceals the note
// on an ANSI terminal; the Jenkins web UI turns it into markup.
var (
	jenkinsPreamble  = []byte("\x1b[8mha:")
	jenkinsPostamble = []byte("\x1b[0m")
)

// maxJenkinsNote is the longest base64 text of a note, in bytes, that is
// taken for one; a longer one is kept as text with a warning.
const maxJenkinsNote = 1 << 20

// jenkinsNoteLen returns the length of the well-formed ConsoleNote at the
// start of b, or 0 if b does not start with one.
func jenkinsNoteLen(b []byte) int {
	rest, ok := bytes.CutPrefix(b, jenkinsPreamble)
	if !ok {
		return 0
	}
	i := 0
	for i < len(rest) && i <= maxJenkinsNote && isBase64Byte(rest[i]) {
		i++
	}
	if i == 0 || i > maxJenkinsNote || !bytes.HasPrefix(rest[i:], jenkinsPostamble) {
		return 0
	}
	raw, err := base64.StdEncoding.DecodeString(string(rest[:i]))
	if err != nil || !jenkinsNoteBody(raw) {
		return 0
	}
	return len(jenkinsPreamble) + i + len(jenkinsPostamble)
}

// jenkinsNoteBody checks the decoded note: the optional MAC, then a length
// that covers exactly the rest, which is gzip data.
func jenkinsNoteBody(raw []byte) bool {
	if len(raw) < 4 {
		return false
	}
	n := int32(binary.BigEndian.Uint32(raw))
	raw = raw[4:]
	if n < 0 {
		mac := int(-int64(n))
		if mac > len(raw)-4 {
			return false
		}
		raw = raw[mac:]
		n = int32(binary.BigEndian.Uint32(raw))
		raw = raw[4:]
	}
	return int64(n) == int64(len(raw)) && bytes.HasPrefix(raw, []byte{0x1f, 0x8b})
}

func isBase64Byte(c byte) bool {
	return 'A' <= c && c <= 'Z' || 'a' <= c && c <= 'z' || '0' <= c && c <= '9' || c == '+' || c == '/' || c == '='
}

// sniffJenkins reports whether b holds a ConsoleNote preamble, well-formed
// note or not. A preamble without a well-formed note (a bad MAC, length,
// gzip header or base64) still sniffs as Jenkins, so that loadJenkins
// warns with its offset and a sniffed reading is refused (SniffError)
// rather than the file silently cleaned as raw with the note's text in it.
func sniffJenkins(b []byte) bool {
	return bytes.Contains(b, jenkinsPreamble)
}

// loadJenkins loads a Jenkins console log as one output stream read from
// the source without its ConsoleNotes, which are counted as
// RemovedJenkinsNote. A preamble that does not begin a well-formed note is
// kept as text (the sanitizer then removes its SGRs) with a warning, and
// counted in the stream's Anomalies (sanitize.LoaderJenkinsNoteMalformed).
func (l *loader) loadJenkins() error {
	l.c.Format = FormatJenkins
	out := l.stream(StreamOutput)
	limit := l.scanLimit()
	window := int(min(maxJenkinsNote+int64(len(jenkinsPreamble)+len(jenkinsPostamble)), limit+1))
	br := bufio.NewReaderSize(io.NewSectionReader(l.r, 0, limit), window)
	var bad repeated
	defer func() {
		if bad.count > 0 {
			out.anomalies = append(out.anomalies, Anomaly{Class: sanitize.LoaderJenkinsNoteMalformed, Count: int64(bad.count), FirstOffset: bad.off})
		}
		bad.flush(l, "capture", "Jenkins ConsoleNote preamble without a well-formed note; kept as text")
	}()
	var pos, kept int64 // pos: bytes consumed; kept: start of the text not yet added
	for {
		chunk, err := br.ReadSlice(jenkinsPreamble[0])
		pos += int64(len(chunk))
		switch {
		case err == bufio.ErrBufferFull:
			continue
		case err == io.EOF:
			l.addSource(out, kept, l.size-kept)
			return nil
		case err != nil:
			return err
		}
		// The ESC just read may start a note.
		win, _ := br.Peek(window)
		if !bytes.HasPrefix(win, jenkinsPreamble[1:]) {
			continue
		}
		n := jenkinsNoteLen(append(jenkinsPreamble[:1:1], win...))
		if n == 0 {
			bad.add(0, pos-1)
			continue
		}
		l.addSource(out, kept, pos-1-kept)
		out.remove(RemovedJenkinsNote, int64(n))
		br.Discard(n - 1)
		pos += int64(n - 1)
		kept = pos
	}
}
