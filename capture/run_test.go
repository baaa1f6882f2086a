package capture

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/bytelens/bytelens/capture/store"
)

func runTestStore(t *testing.T) *store.Store {
	t.Helper()
	s, err := store.Open(filepath.Join(t.TempDir(), "store"))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// runSh runs sh -c script with opts and a 5 s safety timeout.
func runShell(t *testing.T, script string, opts RunOptions) Envelope {
	t.Helper()
	if opts.Timeout == 0 {
		opts.Timeout = 5 * time.Second
	}
	env, err := Run(context.Background(), exec.Command("sh", "-c", script), opts)
	if err != nil {
		t.Fatalf("Run: %v", err)
	}
	return env
}

// load returns the raw artifact an envelope references.
func loadArtifact(t *testing.T, s *store.Store, env Envelope) *store.Artifact {
	t.Helper()
	r, err := store.ParseRef(env.RawArtifact)
	if err != nil {
		t.Fatalf("raw_artifact %q: %v", env.RawArtifact, err)
	}
	a, err := s.Load(r)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// checkClean asserts invariant 1 on cleaned text.
func checkCleanText(t *testing.T, name, s string) {
	t.Helper()
	if !utf8.ValidString(s) {
		t.Errorf("%s: invalid UTF-8: %q", name, s)
	}
	for i, r := range s {
		if r < 0x20 && r != '\t' && r != '\n' || r == 0x7f || r >= 0x80 && r <= 0x9f {
			t.Errorf("%s: control U+%04X at %d in %q", name, r, i, s)
			return
		}
	}
}

const (
	hostileOut = `printf 'a\033[31mred\033[0m\t\033]0;evil-title\007b\n'; ` +
		`printf '\033]8;;https://evil.example/x\033\\label\033]8;;\033\\\n'; ` +
		`printf '\033]52;c;cGF5bG9hZA==\007clip\n'; ` +
		`printf 'c1 \302\233 31m \033P1$qm\033\\dcs\n'`
	hostileErr = `printf '\033[2J\033[Hwarn\033[6n\n' >&2; printf '\033_Gf=1;AAAA\033\\apc\n' >&2`
)

func TestRunHostile(t *testing.T) {
	s := runTestStore(t)
	env := runShell(t, hostileOut+"; "+hostileErr+"; exit 7", RunOptions{Store: s})
	checkCleanText(t, "stdout", env.Stdout)
	checkCleanText(t, "stderr", env.Stderr)
	if want := "ared\tb\nlabel\nclip\nc1  dcs\n"; env.Stdout != want {
		t.Errorf("stdout: got %q, want %q", env.Stdout, want)
	}
	if want := "warn\napc\n"; env.Stderr != want {
		t.Errorf("stderr: got %q, want %q", env.Stderr, want)
	}
	for _, payload := range []string{"evil", "cGF5bG9hZA", "https://", "AAAA", "$q"} {
		if strings.Contains(env.Stdout+env.Stderr, payload) {
			t.Errorf("payload %q in cleaned text", payload)
		}
	}
	if env.ExitCode != 7 || env.Signal != "" || env.TimedOut || env.Schema != EnvelopeSchema {
		t.Errorf("exit: %+v", env)
	}
	// The raw artifact keeps every byte, stream by stream.
	a := loadArtifact(t, s, env)
	wantOut := "a\x1b[31mred\x1b[0m\t\x1b]0;evil-title\x07b\n" +
		"\x1b]8;;https://evil.example/x\x1b\\label\x1b]8;;\x1b\\\n" +
		"\x1b]52;c;cGF5bG9hZA==\x07clip\n" +
		"c1 \xc2\x9b 31m \x1bP1$qm\x1b\\dcs\n"
	if got := string(a.Stream("stdout").Data); got != wantOut {
		t.Errorf("raw stdout: got %q, want %q", got, wantOut)
	}
	if got, want := string(a.Stream("stderr").Data), "\x1b[2J\x1b[Hwarn\x1b[6n\n\x1b_Gf=1;AAAA\x1b\\apc\n"; got != want {
		t.Errorf("raw stderr: got %q, want %q", got, want)
	}
	if env.Streams.Stdout.BytesRaw != int64(len(wantOut)) || env.Streams.Stdout.BytesRawStored != int64(len(wantOut)) ||
		env.Streams.Stdout.BytesKept != int64(len(env.Stdout)) || env.Streams.Stdout.Truncated {
		t.Errorf("stdout counts: %+v", env.Streams.Stdout)
	}
	if a.Trailer.ExitCode != 7 || a.Manifest.Argv[0] != "sh" {
		t.Errorf("artifact trailer %+v manifest %+v", a.Trailer, a.Manifest)
	}
	// Metadata lives in fields only: the JSON text fields are the cleaned
	// bytes and nothing else.
	js, _ := json.Marshal(env)
	var back map[string]any
	json.Unmarshal(js, &back)
	if back["stdout"] != env.Stdout || back["raw_artifact"] != env.RawArtifact {
		t.Errorf("JSON round trip differs")
	}
}

// TestRunInterleaved checks that the chunks of both streams are numbered
// in read order. The command writes each line only after the collector
// has read the one before (the Progress call for read N creates the file
// rN the command waits for), so the order does not depend on timing.
func TestRunInterleaved(t *testing.T) {
	s := runTestStore(t)
	dir := t.TempDir()
	reads := 0
	progress := func(_, _ int64) {
		reads++
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprint("r", reads)), nil, 0o600); err != nil {
			t.Error(err)
		}
	}
	script := `n=0
await() { n=$((n+1)); while [ ! -e "$D/r$n" ]; do sleep 0.001; done; }
for i in 1 2 3 4; do echo out$i; await; echo err$i >&2; await; done`
	cmd := exec.Command("sh", "-c", script)
	cmd.Env = append(os.Environ(), "D="+dir)
	env, err := Run(context.Background(), cmd, RunOptions{Store: s, Progress: progress, Timeout: 30 * time.Second})
	if err != nil {
		t.Fatalf("Run: %v", err)
	}
	if env.Stdout != "out1\nout2\nout3\nout4\n" || env.Stderr != "err1\nerr2\nerr3\nerr4\n" {
		t.Fatalf("text: %q %q", env.Stdout, env.Stderr)
	}
	var order []string
	next := map[string]int64{}
	var lastT int64
	for i, c := range env.Chunks {
		if c.Seq != uint32(i) {
			t.Errorf("chunk %d has seq %d", i, c.Seq)
		}
		if c.Offset != next[c.Stream] {
			t.Errorf("chunk %d: offset %d, want %d", i, c.Offset, next[c.Stream])
		}
		if c.TMS < lastT {
			t.Errorf("chunk %d goes back in time", i)
		}
		next[c.Stream] += int64(c.Length)
		lastT = c.TMS
		order = append(order, c.Stream)
	}
	if next["stdout"] != 20 || next["stderr"] != 20 {
		t.Errorf("chunk lengths sum to %v", next)
	}
	// Each line is its own read, in write order.
	want := strings.Repeat("stdout stderr ", 4)
	if got := strings.Join(order, " ") + " "; got != want {
		t.Errorf("read order: got %q, want %q", got, want)
	}
	// The artifact holds the same chunks in the same order.
	a := loadArtifact(t, s, env)
	if len(a.Chunks) != len(env.Chunks) {
		t.Fatalf("artifact has %d chunks, envelope %d", len(a.Chunks), len(env.Chunks))
	}
	for i, c := range a.Chunks {
		e := env.Chunks[i]
		if c.Seq != e.Seq || c.Stream != e.Stream || c.Offset != e.Offset || c.Length != e.Length || c.T.Milliseconds() != e.TMS {
			t.Errorf("chunk %d: artifact %+v, envelope %+v", i, c, e)
		}
	}
}

