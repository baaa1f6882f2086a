package capture

import (
	"bufio"
	"bytes"
	"io"
	"time"
)

// githubLossyReason explains why GitHub Actions logs are lossy.
const githubLossyReason = "the GitHub Actions runner decodes process output as UTF-8 before logging it, so invalid bytes were likely replaced with U+FFFD"

// githubPrefixLen returns the length of a GitHub Actions runner timestamp
// prefix at the start of b — "2026-11-29T11:47:47.1004444Z " (ISO 8601 UTC,
// DateTime.ToString("O"), then a space) — and its time, or 0 if there is
// none.
func githubPrefixLen(b []byte) (int, time.Time) {
	n, t := rfc3339PrefixLen(b)
	if n == 0 || b[n-2] != 'Z' {
		return 0, time.Time{}
	}
	return n, t
}

// githubMarkers start the lines that the runner writes for workflow
// commands and its own steps.
var githubMarkers = [][]byte{
	[]byte("##[group]"), []byte("##[endgroup]"), []byte("##[error]"), []byte("##[warning]"),
	[]byte("##[notice]"), []byte("##[debug]"), []byte("##[command]"), []byte("##[section]"),
	[]byte("[command]"),
}

// githubMarker reports whether a log message is a runner marker or a
// workflow command ("::add-mask::…", "::error file=x::…").
func githubMarker(msg []byte) bool {
	for _, m := range githubMarkers {
		if bytes.HasPrefix(msg, m) {
			return true
		}
	}
	rest, ok := bytes.CutPrefix(msg, []byte("::"))
	if !ok {
		return false
	}
	i := 0
	for i < len(rest) && ('a' <= rest[i] && rest[i] <= 'z' || rest[i] == '-') {
		i++
	}
	return i > 0 && (bytes.HasPrefix(rest[i:], []byte("::")) ||
		i < len(rest) && rest[i] == ' ' && bytes.Contains(rest[i:], []byte("::")))
}

// sniffGitHub reports whether b is a GitHub Actions log: its first line has
// a runner timestamp, and a line of b has a runner marker or workflow
// command after its timestamp. A timestamp alone is not enough: kubectl
// and docker write the same prefix.
func sniffGitHub(b []byte) bool {
	if n, _ := githubPrefixLen(b); n == 0 {
		return false
	}
	for line := range bytes.Lines(b) {
		if n, _ := githubPrefixLen(line); n > 0 && githubMarker(line[n:]) {
			return true
		}
	}
	return false
}

// ciLines calls fn for each line start in the first limit bytes of the
// source: off is the line's offset and b at least its first 64 KiB (less
// for a shorter line; without the LF). It reports the bytes scanned.
func (l *loader) ciLines(limit int64, fn func(off int64, b []byte)) (int64, error) {
	br := bufio.NewReaderSize(io.NewSectionReader(l.r, 0, limit), 64<<10)
	var off int64
	atStart := true
	for {
		chunk, err := br.ReadSlice('\n')
		if len(chunk) > 0 && atStart {
			fn(off, bytes.TrimSuffix(chunk, []byte("\n")))
		}
		off += int64(len(chunk))
		atStart = err != bufio.ErrBufferFull
		switch {
		case err == nil, err == bufio.ErrBufferFull:
		case err == io.EOF:
			return off, nil
		default:
			return off, err
		}
	}
}

// scanLimit returns how far CI-log loaders scan for events, warning when it
// is less than the whole file.
func (l *loader) scanLimit() int64 {
	if l.size > l.maxDecoded {
		l.warnf(0, l.maxDecoded, "events are found only in the first %d bytes", l.maxDecoded)
		return l.maxDecoded
	}
	return l.size
}

// loadGitHub loads a GitHub Actions job log as one raw output stream read
// from the source. Each timestamp prefix becomes an EventTimestamp with the
// time since the first; "##[group]" and "##[endgroup]" lines become section
// events labelled with the group title, and "##[error]" and "##[warning]"
// lines markers. A UTF-8 byte order mark at the start is skipped.
func (l *loader) loadGitHub() error {
	c := l.c
	c.Format = FormatGitHubActions
	c.Lossy, c.LossyReason = true, githubLossyReason
	out := l.stream(StreamOutput)
	l.addSource(out, 0, l.size)
	var t0, prev time.Time
	_, err := l.ciLines(l.scanLimit(), func(off int64, b []byte) {
		if off == 0 {
			if rest := trimBOM(b); len(rest) < len(b) {
				off, b = 3, rest
			}
		}
		n, ts := githubPrefixLen(b)
		if n == 0 {
			return
		}
		if t0.IsZero() {
			t0, prev = ts, ts
			c.Start, c.Timed = ts, true
		}
		if ts.Before(prev) {
			ts = prev
		}
		prev = ts
		l.event(out, Event{Kind: EventTimestamp, Off: off, Len: int64(n), Time: ts.Sub(t0)})
		msg := bytes.TrimSuffix(b[n:], []byte("\r"))
		moff := off + int64(n)
		switch {
		case bytes.HasPrefix(msg, []byte("##[group]")):
			l.event(out, Event{Kind: EventSectionStart, Off: moff, Len: int64(len(msg)), Time: ts.Sub(t0), Label: label(string(msg[len("##[group]"):]))})
		case bytes.HasPrefix(msg, []byte("##[endgroup]")):
			l.event(out, Event{Kind: EventSectionEnd, Off: moff, Len: int64(len(msg)), Time: ts.Sub(t0)})
		case bytes.HasPrefix(msg, []byte("##[error]")):
			l.event(out, Event{Kind: EventMarker, Off: moff, Time: ts.Sub(t0), Label: "error"})
		case bytes.HasPrefix(msg, []byte("##[warning]")):
			l.event(out, Event{Kind: EventMarker, Off: moff, Time: ts.Sub(t0), Label: "warning"})
		}
	})
	return err
}

