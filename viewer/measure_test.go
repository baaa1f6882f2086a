package viewer

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/vt"
	"github.com/creack/pty"
	"github.com/muesli/termenv"

	"github.com/bytelens/bytelens/capture"
	"github.com/bytelens/bytelens/sanitize"
)

// measureMiB returns the capture size in MiB that BYTELENS_VIEWER_MEASURE
// asks for (1024 when it is not a number), or skips the test when unset.
func measureMiB(t *testing.T) int {
	env := os.Getenv("BYTELENS_VIEWER_MEASURE")
	if env == "" {
		t.Skip("set BYTELENS_VIEWER_MEASURE=1024 to measure a 1 GiB capture")
	}
	mib, err := strconv.Atoi(env)
	if err != nil || mib <= 0 {
		mib = 1024
	}
	return mib
}

// TestMeasureLarge measures the viewer on a large generated capture (not
// committed: it is written to a temporary directory): time to the first
// frame, resident memory, indexing time, and the time a jump to a random
// offset takes to render once the index is built. It runs only when
// BYTELENS_VIEWER_MEASURE is set, to the capture's size in MiB (1024 when
// it is not a number); the figures go to BENCHMARKS.md.
func TestMeasureLarge(t *testing.T) {
	mib := measureMiB(t)
	// BYTELENS_VIEWER_MEASURE_DIR keeps the capture there, for measuring
	// other tools on the same bytes.
	dir := os.Getenv("BYTELENS_VIEWER_MEASURE_DIR")
	if dir == "" {
		dir = t.TempDir()
	}
	path := filepath.Join(dir, "large.bin")
	genStart := time.Now()
	var size int64
	if shape := os.Getenv("BYTELENS_VIEWER_MEASURE_SHAPE"); shape != "" {
		size = writeShape(t, path, shape, int64(mib)<<20)
	} else {
		size = writeLarge(t, path, int64(mib)<<20)
		size += appendTail(t, path)
	}
	t.Logf("generated %d MiB in %v", mib, time.Since(genStart).Round(time.Millisecond))
	runtime.GC()
	debug.FreeOSMemory()
	t.Logf("resident before opening: %s", rss())

	start := time.Now()
	c, err := capture.Open(path, capture.OpenOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	m := newModel(c, Options{Name: "large"}, testStyles(termenv.ANSI256, true))
	initCmd := m.Init()
	m.Update(tea.WindowSizeMsg{Width: 160, Height: 45})
	_ = m.View()
	first := time.Since(start)
	t.Logf("first frame: %v (open, model, first Update and View; index not started)", first.Round(time.Microsecond))

	// Run the background pass as bubbletea does: commands on goroutines,
	// Update on this one. Jump around while it runs.
	msgs := make(chan tea.Msg, 16)
	pending := 0
	var spawn func(tea.Cmd)
	spawn = func(cmd tea.Cmd) {
		if cmd == nil {
			return
		}
		pending++
		go func() { msgs <- cmd() }()
	}
	spawn(initCmd)
	r := rand.New(rand.NewPCG(1, 2))
	var during []time.Duration
	idxStart, idxCPU := time.Now(), processCPU()
	for pending > 0 {
		msg := <-msgs
		pending--
		if b, ok := msg.(tea.BatchMsg); ok {
			for _, c := range b {
				spawn(c)
			}
			continue
		}
		_, cmd := m.Update(msg)
		if m.err != nil {
			t.Fatal(m.err)
		}
		spawn(cmd)
		if len(during) < 20 && r.IntN(4) == 0 {
			during = append(during, jumpTime(m, r.Int64N(size)))
		}
	}
	indexed, indexCPU := time.Since(idxStart), processCPU()-idxCPU
	t.Logf("indexed %d MiB in %v (%.0f MiB/s), CPU %v, %d jumps during indexing: %s", mib, indexed.Round(time.Millisecond),
		float64(mib)/indexed.Seconds(), indexCPU.Round(time.Millisecond), len(during), percentiles(during))
	var after []time.Duration
	cpu := processCPU()
	for range 200 {
		after = append(after, jumpTime(m, r.Int64N(size)))
	}
	t.Logf("jumps after indexing (200, Update+View): %s; CPU %v per jump", percentiles(after), (processCPU()-cpu)/200)
	var pages []time.Duration
	cpu = processCPU()
	for range 200 {
		s := time.Now()
		m.Update(tea.KeyMsg{Type: tea.KeyPgDown})
		_ = m.View()
		pages = append(pages, time.Since(s))
	}
	t.Logf("page down (200): %s; CPU %v per page", percentiles(pages), (processCPU()-cpu)/200)
	// A needle near the end: the text search from the start, cleaned
	// text and raw text, the index built.
	for _, q := range []string{"needle at the end", "NEEDLE at the end", "absent needle"} {
		s, cpu := time.Now(), processCPU()
		found, off := runJob(t, newTextSearch(m.sv().idx, q, false, sanitize.Options{}, 0))
		t.Logf("text search %q: found %v at %d (%.1f%% of the capture) in %v, CPU %v", q, found, off, 100*float64(off)/float64(size),
			time.Since(s).Round(time.Millisecond), (processCPU() - cpu).Round(time.Millisecond))
	}
	t.Logf("resident: %s", rss())
}

// processCPU returns the CPU time the process has used, user and system,
// on every thread (the garbage collector's included).
func processCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// jumpTime goes to off through the goto prompt and returns how long the
// Enter took to update and draw.
func jumpTime(m *model, off int64) time.Duration {
	m.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("g")})
	m.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(strconv.FormatInt(off, 10))})
	s := time.Now()
	m.Update(tea.KeyMsg{Type: tea.KeyEnter})
	_ = m.View()
	return time.Since(s)
}