// TestRunProgress checks that RunOptions.Progress sees each read, with
// the bytes read so far per stream, ending at the envelope's counts.
func TestRunProgress(t *testing.T) {
	var calls [][2]int64
	env := runShell(t, `for i in 1 2 3; do echo out$i; sleep 0.02; echo err$i >&2; sleep 0.02; done`,
		RunOptions{Progress: func(o, e int64) { calls = append(calls, [2]int64{o, e}) }})
	if len(calls) != len(env.Chunks) {
		t.Fatalf("%d progress calls for %d chunks", len(calls), len(env.Chunks))
	}
	var prev [2]int64
	for i, c := range calls {
		if c[0] < prev[0] || c[1] < prev[1] || c[0]+c[1] != prev[0]+prev[1]+int64(env.Chunks[i].Length) {
			t.Errorf("call %d: %v after %v, chunk of %d bytes", i, c, prev, env.Chunks[i].Length)
		}
		prev = c
	}
	if want := [2]int64{env.Streams.Stdout.BytesRaw, env.Streams.Stderr.BytesRaw}; prev != want || want != [2]int64{15, 15} {
		t.Errorf("last call %v, envelope %v, want 15 bytes each", prev, want)
	}
}

func TestRunOverLimits(t *testing.T) {
	s := runTestStore(t)
	const n = 1 << 20 // far past both limits; a 64 KiB pipe would block a child nobody drains
	start := time.Now()
	env := runShell(t, fmt.Sprintf(`yes 0123456789abcdef | head -c %d; yes err | head -c %d >&2`, n, n),
		RunOptions{Store: s, MaxOutput: 1000, MaxRaw: 100_000, Timeout: 10 * time.Second})
	if env.TimedOut || env.ExitCode != 0 || time.Since(start) > 5*time.Second {
		t.Fatalf("child blocked: timed_out %v exit %d after %v", env.TimedOut, env.ExitCode, time.Since(start))
	}
	for name, st := range map[string]EnvelopeStream{"stdout": env.Streams.Stdout, "stderr": env.Streams.Stderr} {
		if !st.Truncated || !st.RawTruncated || st.BytesRaw != n || st.BytesRawStored != 100_000 || st.BytesCleaned != n {
			t.Errorf("%s: %+v", name, st)
		}
	}
	// The head is cut at a line boundary within half the limit; the tail
	// starts at a line boundary and ends where the stream ended (head -c
	// cut its last line).
	line := "0123456789abcdef\n"
	if env.Stdout != strings.Repeat(line, 29) || env.StdoutTail != strings.Repeat(line, 28)+line[:16] {
		t.Errorf("stdout head %d bytes, tail %d bytes ending %q", len(env.Stdout), len(env.StdoutTail), env.StdoutTail[max(len(env.StdoutTail)-20, 0):])
	}
	wantOmitted := Omitted{Bytes: n - 493 - 492, Lines: 61652 - 30 + 1, FromLine: 30, ToLine: 61652,
		Excerpt: "bytelens excerpt " + env.RawArtifact + " --lines 30:61652 --stream stdout"}
	if env.StdoutOmitted == nil || *env.StdoutOmitted != wantOmitted || env.Streams.Stdout.Lines != 61681 || env.Streams.Stdout.BytesKept != 985 {
		t.Errorf("stdout omitted %+v lines %d kept %d, want %+v", env.StdoutOmitted, env.Streams.Stdout.Lines, env.Streams.Stdout.BytesKept, wantOmitted)
	}
	if env.Stderr != strings.Repeat("err\n", 125) || env.StderrTail != env.Stderr || env.Streams.Stderr.BytesKept != 1000 ||
		env.StderrOmitted == nil || env.StderrOmitted.FromLine != 126 || env.StderrOmitted.ToLine != n/4-125 {
		t.Errorf("stderr: head %d bytes, tail %d, omitted %+v", len(env.Stderr), len(env.StderrTail), env.StderrOmitted)
	}
	// The raw artifact is complete up to the raw limit.
	a := loadArtifact(t, s, env)
	want := bytes.Repeat([]byte("0123456789abcdef\n"), 100_000/17+1)[:100_000]
	if out := a.Stream("stdout"); !bytes.Equal(out.Data, want) || out.Seen != n || !out.Truncated() {
		t.Errorf("raw stdout: %d bytes stored, seen %d", len(out.Data), out.Seen)
	}
	if e := a.Stream("stderr"); len(e.Data) != 100_000 || !bytes.Equal(e.Data[:8], []byte("err\nerr\n")) {
		t.Errorf("raw stderr: %d bytes", len(e.Data))
	}
}