// GitLab section markers (docs.gitlab.com, ci/jobs/job_logs):
// "\e[0Ksection_start:<unix>:<name>[options]\r\e[0K" and
// "\e[0Ksection_end:<unix>:<name>\r\e[0K".
var (
	gitlabStart = []byte("section_start:")
	gitlabEnd   = []byte("section_end:")
	gitlabClear = []byte("\x1b[0K")
)

// sniffGitLab reports whether b holds a well-formed GitLab section marker
// or starts with the runner's greeting.
func sniffGitLab(b []byte) bool {
	if bytes.HasPrefix(b, []byte("\x1b[0KRunning with gitlab-runner")) {
		return true
	}
	i := bytes.Index(b, gitlabStart)
	if i < 0 {
		return false
	}
	_, _, _, ok := parseGitLabMarker(b[i:], len(gitlabStart))
	return ok
}

// parseGitLabMarker parses a marker at the start of b whose keyword is k
// bytes long: "<unix>:<name>[options]" then an optional "\r\e[0K". It
// returns the timestamp, the name and the marker's length.
func parseGitLabMarker(b []byte, k int) (unix int64, name []byte, n int, ok bool) {
	unix, rest, ok := cutUint(b[k:], ':')
	if !ok {
		return 0, nil, 0, false
	}
	i := 0
	for i < len(rest) && i < 256 && isSectionNameByte(rest[i]) {
		i++
	}
	if i == 0 {
		return 0, nil, 0, false
	}
	name = rest[:i]
	j := i
	if j < len(rest) && rest[j] == '[' {
		if e := bytes.IndexByte(rest[j:min(len(rest), j+256)], ']'); e > 0 {
			j += e + 1
		}
	}
	if bytes.HasPrefix(rest[j:], []byte("\r\x1b[0K")) {
		j += len("\r\x1b[0K")
	}
	return unix, name, len(b) - len(rest) + j, true
}

func isSectionNameByte(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '_' || c == '-' || c == '.'
}

// loadGitLab loads a GitLab CI job trace as one raw output stream read from
// the source. Each section_start and section_end marker (with the "\e[0K"
// before it, when present) becomes a section event labelled with the
// section name, timed from the first marker's Unix time.
func (l *loader) loadGitLab() error {
	c := l.c
	c.Format = FormatGitLabCI
	out := l.stream(StreamOutput)
	l.addSource(out, 0, l.size)
	var first, prev int64
	_, err := l.ciLines(l.scanLimit(), func(off int64, b []byte) {
		for i := 0; i < len(b); {
			j := bytes.Index(b[i:], []byte("section_"))
			if j < 0 {
				return
			}
			at := i + j
			kind, k := EventSectionStart, len(gitlabStart)
			switch {
			case bytes.HasPrefix(b[at:], gitlabStart):
			case bytes.HasPrefix(b[at:], gitlabEnd):
				kind, k = EventSectionEnd, len(gitlabEnd)
			default:
				i = at + 1
				continue
			}
			unix, name, n, ok := parseGitLabMarker(b[at:], k)
			if !ok {
				i = at + 1
				continue
			}
			start := at
			if at-len(gitlabClear) >= i && bytes.Equal(b[at-len(gitlabClear):at], gitlabClear) {
				start -= len(gitlabClear)
			}
			if !c.Timed {
				first, prev = unix, unix
				c.Timed, c.Start = true, time.Unix(unix, 0).UTC()
			}
			prev = max(prev, min(unix, first+maxSeconds))
			l.event(out, Event{Kind: kind, Off: off + int64(start), Len: int64(at + n - start), Time: time.Duration(prev-first) * time.Second, Label: label(string(name))})
			i = at + n
		}
	})
	return err
}
