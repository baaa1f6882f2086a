package capture

import (
	"bytes"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// The first words of the header and footer lines that util-linux script(1)
// writes in the C locale (term-utils/script.c, log_start and log_close).
const (
	scriptStarted = "Script started on "
	scriptDone    = "Script done on "
)

// Limits on the script(1) header and footer lines, in bytes.
const (
	maxScriptHeader = 64 << 10
	maxScriptFooter = 4 << 10
)

// scriptTimeLayout is the ISO-8601 form script(1) 2.35+ writes in its header
// and in the advanced timing file's START_TIME.
const scriptTimeLayout = "2006-01-02 15:04:05-07:00"

// timingEntry is one parsed line of a timing file.
type timingEntry struct {
	typ        byte // 'O', 'I', 'S' or 'H'; classic entries are 'O'
	line       int
	delay      time.Duration
	n          int64  // O, I: chunk size in bytes
	key, value string // H: name and value; S: signal name
	cols, rows int64  // S SIGWINCH
	hasSize    bool
}

// loadScript loads a util-linux script(1) typescript, with a timing file if
// haveTiming. The typescript's first line ("Script started on …") is an
// EventHeader and its last line ("\nScript done on … [COMMAND_EXIT_CODE=…]")
// an EventFooter; both stay in the output stream, which without input
// logging is the whole file, so stream offsets are file offsets.
//
// A classic timing file ("<delay> <bytes>" per write) or an advanced one
// (--log-timing: "O|I <delay> <bytes>", "S <delay> SIGWINCH ROWS=r COLS=c",
// "H <delay> KEY value") gives EventFrame times; the byte counts index the
// typescript after its header line. With --log-io, input and output share
// the typescript and are split into StreamInput and StreamOutput. A timing
// file that does not match the typescript loads what matches and warns.
// path, the typescript's path, tells a --log-in file from a --log-out file
// when the timing file names both.
func (l *loader) loadScript(timing []byte, path string, haveTiming bool) error {
	c := l.c
	c.Format = FormatScript

	head := make([]byte, min(l.size, maxScriptHeader))
	if n, err := l.r.ReadAt(head, 0); n < len(head) {
		return err
	}
	hdrLen := int64(len(head))
	if i := bytes.IndexByte(head, '\n'); i >= 0 {
		hdrLen = int64(i) + 1
	} else if l.size > hdrLen {
		l.warnf(1, 0, "no end of the header line within %d bytes", maxScriptHeader)
	}
	hdr := head[:hdrLen]
	if !bytes.HasPrefix(hdr, []byte(scriptStarted)) && l.size > 0 {
		l.warnf(1, 0, "first line does not start with %q; taken as the header anyway", scriptStarted)
	}
	l.scriptHeader(hdr)

	footOff, footLen, footExit, footHasExit, err := l.scriptFooter(hdrLen)
	if err != nil {
		return err
	}
	dataStart, dataEnd := hdrLen, footOff

	var entries []timingEntry
	if haveTiming {
		var advanced bool
		entries, advanced = l.parseTiming(timing)
		c.Timed = true
		if advanced {
			c.Format = FormatScriptAdvanced
		} else {
			c.Format = FormatScriptTiming
		}
	}

	// Which streams does this typescript hold? With --log-in and --log-out
	// to different files, the H lines name both.
	inHere, outHere := true, true
	var inLog, outLog string
	nIn := 0
	for _, e := range entries {
		switch {
		case e.typ == 'H' && e.key == "INPUT_LOG":
			inLog = e.value
		case e.typ == 'H' && e.key == "OUTPUT_LOG":
			outLog = e.value
		case e.typ == 'I':
			nIn++
		}
	}
	if inLog != "" && outLog != "" && inLog != outLog {
		base := filepath.Base(path)
		if base == filepath.Base(inLog) && base != filepath.Base(outLog) {
			outHere = false
		} else {
			inHere = false
			if nIn > 0 {
				l.warn(Warning{Source: "timing", Off: -1, Msg: "input was logged to a separate file; its chunks are not in this typescript"})
			}
		}
	}
	split := nIn > 0 && inHere && outHere

	mainName := StreamOutput
	if !outHere {
		mainName = StreamInput
	}
	main := l.stream(mainName)
	var in *streamBuilder
	if split {
		in = l.stream(StreamInput)
		l.addSource(main, 0, hdrLen)
	} else {
		l.addSource(main, 0, l.size)
	}
	l.event(main, Event{Kind: EventHeader, Off: 0, Len: hdrLen})

	pos := dataStart
	var t time.Duration
	exit, hasExit := footExit, footHasExit
	var hExit int
	var hHasExit bool
walk:
	for _, e := range entries {
		t = addTime(t, e.delay)
		switch e.typ {
		case 'O', 'I':
			if (e.typ == 'I' && !inHere) || (e.typ == 'O' && !outHere) {
				continue
			}
			n := e.n
			short := pos+n > dataEnd
			if short {
				l.warn(Warning{Source: "timing", Line: e.line, Off: -1, Msg: fmt.Sprintf(
					"timing and typescript do not match: entry wants %d bytes at typescript offset %d, %d data bytes remain; timing ignored from here",
					n, pos, dataEnd-pos)})
				n = dataEnd - pos
			}
			s := main
			if split && e.typ == 'I' {
				s = in
			}
			off := pos
			if split {
				off = s.n
				l.addSource(s, pos, n)
			}
			l.event(s, Event{Kind: EventFrame, Off: off, Len: n, Time: t})
			pos += n
			if short {
				break walk
			}
		case 'S':
			off := pos
			if split {
				off = main.n
			}
			if e.hasSize {
				cols, ok1 := termSize(e.cols)
				rows, ok2 := termSize(e.rows)
				if !ok1 || !ok2 {
					l.warn(Warning{Source: "timing", Line: e.line, Off: -1, Msg: fmt.Sprintf("resize clamped to %dx%d", cols, rows)})
				}
				l.event(main, Event{Kind: EventResize, Off: off, Time: t, Cols: cols, Rows: rows})
			} else {
				l.event(main, Event{Kind: EventMarker, Off: off, Time: t, Label: e.key})
			}
		case 'H':
			l.meta(e.key, e.value)
			switch e.key {
			case "START_TIME":
				if st, err := time.Parse(scriptTimeLayout, e.value); err == nil {
					c.Start = st
				}
			case "COLUMNS", "LINES":
				v, err := strconv.ParseInt(e.value, 10, 32)
				if err != nil {
					break
				}
				cols, rows := int64(c.Cols), int64(c.Rows)
				if e.key == "COLUMNS" {
					cols = v
				} else {
					rows = v
				}
				l.setSize(cols, rows, 0)
			case "EXIT_CODE":
				if v, err := strconv.Atoi(e.value); err == nil {
					hExit, hHasExit = v, true
				}
			}
		}
	}
	if pos < dataEnd {
		if haveTiming {
			l.warn(Warning{Source: "timing", Off: -1, Msg: fmt.Sprintf(
				"timing covers %d of the typescript's %d data bytes; the rest has no timing", pos-dataStart, dataEnd-dataStart)})
		}
		if split {
			l.addSource(main, pos, dataEnd-pos)
		}
	}
	endOff := dataEnd
	if split {
		endOff = main.n
		l.addSource(main, footOff, footLen)
	}
	if footLen > 0 {
		l.event(main, Event{Kind: EventFooter, Off: endOff, Len: footLen, Time: t})
	}
	if hHasExit {
		if hasExit && exit != hExit {
			l.warn(Warning{Source: "timing", Off: -1, Msg: fmt.Sprintf("EXIT_CODE %d differs from the typescript footer's %d", hExit, exit)})
		}
		exit, hasExit = hExit, true
	}
	if hasExit {
		c.ExitCode, c.ExitKnown = exit, true
		l.event(main, Event{Kind: EventExit, Off: endOff, Time: t, Code: exit})
	}
	return nil
}

// scriptHeader takes the start time and terminal size from a header line
// such as `Script started on 2026-11-29 11:47:56+00:00 [COMMAND="…"
// TERM="…" TTY="…" COLUMNS="80" LINES="24"]`. The command comes first and
// is written unescaped, so the last COLUMNS and LINES are the real ones.
func (l *loader) scriptHeader(hdr []byte) {
	if rest, ok := bytes.CutPrefix(hdr, []byte(scriptStarted)); ok {
		if ts, _, ok := bytes.Cut(rest, []byte(" [")); ok {
			if st, err := time.Parse(scriptTimeLayout, string(ts)); err == nil {
				l.c.Start = st
			}
		}
	}
	cols, okc := lastQuotedInt(hdr, ` COLUMNS="`)
	rows, okr := lastQuotedInt(hdr, ` LINES="`)
	if okc && okr {
		l.setSize(cols, rows, 1)
	}
}

// lastQuotedInt parses the integer in the last `key"N"` of b.
func lastQuotedInt(b []byte, key string) (int64, bool) {
	i := bytes.LastIndex(b, []byte(key))
	if i < 0 {
		return 0, false
	}
	v, _, ok := cutUint(b[i+len(key):], '"')
	return v, ok
}

// scriptFooter finds the footer that script(1) appends: "\nScript done on
// <time> [COMMAND_EXIT_CODE="N"]\n" as the last line, after the header. It
// returns the footer's offset (the size of the file when there is none),
// length and exit status.
func (l *loader) scriptFooter(hdrLen int64) (off, n int64, exit int, hasExit bool, err error) {
	tailLen := min(l.size-hdrLen, maxScriptFooter)
	tailOff := l.size - tailLen
	tail := make([]byte, tailLen)
	if k, err := l.r.ReadAt(tail, tailOff); k < len(tail) {
		return 0, 0, 0, false, err
	}
	t := bytes.TrimSuffix(tail, []byte("\n"))
	i := bytes.LastIndexByte(t, '\n')
	if i < 0 || !bytes.HasPrefix(t[i+1:], []byte(scriptDone)) {
		return l.size, 0, 0, false, nil
	}
	off = tailOff + int64(i)
	if v, ok := lastQuotedInt(t[i:], `[COMMAND_EXIT_CODE="`); ok && v <= 1<<16 {
		exit, hasExit = int(v), true
	}
	return off, l.size - off, exit, hasExit, nil
}

// parseTiming parses a classic or advanced timing file. As scriptreplay
// does, a first byte that is a digit means classic. Malformed lines are
// skipped with a warning; at most MaxEvents entries are kept.
func (l *loader) parseTiming(b []byte) (entries []timingEntry, advanced bool) {
	if len(b) == 0 {
		l.warn(Warning{Source: "timing", Off: -1, Msg: "timing file is empty"})
		return nil, false
	}
	advanced = b[0] < '0' || b[0] > '9'
	var bad repeated
	lineNo := 0
	var off int64
	for len(b) > 0 {
		lineNo++
		lineOff := off
		line, rest, _ := bytes.Cut(b, []byte("\n"))
		off += int64(len(b) - len(rest))
		b = rest
		line = bytes.TrimSuffix(line, []byte("\r"))
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		if len(entries) >= l.maxEvents {
			l.warn(Warning{Source: "timing", Line: lineNo, Off: -1, Msg: fmt.Sprintf("more than %d timing entries; the rest is ignored", l.maxEvents)})
			break
		}
		e, ok := parseTimingLine(line, advanced)
		if !ok {
			bad.add(lineNo, lineOff)
			continue
		}
		e.line = lineNo
		entries = append(entries, e)
	}
	bad.flush(l, "timing", "malformed timing line skipped")
	return entries, advanced
}

// parseTimingLine parses one line: "<delay> <bytes>" (classic) or
// "<type> <delay> <rest>" (advanced).
func parseTimingLine(line []byte, advanced bool) (timingEntry, bool) {
	var e timingEntry
	s := string(line)
	if !advanced {
		delay, n, ok := strings.Cut(s, " ")
		if !ok {
			return e, false
		}
		e.typ = 'O'
		return e, parseDelay(delay, &e) && parseCount(n, &e)
	}
	typ, rest, ok := strings.Cut(s, " ")
	if !ok || len(typ) != 1 {
		return e, false
	}
	delay, rest, _ := strings.Cut(rest, " ")
	if !parseDelay(delay, &e) {
		return e, false
	}
	e.typ = typ[0]
	switch e.typ {
	case 'O', 'I':
		return e, parseCount(rest, &e)
	case 'S':
		sig, args, _ := strings.Cut(rest, " ")
		if !validSignal(sig) {
			return e, false
		}
		e.key = sig
		if sig == "SIGWINCH" {
			for _, f := range strings.Fields(args) {
				k, v, _ := strings.Cut(f, "=")
				n, err := strconv.ParseInt(v, 10, 32)
				switch {
				case err != nil:
				case k == "ROWS":
					e.rows = n
				case k == "COLS":
					e.cols = n
				}
			}
			e.hasSize = e.rows > 0 || e.cols > 0
		}
		return e, true
	case 'H':
		key, value, _ := strings.Cut(rest, " ")
		if key == "" {
			return e, false
		}
		e.key, e.value = label(key), value
		return e, true
	}
	return e, false
}

// validSignal reports whether s looks like a signal name such as "SIGTERM".
func validSignal(s string) bool {
	if len(s) < 4 || len(s) > 16 || !strings.HasPrefix(s, "SIG") {
		return false
	}
	for i := 3; i < len(s); i++ {
		if c := s[i]; (c < 'A' || c > 'Z') && (c < '0' || c > '9') {
			return false
		}
	}
	return true
}

// parseDelay parses a delay in seconds ("0.010114").
func parseDelay(s string, e *timingEntry) bool {
	f, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return false
	}
	d, ok := seconds(f)
	e.delay = d
	return ok
}

// parseCount parses a non-negative byte count.
func parseCount(s string, e *timingEntry) bool {
	n, err := strconv.ParseInt(strings.TrimSpace(s), 10, 64)
	if err != nil || n < 0 {
		return false
	}
	e.n = n
	return true
}