func TestTextKeeper(t *testing.T) {
	tests := []struct {
		name       string
		limit      int64
		writes     []string
		head, tail string
		omitted    *Omitted
	}{
		{"under", 10, []string{"ab\n", "cd"}, "ab\ncd", "", nil},
		{"exact", 5, []string{"ab\n", "cd"}, "ab\ncd", "", nil},
		{"unlimited", -1, []string{"abc", "def"}, "abcdef", "", nil},
		{"lines", 8, []string{"ab\ncd\nef\ngh\n"}, "ab\n", "gh\n", &Omitted{Bytes: 6, Lines: 2, FromLine: 2, ToLine: 3}},
		{"line by line", 8, []string{"1\n", "2\n", "3\n", "4\n", "5\n", "6\n"}, "1\n2\n", "5\n6\n", &Omitted{Bytes: 4, Lines: 2, FromLine: 3, ToLine: 4}},
		{"long line", 5, []string{"abcdefgh"}, "ab", "fgh", &Omitted{Bytes: 3, Lines: 1, FromLine: 1, ToLine: 1}},
		{"tail right after head", 8, []string{"ab\ncdefgh"}, "ab\n", "defgh", &Omitted{Bytes: 1, Lines: 1, FromLine: 2, ToLine: 2}},
		{"cjk", 6, []string{"终终终"}, "终", "终", &Omitted{Bytes: 3, Lines: 1, FromLine: 1, ToLine: 1}},
		{"rune split", 5, []string{"abcдe"}, "ab", "дe", &Omitted{Bytes: 1, Lines: 1, FromLine: 1, ToLine: 1}},
		{"limit 1", 1, []string{"a\nb\n"}, "", "\n", &Omitted{Bytes: 3, Lines: 2, FromLine: 1, ToLine: 2}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			k := &textKeeper{limit: tt.limit}
			var all string
			for _, w := range tt.writes {
				k.Write([]byte(w))
				all += w
			}
			got := k.finish()
			if got.head != tt.head || got.tail != tt.tail || k.total != int64(len(all)) {
				t.Errorf("head %q tail %q total %d, want %q %q %d", got.head, got.tail, k.total, tt.head, tt.tail, len(all))
			}
			if (got.omitted == nil) != (tt.omitted == nil) || got.omitted != nil && *got.omitted != *tt.omitted {
				t.Errorf("omitted %+v, want %+v", got.omitted, tt.omitted)
			}
		})
	}
}

