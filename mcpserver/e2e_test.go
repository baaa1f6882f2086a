package mcpserver_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/bytelens/bytelens/capture"
	"github.com/bytelens/bytelens/excerpt"
	"github.com/bytelens/bytelens/internal/nsprobe"
	"github.com/bytelens/bytelens/mcpserver"
	"github.com/bytelens/bytelens/sanitize"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

var bin string

// callTimeout bounds each tool call, so that a session the server ended
// fails the test instead of hanging it.
const callTimeout = 2 * time.Minute

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

// wire keeps every byte the server wrote to its stdout (or stderr),
// safe to read while the server writes.
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

func (w *wire) String() string { return string(w.bytes()) }

type server struct {
	cs    *mcp.ClientSession
	cmd   *exec.Cmd
	stdin io.Writer
	wire  *wire
	err   *wire // its stderr
}

// start runs bytelens mcp with the store at storeDir and connects the
// SDK's client to it.
func start(t *testing.T, storeDir string, env ...string) *server {
	t.Helper()
	return startWith(t, nil, storeDir, env...)
}

// startWith is start with flags for bytelens mcp.
func startWith(t *testing.T, flags []string, storeDir string, env ...string) *server {
	t.Helper()
	cmd := exec.Command(bin, append([]string{"mcp"}, flags...)...)
	cmd.Env = append(append(os.Environ(), "BYTELENS_STORE="+storeDir), env...)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	s := &server{cmd: cmd, stdin: stdin, wire: &wire{}, err: &wire{}}
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
	ctx, cancel := context.WithTimeout(context.Background(), callTimeout)
	defer cancel()
	res, err := s.cs.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: args})
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
	var out capture.Envelope
	res := s.call(t, "run", map[string]any{"argv": []string{"sh", "-c", "cat *.bin; cat *.bin >&2"}, "cwd": corpus}, &out)
	if res.IsError || out.ExitCode != 0 || out.RawArtifact == "" || out.Streams.Stdout.Report.Removed.OSC == 0 || len(out.Stdout) == 0 {
		t.Fatalf("run: %s %+v", resultText(res), out)
	}
	checkWire(t, s.wire.bytes())
	if strings.ContainsAny(out.Stdout+resultText(res), "\x1b\x07\u009b") {
		t.Fatal("control in result text")
	}
	// The record answers excerpt, report and verify.
	var ex excerpt.Excerpt
	res = s.call(t, "excerpt", map[string]any{"ref": out.RawArtifact, "from": 5, "to": 15}, &ex)
	if res.IsError || len(ex.Lines) != 11 || ex.Lines[0].N != 5 || ex.Lines[10].RawEnd <= ex.Lines[0].RawStart {
		t.Fatalf("excerpt: %s", resultText(res))
	}
	res = s.call(t, "excerpt", map[string]any{"ref": out.RawArtifact, "stream": "stderr", "pattern": "e", "context": 1}, &ex)
	if res.IsError || ex.Matches == 0 {
		t.Fatalf("grep: %s", resultText(res))
	}
	var rep mcpserver.ReportOut
	res = s.call(t, "report", map[string]any{"ref": out.RawArtifact}, &rep)
	if res.IsError || len(rep.Streams) != 2 || rep.Streams[0].Report.Removed.OSC == 0 {
		t.Fatalf("report: %s", resultText(res))
	}
	res = s.call(t, "report", map[string]any{"ref": out.RawArtifact, "from": 1, "to": 3}, &rep)
	if res.IsError || rep.Range == nil || rep.Range.From != 1 {
		t.Fatalf("range report: %s", resultText(res))
	}
	checkWire(t, s.wire.bytes())
}

func TestVerify(t *testing.T) {
	s := start(t, filepath.Join(t.TempDir(), "store"))
	var out capture.Envelope
	res := s.call(t, "run", map[string]any{"argv": []string{"printf", "ab\\033[31mc"}}, &out)
	// The compact envelope: no zero counters, no empty fields.
	js, _ := json.Marshal(res.StructuredContent)
	if bytes.Contains(js, []byte(`"c0":0`)) || bytes.Contains(js, []byte(`"stderr":""`)) || !bytes.Contains(js, []byte(`"csi":1`)) {
		t.Errorf("not compact: %s", js)
	}
	f := filepath.Join(t.TempDir(), "f")
	for content, want := range map[string]string{"ab\x1b[31mc": "stdout", "abc": ""} {
		os.WriteFile(f, []byte(content), 0o600)
		var v mcpserver.VerifyOut
		res := s.call(t, "verify", map[string]any{"ref": out.RawArtifact, "path": f}, &v)
		if res.IsError || v.What.String() != want || v.Match != (want != "") {
			t.Errorf("verify %q: %s", content, resultText(res))
		}
	}
}

