package main

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
	"unicode"

	"github.com/charmbracelet/x/vt"
	"github.com/creack/pty"

	"github.com/bytelens/bytelens/decode"
)

// TestViewBadInput checks that view refuses what it cannot show with one
// clear message and exit status 1, before it touches the terminal.
func TestViewBadInput(t *testing.T) {
	dir := t.TempDir()
	empty := filepath.Join(dir, "empty.bin")
	os.WriteFile(empty, nil, 0o644)
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	ok := filepath.Join(dir, "ok.bin")
	os.WriteFile(ok, []byte("hello\x1b[31m"), 0o644)
	for _, tc := range []struct {
		name  string
		args  []string
		stdin string
		code  int
		msg   string
	}{
		{"missing", []string{"view", filepath.Join(dir, "nope.bin")}, "", 1, "no such file"},
		{"directory", []string{"view", dir}, "", 1, "is a directory"},
		{"fifo", []string{"view", fifo}, "", 1, "is not a regular file"},
		// An empty capture opens (the viewer says it is empty); here the
		// missing terminal stops it first.
		{"empty", []string{"view", empty}, "", 1, "needs a terminal"},
		{"empty stdin", []string{"view", "-"}, "", 1, "needs a terminal"},
		{"stdin limit", []string{"view", "--stdin-limit", "4", "-"}, "0123456789", 1, "more than 4 bytes"},
		{"no terminal", []string{"view", ok}, "", 1, "needs a terminal"},
		{"bad policy", []string{"view", "--cr", "sideways", ok}, "", 2, "invalid cr policy"},
		{"compare missing", []string{"view", ok, "--compare", filepath.Join(dir, "nope.bin")}, "", 1, "no such file"},
		{"compare empty", []string{"view", ok, "--compare", empty}, "", 1, "needs a terminal"},
		{"compare no file", []string{"view", ok, "--compare", ""}, "", 2, "--compare needs a capture"},
		{"compare both", []string{"view", ok, "--compare", ok, "--compare-policy", "cr=drop"}, "", 2, "cannot be used together"},
		{"compare stdin twice", []string{"view", "-", "--compare", "-"}, "x", 2, "stdin can be only one"},
		{"compare bad policy", []string{"view", ok, "--compare-policy", "cr=sideways"}, "", 2, "invalid cr policy"},
		{"compare policy not key=value", []string{"view", ok, "--compare-policy", "overwrite"}, "", 2, "is not key=value"},
		{"compare unknown policy", []string{"view", ok, "--compare-policy", "colour=on"}, "", 2, "unknown policy"},
		{"compare no settings", []string{"view", ok, "--compare-policy", " "}, "", 2, "--compare-policy needs settings"},
		{"compare no terminal", []string{"view", ok, "--compare", ok}, "", 1, "needs a terminal"},
		{"compare-policy no terminal", []string{"view", ok, "--compare-policy", "cr=overwrite"}, "", 1, "needs a terminal"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, out, errOut := runCLI(t, tc.stdin, tc.args...)
			if code != tc.code || !strings.Contains(errOut, tc.msg) || strings.Count(errOut, "error:") != 1 {
				t.Errorf("code %d, stderr %q; want %d and one error saying %q", code, errOut, tc.code, tc.msg)
			}
			if out != "" {
				t.Errorf("stdout %q, want nothing", out)
			}
		})
	}
}

// term runs the bytelens binary in a pseudo-terminal and records every
// byte it writes.
type term struct {
	t      *testing.T
	cmd    *exec.Cmd
	pty    *os.File
	mu     sync.Mutex
	out    []byte
	notify chan struct{}
	done   chan error
	mark   int // recorded bytes already matched by wait
}

const termCols, termRows = 100, 30

// startTerm starts bin with args in a fresh pseudo-terminal.
func startTerm(t *testing.T, bin string, env []string, args ...string) *term {
	tm := &term{t: t, notify: make(chan struct{}, 1), done: make(chan error, 1)}
	tm.cmd = exec.Command(bin, args...)
	tm.cmd.Env = env
	f, err := pty.StartWithSize(tm.cmd, &pty.Winsize{Rows: termRows, Cols: termCols})
	if err != nil {
		t.Fatal(err)
	}
	tm.pty = f
	go func() {
		buf := make([]byte, 32<<10)
		for {
			n, err := f.Read(buf)
			tm.mu.Lock()
			tm.out = append(tm.out, buf[:n]...)
			tm.mu.Unlock()
			select {
			case tm.notify <- struct{}{}:
			default:
			}
			if err != nil {
				return
			}
		}
	}()
	go func() { tm.done <- tm.cmd.Wait() }()
	t.Cleanup(func() {
		tm.cmd.Process.Kill()
		f.Close()
	})
	return tm
}