// TestTextKeeperProperty checks on random texts and writes that the head
// is a prefix and the tail a suffix of the text, that both fit the limit
// and the tail starts a line when it holds a line boundary, and that the
// omitted counts say exactly what lies between them.
func TestTextKeeperProperty(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	alphabet := []string{"a", "b", "\n", "д", "终"}
	for range 2000 {
		var text strings.Builder
		for range rng.IntN(200) {
			text.WriteString(alphabet[rng.IntN(len(alphabet))])
		}
		all := text.String()
		limit := int64(rng.IntN(60))
		k := &textKeeper{limit: limit}
		for rest := all; rest != ""; {
			n := min(1+rng.IntN(20), len(rest))
			k.Write([]byte(rest[:n]))
			rest = rest[n:]
		}
		got := k.finish()
		if got.omitted == nil {
			if got.head != all || int64(len(all)) > limit {
				t.Fatalf("limit %d text %q: uncut head %q", limit, all, got.head)
			}
			continue
		}
		o := got.omitted
		mid := all[len(got.head) : len(all)-len(got.tail)]
		if !strings.HasPrefix(all, got.head) || !strings.HasSuffix(all, got.tail) || int64(len(got.head)+len(got.tail)) > limit ||
			o.Bytes != int64(len(mid)) || o.Bytes == 0 || !utf8.ValidString(got.head) || !utf8.ValidString(got.tail) {
			t.Fatalf("limit %d text %q: head %q tail %q omitted %+v", limit, all, got.head, got.tail, o)
		}
		// Lines with omitted bytes, counted from the whole text.
		from := int64(strings.Count(all[:len(got.head)], "\n")) + 1
		to := int64(strings.Count(all[:len(all)-len(got.tail)-1], "\n")) + 1
		if o.FromLine != from || o.ToLine != to || o.Lines != to-from+1 {
			t.Fatalf("limit %d text %q: head %q tail %q omitted %+v, want lines %d-%d", limit, all, got.head, got.tail, o, from, to)
		}
		if tailStart := len(all) - len(got.tail); got.tail != "" && tailStart > 0 && all[tailStart-1] != '\n' && strings.Contains(got.tail[:len(got.tail)-1], "\n") {
			t.Fatalf("limit %d text %q: tail %q does not start a line", limit, all, got.tail)
		}
	}
}

// pidStopped waits up to 2 s for pid to be gone or a zombie.
func pidStopped(pid int) bool {
	for range 100 {
		b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
		if err != nil {
			return true
		}
		if f := strings.Fields(string(b[bytes.LastIndexByte(b, ')')+1:])); len(f) > 0 && f[0] == "Z" {
			return true
		}
		time.Sleep(20 * time.Millisecond)
	}
	return false
}

func TestRunTimeoutKillsGroup(t *testing.T) {
	if _, err := os.Stat("/proc/self/stat"); err != nil {
		t.Skip("needs /proc")
	}
	start := time.Now()
	env := runShell(t, `sleep 10 & echo $!; sleep 10; echo never`, RunOptions{Timeout: 300 * time.Millisecond, WaitDelay: 200 * time.Millisecond})
	if d := time.Since(start); d > 3*time.Second {
		t.Errorf("Run took %v", d)
	}
	if !env.TimedOut || env.Canceled || env.ExitCode != -1 || env.Signal != "SIGKILL" {
		t.Errorf("timeout: timed_out %v canceled %v exit %d signal %q", env.TimedOut, env.Canceled, env.ExitCode, env.Signal)
	}
	if strings.Contains(env.Stdout, "never") {
		t.Error("command ran past the timeout")
	}
	pid, err := strconv.Atoi(strings.TrimSpace(env.Stdout))
	if err != nil {
		t.Fatalf("stdout %q: %v", env.Stdout, err)
	}
	if !pidStopped(pid) {
		t.Errorf("grandchild %d survived the timeout", pid)
	}
}

func TestRunKillGrace(t *testing.T) {
	env := runShell(t, `trap 'echo term; exit 3' TERM; echo ready; while :; do sleep 0.05; done`,
		RunOptions{Timeout: 300 * time.Millisecond, KillGrace: time.Second, WaitDelay: 100 * time.Millisecond})
	if !env.TimedOut || env.ExitCode != 3 || env.Signal != "" || env.Stdout != "ready\nterm\n" {
		t.Errorf("graceful kill: exit %d signal %q stdout %q", env.ExitCode, env.Signal, env.Stdout)
	}
}

