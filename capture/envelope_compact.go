package capture

import (
	"bytes"
	"errors"
)

// compactKeep names the top-level members that CompactEnvelope keeps even
// when zero: the schema, and exit_code, whose 0 is an answer.
var compactKeep = map[string]bool{"schema": true, "exit_code": true}

// compactDrop names the top-level members that CompactEnvelope drops
// whatever their value: the chunk list is evidence for people and stays
// in the raw artifact.
var compactDrop = map[string]bool{"chunks": true, "chunks_omitted": true}

// CompactEnvelope returns js, one envelope encoded as a JSON object, in
// its compact form: without the chunk list and, at any depth, without the
// object members whose value is zero or empty — 0, false, "", null, [] and
// {}, or an object left empty by the same rule — except schema and
// exit_code. Array elements are kept as they are (a finding at offset 0
// keeps its offset). Scalars are copied byte for byte, so
// the escaping of the encoder that produced js is kept. A trailing newline
// is kept. It fails only on input that is not a JSON object.
func CompactEnvelope(js []byte) ([]byte, error) {
	body, nl := bytes.CutSuffix(js, []byte("\n"))
	c := compactor{in: body}
	c.ws()
	if c.i >= len(c.in) || c.in[c.i] != '{' {
		return nil, errMalformedJSON
	}
	out, _ := c.value(0)
	c.ws()
	if c.err != nil || c.i != len(c.in) {
		return nil, errMalformedJSON
	}
	if nl {
		out = append(out, '\n')
	}
	return out, nil
}

var errMalformedJSON = errors.New("capture: not a JSON object")

// compactor walks JSON text that an encoder wrote.
type compactor struct {
	in  []byte
	i   int
	err error
}

func (c *compactor) ws() {
	for c.i < len(c.in) && (c.in[c.i] == ' ' || c.in[c.i] == '\t' || c.in[c.i] == '\n' || c.in[c.i] == '\r') {
		c.i++
	}
}

// value returns the compacted value at c.i and whether it is empty.
func (c *compactor) value(depth int) ([]byte, bool) {
	c.ws()
	if c.i >= len(c.in) {
		c.err = errMalformedJSON
		return nil, true
	}
	switch c.in[c.i] {
	case '{':
		return c.object(depth)
	case '[':
		return c.array(depth)
	case '"':
		s := c.str()
		return s, len(s) == 2
	}
	start := c.i
	for c.i < len(c.in) && !bytes.ContainsRune([]byte(",}] \t\n\r"), rune(c.in[c.i])) {
		c.i++
	}
	lit := c.in[start:c.i]
	switch {
	case len(lit) == 0:
		c.err = errMalformedJSON
		return nil, true
	case string(lit) == "false" || string(lit) == "null":
		return lit, true
	case string(lit) == "true":
		return lit, false
	}
	// A number is zero when no digit but the exponent's is non-zero.
	zero := true
	for _, b := range lit {
		if b == 'e' || b == 'E' {
			break
		}
		if '1' <= b && b <= '9' {
			zero = false
		}
	}
	return lit, zero
}

// str returns the string at c.i, quotes included.
func (c *compactor) str() []byte {
	start := c.i
	for c.i++; c.i < len(c.in); c.i++ {
		switch c.in[c.i] {
		case '\\':
			c.i++
		case '"':
			c.i++
			return c.in[start:c.i]
		}
	}
	c.err = errMalformedJSON
	return c.in[start:]
}

func (c *compactor) object(depth int) ([]byte, bool) {
	out := []byte{'{'}
	c.i++
	n := 0 // members written
	for seen := 0; c.err == nil; seen++ {
		c.ws()
		if c.i < len(c.in) && c.in[c.i] == '}' {
			c.i++
			return append(out, '}'), n == 0
		}
		if seen > 0 {
			if c.i >= len(c.in) || c.in[c.i] != ',' {
				c.err = errMalformedJSON
				break
			}
			c.i++
			c.ws()
		}
		if c.i >= len(c.in) || c.in[c.i] != '"' {
			c.err = errMalformedJSON
			break
		}
		key := c.str()
		c.ws()
		if c.i >= len(c.in) || c.in[c.i] != ':' {
			c.err = errMalformedJSON
			break
		}
		c.i++
		v, empty := c.value(depth + 1)
		name := string(key[1 : len(key)-1])
		if depth == 0 && compactDrop[name] || empty && !(depth == 0 && compactKeep[name]) {
			continue
		}
		if n > 0 {
			out = append(out, ',')
		}
		out = append(append(append(out, key...), ':'), v...)
		n++
	}
	return out, true
}

func (c *compactor) array(depth int) ([]byte, bool) {
	out := []byte{'['}
	c.i++
	n := 0
	for c.err == nil {
		c.ws()
		if c.i < len(c.in) && c.in[c.i] == ']' {
			c.i++
			return append(out, ']'), n == 0
		}
		if n > 0 {
			if c.i >= len(c.in) || c.in[c.i] != ',' {
				c.err = errMalformedJSON
				break
			}
			c.i++
			out = append(out, ',')
		}
		// Elements are kept as they are: a finding's offset 0 is a
		// place, not an empty counter.
		c.ws()
		start := c.i
		c.value(depth + 1)
		out = append(out, bytes.TrimRight(c.in[start:c.i], " \t\n\r")...)
		n++
	}
	return out, true
}
