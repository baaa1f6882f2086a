package mcpserver_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/bytelens/bytelens/excerpt"
	"github.com/bytelens/bytelens/mcpserver"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

var bin string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "bytelens-mcp-test")
	if err != nil {
		panic(err)
	}
	bin = filepath.Join(dir, "bytelens")
	if out, err := exec.Command("go", "build", "-o", bin, "../cmd/bytelens").CombinedOutput(); err != nil {
		fmt.Fprintf(os.Stderr, "build: %v\n%s", err, out)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// wire keeps every byte the server wrote to its stdout.
type wire struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (w *wire) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.buf.Write(p)
}

func (w *wire) bytes() []byte {
	w.mu.Lock()
	defer w.mu.Unlock()
	return bytes.Clone(w.buf.Bytes())
}

type server struct {
	cs    *mcp.ClientSession
	cmd   *exec.Cmd
	stdin io.Writer
	wire  *wire
	err   *bytes.Buffer
}

// start runs bytelens mcp with the store at storeDir and connects the
// SDK's client to it.
func start(t *testing.T, storeDir string) *server {
	t.Helper()
	cmd := exec.Command(bin, "mcp")
	cmd.Env = append(os.Environ(), "BYTELENS_STORE="+storeDir)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	s := &server{cmd: cmd, stdin: stdin, wire: &wire{}, err: &bytes.Buffer{}}
	cmd.Stderr = s.err
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	tr := &mcp.IOTransport{Reader: io.NopCloser(io.TeeReader(stdout, s.wire)), Writer: stdin}
	c := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil)
	s.cs, err = c.Connect(context.Background(), tr, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		s.cs.Close()
		cmd.Process.Kill()
		cmd.Wait()
	})
	return s
}

// call calls a tool and decodes its structured content into out.
func (s *server) call(t *testing.T, name string, args any, out any) *mcp.CallToolResult {
	t.Helper()
	res, err := s.cs.CallTool(context.Background(), &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	if out != nil && !res.IsError {
		js, _ := json.Marshal(res.StructuredContent)
		if err := json.Unmarshal(js, out); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
	}
	return res
}

func resultText(res *mcp.CallToolResult) string {
	var b strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			b.WriteString(tc.Text)
		}
	}
	return b.String()
}

// checkWire fails if the bytes on the wire hold a C1 control, U+2028,
// U+2029 or a format character unescaped, or any control but LF.
func checkWire(t *testing.T, w []byte) {
	t.Helper()
	if !utf8.Valid(w) {
		t.Fatal("wire is not valid UTF-8")
	}
	for i, r := range string(w) {
		if r < 0x20 && r != '\n' || r >= 0x7F && r <= 0x9F || r == 0x2028 || r == 0x2029 || unicode.Is(unicode.Cf, r) {
			t.Fatalf("wire byte %d: %U unescaped", i, r)
		}
	}
}

func TestRunHostileCorpus(t *testing.T) {
	corpus, _ := filepath.Abs("../testdata/corpus")
	s := start(t, filepath.Join(t.TempDir(), "store"))
	var out mcpserver.RunOut
	res := s.call(t, "run", map[string]any{"argv": []string{"sh", "-c", "cat *.bin; cat *.bin >&2"}, "cwd": corpus}, &out)
	if res.IsError || out.ExitCode != 0 || out.Ref == "" || out.Stdout.Removed["osc"] == 0 || len(out.Stdout.Text) == 0 {
		t.Fatalf("run: %s %+v", resultText(res), out)
	}
	checkWire(t, s.wire.bytes())
	if strings.ContainsAny(out.Stdout.Text+resultText(res), "\x1b\x07\u009b") {
		t.Fatal("control in result text")
	}
	// The record answers excerpt, report and verify.
	var ex excerpt.Excerpt
	res = s.call(t, "excerpt", map[string]any{"ref": out.Ref, "from": 5, "to": 15}, &ex)
	if res.IsError || len(ex.Lines) != 11 || ex.Lines[0].N != 5 || ex.Lines[10].RawEnd <= ex.Lines[0].RawStart {
		t.Fatalf("excerpt: %s", resultText(res))
	}
	res = s.call(t, "excerpt", map[string]any{"ref": out.Ref, "stream": "stderr", "pattern": "e", "context": 1}, &ex)
	if res.IsError || ex.Matches == 0 {
		t.Fatalf("grep: %s", resultText(res))
	}
	var rep mcpserver.ReportOut
	res = s.call(t, "report", map[string]any{"ref": out.Ref}, &rep)
	if res.IsError || len(rep.Streams) != 2 || rep.Streams[0].Report.Removed.OSC == 0 {
		t.Fatalf("report: %s", resultText(res))
	}
	res = s.call(t, "report", map[string]any{"ref": out.Ref, "from": 1, "to": 3}, &rep)
	if res.IsError || rep.Range == nil || rep.Range.From != 1 {
		t.Fatalf("range report: %s", resultText(res))
	}
	checkWire(t, s.wire.bytes())
}