func TestRunGrandchildHoldsPipe(t *testing.T) {
	start := time.Now()
	// The grandchild holds the pipe for 30 s; Run gives up on it after
	// the wait delay, 200 ms. The bound is far from both, so that a
	// loaded machine does not fail it (2 s did at load 7).
	env := runShell(t, `sleep 30 & echo $!`, RunOptions{WaitDelay: 200 * time.Millisecond, Timeout: time.Minute})
	d := time.Since(start)
	if pid, err := strconv.Atoi(strings.TrimSpace(env.Stdout)); err == nil {
		defer func() { p, _ := os.FindProcess(pid); p.Kill() }()
	}
	if d > 10*time.Second {
		t.Errorf("Run waited %v for a grandchild's pipe", d)
	}
	if env.ExitCode != 0 || !env.WaitDelayExpired || env.TimedOut || env.Stdout == "" {
		t.Errorf("exit %d wait_delay_expired %v stdout %q", env.ExitCode, env.WaitDelayExpired, env.Stdout)
	}
}

func TestRunCanceled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(200*time.Millisecond, cancel)
	env, err := Run(ctx, exec.Command("sleep", "10"), RunOptions{WaitDelay: 100 * time.Millisecond})
	if err != nil || !env.Canceled || env.TimedOut || env.Signal != "SIGKILL" {
		t.Errorf("err %v canceled %v timed_out %v signal %q", err, env.Canceled, env.TimedOut, env.Signal)
	}
}

func TestRunNotFound(t *testing.T) {
	s := runTestStore(t)
	env, err := Run(context.Background(), exec.Command("bytelens-no-such-command-xyz"), RunOptions{Store: s})
	if !errors.Is(err, exec.ErrNotFound) {
		t.Fatalf("err = %v, want exec.ErrNotFound", err)
	}
	if env.Schema != "" {
		t.Errorf("envelope for a command that never ran: %+v", env)
	}
	if es, _ := s.List(); len(es) != 0 {
		t.Errorf("store holds %d entries", len(es))
	}
	if tmps, _ := os.ReadDir(filepath.Join(s.Dir(), "tmp")); len(tmps) != 0 {
		t.Errorf("%d temp files left", len(tmps))
	}
}

// TestRunBadDir: a working directory that does not exist or is a file is
// named in the error; the reaper's start used to fail as
// "fork/exec /proc/self/exe: no such file or directory", naming the
// wrong file.
func TestRunBadDir(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "file")
	os.WriteFile(file, nil, 0o600)
	for _, tc := range []struct{ dir, want string }{
		{filepath.Join(dir, "missing"), "working directory " + filepath.Join(dir, "missing") + ": no such file or directory"},
		{file, "working directory " + file + " is not a directory"},
	} {
		cmd := exec.Command("true")
		cmd.Dir = tc.dir
		_, err := Run(context.Background(), cmd, RunOptions{})
		if err == nil || !strings.HasSuffix(err.Error(), tc.want) {
			t.Errorf("dir %s: err = %v, want one ending %q", tc.dir, err, tc.want)
		}
	}
}

func TestRunStdinAndDecision(t *testing.T) {
	f := filepath.Join(t.TempDir(), "in")
	os.WriteFile(f, []byte("from file\n"), 0o600)
	in, _ := os.Open(f)
	defer in.Close()
	cmd := exec.Command("cat")
	cmd.Stdin = in
	env, err := Run(context.Background(), cmd, RunOptions{StdinName: f, Decision: json.RawMessage(`{ "approved_by": "alice",  "n": 1 }`)})
	if err != nil {
		t.Fatal(err)
	}
	if env.Stdout != "from file\n" || env.Stdin != f || string(env.Decision) != `{"approved_by":"alice","n":1}` {
		t.Errorf("stdout %q stdin %q decision %s", env.Stdout, env.Stdin, env.Decision)
	}
	// Default stdin is the null device: cat reads nothing.
	env = runShell(t, `cat; echo done`, RunOptions{})
	if env.Stdout != "done\n" || env.Stdin != os.DevNull || env.Decision != nil {
		t.Errorf("default stdin: %q %q", env.Stdout, env.Stdin)
	}
	if _, err := Run(context.Background(), exec.Command("true"), RunOptions{Decision: json.RawMessage(`{bad`)}); err == nil {
		t.Error("invalid decision JSON accepted")
	}
	busy := exec.Command("true")
	busy.Stdout = os.Stdout
	if _, err := Run(context.Background(), busy, RunOptions{}); err == nil {
		t.Error("Run accepted a command with Stdout set")
	}
}

