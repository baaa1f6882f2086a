package mcpserver

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// MaxRequest is the largest JSON-RPC line the server reads, in bytes; a
// longer one is answered with an error and skipped.
const MaxRequest = 1 << 20

// guardReader reads newline-delimited JSON-RPC for the SDK and passes on
// only the lines the SDK's own decoder accepts (jsonrpc.DecodeMessage,
// each element of a batch). It answers every other line itself with a
// JSON-RPC error (parse error, invalid request, request too large) on out,
// so that one bad line cannot end the session, as the SDK does on a
// message it cannot decode.
type guardReader struct {
	r       *bufio.Reader
	out     io.Writer
	pending []byte // an accepted line not yet read, with its LF
}

func newGuardReader(r io.Reader, out io.Writer) *guardReader {
	return &guardReader{r: bufio.NewReaderSize(r, 64<<10), out: out}
}

func (g *guardReader) Read(p []byte) (int, error) {
	for len(g.pending) == 0 {
		line, tooLong, err := g.readLine()
		switch {
		case tooLong:
			g.answer(jsonrpc.CodeInvalidRequest, "request too large")
		case len(bytes.TrimSpace(line)) == 0:
		case acceptable(line):
			g.pending = append(line, '\n')
		case json.Valid(line):
			g.answer(jsonrpc.CodeInvalidRequest, "invalid JSON-RPC message")
		default:
			g.answer(jsonrpc.CodeParseError, "parse error: not JSON")
		}
		if err != nil && len(g.pending) == 0 {
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
// longer than MaxRequest and skips it.
func (g *guardReader) readLine() (line []byte, tooLong bool, err error) {
	var buf []byte
	for {
		chunk, err := g.r.ReadSlice('\n')
		if !tooLong {
			buf = append(buf, chunk...)
			if len(buf) > MaxRequest {
				tooLong, buf = true, nil
			}
		}
		if err == bufio.ErrBufferFull {
			continue
		}
		return bytes.TrimSuffix(buf, []byte("\n")), tooLong, err
	}
}

// acceptable reports whether the SDK decodes line: one message or a
// non-empty batch of them.
func acceptable(line []byte) bool {
	var batch []json.RawMessage
	if json.Unmarshal(line, &batch) == nil {
		for _, m := range batch {
			if _, err := jsonrpc.DecodeMessage(m); err != nil {
				return false
			}
		}
		return len(batch) > 0
	}
	_, err := jsonrpc.DecodeMessage(line)
	return err == nil
}

// answer writes a JSON-RPC error response without an id (the request's
// could not be read).
func (g *guardReader) answer(code int64, msg string) {
	js, err := jsonrpc.EncodeMessage(&jsonrpc.Response{Error: &jsonrpc.Error{Code: code, Message: msg}})
	if err == nil {
		g.out.Write(append(js, '\n'))
	}
}
