package mcpserver

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"sync"

	"github.com/bytelens/bytelens/safejson"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// MaxRequest is the largest JSON-RPC line the server reads, in bytes; a
// longer one is answered with an error and skipped.
const MaxRequest = 1 << 20

// guardReader reads newline-delimited JSON-RPC for the SDK and passes on
// only the lines the SDK's own decoder accepts (jsonrpc.DecodeMessage,
// each element of a batch; a batch only under a protocol version that has
// them, refuseBatch), so that one bad line cannot end the session,
// as the SDK does on a message it cannot decode. A bad line whose id can
// be read is answered with a JSON-RPC error under that id (parse error,
// invalid request, request too large); one without is logged and dropped:
// JSON-RPC 2.0 would answer it with a null id, but the SDK, and so every
// client built on it, cannot decode such a response and closes the
// session, and no caller waits for it.
//
// At the end of the input it waits until every call it passed on or
// answered has its answer written (or ctx ends, or the output fails)
// before it returns the end: the SDK writes nothing once its reader has
// seen the end (go-sdk issue 1061), and a client that writes its
// requests and closes its end, as a script's pipe does, would otherwise
// get no answer at all.
type guardReader struct {
	ctx     context.Context
	r       *bufio.Reader
	out     io.Writer // the JSON-RPC output
	log     io.Writer // where dropped lines are logged
	calls   *openCalls
	pending []byte // an accepted line not yet read, with its LF
	// asked is the protocol version the last initialize request asked
	// for, and initialized whether one was read (refuseBatch).
	asked       string
	initialized bool
}

func newGuardReader(ctx context.Context, r io.Reader, out, log io.Writer, calls *openCalls) *guardReader {
	return &guardReader{ctx: ctx, r: bufio.NewReaderSize(r, 64<<10), out: out, log: log, calls: calls}
}

func (g *guardReader) Read(p []byte) (int, error) {
	for len(g.pending) == 0 {
		line, tooLong, err := g.readLine()
		switch {
		case tooLong:
			g.answer(line, jsonrpc.CodeInvalidRequest, "request too large")
		case len(bytes.TrimSpace(line)) == 0:
		case acceptable(line):
			if g.refuseBatch(line) {
				break
			}
			g.calls.add(countMessages(line, isCall))
			g.pending = append(line, '\n')
		case json.Valid(line):
			g.answer(line, jsonrpc.CodeInvalidRequest, "invalid JSON-RPC message")
		default:
			g.answer(line, jsonrpc.CodeParseError, "parse error: not JSON")
		}
		if err != nil && len(g.pending) == 0 {
			g.calls.wait(g.ctx)
			return 0, err
		}
		if err != nil {
			break
		}
	}
	n := copy(p, g.pending)
	g.pending = g.pending[n:]
	return n, nil
}

// readLine returns the next line without its LF, or reports that it was
// longer than MaxRequest and skips it, returning its first idPrefix bytes,
// where answer looks for its id.
func (g *guardReader) readLine() (line []byte, tooLong bool, err error) {
	var buf []byte
	for {
		chunk, err := g.r.ReadSlice('\n')
		if !tooLong {
			buf = append(buf, chunk...)
			if len(buf) > MaxRequest {
				tooLong, buf = true, buf[:idPrefix:idPrefix]
			}
		}
		if err == bufio.ErrBufferFull {
			continue
		}
		return bytes.TrimSuffix(buf, []byte("\n")), tooLong, err
	}
}

// countMessages returns how many of the messages in line, one or a batch,
// are of the kind is says; 0 when line is neither.
func countMessages(line []byte, is func(jsonrpc.Message) bool) int {
	batch, _ := splitBatch(line)
	n := 0
	for _, m := range batch {
		if msg, err := jsonrpc.DecodeMessage(m); err == nil && is(msg) {
			n++
		}
	}
	return n
}

// isCall reports whether msg is a request that expects an answer.
func isCall(msg jsonrpc.Message) bool {
	r, ok := msg.(*jsonrpc.Request)
	return ok && r.IsCall()
}

// isAnswer reports whether msg is a response.
func isAnswer(msg jsonrpc.Message) bool {
	_, ok := msg.(*jsonrpc.Response)
	return ok
}

// openCalls counts the calls read whose answers are not written yet.
// Its zero value is ready to use.
type openCalls struct {
	mu     sync.Mutex
	n      int
	done   chan struct{} // closed when n falls to 0 or the output fails
	broken bool          // the output failed: no answer will come
}