// send types s into the terminal.
func (tm *term) send(s string) {
	if _, err := tm.pty.WriteString(s); err != nil {
		tm.t.Fatalf("writing keys: %v", err)
	}
}

// wait waits until what the program wrote since the last wait holds want.
func (tm *term) wait(want string) {
	tm.t.Helper()
	tm.waitAny(want)
}

// waitAny waits until what the program wrote since the last wait holds
// one of wants.
func (tm *term) waitAny(wants ...string) {
	tm.t.Helper()
	deadline := time.NewTimer(waitTimeout)
	defer deadline.Stop()
	for {
		tm.mu.Lock()
		i, n := -1, 0
		for _, w := range wants {
			if j := bytes.Index(tm.out[tm.mark:], []byte(w)); j >= 0 && (i < 0 || j < i) {
				i, n = j, len(w)
			}
		}
		if i >= 0 {
			tm.mark += i + n
		}
		tm.mu.Unlock()
		if i >= 0 {
			return
		}
		select {
		case <-tm.notify:
		case <-deadline.C:
			tm.t.Fatalf("timed out waiting for one of %q; the screen shows:\n%s", wants, tm.screen())
		}
	}
}

// waitTimeout bounds a wait: long, for loaded machines; a wait ends as
// soon as what it waits for is written.
const waitTimeout = 60 * time.Second

// exit waits for the program to exit and returns its exit code.
func (tm *term) exit() int {
	tm.t.Helper()
	select {
	case err := <-tm.done:
		if err == nil {
			return 0
		}
		if ee, ok := err.(*exec.ExitError); ok {
			return ee.ExitCode()
		}
		tm.t.Fatal(err)
	case <-time.After(waitTimeout):
		tm.t.Fatalf("the viewer did not exit; the screen ends with %q", tm.tail())
	}
	return -1
}

// recorded returns everything the program wrote, once the reader has
// drained the terminal after the program exited.
func (tm *term) recorded() []byte {
	for {
		tm.mu.Lock()
		n := len(tm.out)
		tm.mu.Unlock()
		select {
		case <-tm.notify:
			continue
		case <-time.After(200 * time.Millisecond):
		}
		tm.mu.Lock()
		defer tm.mu.Unlock()
		if len(tm.out) == n {
			return append([]byte(nil), tm.out...)
		}
		tm.mu.Unlock()
		tm.mu.Lock()
	}
}

// screen returns what a terminal shows after everything the program
// wrote so far, for failure messages.
func (tm *term) screen() string {
	tm.mu.Lock()
	out := append([]byte(nil), tm.out...)
	tm.mu.Unlock()
	emu := vt.NewEmulator(termCols, termRows)
	go io.Copy(io.Discard, emu)
	emu.Write(out)
	defer emu.Close()
	return emu.String()
}

func (tm *term) tail() string {
	tm.mu.Lock()
	defer tm.mu.Unlock()
	return string(tm.out[max(0, len(tm.out)-400):])
}

// buildBytelens builds the command into a temporary directory.
func buildBytelens(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "bytelens")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// streamProblems checks bytes a program wrote to a terminal: it may write
// only what bubbletea's renderer writes itself — the alternate screen
// (?1049), cursor visibility (?25), bracketed paste (?2004), mouse modes
// (?1000, ?1002, ?1003, ?1006), cursor position and movement, erasing in
// line and display, SGR — and CR, LF and graphic characters. Any OSC,
// DCS, APC, PM, SOS, C1, BEL, DEL, other C0, format character or invalid
// UTF-8 is refused.
func streamProblems(b []byte) []string {
	var probs []string
	bad := func(format string, a ...any) {
		if len(probs) < 20 {
			probs = append(probs, fmt.Sprintf(format, a...))
		}
	}
	for t := range decode.Tokens(b) {
		seq := b[t.Off:t.End()]
		switch t.Kind {
		case decode.KindText:
			for _, r := range string(seq) {
				if r >= 0x20 && r < 0x7F || r == '\n' {
					continue
				}
				if unicode.IsControl(r) || unicode.In(r, unicode.Cf, unicode.Co, unicode.Cs, unicode.Zl, unicode.Zp) {
					bad("rune %U at %d", r, t.Off)
				}
			}
		case decode.KindC0:
			if t.Final != '\r' {
				bad("C0 %q at %d", seq, t.Off)
			}
		case decode.KindCSI:
			if !allowedCSI(&t) {
				bad("CSI %q at %d", seq, t.Off)
			}
		default:
			bad("%s %q at %d", t.Kind, seq, t.Off)
		}
	}
	return probs
}

