package screen

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// tmuxServer is a private tmux server (tmux -L) for one test, killed when
// the test ends.
type tmuxServer struct {
	t    *testing.T
	sock string
	conf string
	dir  string
	n    int
}

var tmuxServers int

func newTmux(t *testing.T) *tmuxServer {
	t.Helper()
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Skip("tmux not installed")
	}
	tmuxServers++
	dir := t.TempDir()
	s := &tmuxServer{t: t, sock: fmt.Sprintf("screen-test-%d-%d", os.Getpid(), tmuxServers), dir: dir, conf: filepath.Join(dir, "tmux.conf")}
	if err := os.WriteFile(s.conf, []byte("set -g status off\nset -g history-limit 0\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = s.cmd(context.Background(), "kill-server").Run() })
	// A session that outlives the cases keeps the server up between them.
	if out, err := s.cmd(context.Background(), "new-session", "-d", "-s", "base", "sleep 600").CombinedOutput(); err != nil {
		t.Fatalf("tmux: %v: %s", err, out)
	}
	return s
}

func (s *tmuxServer) cmd(ctx context.Context, args ...string) *exec.Cmd {
	c := exec.CommandContext(ctx, "tmux", append([]string{"-L", s.sock, "-f", s.conf}, args...)...)
	// The socket lives in the test's temporary directory, so nothing is
	// left in /tmp/tmux-UID after the test.
	c.Env = append(os.Environ(), "TMUX=", "TMUX_TMPDIR="+s.dir)
	return c
}

// shown is what tmux displayed: the pane's rows and cursor.
type shown struct {
	rows []string
	x, y int
}

// showAll has tmux display each input in its own cols×rows window, all at
// once, and returns what each window shows. With onlcr the pane's tty
// turns LF into CR LF, as for a pipe capture replayed raw.
func (s *tmuxServer) showAll(inputs [][]byte, cols, rows int, onlcr bool) []shown {
	s.t.Helper()
	s.n++
	sess := fmt.Sprintf("s%d", s.n)
	opost := "-opost"
	if onlcr {
		opost = "opost onlcr"
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	create := []string{"new-session", "-d", "-s", sess, "-x", fmt.Sprint(cols), "-y", fmt.Sprint(rows), "sleep 600"}
	var wait, capture []string
	for i, in := range inputs {
		file := filepath.Join(s.dir, fmt.Sprintf("%s-%d", sess, i))
		if err := os.WriteFile(file, in, 0o600); err != nil {
			s.t.Fatal(err)
		}
		ch, win := fmt.Sprintf("%s-done-%d", sess, i), fmt.Sprintf("%s:w%d", sess, i)
		script := fmt.Sprintf("stty raw -echo %s; cat %s; tmux wait-for -S %s; sleep 600", opost, file, ch)
		create = append(create, ";", "new-window", "-d", "-t", sess+":", "-n", fmt.Sprintf("w%d", i), "sh", "-c", script)
		wait = append(wait, ";", "wait-for", ch)
		capture = append(capture, ";", "capture-pane", "-p", "-t", win, ";", "display-message", "-p", "-t", win, "@@ #{cursor_x} #{cursor_y}")
	}
	for _, args := range [][]string{create, wait[1:]} {
		if out, err := s.cmd(ctx, args...).CombinedOutput(); err != nil {
			s.t.Fatalf("tmux %s: %v: %s", args[0], err, out)
		}
	}
	defer s.cmd(ctx, "kill-session", "-t", sess).Run()
	out, err := s.cmd(ctx, capture[1:]...).Output()
	if err != nil {
		s.t.Fatalf("tmux capture-pane: %v", err)
	}
	var res []shown
	var cur []string
	for _, line := range strings.Split(string(out), "\n") {
		if rest, ok := strings.CutPrefix(line, "@@ "); ok {
			var r shown
			fmt.Sscanf(rest, "%d %d", &r.x, &r.y)
			r.x = min(r.x, cols-1) // tmux puts a pending wrap one past the margin
			r.rows = padRows(cur, rows)
			res = append(res, r)
			cur = nil
			continue
		}
		cur = append(cur, strings.TrimRight(line, " "))
	}
	if len(res) != len(inputs) {
		s.t.Fatalf("tmux showed %d windows, want %d", len(res), len(inputs))
	}
	return res
}

// TestTmuxControlFunctions runs every control-function case through a
// real terminal, tmux, and compares the final screen and cursor.
func TestTmuxControlFunctions(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a tmux server")
	}
	var cases []fnCase
	var inputs [][]byte
	for _, c := range fnCases {
		if !c.notTmux {
			cases = append(cases, c)
			inputs = append(inputs, []byte(c.in))
		}
	}
	res := newTmux(t).showAll(inputs, 10, 4, false)
	for i, c := range cases {
		want, wx, wy := res[i].rows, res[i].x, res[i].y
		m := feed(t, Options{Cols: 10, Rows: 4}, c.in)
		got := lines(m)
		if strings.Join(got, "|") != strings.Join(want, "|") {
			t.Errorf("%s: %q:\nmodel %q\n tmux %q", c.name, c.in, got, want)
		}
		if x, y := m.Cursor(); x != wx || y != wy {
			t.Errorf("%s: %q: model cursor (%d,%d), tmux (%d,%d)", c.name, c.in, x, y, wx, wy)
		}
	}
}

// TestTmuxLineText: the text of the screen as lines (TakeScrolled and
// AppendScreenText, what sanitize's cr=screen and its alias cr=overwrite
// write) is what a real terminal, tmux, shows, line by line, for the
// hostile corpus's overwrite cases and the erase, repaint and progress
// cases the one-line overwrite emulation got wrong. LF is taken as CR LF
// on both sides.
func TestTmuxLineText(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a tmux server")
	}
	inputs := [][]byte{
		[]byte("abcdef\r\x1b[Kxy\n"),
		[]byte("secret-1\n\x1b[1A\x1b[2Kshown\nnext\n"),
		[]byte("erase:XXXX\r\x1b[2Kover\nto-stderr\n"),
		[]byte("a\tb\n\x1b[3Cx\x1b[2DY\n"),
		[]byte("working 10%\rworking 20%\rfailure\n"),
	}
	for _, name := range []string{"cr-hide-command-overwrite", "cr-progress-overwrite", "erase-then-overwrite", "bs-hide-command"} {
		b, err := os.ReadFile(filepath.Join("..", "testdata", "corpus", name+".bin"))
		if err != nil {
			t.Fatal(err)
		}
		inputs = append(inputs, b)
	}
	const cols, rows = 60, 8
	res := newTmux(t).showAll(inputs, cols, rows, true)
	for i, in := range inputs {
		m := feed(t, Options{Cols: cols, Rows: rows, NewlineCRLF: true, Scrollback: true}, string(in))
		got, _ := m.AppendScreenText(m.TakeScrolled(nil, nil))
		want := strings.TrimRight(strings.Join(res[i].rows, "\n"), "\n") + "\n"
		if string(got) != want {
			t.Errorf("%q:\nlines %q\n tmux %q", in, got, want)
		}
	}
}