// With --isolate every run is in its own namespaces: the command sees a
// devpts instance without the user's terminals, and is not a child of
// the server (its parent is the reaper, pid 1 there). It skips only
// where the namespace probe, independent of bytelens, cannot make the
// namespaces: an isolation error of the server fails it.
func TestRunIsolate(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	nsprobe.Require(t, exe, os.Geteuid())
	s := startWith(t, []string{"--isolate"}, filepath.Join(t.TempDir(), "store"))
	var out capture.Envelope
	res := s.call(t, "run", map[string]any{"argv": []string{"sh", "-c", "ls /dev/pts; echo $PPID"}}, &out)
	if res.IsError || out.Stdout != "ptmx\n1\n" || !out.Isolated {
		t.Fatalf("isolated run: %s, stdout %q, isolated %v", resultText(res), out.Stdout, out.Isolated)
	}
	if text := resultText(res); !strings.HasPrefix(text, "exit 0, isolated, ") {
		t.Errorf("text result %q does not say the run was isolated", text)
	}
}

func TestRunTimeoutAndLargeOutput(t *testing.T) {
	s := start(t, filepath.Join(t.TempDir(), "store"))
	var out capture.Envelope
	t0 := time.Now()
	s.call(t, "run", map[string]any{"argv": []string{"sleep", "60"}, "timeout_seconds": 0.5}, &out)
	if !out.TimedOut || time.Since(t0) > 20*time.Second {
		t.Fatalf("timeout: %+v after %v", out, time.Since(t0))
	}
	// 1 MiB: 65536 lines of 16 bytes. The head is in the result, the rest
	// in the record.
	res := s.call(t, "run", map[string]any{"argv": []string{"sh", "-c", "yes 0123456789abcde | head -c 1048576"}}, &out)
	if res.IsError || !out.Streams.Stdout.Truncated || out.Streams.Stdout.BytesRaw != 1<<20 || len(out.Stdout)+len(out.StdoutTail) > 64<<10 || out.StdoutOmitted == nil || !strings.HasSuffix(out.StdoutTail, "0123456789abcde\n") {
		t.Fatalf("1 MiB: truncated %v, raw %d, head %d, tail %d", out.Streams.Stdout.Truncated, out.Streams.Stdout.BytesRaw, len(out.Stdout), len(out.StdoutTail))
	}
	var ex excerpt.Excerpt
	s.call(t, "excerpt", map[string]any{"ref": out.RawArtifact, "from": 65536}, &ex)
	if ex.TotalLines != 65536 || len(ex.Lines) != 1 || ex.Lines[0].Text != "0123456789abcde" || ex.Lines[0].RawStart != 1<<20-16 {
		t.Fatalf("last line: %+v", ex)
	}
	checkWire(t, s.wire.bytes())
}