// visibleText returns the text a program wrote, without its control
// sequences: what a reader of the screen could see, line by line.
func visibleText(b []byte) []byte {
	var out []byte
	for t := range decode.Tokens(b) {
		if t.Kind == decode.KindText {
			out = append(out, b[t.Off:t.End()]...)
		}
	}
	return out
}

// allowedCSI reports whether t is one of the control sequences bubbletea's
// renderer writes (research note §2.7).
func allowedCSI(t *decode.Token) bool {
	if t.Intro != decode.Intro7Bit || t.Flags != 0 || t.NInter != 0 {
		return false
	}
	switch t.Private {
	case '?':
		if t.Final != 'h' && t.Final != 'l' {
			return false
		}
		for _, p := range t.Params() {
			switch p {
			case 25, 1049, 2004, 1000, 1002, 1003, 1006:
			default:
				return false
			}
		}
		return true
	case 0:
		switch t.Final {
		case 'm', 'H', 'f', 'A', 'B', 'C', 'D', 'E', 'F', 'G':
			return true
		case 'J', 'K':
			for _, p := range t.Params() {
				if p > 2 {
					return false
				}
			}
			return true
		}
	}
	return false
}

// vtEvents feeds recorded bytes to a terminal emulator and returns the
// side effects they had: title and icon changes, bells, clipboard writes,
// hyperlinks, working directory reports.
func vtEvents(b []byte) []string {
	emu := vt.NewEmulator(termCols, termRows)
	go io.Copy(io.Discard, emu) // drain replies, or Write blocks on a query
	var ev []string
	var mu sync.Mutex
	add := func(s string) { mu.Lock(); ev = append(ev, s); mu.Unlock() }
	emu.SetCallbacks(vt.Callbacks{
		Bell:             func() { add("bell") },
		Title:            func(s string) { add("title " + s) },
		IconName:         func(s string) { add("icon " + s) },
		WorkingDirectory: func(s string) { add("cwd " + s) },
	})
	for _, cmd := range []int{52, 8, 0, 1, 2, 7} {
		emu.RegisterOscHandler(cmd, func(data []byte) bool { add(fmt.Sprintf("osc %q", data)); return true })
	}
	emu.Write(b)
	emu.Close()
	mu.Lock()
	defer mu.Unlock()
	return ev
}