// percentiles formats the median, 99th percentile and maximum of ds.
func percentiles(ds []time.Duration) string {
	if len(ds) == 0 {
		return "none"
	}
	ds = slices.Clone(ds)
	slices.Sort(ds)
	p := func(q float64) time.Duration {
		return ds[min(len(ds)-1, int(q*float64(len(ds))))].Round(10 * time.Microsecond)
	}
	return fmt.Sprintf("p50 %v, p99 %v, max %v", p(0.5), p(0.99), ds[len(ds)-1].Round(10*time.Microsecond))
}

// rss returns the process's resident set size and its peak, from
// /proc/self/status.
func rss() string {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return "unknown"
	}
	var out []string
	for _, l := range strings.Split(string(b), "\n") {
		if strings.HasPrefix(l, "VmRSS") || strings.HasPrefix(l, "VmHWM") {
			out = append(out, strings.Join(strings.Fields(l), " "))
		}
	}
	return strings.Join(out, ", ")
}

// writeLarge writes a capture of about n bytes of terminal output: coloured
// log lines, progress bars redrawn with CR, titles, hyperlinks, a few
// long OSC payloads, and runs of identical rows — or, when
// BYTELENS_VIEWER_MEASURE_DENSE is set, hostile fragments only, a control
// every few bytes. It returns the size.
func writeLarge(t *testing.T, path string, n int64) int64 {
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	w := bufio.NewWriterSize(f, 4<<20)
	dense := os.Getenv("BYTELENS_VIEWER_MEASURE_DENSE") != ""
	var size int64
	for i := 0; size < n; i++ {
		var k int
		switch {
		case dense:
			k, _ = w.Write(hostile(uint64(i%64), 1<<20))
		case i%5000 == 4999:
			k, _ = fmt.Fprintf(w, "\x1b]52;c;%s\x07", strings.Repeat("QUJD", 20000))
		case i%1000 == 999:
			k, _ = w.Write(make([]byte, 4096))
		case i%7 == 0:
			k, _ = fmt.Fprintf(w, "\x1b]0;build %d\x07\x1b[1;32m[%06d]\x1b[0m \x1b]8;;https://ci.example/job/%d\x1b\\job %d\x1b]8;;\x1b\\ ok\r\n", i, i, i, i)
		case i%3 == 0:
			k, _ = fmt.Fprintf(w, "progress %3d%% \x1b[42m%s\x1b[0m\r", i%100, strings.Repeat(" ", i%40))
		default:
			k, _ = fmt.Fprintf(w, "\x1b[36m%s\x1b[0m line %d: the quick brown fox jumps over the lazy dog, τὸ σῶμα 终端 \r\n", time.Unix(int64(i), 0).UTC().Format(time.RFC3339), i)
		}
		size += int64(k)
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	return size
}

// measureFile returns the path and size of BYTELENS_VIEWER_MEASURE_FILE,
// a capture to measure instead of a generated one (for example the same
// bytes with and without their line feeds).
func measureFile(t *testing.T) (string, int64) {
	path := os.Getenv("BYTELENS_VIEWER_MEASURE_FILE")
	st, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	return path, st.Size()
}

// writeShape writes a capture of n bytes of the shape BYTELENS_VIEWER_
// MEASURE_SHAPE names: "lf" is line feeds only, "line=L" coloured text
// in lines of L bytes (lineCapture; L = n makes one line), with the
// needle of appendTail near the end. It returns the size.
func writeShape(t *testing.T, path, shape string, n int64) int64 {
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	w := bufio.NewWriterSize(f, 4<<20)
	if shape == "lf" {
		_, err = w.Write(bytes.Repeat([]byte("\n"), int(n)))
	} else {
		l, perr := strconv.ParseInt(strings.TrimPrefix(shape, "line="), 10, 64)
		if perr != nil || l <= 0 {
			t.Fatalf("BYTELENS_VIEWER_MEASURE_SHAPE=%q: want lf or line=BYTES", shape)
		}
		err = writeLines(w, n, l)
	}
	if err == nil {
		err = w.Flush()
	}
	if err != nil {
		t.Fatal(err)
	}
	st, err := f.Stat()
	if err != nil {
		t.Fatal(err)
	}
	return st.Size()
}

// appendTail appends a line holding "needle at the end" to the capture
// at path, its colour changing inside the word "end", and 2 MiB of lines
// after it, so a search for it runs through 99.8% of a 1 GiB capture. It
// returns the bytes appended.
func appendTail(t *testing.T, path string) int64 {
	f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	tail := "\x1b[1mneedle at the e\x1b[31mnd\x1b[0m\r\n" + strings.Repeat("\x1b[36mafter\x1b[0m the needle\r\n", 2<<20/27)
	if _, err := f.WriteString(tail); err != nil {
		t.Fatal(err)
	}
	return int64(len(tail))
}

// TestMeasureLargeBinary measures the built bytelens binary on a large
// generated capture in a pseudo-terminal: the time from start to the
// first frame on the terminal, to the end of indexing, and to a frame
// after a jump, and the process's peak resident memory. Like
// TestMeasureLarge it runs only when BYTELENS_VIEWER_MEASURE is set. It
// drops the page cache first when it may (as root), for a cold start.
func TestMeasureLargeBinary(t *testing.T) {
	mib := measureMiB(t)
	dir := t.TempDir()
	bin := filepath.Join(dir, "bytelens")
	if out, err := exec.Command("go", "build", "-o", bin, "github.com/bytelens/bytelens/cmd/bytelens").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	path := filepath.Join(dir, "large.bin")
	var size int64
	switch shape := os.Getenv("BYTELENS_VIEWER_MEASURE_SHAPE"); {
	case os.Getenv("BYTELENS_VIEWER_MEASURE_FILE") != "":
		path, size = measureFile(t)
	case shape != "":
		size = writeShape(t, path, shape, int64(mib)<<20)
	default:
		size = writeLarge(t, path, int64(mib)<<20)
	}
	cold := exec.Command("sh", "-c", "sync && echo 3 > /proc/sys/vm/drop_caches").Run() == nil

	cmd := exec.Command(bin, "view", path)
	cmd.Env = []string{"TERM=xterm-256color", "HOME=" + dir, "PATH=" + os.Getenv("PATH")}
	start := time.Now()
	f, err := pty.StartWithSize(cmd, &pty.Winsize{Rows: 45, Cols: 160})
	if err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	defer f.Close()
	out := make(chan []byte, 64)
	go func() {
		for {
			buf := make([]byte, 64<<10)
			n, err := f.Read(buf)
			out <- buf[:n]
			if err != nil {
				close(out)
				return
			}
		}
	}()
	// A terminal emulator keeps the screen, to read the title bar from.
	emu := vt.NewSafeEmulator(160, 45)
	go io.Copy(io.Discard, emu)
	var seen []byte
	wait := func(want string) time.Duration {
		deadline := time.After(5 * time.Minute)
		for !strings.Contains(string(seen), want) {
			select {
			case b, ok := <-out:
				if !ok {
					t.Fatalf("the viewer exited waiting for %q", want)
				}
				seen = append(seen, b...)
				emu.Write(b)
			case <-deadline:
				t.Fatalf("timed out waiting for %q", want)
			}
		}
		seen = seen[:0]
		return time.Since(start)
	}
	first := wait("report")
	// The title bar says "indexing" until the background pass is done.
	for k := 0; ; k++ {
		f.WriteString(fmt.Sprintf("g%d\r", k%2))
		wait(fmt.Sprintf("(%d)", k%2))
		var title strings.Builder
		for x := range 160 {
			if c := emu.CellAt(x, 0); c != nil {
				title.WriteString(c.Content)
			}
		}
		if !strings.Contains(title.String(), "indexing") {
			break
		}
	}
	indexed := time.Since(start)
	var jumps []time.Duration
	r := rand.New(rand.NewPCG(3, 4))
	for range 50 {
		off := r.Int64N(size)
		s := time.Now()
		f.WriteString(fmt.Sprintf("g%d\r", off))
		wait(fmt.Sprintf("(%d)", off))
		jumps = append(jumps, time.Since(s))
	}
	status, _ := os.ReadFile(fmt.Sprintf("/proc/%d/status", cmd.Process.Pid))
	var mem []string
	for _, l := range strings.Split(string(status), "\n") {
		if strings.HasPrefix(l, "VmRSS") || strings.HasPrefix(l, "VmHWM") {
			mem = append(mem, strings.Join(strings.Fields(l), " "))
		}
	}
	f.WriteString("q")
	t.Logf("binary on %d MiB (page cache dropped: %v): first frame on the terminal %v, idle after indexing %v",
		mib, cold, first.Round(time.Millisecond), indexed.Round(time.Millisecond))
	t.Logf("jumps to random offsets (keys sent to offset drawn on the terminal, 50): %s", percentiles(jumps))
	t.Logf("process memory: %s", strings.Join(mem, ", "))
}