// add adds d calls (an answer is -1).
func (c *openCalls) add(d int) {
	if d == 0 {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	was := c.n
	c.n = max(0, c.n+d)
	switch {
	case c.broken:
	case was == 0 && c.n > 0:
		c.done = make(chan struct{})
	case was > 0 && c.n == 0:
		close(c.done)
	}
}

// fail says the output failed, so that wait does not wait for answers
// that cannot be written.
func (c *openCalls) fail() {
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.broken && c.n > 0 {
		close(c.done)
	}
	c.broken = true
}

// wait returns when every call counted has its answer, the output
// failed, or ctx ended.
func (c *openCalls) wait(ctx context.Context) {
	c.mu.Lock()
	done := c.done
	idle := c.n == 0 || c.broken
	c.mu.Unlock()
	if idle {
		return
	}
	select {
	case <-done:
	case <-ctx.Done():
	}
}

// acceptable reports whether the SDK decodes line: one message or a
// non-empty batch of them.
func acceptable(line []byte) bool {
	msgs, _ := splitBatch(line)
	for _, m := range msgs {
		if _, err := jsonrpc.DecodeMessage(m); err != nil {
			return false
		}
	}
	return len(msgs) > 0
}

// splitBatch returns the messages of line: the elements of a JSON-RPC
// batch (a JSON array) and true, or line itself as the one message and
// false. Only a line that begins with '[' is decoded as an array, so a
// lone message is scanned once, by its own decoder.
func splitBatch(line []byte) ([]json.RawMessage, bool) {
	if t := bytes.TrimLeft(line, " \t\r\n"); len(t) > 0 && t[0] == '[' {
		var batch []json.RawMessage
		if json.Unmarshal(line, &batch) == nil {
			return batch, true
		}
	}
	return []json.RawMessage{line}, false
}

// refuseBatch answers each call of line, when it is a batch the SDK
// would refuse, with an error, and reports whether it did; of a lone
// message it notes the protocol version an initialize asks for. From
// 2025-06-18 on JSON-RPC batches are gone, and the SDK ends the session
// on one. It negotiates the version a client asks for when it supports
// it, else a later one, and before an initialize uses 2025-03-26: a batch
// is passed on only then, or after an initialize asking for 2025-03-26 or
// 2024-11-05.
func (g *guardReader) refuseBatch(line []byte) bool {
	batch, ok := splitBatch(line)
	if !ok {
		var init struct {
			Method string
			Params struct{ ProtocolVersion string }
		}
		if json.Unmarshal(line, &init) == nil && init.Method == "initialize" {
			g.asked, g.initialized = init.Params.ProtocolVersion, true
		}
		return false
	}
	if !g.initialized || g.asked == "2025-03-26" || g.asked == "2024-11-05" {
		return false
	}
	const msg = "JSON-RPC batching is not supported in 2025-06-18 and later"
	for _, m := range batch {
		if d, err := jsonrpc.DecodeMessage(m); err == nil && isCall(d) {
			g.answer(m, jsonrpc.CodeInvalidRequest, msg)
		} else {
			fmt.Fprintf(g.log, "dropped a message of a batch: %s\n", msg)
		}
	}
	return true
}

// idPrefix is how much of a line over MaxRequest is kept to read its id.
const idPrefix = 4 << 10

// answer writes a JSON-RPC error response under the id of line, a JSON
// value or the start of one (leadingID), or logs that it dropped the line
// when no id can be read.
func (g *guardReader) answer(line []byte, code int64, msg string) {
	var probe struct {
		ID json.RawMessage `json:"id"`
	}
	if json.Unmarshal(line, &probe) != nil {
		probe.ID = leadingID(line)
	}
	if len(probe.ID) == 0 || !(probe.ID[0] == '"' || probe.ID[0] == '-' || probe.ID[0] >= '0' && probe.ID[0] <= '9') {
		fmt.Fprintf(g.log, "dropped an input line: %s, no id to answer\n", msg)
		return
	}
	js, err := safejson.Marshal(struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Error   *jsonrpc.Error  `json:"error"`
	}{"2.0", probe.ID, &jsonrpc.Error{Code: code, Message: msg}})
	if err == nil {
		g.calls.add(1) // the answer written is counted off by the output
		g.out.Write(append(js, '\n'))
	}
}

// leadingID returns the id of a JSON object that line begins, when the
// id comes before anything that makes line unreadable: the start of a
// line over MaxRequest, or an object whose params nest deeper than
// encoding/json reads, as clients write "id" before "params". It returns
// nil when it meets no id first, or when the id ends the line (a line's
// cut may have split it).
func leadingID(line []byte) json.RawMessage {
	dec := json.NewDecoder(bytes.NewReader(line))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return nil
	}
	for dec.More() {
		t, err := dec.Token()
		key, ok := t.(string)
		if err != nil || !ok {
			return nil
		}
		var v json.RawMessage
		if dec.Decode(&v) != nil {
			return nil
		}
		if key == "id" {
			// A number that ends the line may be one the line's cut
			// (idPrefix) split: 12345 read as 123, another call's id.
			if len(bytes.TrimLeft(line[dec.InputOffset():], " \t\r\n")) == 0 {
				return nil
			}
			return v
		}
	}
	return nil
}
