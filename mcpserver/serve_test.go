package mcpserver

import (
	"bufio"
	"context"
	"io"
	"strings"
	"testing"
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
