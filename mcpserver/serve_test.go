package mcpserver

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"strings"
	"testing"
	"time"
)

// closeRecorder is a pipe end that notes whether it was closed.
type closeRecorder struct {
	io.ReadWriter
	closed bool
}

func (c *closeRecorder) Close() error { c.closed = true; return nil }

// TestServeStdio checks that Serve answers on out until in ends, and
// closes neither (they are the process's standard streams).
func TestServeStdio(t *testing.T) {
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	in, out := &closeRecorder{ReadWriter: struct {
		io.Reader
		io.Writer
	}{inR, nil}}, &closeRecorder{ReadWriter: struct {
		io.Reader
		io.Writer
	}{nil, outW}}
	done := make(chan error, 1)
	go func() { done <- Serve(context.Background(), in, out, Options{}) }()
	go io.WriteString(inW, `{"jsonrpc":"2.0","id":7,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`+"\n")
	line, err := bufio.NewReader(outR).ReadString('\n')
	if err != nil || !strings.Contains(line, `"id":7`) || !strings.Contains(line, `"serverInfo"`) {
		t.Errorf("answer to initialize: %q (%v)", line, err)
	}
	inW.Close()
	go io.Copy(io.Discard, outR)
	<-done
	if in.closed || out.closed {
		t.Errorf("Serve closed in (%v) or out (%v)", in.closed, out.closed)
	}
}

// TestServeAnswersBeforeEnd checks that a client that writes its requests
// and closes its end at once, as a script's pipe does, gets every answer
// before Serve returns: the SDK alone writes none once its reader has
// seen the end of the input (go-sdk issue 1061).
func TestServeAnswersBeforeEnd(t *testing.T) {
	in := strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}
{"jsonrpc":"2.0","method":"notifications/initialized"}
{"jsonrpc":"2.0","id":2,"method":"tools/list"}
{"jsonrpc":"2.0","id":3,"method":5}
`)
	var out bytes.Buffer
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if err := Serve(ctx, in, &out, Options{}); ctx.Err() != nil {
		t.Fatalf("Serve waited until the test's deadline (%v)", err)
	}
	for _, id := range []string{`"id":1,"result"`, `"id":2,"result"`, `"id":3,"error"`} {
		if !strings.Contains(out.String(), id) {
			t.Errorf("no answer %s in:\n%s", id, out.String())
		}
	}
}

// TestAttack13ResourceURIControl checks that a resources/read whose URI
// holds a C0 control or DEL is answered with an error and the session goes
// on: the SDK's error data for it was not JSON (`{"uri":"x\a"}`), and
// marshalling the answer failed and ended the session (attack13).
func TestAttack13ResourceURIControl(t *testing.T) {
	in := strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}
{"jsonrpc":"2.0","method":"notifications/initialized"}
{"jsonrpc":"2.0","id":2,"method":"resources/read","params":{"uri":"x\u0007\u001b]0;t\u007f"}}
{"jsonrpc":"2.0","id":3,"method":"ping"}
`)
	var out bytes.Buffer
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if err := Serve(ctx, in, &out, Options{}); err != nil {
		t.Errorf("Serve: %v", err)
	}
	for _, id := range []string{`"id":2,"error"`, `"id":3,"result"`} {
		if !strings.Contains(out.String(), id) {
			t.Errorf("no answer %s in:\n%s", id, out.String())
		}
	}
}

// TestAttack17ProtocolErrorsEscaped checks that the message of every
// JSON-RPC error, not only a tool's, reaches the client as render.Line
// writes it. The SDK quotes the client's tool, prompt or method name with
// %q, which escapes C0, C1 and bidi controls but keeps the invisible
// characters Go counts as printable: a variation selector, a Hangul
// filler or a combining grapheme joiner came back in the decoded message
// as they were (attack17).
func TestAttack17ProtocolErrorsEscaped(t *testing.T) {
	in := strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}
{"jsonrpc":"2.0","method":"notifications/initialized"}
{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"ru\ufe0fn\u1160","arguments":{}}}
{"jsonrpc":"2.0","id":3,"method":"prompts/get","params":{"name":"p\u034f\u3164\u001b"}}
{"jsonrpc":"2.0","id":4,"method":"x\ufe0f\u115f","params":{}}
{"jsonrpc":"2.0","id":5,"method":"resources/read","params":{"uri":"\ufe0f\u115f"}}
`)
	var out bytes.Buffer
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if err := Serve(ctx, in, &out, Options{}); err != nil {
		t.Errorf("Serve: %v", err)
	}
	want := map[float64]string{2: `"ru<U+FE0F>n<U+1160>"`, 3: `"p<U+034F><U+3164>\x1b"`, 4: `"x<U+FE0F><U+115F>"`, 5: "Resource not found"}
	dec := json.NewDecoder(&out)
	for dec.More() {
		var m struct {
			ID    float64
			Error *struct {
				Message string
				Data    json.RawMessage
			}
		}
		if err := dec.Decode(&m); err != nil {
			t.Fatal(err)
		}
		if m.Error == nil {
			continue
		}
		if !strings.Contains(m.Error.Message, want[m.ID]) {
			t.Errorf("id %v: error %q, want it to quote %s", m.ID, m.Error.Message, want[m.ID])
		}
		// The SDK quotes the URI in the error's data: left out when
		// render.Line would change a string of it, as when it is not JSON.
		var data struct{ URI string }
		if json.Unmarshal(m.Error.Data, &data); strings.ContainsAny(data.URI, "\ufe0f\u115f") {
			t.Errorf("id %v: error data %+q holds the client's invisible characters", m.ID, data.URI)
		}
		delete(want, m.ID)
	}
	for id := range want {
		t.Errorf("no error answer for id %v", id)
	}
}

// TestAttack17OversizedAnswered checks that a request over MaxRequest, or
// one nested deeper than encoding/json reads, is answered under its id
// when the id comes before what makes it bad: readLine kept nothing of an
// overlong line and json.Unmarshal of a whole line fails on its depth, so
// neither id could be read, the line was only logged, and the client
// waited for an answer that never came (attack17).
func TestAttack17OversizedAnswered(t *testing.T) {
	big := `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"run","arguments":{"argv":["` + strings.Repeat("a", MaxRequest) + `"]}}}`
	deep := `{"jsonrpc":"2.0","id":"d8","method":"tools/call","params":{"name":"run","arguments":{"argv":["true"],"x":` + strings.Repeat("[", 20000) + strings.Repeat("]", 20000) + `}}}`
	in := strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}
{"jsonrpc":"2.0","method":"notifications/initialized"}
` + big + "\n" + deep + "\n" + `{"jsonrpc":"2.0","id":9,"method":"ping"}
`)
	var out bytes.Buffer
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if err := Serve(ctx, in, &out, Options{}); err != nil {
		t.Errorf("Serve: %v", err)
	}
	for _, want := range []string{`"id":7,"error":{"code":-32600,"message":"request too large"}`, `"id":"d8","error":{"code":-32700`, `"id":9,"result"`} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("no answer %s in:\n%.2000s", want, out.String())
		}
	}
}

