package capture

import (
	"bytes"
	"unicode/utf8"
)

// textKeeper keeps the head and the tail of a stream's cleaned text within
// limit bytes and counts all of it. While the text fits it is all head.
// When it passes the limit the head is cut to at most half the limit (at
// the last line boundary in it), and the rest of the limit holds the
// latest bytes, in a ring. Memory is at most limit bytes plus one write.
type textKeeper struct {
	limit    int64 // negative: no limit
	head     []byte
	cut      bool // the limit was passed
	ring     ring // the tail, once cut
	total    int64
	newlines int64
	lastByte byte
}

// Write never fails.
func (k *textKeeper) Write(p []byte) (int, error) {
	k.total += int64(len(p))
	k.newlines += int64(bytes.Count(p, []byte{'\n'}))
	if len(p) > 0 {
		k.lastByte = p[len(p)-1]
	}
	switch {
	case k.cut:
		k.ring.write(p)
	case k.limit < 0 || int64(len(k.head)+len(p)) <= k.limit:
		k.head = append(k.head, p...)
	default:
		k.cut = true
		all := append(k.head, p...)
		h := cutPoint(all[:k.limit/2])
		k.head = all[:h:h]
		k.ring = ring{buf: make([]byte, k.limit-int64(h)), afterLF: h == 0 || all[h-1] == '\n'}
		k.ring.write(all[h:])
	}
	return len(p), nil
}

// lines returns the number of lines written: LFs, plus one for a last line
// without LF.
func (k *textKeeper) lines() int64 {
	if k.total > 0 && k.lastByte != '\n' {
		return k.newlines + 1
	}
	return k.newlines
}

// keptText is the text an envelope shows of a stream.
type keptText struct {
	head, tail string
	omitted    *Omitted // nil when nothing was left out
}

// finish returns the head, the tail and what lies between them. The tail
// starts at the first line boundary in the ring, or, in a line longer than
// the ring, at the first whole character.
func (k *textKeeper) finish() keptText {
	if !k.cut {
		return keptText{head: string(k.head)}
	}
	tail, midLine := k.ring.bytes(), !k.ring.atLineStart()
	if midLine {
		if i := bytes.IndexByte(tail, '\n'); i >= 0 && i+1 < len(tail) {
			tail, midLine = tail[i+1:], false
		} else {
			for len(tail) > 0 && !utf8.RuneStart(tail[0]) {
				tail = tail[1:]
			}
		}
	}
	headLF := int64(bytes.Count(k.head, []byte{'\n'}))
	beforeTail := k.newlines - int64(bytes.Count(tail, []byte{'\n'}))
	o := &Omitted{Bytes: k.total - int64(len(k.head)+len(tail)), FromLine: headLF + 1, ToLine: beforeTail}
	if midLine {
		o.ToLine++
	}
	o.ToLine = max(o.ToLine, o.FromLine)
	o.Lines = o.ToLine - o.FromLine + 1
	return keptText{head: string(k.head), tail: string(tail), omitted: o}
}

// cutPoint returns the length of b up to its last LF, or, if it holds
// none, up to its last whole character.
func cutPoint(b []byte) int {
	if i := bytes.LastIndexByte(b, '\n'); i >= 0 {
		return i + 1
	}
	return len(trimPartialRune(b))
}

// trimPartialRune drops an incomplete UTF-8 sequence at the end of b.
func trimPartialRune(b []byte) []byte {
	for i := len(b) - 1; i >= 0 && i >= len(b)-utf8.UTFMax; i-- {
		if utf8.RuneStart(b[i]) {
			if !utf8.FullRune(b[i:]) {
				return b[:i]
			}
			break
		}
	}
	return b
}

// ring keeps the last len(buf) bytes written to it.
type ring struct {
	buf     []byte
	n       int64 // bytes written
	afterLF bool  // the byte before the kept window is LF (or the window starts the tail)
}

func (r *ring) write(p []byte) {
	c := int64(len(r.buf))
	if c == 0 {
		if len(p) > 0 {
			r.afterLF = p[len(p)-1] == '\n'
		}
		return
	}
	// The byte just before the window after this write.
	if before := r.n + int64(len(p)) - c - 1; before >= 0 {
		if before >= r.n {
			r.afterLF = p[before-r.n] == '\n'
		} else {
			r.afterLF = r.buf[before%c] == '\n'
		}
	}
	if int64(len(p)) > c {
		r.n += int64(len(p)) - c
		p = p[int64(len(p))-c:]
	}
	for len(p) > 0 {
		k := copy(r.buf[r.n%c:], p)
		p = p[k:]
		r.n += int64(k)
	}
}

// atLineStart reports whether the window starts a line.
func (r *ring) atLineStart() bool { return r.afterLF }

// bytes returns the window in order.
func (r *ring) bytes() []byte {
	c := int64(len(r.buf))
	if r.n <= c {
		return bytes.Clone(r.buf[:r.n])
	}
	i := r.n % c
	return append(bytes.Clone(r.buf[i:]), r.buf[:i]...)
}