func TestRunConcurrentStore(t *testing.T) {
	s := runTestStore(t)
	const n = 8
	envs := make([]Envelope, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			e, err := Run(context.Background(), exec.Command("sh", "-c", fmt.Sprintf("yes run%d | head -n 2000", i)), RunOptions{Store: s, Timeout: 5 * time.Second})
			if err != nil {
				t.Error(err)
			}
			envs[i] = e
		})
	}
	wg.Wait()
	for i, e := range envs {
		a := loadArtifact(t, s, e)
		if want := strings.Repeat(fmt.Sprintf("run%d\n", i), 2000); string(a.Stream("stdout").Data) != want {
			t.Errorf("run %d: artifact holds other bytes", i)
		}
	}
	if es, _ := s.List(); len(es) != n {
		t.Errorf("store lists %d entries, want %d", len(es), n)
	}
}

func TestWriteText(t *testing.T) {
	env := runShell(t, `echo 'exit_code:     0'; printf 'no newline'; echo 'timed_out: true' >&2`, RunOptions{Decision: json.RawMessage(`{"ok":true}`)})
	var b bytes.Buffer
	if err := env.WriteText(&b); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, want := range []string{
		"command:      sh -c 'echo '\\''exit_code:     0'\\''; printf '\\''no newline'\\''; echo '\\''timed_out: true'\\'' >&2'\n",
		"exit_code:    0\n",
		"  | exit_code:     0\n  | no newline\n(no newline at end)\n",
		"  | timed_out: true\n",
		`decision:     '{"ok":true}'` + "\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("text form lacks %q:\n%s", want, out)
		}
	}
	// Only labels start a line; command output is always prefixed.
	for line := range strings.Lines(out) {
		if strings.HasPrefix(line, "timed_out") {
			t.Errorf("output forged a label: %q", line)
		}
	}
	checkCleanText(t, "text", strings.ReplaceAll(out, "\n", ""))

	// Past the limit: head, the omitted label line, tail.
	st := runTestStore(t)
	env = runShell(t, `seq 1 100`, RunOptions{MaxOutput: 20, Store: st})
	b.Reset()
	env.WriteText(&b)
	want := "  | 1\n  | 2\n  | 3\n  | 4\n  | 5\nomitted:      lines 6-97 (92 lines, 272 bytes); bytelens excerpt " + env.RawArtifact +
		" --lines 6:97 --stream stdout\n  | 98\n  | 99\n  | 100\n"
	if !strings.Contains(b.String(), want) {
		t.Errorf("text form past the limit lacks %q:\n%s", want, b.String())
	}
}

func TestQuote(t *testing.T) {
	for in, want := range map[string]string{
		"":            "''",
		"plain-1.txt": "plain-1.txt",
		"a b":         "'a b'",
		"it's":        `'it'\''s'`,
		"终":           "'终'",
		"a\x1b[31m":   `$'a\x1B[31m'`,
		"\u202eabc":   `$'\u202Eabc'`,
		"\xff'\n":     `$'\xFF\'\n'`,
		"\u009b":      `$'\u009B'`,
	} {
		if got := quoteIfNeeded(in); got != want {
			t.Errorf("quoteIfNeeded(%q) = %s, want %s", in, got, want)
		}
	}
}

// checkField asserts that a metadata value holds no control (TAB and LF
// included), no format character the default policy strips and no
// invalid UTF-8.
func checkField(t *testing.T, name, s string) {
	t.Helper()
	if c, changed := CleanField(s); changed {
		t.Errorf("%s: %q is not clean (cleaned %q)", name, s, c)
	}
	if strings.ContainsAny(s, "\t\n\x1b\u202e") {
		t.Errorf("%s: %q", name, s)
	}
	checkCleanText(t, name, s)
}