// TestOversizedIDCutNotAnswered: of a line over MaxRequest only its first
// idPrefix bytes are read for an id, and an id that number those bytes cut
// short is not its id: a request whose id 12345 straddles the cut was
// answered under id 123, another request's, which its client then took as
// failed. Without a whole id the line is dropped, and logged.
func TestOversizedIDCutNotAnswered(t *testing.T) {
	head := `{"jsonrpc":"2.0","x":"`
	pad := strings.Repeat("p", idPrefix-len(head)-len(`","id":123`))
	big := head + pad + `","id":12345,"method":"tools/call","params":{"name":"run","arguments":{"argv":["` + strings.Repeat("a", MaxRequest) + `"]}}}`
	if got := leadingID([]byte(big[:idPrefix])); got != nil {
		t.Errorf("leadingID of the cut line = %s, want none", got)
	}
	if got := string(leadingID([]byte(`{"jsonrpc":"2.0","id":12345,"method":"x","params":` + strings.Repeat("[", 20000)))); got != "12345" {
		t.Errorf("leadingID before deep params = %q, want 12345", got)
	}
	in := strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}
{"jsonrpc":"2.0","method":"notifications/initialized"}
` + big + "\n" + `{"jsonrpc":"2.0","id":9,"method":"ping"}
`)
	var out bytes.Buffer
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if err := Serve(ctx, in, &out, Options{}); err != nil {
		t.Errorf("Serve: %v", err)
	}
	if strings.Contains(out.String(), `"id":123,`) || !strings.Contains(out.String(), `"id":9,"result"`) {
		t.Errorf("want no answer under id 123 and one under 9, got:\n%.2000s", out.String())
	}
}

// TestBatchErrorsEscaped: under protocol 2025-03-26, which has JSON-RPC
// batches, the SDK answers a batch with an array, and the message of each
// error in it goes through render.Line as a lone answer's does
// (safeErrorMessage): it decoded only a lone message, so a batch's
// "method not found" answer quoted the client's U+FE0F and U+3164 as they
// were.
func TestBatchErrorsEscaped(t *testing.T) {
	in := strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-03-26","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}
{"jsonrpc":"2.0","method":"notifications/initialized"}
[{"jsonrpc":"2.0","id":2,"method":"x\ufe0f\u3164"},{"jsonrpc":"2.0","id":3,"method":"ping"}]
`)
	var out bytes.Buffer
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if err := Serve(ctx, in, &out, Options{}); err != nil {
		t.Errorf("Serve: %v", err)
	}
	var batch []struct {
		ID    float64
		Error *struct{ Message string }
	}
	for _, line := range strings.Split(out.String(), "\n") {
		if strings.HasPrefix(line, "[") {
			if err := json.Unmarshal([]byte(line), &batch); err != nil {
				t.Fatal(err)
			}
		}
	}
	if len(batch) != 2 || batch[0].Error == nil || !strings.Contains(batch[0].Error.Message, `"x<U+FE0F><U+3164>"`) || batch[1].Error != nil {
		t.Errorf("batch answer %+v, want id 2's error to quote \"x<U+FE0F><U+3164>\", in:\n%s", batch, out.String())
	}
}

// TestBatchRefusedUnderNewProtocol: from protocol 2025-06-18 on, JSON-RPC
// has no batches, and the SDK ends the session on one: a client's single
// batch line left the initialize unanswered and every later call too,
// though the guard's doc says one bad line cannot end the session. The
// guard answers each call of it with an error, and the session goes on.
func TestBatchRefusedUnderNewProtocol(t *testing.T) {
	in := strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}
{"jsonrpc":"2.0","method":"notifications/initialized"}
[{"jsonrpc":"2.0","id":2,"method":"ping"},{"jsonrpc":"2.0","method":"notifications/initialized"},{"jsonrpc":"2.0","id":"b3","method":"ping"}]
{"jsonrpc":"2.0","id":9,"method":"ping"}
`)
	var out bytes.Buffer
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if err := Serve(ctx, in, &out, Options{}); err != nil {
		t.Errorf("Serve: %v", err)
	}
	for _, want := range []string{`"id":1,"result"`, `"id":2,"error":{"code":-32600`, `"id":"b3","error":{"code":-32600`, `"id":9,"result"`} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("no answer %s in:\n%s", want, out.String())
		}
	}
}