func TestVerify(t *testing.T) {
	s := start(t, filepath.Join(t.TempDir(), "store"))
	var out mcpserver.RunOut
	s.call(t, "run", map[string]any{"argv": []string{"printf", "ab\\033[31mc"}}, &out)
	f := filepath.Join(t.TempDir(), "f")
	for content, want := range map[string]string{"ab\x1b[31mc": "stdout", "abc": ""} {
		os.WriteFile(f, []byte(content), 0o600)
		var v mcpserver.VerifyOut
		res := s.call(t, "verify", map[string]any{"ref": out.Ref, "path": f}, &v)
		if res.IsError || v.What != want || v.Match != (want != "") {
			t.Errorf("verify %q: %s", content, resultText(res))
		}
	}
}

func TestRunTimeoutAndLargeOutput(t *testing.T) {
	s := start(t, filepath.Join(t.TempDir(), "store"))
	var out mcpserver.RunOut
	t0 := time.Now()
	s.call(t, "run", map[string]any{"argv": []string{"sleep", "60"}, "timeout_seconds": 0.5}, &out)
	if !out.TimedOut || time.Since(t0) > 20*time.Second {
		t.Fatalf("timeout: %+v after %v", out, time.Since(t0))
	}
	// 1 MiB: 65536 lines of 16 bytes. The head is in the result, the rest
	// in the record.
	res := s.call(t, "run", map[string]any{"argv": []string{"sh", "-c", "yes 0123456789abcde | head -c 1048576"}}, &out)
	if res.IsError || !out.Stdout.Truncated || out.Stdout.BytesRaw != 1<<20 || len(out.Stdout.Text)+len(out.Stdout.Tail) > 64<<10 {
		t.Fatalf("1 MiB: truncated %v, raw %d, text %d", out.Stdout.Truncated, out.Stdout.BytesRaw, len(out.Stdout.Text))
	}
	// The tail ends where the stream ended, and the omitted lines sit
	// between head and tail.
	if o := out.Stdout.Omitted; o == nil || !strings.HasSuffix(out.Stdout.Tail, "\n0123456789abcde\n") ||
		o.FromLine != int64(strings.Count(out.Stdout.Text, "\n"))+1 || o.ToLine != 65536-int64(strings.Count(out.Stdout.Tail, "\n")) ||
		!strings.Contains(resultText(res), "lines "+strconv.FormatInt(o.FromLine, 10)+"-") {
		t.Fatalf("1 MiB: omitted %+v, tail ends %q", out.Stdout.Omitted, out.Stdout.Tail[max(len(out.Stdout.Tail)-20, 0):])
	}
	var ex excerpt.Excerpt
	s.call(t, "excerpt", map[string]any{"ref": out.Ref, "from": 65536}, &ex)
	if ex.TotalLines != 65536 || len(ex.Lines) != 1 || ex.Lines[0].Text != "0123456789abcde" || ex.Lines[0].RawStart != 1<<20-16 {
		t.Fatalf("last line: %+v", ex)
	}
	checkWire(t, s.wire.bytes())
}