// TestRunCleansMetadata runs a real child in a directory whose name holds
// an OSC, a bidi override, a TAB and an invalid byte, with arguments that
// hold ESC and U+202E: the envelope carries the values cleaned and says
// which, and only the artifact's manifest keeps them exactly.
func TestRunCleansMetadata(t *testing.T) {
	s := runTestStore(t)
	dir := filepath.Join(t.TempDir(), "cwd\x1b]0;CWDTITLE\x07dir\u202e\tx\xff")
	if err := os.Mkdir(dir, 0o700); err != nil {
		t.Skipf("file system refuses the name: %v", err)
	}
	stdinName := "in\x1b[2Jput"
	cmd := exec.Command("sh", "-c", `printf '%s|' "$@"; pwd`, "sh", "a\x1b[31mred", "\u202eevil", "plain", "bad\xfe")
	cmd.Dir = dir
	exact := slices.Clone(cmd.Args)
	env, err := Run(context.Background(), cmd, RunOptions{Store: s, Timeout: 5 * time.Second, StdinName: stdinName})
	if err != nil {
		t.Fatal(err)
	}
	wantCwd := filepath.Join(filepath.Dir(dir), "cwddir\uFFFDx\uFFFD")
	wantArgv := []string{"sh", "-c", exact[2], "sh", "ared", "evil", "plain", "bad\uFFFD"}
	if env.Cwd != wantCwd || !slices.Equal(env.Argv, wantArgv) || env.Stdin != "input" {
		t.Errorf("cwd %q argv %q stdin %q; want %q %q %q", env.Cwd, env.Argv, env.Stdin, wantCwd, wantArgv, "input")
	}
	if want := []string{"command", "argv[4]", "argv[5]", "argv[7]", "cwd", "stdin"}; !slices.Equal(env.MetadataCleaned, want) {
		t.Errorf("metadata_cleaned %q, want %q", env.MetadataCleaned, want)
	}
	if env.Command != ShellQuote(wantArgv) {
		t.Errorf("command %q, want %q", env.Command, ShellQuote(wantArgv))
	}
	if env.ExitCode != 0 || env.Stdout != "ared|evil|plain|bad\uFFFD|"+wantCwd[:len(wantCwd)-len("\uFFFDx\uFFFD")]+"\tx\uFFFD\n" {
		t.Errorf("exit %d stdout %q", env.ExitCode, env.Stdout)
	}
	for i, a := range env.Argv {
		checkField(t, fmt.Sprintf("argv[%d]", i), a)
	}
	for name, v := range map[string]string{"command": env.Command, "cwd": env.Cwd, "stdin": env.Stdin, "signal": env.Signal} {
		checkField(t, name, v)
	}
	// Once JSON-decoded nothing holds a control, and no payload is left.
	js, _ := json.Marshal(env)
	for _, bad := range []string{"CWDTITLE", `\u001b`, `\u0007`, "\u202e", "31m", "2J"} {
		if bytes.Contains(js, []byte(bad)) {
			t.Errorf("envelope JSON holds %q: %s", bad, js)
		}
	}

	// The manifest keeps the exact values.
	m := loadArtifact(t, s, env).Manifest
	if got := m.ExactArgv(); !slices.Equal(got, exact) {
		t.Errorf("manifest argv %q, want %q", got, exact)
	}
	if m.ExactCwd() != dir || m.ExactStdin() != stdinName {
		t.Errorf("manifest cwd %q stdin %q, want %q %q", m.ExactCwd(), m.ExactStdin(), dir, stdinName)
	}
	// Valid UTF-8 values are exact in the strings themselves; the invalid
	// ones there have U+FFFD and are exact in the *_bytes fields.
	if m.Argv[4] != exact[4] || m.Argv[5] != exact[5] || m.Stdin != stdinName || m.StdinBytes != nil {
		t.Errorf("manifest strings: argv %q stdin %q %q", m.Argv, m.Stdin, m.StdinBytes)
	}
	if m.Cwd != strings.ToValidUTF8(dir, "\uFFFD") || string(m.CwdBytes) != dir || len(m.ArgvBytes) != len(exact) {
		t.Errorf("manifest cwd %q cwd_bytes %q argv_bytes %q", m.Cwd, m.CwdBytes, m.ArgvBytes)
	}

	// The text form shows the cleaned values and says which changed.
	var b bytes.Buffer
	env.WriteText(&b)
	if !strings.Contains(b.String(), "cleaned:      command, argv[4], argv[5], argv[7], cwd, stdin (") || strings.Contains(b.String(), "CWDTITLE") {
		t.Errorf("text form:\n%s", b.String())
	}
}