// TestViewEndToEnd runs the built binary in a pseudo-terminal on hostile
// captures, drives it through the whole file and its features with keys
// and the mouse, and checks every byte it wrote: only what bubbletea's
// renderer writes, no OSC (bubbletea's start-up background query
// included: see viewer/internal/noquery), no capture payload with
// --hide-payloads, and no side effect in a terminal emulator.
func TestViewEndToEnd(t *testing.T) {
	if testing.Short() || runtime.GOOS == "windows" {
		t.Skip("builds the binary and runs it in a pseudo-terminal")
	}
	bin := buildBytelens(t)
	dir := t.TempDir()
	hostile := filepath.Join(dir, "hostile.bin")
	var h bytes.Buffer
	for i := range 200 {
		fmt.Fprintf(&h, "line %d \x1b[3%dm\x1b]0;TITLECANARY\x07\x1b]52;c;Q0xJUENBTkFSWQ==\x07\x1b^PMCANARYWORDS\x1b\\"+
			"\x1bP$qm\x1b\\\x9b2J\x9d8;;http://evil.example/\x9clink\xc2\x9b\x07\x7f\x00\xff\u202egpj.exe\r\n", i, i%8)
	}
	os.WriteFile(hostile, h.Bytes(), 0o644)
	// Payloads of backticks, a character found nowhere else in this file
	// or in the viewer's chrome: with --hide-payloads none may be seen.
	ticks := filepath.Join(dir, "ticks.bin")
	var tk bytes.Buffer
	for i := range 300 {
		fmt.Fprintf(&tk, "row %d \x1b^%s\x1b\\ and \x1b]52;c;%s\x07 end\r\n", i, strings.Repeat("`", i%40+1), strings.Repeat("`", 12))
	}
	os.WriteFile(ticks, tk.Bytes(), 0o644)
	corpus := filepath.Join(dir, "corpus.bin")
	files, _ := filepath.Glob("../../testdata/corpus/*.bin")
	var all []byte
	for _, f := range files {
		b, _ := os.ReadFile(f)
		all = append(all, b...)
	}
	os.WriteFile(corpus, all, 0o644)

	// Canaries: payload words that --hide-payloads must keep off the
	// screen (from the PMs and OSC 52s of the demo and the hostile file).
	canaries := []string{"PMCANARY", "SOSCANARY", "Y3VybCBldmlsLmV4YW1wbGUgfCBzaA", "cGFzc3Rocm91Z2g", "Q0xJUENBTkFSWQ", "CANARYWORDS", "TITLECANARY"}
	for _, tc := range []struct {
		name   string
		args   []string
		size   int64
		hidden bool
		env    string
	}{
		{"demo", []string{"view"}, 1783, false, ""},
		{"demo-hidden", []string{"view", "--hide-payloads"}, 1783, true, ""},
		{"demo-no-color", []string{"view", "--hide-payloads", "--ascii"}, 1783, true, "NO_COLOR=1"},
		{"hostile-hidden", []string{"view", "--hide-payloads", hostile}, int64(h.Len()), true, ""},
		{"corpus", []string{"view", corpus}, int64(len(all)), false, ""},
		{"ticks", []string{"view", ticks}, int64(tk.Len()), false, ""},
		{"ticks-hidden", []string{"view", "--hide-payloads", ticks}, int64(tk.Len()), true, ""},
		{"compare-policy", []string{"view", "--hide-payloads", hostile, "--compare-policy", "cr=overwrite,format-chars=keep,c1=lone"}, int64(h.Len()), true, ""},
		{"compare-policy-no-color", []string{"view", corpus, "--compare-policy", "bs=overstrike,links=append"}, int64(len(all)), false, "NO_COLOR=1"},
		{"compare-captures", []string{"view", "--hide-payloads", hostile, "--compare", ticks}, int64(h.Len()), true, ""},
		{"compare-captures-corpus", []string{"view", corpus, "--compare", hostile}, int64(len(all)), false, ""},
		// Payloads shown: the detail pane draws both sides' escaped.
		{"ticks-compare", []string{"view", ticks, "--compare", hostile}, int64(tk.Len()), false, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			env := []string{"TERM=xterm-256color", "LANG=C.UTF-8", "HOME=" + dir, "PATH=" + os.Getenv("PATH")}
			if tc.env != "" {
				env = append(env, tc.env)
			}
			tm := startTerm(t, bin, env, tc.args...)
			tm.wait("report")
			// The whole file, a page at a time, then the end.
			for range tc.size/(8*20) + 4 {
				tm.send("\x1b[6~")
			}
			tm.send("\x1b[F")
			tm.wait(fmt.Sprintf("(%d)", tc.size-1))
			// Back to the start a row at a time for a while, sequences,
			// focus, help, goto, searches, marks, report classes. Each
			// step waits for what it shows before the next is typed, so
			// the keys and the background searches cannot interleave in
			// an order that depends on the machine's load; sync ends a
			// step whose result is not shown by itself: a goto (which
			// also stops a search still running) and a mark, whose
			// message names the offset.
			marks := "bcdefghijkl"
			sync := func(off int) {
				t.Helper()
				mk := marks[0]
				marks = marks[1:]
				tm.send(fmt.Sprintf("g%d\rm%c", off, mk))
				tm.wait(fmt.Sprintf("mark %c set at 0x%08x (%d)", mk, off, off))
			}
			tm.send("\x1b[H" + strings.Repeat("j", 60) + strings.Repeat("n", 30) + "NN" + "dddDD")
			sync(1)
			tm.send("\t\t\tjjjjjjj]]][[dD\t?" + "?")
			sync(2)
			tm.send("g50%\rg0x10\r")
			sync(16)
			tm.send("/link\r")
			tm.waitAny("text link at", "no text link found")
			sync(17)
			tm.send("/\r") // an empty prompt searches again
			tm.waitAny("text link at", "no text link found")
			tm.send("x1b 5b\r")
			tm.waitAny("bytes at", "no bytes found")
			tm.send("ma\x1b[Fn")
			tm.wait("no next sequence found")
			tm.send("'a")
			tm.send("\x1b[<0;20;6M\x1b[<0;20;6m\x1b[<0;60;10M\x1b[<0;60;10m\x1b[<65;20;6M\x1b[<64;20;6M")
			sync(7)
			tm.send("q")
			if code := tm.exit(); code != 0 {
				t.Fatalf("exit code %d; the screen ends with %q", code, tm.tail())
			}
			out := tm.recorded()
			if probs := streamProblems(out); len(probs) > 0 {
				t.Errorf("the viewer wrote what bubbletea does not:\n%s", strings.Join(probs, "\n"))
			}
			text := visibleText(out)
			ticked := bytes.ContainsRune(text, '`')
			if tc.hidden {
				for _, c := range canaries {
					if bytes.Contains(text, []byte(c)) {
						t.Errorf("payload canary %q reached the terminal", c)
					}
				}
				if ticked {
					t.Error("a payload backtick reached the terminal")
				}
			} else if strings.HasPrefix(tc.name, "ticks") && !ticked {
				// Shown escaped, as payload, when not hidden: this proves
				// the check above can see a payload.
				t.Error("no payload backtick in the glyph pane")
			}
			if ev := vtEvents(out); len(ev) > 0 {
				t.Errorf("terminal side effects: %q", ev)
			}
			for _, want := range []string{"\x1b[?1049h", "\x1b[?1002h", "\x1b[?1006h", "\x1b[?1049l", "\x1b[?25h"} {
				if !bytes.Contains(out, []byte(want)) {
					t.Errorf("no %q: alternate screen, mouse or restore missing", want)
				}
			}
			if tc.env != "" && bytes.Contains(out, []byte("\x1b[38;")) {
				t.Error("NO_COLOR: colour SGR written")
			}
		})
	}
}