func TestBadInput(t *testing.T) {
	s := start(t, filepath.Join(t.TempDir(), "store"))
	var out mcpserver.RunOut
	s.call(t, "run", map[string]any{"argv": []string{"printf", "a\\nb\\n"}}, &out)
	missing := "restricted:sha256:" + strings.Repeat("0", 64)
	for name, c := range map[string]struct {
		tool string
		args map[string]any
		want string
	}{
		"wrong type":       {"excerpt", map[string]any{"ref": 5}, "want \"string\""},
		"missing argument": {"excerpt", map[string]any{"from": 1}, "ref"},
		"bad ref":          {"excerpt", map[string]any{"ref": "../../etc/passwd", "from": 1}, "invalid reference"},
		"missing ref":      {"excerpt", map[string]any{"ref": missing, "from": 1}, "not in store"},
		"from > to":        {"excerpt", map[string]any{"ref": out.Ref, "from": 5, "to": 2}, "bad line range"},
		"past the end":     {"excerpt", map[string]any{"ref": out.Ref, "from": 9}, "past the end"},
		"invalid RE2":      {"excerpt", map[string]any{"ref": out.Ref, "pattern": "a(", "regex": true}, "invalid RE2"},
		"no such stream":   {"excerpt", map[string]any{"ref": out.Ref, "stream": "stdin", "from": 1}, "no such stream"},
		"empty argv":       {"run", map[string]any{"argv": []string{}}, "argv"},
		"not found":        {"run", map[string]any{"argv": []string{"no-such-command-\x1b]0;x\x07"}}, "executable file not found"},
		"bad timeout":      {"run", map[string]any{"argv": []string{"true"}, "timeout_seconds": -1}, "timeout_seconds"},
		"verify no file":   {"verify", map[string]any{"ref": out.Ref, "path": "/nonexistent"}, "no such file"},
	} {
		res := s.call(t, c.tool, c.args, nil)
		if !res.IsError || !strings.Contains(resultText(res), c.want) {
			t.Errorf("%s: error %v, %q, want %q", name, res.IsError, resultText(res), c.want)
		}
	}
	if _, err := s.cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "nope"}); err == nil {
		t.Error("unknown tool: no error")
	}
	// Malformed JSON-RPC is answered and the session goes on.
	// A line without an id is logged and dropped; one with an id is
	// answered under it.
	io.WriteString(s.stdin, "garbage{\n{\"foo\":1}\n{\"jsonrpc\":\"2.0\",\"id\":99,\"method\":7}\n")
	for !bytes.Contains(s.wire.bytes(), []byte(`"id":99,"error":{"code":-32600`)) {
		time.Sleep(10 * time.Millisecond)
	}
	res := s.call(t, "run", map[string]any{"argv": []string{"true"}}, &out)
	if res.IsError || out.ExitCode != 0 {
		t.Fatalf("after garbage: %s", resultText(res))
	}
	w := s.wire.bytes()
	if n := strings.Count(s.err.String(), "dropped an input line"); n != 2 {
		t.Errorf("%d dropped lines logged, want 2:\n%s", n, s.err)
	}
	checkWire(t, w)
	if strings.ContainsRune(s.err.String(), 0x1b) {
		t.Error("ESC on stderr")
	}
}

func TestUnwritableStore(t *testing.T) {
	// A store under a regular file cannot be created, even by root.
	file := filepath.Join(t.TempDir(), "file")
	os.WriteFile(file, nil, 0o600)
	s := start(t, filepath.Join(file, "store"))
	var out mcpserver.RunOut
	res := s.call(t, "run", map[string]any{"argv": []string{"echo", "hi"}}, &out)
	if res.IsError || out.Stdout.Text != "hi\n" || out.Ref != "" || out.StoreError == "" {
		t.Fatalf("run without store: %s %+v", resultText(res), out)
	}
	res = s.call(t, "excerpt", map[string]any{"ref": "restricted:sha256:" + strings.Repeat("0", 64), "from": 1}, nil)
	if !res.IsError || !strings.Contains(resultText(res), "no store") {
		t.Fatalf("excerpt without store: %s", resultText(res))
	}
}

// TestMemory runs a command whose output is BYTELENS_MEM_BYTES bytes
// (such as 10G) of short lines and checks that the server's peak resident
// memory stays under 64 MiB. It is skipped unless that variable is set:
// 10 GiB take minutes.
func TestMemory(t *testing.T) {
	size := os.Getenv("BYTELENS_MEM_BYTES")
	if size == "" {
		t.Skip("set BYTELENS_MEM_BYTES=10G to run")
	}
	s := start(t, filepath.Join(t.TempDir(), "store"))
	var out mcpserver.RunOut
	t0 := time.Now()
	res := s.call(t, "run", map[string]any{"argv": []string{"sh", "-c", "yes 'line of output' | head -c " + size}, "timeout_seconds": 3600}, &out)
	if res.IsError {
		t.Fatal(resultText(res))
	}
	status, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", s.cmd.Process.Pid))
	if err != nil {
		t.Skip("no /proc")
	}
	var hwm int64
	for _, l := range strings.Split(string(status), "\n") {
		if v, ok := strings.CutPrefix(l, "VmHWM:"); ok {
			fmt.Sscanf(strings.TrimSpace(v), "%d", &hwm)
		}
	}
	t.Logf("%d raw bytes in %v; peak resident %d KiB", out.Stdout.BytesRaw, time.Since(t0), hwm)
	if hwm == 0 || hwm > 64<<10 {
		t.Fatalf("peak resident %d KiB, want under 64 MiB", hwm)
	}
}