func TestBadInput(t *testing.T) {
	s := start(t, filepath.Join(t.TempDir(), "store"))
	var out capture.Envelope
	s.call(t, "run", map[string]any{"argv": []string{"printf", "a\\nb\\n"}}, &out)
	missing := "restricted:sha256:" + strings.Repeat("0", 64)
	dir := t.TempDir()
	fifo, missingFile := filepath.Join(dir, "fifo"), filepath.Join(dir, "missing")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	for name, c := range map[string]struct {
		tool string
		args map[string]any
		want string
	}{
		"wrong type":       {"excerpt", map[string]any{"ref": 5}, "want \"string\""},
		"missing argument": {"excerpt", map[string]any{"from": 1}, "ref"},
		"bad ref":          {"excerpt", map[string]any{"ref": "../../etc/passwd", "from": 1}, "invalid reference"},
		"missing ref":      {"excerpt", map[string]any{"ref": missing, "from": 1}, "not in store"},
		"from > to":        {"excerpt", map[string]any{"ref": out.RawArtifact, "from": 5, "to": 2}, "bad line range"},
		"past the end":     {"excerpt", map[string]any{"ref": out.RawArtifact, "from": 9}, "past the end"},
		"invalid RE2":      {"excerpt", map[string]any{"ref": out.RawArtifact, "pattern": "a(", "regex": true}, "invalid RE2"},
		"no such stream":   {"excerpt", map[string]any{"ref": out.RawArtifact, "stream": "stdin", "from": 1}, "no such stream"},
		"empty argv":       {"run", map[string]any{"argv": []string{}}, "argv"},
		"not found":        {"run", map[string]any{"argv": []string{"no-such-command-\x1b]0;x\x07"}}, "executable file not found"},
		"bad timeout":      {"run", map[string]any{"argv": []string{"true"}, "timeout_seconds": -1}, "timeout_seconds"},
		// A tool's error is escaped once (safeToolErrors), not ␛ as <U+241B>.
		"bad cwd":        {"run", map[string]any{"argv": []string{"true"}, "cwd": "/nonexistent-\x1b]0;x\x07"}, "/nonexistent-␛]0;x␇: no such file"},
		"verify no file": {"verify", map[string]any{"ref": out.RawArtifact, "path": missingFile}, "no such file"},
		// Not a file it would read for ever, or block on.
		"verify device": {"verify", map[string]any{"ref": out.RawArtifact, "path": "/dev/zero"}, "not a regular file"},
		"verify fifo":   {"verify", map[string]any{"ref": out.RawArtifact, "path": fifo}, "not a regular file"},
		// The SDK quotes a value that fails the schema: escaped.
		"quoted value": {"run", map[string]any{"argv": "\u009b2J\u202e\x1b]0;x\x07"}, "type: <U+009B>2J<U+202E>␛]0;x␇ has type"},
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
	var out capture.Envelope
	res := s.call(t, "run", map[string]any{"argv": []string{"echo", "hi"}}, &out)
	if res.IsError || out.Stdout != "hi\n" || out.RawArtifact != "" || out.StoreError == "" {
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
	var out capture.Envelope
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
	t.Logf("%d raw bytes in %v; peak resident %d KiB", out.Streams.Stdout.BytesRaw, time.Since(t0), hwm)
	if hwm == 0 || hwm > 64<<10 {
		t.Fatalf("peak resident %d KiB, want under 64 MiB", hwm)
	}
}

// With only a recipient, the server writes raw artifacts it cannot read;
// excerpt, report and verify still answer from the cleaned text and the
// digests.
func TestEncryptedStore(t *testing.T) {
	dir := t.TempDir()
	out, err := exec.Command(bin, "store", "keygen", filepath.Join(dir, "id")).Output()
	if err != nil {
		t.Fatal(err)
	}
	storeDir := filepath.Join(dir, "store")
	s := start(t, storeDir, "BYTELENS_RECIPIENTS="+strings.TrimSpace(string(out)), "BYTELENS_IDENTITY=")
	var run capture.Envelope
	s.call(t, "run", map[string]any{"argv": []string{"printf", "top secret\\n"}}, &run)
	raw, err := os.ReadFile(filepath.Join(storeDir, "raw", strings.TrimPrefix(run.RawArtifact, "restricted:sha256:")))
	if err != nil || !bytes.HasPrefix(raw, []byte("age-encryption.org/v1\n")) || bytes.Contains(raw, []byte("top secret")) {
		t.Fatalf("raw artifact not encrypted (%v)", err)
	}
	var ex excerpt.Excerpt
	if res := s.call(t, "excerpt", map[string]any{"ref": run.RawArtifact, "from": 1}, &ex); res.IsError || ex.Lines[0].Text != "top secret" {
		t.Fatalf("excerpt: %s", resultText(res))
	}
	f := filepath.Join(dir, "f")
	os.WriteFile(f, []byte("top secret\n"), 0o600)
	var v mcpserver.VerifyOut
	if res := s.call(t, "verify", map[string]any{"ref": run.RawArtifact, "path": f}, &v); res.IsError || v.What.String() != "stdout" {
		t.Fatalf("verify: %s", resultText(res))
	}
	for id, want := range map[string]string{"": "encrypted", filepath.Join(dir, "id"): "top secret"} {
		cmd := exec.Command(bin, "extract", run.RawArtifact, "--as", "text")
		cmd.Env = append(os.Environ(), "BYTELENS_STORE="+storeDir, "BYTELENS_IDENTITY="+id)
		got, _ := cmd.CombinedOutput()
		if !strings.Contains(string(got), want) {
			t.Errorf("extract with identity %q: %q, want %q", id, got, want)
		}
	}
}

// The Claude Code hook's rewritten command, run by bash as the Bash tool
// would, prints the cleaned output and the footer and keeps the command's
// exit status.
func TestHookRewriteRuns(t *testing.T) {
	in := `{"session_id":"s","transcript_path":"/t","cwd":"/","permission_mode":"default","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"printf 'a \\033[31mred\\033[0m\\n'; exit 4","description":"d"},"tool_use_id":"toolu_1"}`
	cmd := exec.Command(bin, "hook", "claude-code")
	cmd.Stdin = strings.NewReader(in)
	js, err := cmd.Output()
	if err != nil {
		t.Fatal(err)
	}
	var a struct {
		HookSpecificOutput struct {
			UpdatedInput struct{ Command string } `json:"updatedInput"`
		} `json:"hookSpecificOutput"`
	}
	if err := json.Unmarshal(js, &a); err != nil {
		t.Fatal(err)
	}
	run := exec.Command("bash", "-c", a.HookSpecificOutput.UpdatedInput.Command)
	run.Env = append(os.Environ(), "BYTELENS_STORE="+filepath.Join(t.TempDir(), "store"))
	out, err := run.Output()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != 4 {
		t.Fatalf("exit: %v", err)
	}
	lines := strings.Split(strings.TrimSuffix(string(out), "\n"), "\n")
	if len(lines) != 2 || lines[0] != "a red" || !strings.HasPrefix(lines[1], "[bytelens: exit 4; removed stdout csi 2; record restricted:sha256:") {
		t.Fatalf("output %q", out)
	}
}

// TestSchemasAreObjects lists the tools and checks that the property and
// item schemas of their input and output schemas are JSON objects: the
// TypeScript SDK (Claude Code, the MCP inspector) rejects a boolean schema
// such as `true` there, which an empty jsonschema.Schema marshals to, and
// with it the whole tools/list answer (additionalProperties: false it
// accepts).
func TestSchemasAreObjects(t *testing.T) {
	s := start(t, t.TempDir())
	ctx, cancel := context.WithTimeout(context.Background(), callTimeout)
	defer cancel()
	res, err := s.cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Tools) != 4 {
		t.Fatalf("%d tools, want 4", len(res.Tools))
	}
	for _, tool := range res.Tools {
		for kind, schema := range map[string]any{"input": tool.InputSchema, "output": tool.OutputSchema} {
			js, err := json.Marshal(schema)
			if err != nil {
				t.Fatal(err)
			}
			var v any
			if err := json.Unmarshal(js, &v); err != nil {
				t.Fatal(err)
			}
			if path := boolSchema(v, "", false); path != "" {
				t.Errorf("%s %s schema: boolean schema at %s", tool.Name, kind, path)
			}
			if tool.Name == "run" && kind == "input" {
				// A client that converts --tool-arg values by the
				// property's type parses argv as JSON only for "array".
				argv := v.(map[string]any)["properties"].(map[string]any)["argv"].(map[string]any)
				if argv["type"] != "array" || argv["minItems"] != 1.0 {
					t.Errorf("run argv schema: type %v, minItems %v, want array, 1", argv["type"], argv["minItems"])
				}
			}
		}
	}
}

// boolSchema returns the path of the first boolean subschema of the JSON
// value v (schema says whether v itself is in a schema position), or "".
func boolSchema(v any, path string, schema bool) string {
	switch v := v.(type) {
	case bool:
		if schema {
			return path
		}
	case map[string]any:
		for k, sub := range v {
			// The values of properties and $defs are schemas; so is
			// items.
			if k == "properties" || k == "$defs" {
				if m, ok := sub.(map[string]any); ok {
					for name, p := range m {
						if got := boolSchema(p, path+"/"+k+"/"+name, true); got != "" {
							return got
						}
					}
				}
				continue
			}
			if got := boolSchema(sub, path+"/"+k, k == "items"); got != "" {
				return got
			}
		}
	}
	return ""
}

// TestQuietStderr: a healthy session writes nothing to the server's
// stderr (the SDK logs an INFO line per session, which an MCP client shows
// its user as noise); stderr is read after the server has exited.
func TestQuietStderr(t *testing.T) {
	s := start(t, t.TempDir())
	var out map[string]any
	s.call(t, "run", map[string]any{"argv": []string{"echo", "hi"}}, &out)
	s.cs.Close()
	s.stdin.(io.Closer).Close()
	s.cmd.Wait()
	if s.err.String() != "" {
		t.Errorf("stderr of a healthy session: %q", s.err.String())
	}
}

// TestExcerptCancelled checks that a search the client cancels stops in
// the server: the agent chooses the pattern, and an RE2 program of 2,500
// instructions costs seconds a MB (attack13). The server's CPU time after
// the cancellation is the measure, so that a loaded machine cannot make
// the test fail.
func TestExcerptCancelled(t *testing.T) {
	s := start(t, filepath.Join(t.TempDir(), "store"))
	var out capture.Envelope
	s.call(t, "run", map[string]any{"argv": []string{"sh", "-c", "head -c 1048576 /dev/zero | tr '\\0' a"}}, &out)
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	_, err := s.cs.CallTool(ctx, &mcp.CallToolParams{Name: "excerpt", Arguments: map[string]any{"ref": out.RawArtifact, "pattern": "(a?){500}a{500}b", "regex": true}})
	if err == nil {
		t.Fatal("the search was not cancelled")
	}
	time.Sleep(200 * time.Millisecond) // the cancellation reaches the server
	before := cpuTime(t, s.cmd.Process.Pid)
	time.Sleep(2 * time.Second)
	if spent := cpuTime(t, s.cmd.Process.Pid) - before; spent > 500*time.Millisecond {
		t.Errorf("the server spent %v of CPU in the 2 s after the search was cancelled", spent)
	}
	var ex excerpt.Excerpt
	s.call(t, "excerpt", map[string]any{"ref": out.RawArtifact, "pattern": "b"}, &ex)
	if ex.TotalLines != 1 || ex.Matches != 0 {
		t.Errorf("after the cancellation: %+v", ex)
	}
}

// cpuTime returns the user and system CPU time of process pid
// (/proc/PID/stat, fields 14 and 15, in clock ticks of 10 ms).
func cpuTime(t *testing.T, pid int) time.Duration {
	t.Helper()
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		t.Skipf("no /proc: %v", err)
	}
	// The command name, field 2, is in parentheses and may hold spaces.
	f := strings.Fields(string(b[bytes.LastIndexByte(b, ')')+1:]))
	var utime, stime int64
	fmt.Sscan(f[11], &utime)
	fmt.Sscan(f[12], &stime)
	return time.Duration(utime+stime) * 10 * time.Millisecond
}