// TestStreamChecker checks that the byte-stream checker refuses what a
// capture could carry and accepts what bubbletea writes.
func TestStreamChecker(t *testing.T) {
	ok := "\x1b[?1049h\x1b[2J\x1b[H\x1b[?25l\x1b[?2004h\x1b[?1002h\x1b[?1006h\rtext ␛ \x1b[38;5;141mx\x1b[0m\x1b[K\r\n\x1b[3A\x1b[30;H\x1b[2K\x1b[?1049l"
	if probs := streamProblems([]byte(ok)); len(probs) > 0 {
		t.Errorf("refused bubbletea's own output: %q", probs)
	}
	for _, bad := range []string{
		"\x1b]52;c;QQ==\x07", "\x1b]0;t\x1b\\", "\x1b]11;?\x1b\\", "\x07", "\x7f", "\x00", "\t", "\x9b2J", "\xc2\x9b2J",
		"\x1bP$qm\x1b\\", "\x1b^pm\x1b\\", "\x1b_apc\x1b\\", "\x1bXsos\x1b\\", "\x1bkt\x1b\\", "\x1b7", "\x1b[6n",
		"\x1b[1;5r", "\x1b[3L", "\x1b[?1004h", "\x1b[5J", "\xff", "\u202e", "\u200b",
	} {
		if probs := streamProblems([]byte("ok" + bad + "ok")); len(probs) == 0 {
			t.Errorf("accepted %q", bad)
		}
	}
}

// TestViewFileChanges checks that a file that shrinks or grows while it
// is shown ends the viewer with a clear message and status 1, and that
// the terminal is restored first.
func TestViewFileChanges(t *testing.T) {
	if testing.Short() || runtime.GOOS == "windows" {
		t.Skip("builds the binary and runs it in a pseudo-terminal")
	}
	bin := buildBytelens(t)
	for _, tc := range []struct {
		name   string
		change func(path string) error
	}{
		{"shrinks", func(p string) error { return os.Truncate(p, 100) }},
		{"grows", func(p string) error {
			f, err := os.OpenFile(p, os.O_APPEND|os.O_WRONLY, 0)
			if err != nil {
				return err
			}
			defer f.Close()
			_, err = f.WriteString("more bytes\n")
			return err
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, "log.bin")
			os.WriteFile(path, bytes.Repeat([]byte("some text \x1b[1mbold\x1b[0m\r\n"), 20000), 0o644)
			env := []string{"TERM=xterm-256color", "HOME=" + dir, "PATH=" + os.Getenv("PATH")}
			tm := startTerm(t, bin, env, "view", path)
			tm.wait("report")
			if err := tc.change(path); err != nil {
				t.Fatal(err)
			}
			tm.send("\x1b[F")
			if code := tm.exit(); code != 1 {
				t.Fatalf("exit code %d, want 1; the screen ends with %q", code, tm.tail())
			}
			out := tm.recorded()
			restore := bytes.LastIndex(out, []byte("\x1b[?1049l"))
			msg := bytes.Index(out, []byte("bytelens: error: capture changed while open"))
			if restore < 0 || msg < restore {
				t.Errorf("want the terminal restored, then the error; the screen ends with %q", tm.tail())
			}
			if probs := streamProblems(out); len(probs) > 0 {
				t.Errorf("the viewer wrote what bubbletea does not:\n%s", strings.Join(probs, "\n"))
			}
		})
	}
}