// TestRunMetadataUnchanged: clean metadata is kept as is, and
// metadata_cleaned is an empty list, not null.
func TestRunMetadataUnchanged(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "plain dir é 終 \U0001F469\u200d\U0001F4BB")
	os.Mkdir(dir, 0o700)
	cmd := exec.Command("printf", "%s", "it's", "naïve")
	cmd.Dir = dir
	env, err := Run(context.Background(), cmd, RunOptions{Timeout: 5 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	if env.Cwd != dir || !slices.Equal(env.Argv, []string{"printf", "%s", "it's", "naïve"}) || env.MetadataCleaned == nil || len(env.MetadataCleaned) != 0 {
		t.Errorf("cwd %q argv %q metadata_cleaned %#v", env.Cwd, env.Argv, env.MetadataCleaned)
	}
	if js, _ := json.Marshal(env); !bytes.Contains(js, []byte(`"metadata_cleaned":[]`)) {
		t.Errorf("JSON: %s", js)
	}
}

func TestCleanField(t *testing.T) {
	for in, want := range map[string]string{
		"":                        "",
		"/tmp/plain dir/é":        "/tmp/plain dir/é",
		"a\x1b]0;TITLE\x07b":      "ab",
		"a\x1b]52;c;Zm9v\x1b\\b":  "ab",
		"\u202eevil\u200b":        "evil",
		"a\tb\nc\rd\r\ne\vf\fg":   "a\uFFFDb\uFFFDc\uFFFDd\uFFFDe\uFFFDf\uFFFDg",
		"x\xffy":                  "x\uFFFDy",
		"c1 \u009b31m \x7fdel":    "c1  del",
		"\x1b[31m":                "",
		"unterminated\x1b]0;oops": "unterminated",
	} {
		got, changed := CleanField(in)
		if got != want || changed != (in != want) {
			t.Errorf("CleanField(%q) = %q, %v; want %q", in, got, changed, want)
		}
		checkField(t, strconv.Quote(in), got)
	}
}

func TestCheckDecision(t *testing.T) {
	for _, ok := range []string{
		`{"approved_by":"alice","n":1}`,
		`{"reason":"line one\nline two\tTAB","list":["é","終",null,true,1.5e3]}`,
		`"just a string"`,
		`{"zwj":"👩\u200d💻"}`,
	} {
		if err := CheckDecision([]byte(ok)); err != nil {
			t.Errorf("CheckDecision(%s) = %v", ok, err)
		}
	}
	for _, bad := range []string{
		`{"by":"a\u001b]0;x\u0007"}`,
		"{\"by\":\"a\x1b[31m\"}",
		`{"by":"\r"}`,
		`{"k\u001b":"v"}`,
		`["ok",{"deep":["\u202e"]}]`,
		`{"c1":"\u009b"}`,
		`{"del":"\u007f"}`,
		"{\"bad\":\"\xff\"}",
		`{nope`,
		`{} {}`,
	} {
		err := CheckDecision([]byte(bad))
		if err == nil {
			t.Errorf("CheckDecision(%q) accepted", bad)
			continue
		}
		if strings.ContainsAny(err.Error(), "\x1b\u202e\u009b\x7f\r") {
			t.Errorf("error repeats the characters: %q", err)
		}
	}
	if _, err := Run(context.Background(), exec.Command("true"), RunOptions{Decision: json.RawMessage(`{"x":"\u001b[2J"}`)}); err == nil {
		t.Error("Run accepted a decision with ESC")
	}
}

// TestRunStoreFaults breaks the store under a run in the ways a disk
// does: the output is never lost, raw_artifact is empty, store_error says
// why, and no temp file is left.
func TestRunStoreFaults(t *testing.T) {
	for _, tc := range []struct {
		name   string
		broken string // the store directory replaced by a plain file
	}{
		{"cannot create (read-only or full tmp)", "tmp"},
		{"cannot commit (rename into raw fails, as across devices)", "raw"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := runTestStore(t)
			d := filepath.Join(s.Dir(), tc.broken)
			if err := os.RemoveAll(d); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(d, nil, 0o600); err != nil {
				t.Fatal(err)
			}
			env := runShell(t, `printf 'out\033[31m!\n'; echo err >&2; exit 3`, RunOptions{Store: s})
			if env.Stdout != "out!\n" || env.Stderr != "err\n" || env.ExitCode != 3 {
				t.Errorf("output lost: stdout %q stderr %q exit %d", env.Stdout, env.Stderr, env.ExitCode)
			}
			if env.RawArtifact != "" || !strings.HasPrefix(env.StoreError, "raw artifact not kept: ") {
				t.Errorf("raw_artifact %q store_error %q", env.RawArtifact, env.StoreError)
			}
			if tmps, _ := os.ReadDir(filepath.Join(s.Dir(), "tmp")); len(tmps) != 0 {
				t.Errorf("%d temp files left", len(tmps))
			}
		})
	}
}

// TestAttack13SidecarFault checks that a run whose cleaned text could not
// be kept (the sidecar failed, as on a full disk after the raw artifact
// fitted) says so in store_error and offers no excerpt call for the lines
// it left out: the envelope said nothing, and its excerpt call failed
// with "no cleaned text" (attack13).
func TestAttack13SidecarFault(t *testing.T) {
	s := runTestStore(t)
	s.SetSidecar(func(*store.Store) (store.Sidecar, error) { return nil, errors.New("no space left on device") })
	env := runShell(t, `seq 1 100`, RunOptions{Store: s, MaxOutput: 10})
	if env.RawArtifact == "" || env.StoreError != "cleaned text not kept: no space left on device" {
		t.Errorf("raw_artifact %q store_error %q", env.RawArtifact, env.StoreError)
	}
	if env.StdoutOmitted == nil || env.StdoutOmitted.Excerpt != "" {
		t.Errorf("omitted lines %+v: want them without an excerpt call", env.StdoutOmitted)
	}
}