// TestAttack17VerifyCancelled checks that a verify the client cancels
// stops reading in the server: the agent chooses the path, and a regular
// file can be as long as it likes (a sparse file, /proc/self/pagemap's
// 256 GiB), which the call hashed to its end whatever the client did
// (attack17). As in TestExcerptCancelled, the server's CPU time after the
// cancellation is the measure.
func TestAttack17VerifyCancelled(t *testing.T) {
	s := start(t, filepath.Join(t.TempDir(), "store"))
	var out capture.Envelope
	s.call(t, "run", map[string]any{"argv": []string{"true"}}, &out)
	big := filepath.Join(t.TempDir(), "sparse")
	if err := os.WriteFile(big, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(big, 1<<40); err != nil {
		t.Skipf("no sparse file: %v", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	if _, err := s.cs.CallTool(ctx, &mcp.CallToolParams{Name: "verify", Arguments: map[string]any{"ref": out.RawArtifact, "path": big}}); err == nil {
		t.Fatal("the verify was not cancelled")
	}
	time.Sleep(200 * time.Millisecond) // the cancellation reaches the server
	before := cpuTime(t, s.cmd.Process.Pid)
	time.Sleep(time.Second)
	if spent := cpuTime(t, s.cmd.Process.Pid) - before; spent > 300*time.Millisecond {
		t.Errorf("the server spent %v of CPU in the second after the verify was cancelled", spent)
	}
}

// startWithRecord starts a server on a new store and runs printf through
// it: the run's envelope and the directory of its cleaned text.
func startWithRecord(t *testing.T) (s *server, out capture.Envelope, clean string) {
	dir := filepath.Join(t.TempDir(), "store")
	s = start(t, dir)
	s.call(t, "run", map[string]any{"argv": []string{"printf", "abcde\\n"}}, &out)
	return s, out, filepath.Join(dir, "clean", strings.TrimPrefix(out.RawArtifact, "restricted:sha256:"))
}

// TestAttack17PlantedFormatChars checks that the excerpt tool serves no
// format character its policy removes from a cleaned text rewritten on
// disk by a command run without --isolate: a bidi override put in
// stdout.txt reached the agent as it was (attack17). Excerpt now checks
// the text against the record's policy, and the server refuses a record
// whose meta.json says format-chars=keep, as a rewritten one can.
func TestAttack17PlantedFormatChars(t *testing.T) {
	s, out, clean := startWithRecord(t)
	if err := os.WriteFile(filepath.Join(clean, "stdout.txt"), []byte("a\u202ee\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	res := s.call(t, "excerpt", map[string]any{"ref": out.RawArtifact, "from": 1}, nil)
	if !res.IsError || strings.Contains(resultText(res), "\u202e") {
		t.Errorf("planted text: %q, want an error", resultText(res))
	}
	meta := filepath.Join(clean, "meta.json")
	b, err := os.ReadFile(meta)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(meta, bytes.ReplaceAll(b, []byte("format-chars=strip"), []byte("format-chars=keep")), 0o600); err != nil {
		t.Fatal(err)
	}
	res = s.call(t, "excerpt", map[string]any{"ref": out.RawArtifact, "from": 1}, nil)
	if !res.IsError || !strings.Contains(resultText(res), "format-chars=keep") {
		t.Errorf("planted text and policy: %q, want an error naming the policy", resultText(res))
	}
	checkWire(t, s.wire.bytes())
}

// TestStreamNamesEscaped: the report, excerpt and verify tools name a
// record's stream from its meta.json, which a command run without
// --isolate can rewrite, with the stream's files renamed to match. Its
// check refuses a name with ESC, C1, a bidi override or U+2028, but lets
// LF, TAB, U+200F and render's own glyphs through, which reached the
// agent as they were in the structured results (and LF in the text). The
// names are now render.Safe, escaped as every JSON output's names are.
func TestStreamNamesEscaped(t *testing.T) {
	s, out, clean := startWithRecord(t)
	raw := filepath.Join(t.TempDir(), "raw")
	os.WriteFile(raw, []byte("abcde\n"), 0o600)
	meta, err := os.ReadFile(filepath.Join(clean, "meta.json"))
	if err != nil {
		t.Fatal(err)
	}
	old := "stdout"
	for _, tc := range []struct {
		name    string
		refused bool // by the meta.json check
	}{
		{"out\x1b]52;c;SElKQUNL\a", true},
		{"out\u009b31m", true},
		{"out\u202e", true},
		{"out\u2028", true},
		{"out\n\t\u200f␛‹", false},
	} {
		for _, ext := range []string{".txt", ".idx"} {
			if err := os.Rename(filepath.Join(clean, old+ext), filepath.Join(clean, tc.name+ext)); err != nil {
				t.Fatal(err)
			}
		}
		old = tc.name
		js, _ := json.Marshal(tc.name)
		if err := os.WriteFile(filepath.Join(clean, "meta.json"), bytes.Replace(meta, []byte(`"name":"stdout"`), []byte(`"name":`+string(js)), 1), 0o600); err != nil {
			t.Fatal(err)
		}
		for _, c := range []struct {
			tool string
			args map[string]any
		}{
			{"report", map[string]any{"ref": out.RawArtifact}},
			{"report", map[string]any{"ref": out.RawArtifact, "stream": tc.name, "from": 1, "to": 1}},
			{"excerpt", map[string]any{"ref": out.RawArtifact, "stream": tc.name, "from": 1}},
			{"excerpt", map[string]any{"ref": out.RawArtifact, "stream": tc.name, "pattern": "abc"}},
			{"verify", map[string]any{"ref": out.RawArtifact, "path": raw}},
		} {
			what := fmt.Sprintf("%s %q", c.tool, c.args)
			res := s.call(t, c.tool, c.args, nil)
			if res.IsError != tc.refused {
				t.Errorf("%s: error %v, want %v: %q", what, res.IsError, tc.refused, resultText(res))
			}
			js, _ := json.Marshal(res.StructuredContent)
			var v any
			json.Unmarshal(js, &v)
			named := false
			sanitize.EveryJSONString(v, func(s string) bool { named = named || s == "out␊␉<U+200F><U+241B><U+2039>"; return true })
			if !res.IsError && !named {
				t.Errorf("%s: no escaped stream name: %s", what, js)
			}
			plain := func(s string, lf bool) {
				for _, r := range s {
					if r < 0x20 && !(lf && r == '\n') || r >= 0x7F && r < 0xA0 || unicode.Is(unicode.Cf, r) || r == 0x2028 || r == 0x2029 {
						t.Errorf("%s: %q holds %U", what, s, r)
						return
					}
				}
			}
			sanitize.EveryJSONString(v, func(s string) bool { plain(s, false); return true })
			plain(resultText(res), true)
			if !res.IsError && strings.Contains(resultText(res), "out\n") {
				t.Errorf("%s: the text holds the name's LF: %q", what, resultText(res))
			}
		}
	}
	checkWire(t, s.wire.bytes())
}
