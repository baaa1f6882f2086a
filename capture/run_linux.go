//go:build linux

package capture

import (
	"bufio"
	"cmp"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// On Linux the command does not run as the collector's child but as the
// child of a reaper: the collector's own executable (/proc/self/exe)
// started again in reaper mode, in a new session (setsid, so it has no
// controlling terminal and /dev/tty fails with ENXIO for everything below
// it). The reaper is a child subreaper (PR_SET_CHILD_SUBREAPER): every
// descendant of the command that is orphaned, setsid or double-forked
// included, is re-parented to it, so that its descendants are exactly what
// the command started. When told to (the control pipe reaches end of file:
// the collector closed it, or died, even by SIGKILL) or when it gets
// SIGTERM, SIGINT or SIGHUP, it signals all of its descendants, SIGTERM
// and then after the grace period SIGKILL, until none is left. Both the
// reaper and the command carry PR_SET_PDEATHSIG (SIGTERM for the reaper,
// which sets it itself, SIGKILL for the command) as a second line.
//
// With RunOptions.Isolate the reaper is cloned into new user, PID and
// mount namespaces, so it is PID 1 of the command's PID namespace. It maps
// the collector's uid and gid to themselves in its user namespace itself,
// through its own /proc/self/uid_map: the collector is not dumpable, so
// its children's /proc files belong to root and it could not write them
// (the reaper gets CAP_SETUID, CAP_SETGID, CAP_SYS_ADMIN and CAP_SETPCAP
// in its namespace as ambient capabilities, for that, the mounts and the
// drop of the bounding set). Before it starts the command it makes every
// mount private, mounts a /proc of that namespace and a /dev that holds
// an allowlist of nodes only (isolateDev), and empties
// the capability bounding set and the inheritable and ambient sets: the
// command keeps its uid but, even as root, gets no capability at execve
// with which to unmount them. The kernel ignores SIGSTOP and SIGKILL sent
// to a PID namespace's init from inside it, and nothing outside has a pid
// there; when the reaper ends, the kernel kills whatever is left inside.
//
// Protocol. The reaper's argv is reaperArg0, the executable's path, then
// the command's argv; the environment variable reaperEnv holds the kill
// grace in nanoseconds, and reaperIsolateEnv, if set, holds the uid and
// gid to map ("UID GID") and asks for the namespaces' mounts; both are
// removed before the command starts. fd 3 is the control pipe (read end),
// fd 4 the status pipe (write end), on which the reaper writes "started
// PID" or why it did not start the command ("start ERRNO", or "isolate
// ERRNO STEP" when the isolation step STEP, words that may hold spaces,
// failed), then
// one line when the command has ended: "exit N" or "signal N".

const (
	reaperArg0       = "bytelens-reaper"
	reaperEnv        = "BYTELENS_REAPER_GRACE_NS"
	reaperIsolateEnv = "BYTELENS_REAPER_ISOLATE"
	// reaperHideEnv, with reaperIsolateEnv, lists the directories the
	// command must not reach (hiddenDirs), one a line, each after its
	// mode byte: 'r' for an empty read-only tmpfs over it, 'w' for an
	// empty writable one.
	reaperHideEnv = "BYTELENS_REAPER_HIDE"
)

func init() {
	if len(os.Args) > 2 && os.Args[0] == reaperArg0 {
		if g, ok := os.LookupEnv(reaperEnv); ok {
			grace, _ := strconv.ParseInt(g, 10, 64)
			os.Exit(reaperMain(os.Args[1], os.Args[2:], time.Duration(grace), os.Getenv(reaperIsolateEnv), os.Getenv(reaperHideEnv)))
		}
	}
}

// reaperProc is the collector's side of a command run under a reaper.
type reaperProc struct {
	cmd     *exec.Cmd     // the reaper
	isolate bool          // the reaper is in its own namespaces
	ctl     *os.File      // write end of the control pipe; closing it tears down
	status  *os.File      // read end of the status pipe
	exited  chan struct{} // closed when the command has ended
	st      procStatus    // set before exited is closed
}

// newProc prepares the reaper for the command path/argv, with the caller's
// environment, directory and stdin, the given stdout and stderr, and o's
// kill grace, wait delay and isolation.
func newProc(c *exec.Cmd, path string, stdout, stderr *os.File, o *RunOptions) (proc, error) {
	if _, err := os.Stat("/proc/self/exe"); err != nil {
		return nil, fmt.Errorf("the reaper needs /proc: %w", err)
	}
	env := c.Env
	if env == nil {
		env = os.Environ()
	}
	env = append(withoutVar(env, reaperEnv, reaperIsolateEnv, reaperHideEnv), reaperEnv+"="+strconv.FormatInt(int64(max(o.KillGrace, 0)), 10))
	// The reaper leads a new session: no controlling terminal, and no
	// signal from the user's terminal reaches it. It sets its own
	// PR_SET_PDEATHSIG: os/exec's check that the parent is still there
	// (getppid) sees 0 in a new PID namespace and would kill it.
	attr := &syscall.SysProcAttr{Setsid: true}
	if o.Isolate {
		env = append(env, fmt.Sprintf("%s=%d %d", reaperIsolateEnv, os.Geteuid(), os.Getegid()))
		hide, err := hiddenDirs(o, env)
		if err != nil {
			return nil, err
		}
		env = append(env, reaperHideEnv+"="+hide)
		attr.Cloneflags = syscall.CLONE_NEWUSER | syscall.CLONE_NEWPID | syscall.CLONE_NEWNS
		attr.AmbientCaps = []uintptr{unix.CAP_SETUID, unix.CAP_SETGID, unix.CAP_SYS_ADMIN, unix.CAP_SETPCAP}
	}
	r := &exec.Cmd{
		Path:        "/proc/self/exe", // this program, even if its file was replaced
		Args:        append([]string{reaperArg0, path}, c.Args...),
		Env:         env,
		Dir:         c.Dir,
		Stdin:       c.Stdin,
		Stdout:      stdout,
		Stderr:      stderr,
		SysProcAttr: attr,
		WaitDelay:   o.WaitDelay,
	}
	if len(c.Args) == 0 {
		r.Args = append(r.Args, path)
	}
	return &reaperProc{cmd: r, isolate: o.Isolate, exited: make(chan struct{})}, nil
}

func (p *reaperProc) start() error {
	if err := hideFds(); err != nil {
		return err
	}
	ctlR, ctlW, err := os.Pipe()
	if err != nil {
		return err
	}
	stR, stW, err := os.Pipe()
	if err != nil {
		ctlR.Close()
		ctlW.Close()
		return err
	}
	p.cmd.ExtraFiles = []*os.File{ctlR, stW}
	err = p.cmd.Start()
	ctlR.Close()
	stW.Close()
	if err != nil {
		ctlW.Close()
		stR.Close()
		if p.isolate {
			// The reaper is this program: what fails is the clone.
			return isolationError("clone", syscall.Errno(errnoOf(err)))
		}
		return err
	}
	p.ctl, p.status = ctlW, stR
	// The first line says whether the command started ("started PID" or
	// "start ERRNO"), the second how it ended; end of file without them
	// means the reaper died.
	br := bufio.NewReader(io.LimitReader(stR, 256))
	line, _ := br.ReadString('\n')
	kind, rest, _ := strings.Cut(strings.TrimSpace(line), " ")
	if kind == "start" || kind == "isolate" {
		errno, step, _ := strings.Cut(rest, " ")
		n, _ := strconv.Atoi(errno)
		p.teardown()
		p.cmd.Wait()
		stR.Close()
		if kind == "isolate" {
			return isolationError(step, syscall.Errno(n))
		}
		return &os.PathError{Op: "fork/exec", Path: p.cmd.Args[1], Err: syscall.Errno(n)}
	}
	go func() {
		defer close(p.exited)
		line, _ := br.ReadString('\n')
		p.st = parseStatus(line)
	}()
	return nil
}

func (p *reaperProc) done() <-chan struct{} { return p.exited }

// teardown closes the control pipe; the reaper then kills what is left.
func (p *reaperProc) teardown() {
	if p.ctl != nil {
		p.ctl.Close()
	}
}

func (p *reaperProc) wait() (procStatus, error) {
	err := p.cmd.Wait()
	<-p.exited
	p.status.Close()
	if !p.st.known && err != nil {
		var ee *exec.ExitError
		if !errors.As(err, &ee) {
			return procStatus{}, err
		}
		// The reaper died before it could tell (killed by someone):
		// report its end as the command's.
		return statusOf(ee.ProcessState), nil
	}
	return p.st, nil
}

// isolationError is ErrIsolation for the set-up step (clone, uid map,
// mount /proc...) that failed with errno, with what usually causes that
// errno at that step.
func isolationError(step string, errno syscall.Errno) error {
	err := fmt.Errorf("%w: %s: %w", ErrIsolation, step, errno)
	for _, h := range isolationHints {
		if h.errno == errno && (h.step == step || h.step == "") {
			return fmt.Errorf("%w (%s)", err, h.hint)
		}
	}
	return err
}

// isolationHints name the usual causes of the errors namespace set-up
// fails with (user_namespaces(7), clone(2), mount(2), proc(5)), by step;
// the first row whose step ("" for any) and errno match gives the hint.
var isolationHints = []struct {
	step  string
	errno syscall.Errno
	hint  string
}{
	{"clone", syscall.ENOSPC, "sysctl user.max_user_namespaces is 0 or reached"},
	{"clone", syscall.EUSERS, "user namespaces nest at most 32 deep"},
	{"clone", syscall.EPERM, userNSOff},
	{"clone", syscall.EACCES, userNSOff},
	{"mount /proc", syscall.EPERM, "a new procfs needs a fully visible /proc, and a container masks parts of it (Docker does unless run with --security-opt systempaths=unconfined); or " + noCapsInUserNS},
	{"make mounts private", syscall.EINVAL, "/ is not a mount point (a chroot)"},
	{"", syscall.EPERM, noCapsInUserNS},
	{"", syscall.EACCES, noCapsInUserNS},
}

const (
	// userNSOff is the hint for a clone that fails with EPERM or EACCES.
	userNSOff = "unprivileged user namespaces are off (sysctl kernel.unprivileged_userns_clone=0), or a seccomp filter forbids them (a container's: Docker's default profile does without CAP_SYS_ADMIN), or the caller is in a chroot"
	// noCapsInUserNS is the hint for a step after the clone that fails
	// with EPERM or EACCES: the namespaces were made, but the
	// capabilities in them are withheld.
	noCapsInUserNS = "no capability in the new user namespace: AppArmor withholds them (sysctl kernel.apparmor_restrict_unprivileged_userns=1, the default on Ubuntu 24.04) unless a profile allows user namespaces to this program, or a security module denies the step"
)

// parseStatus parses a status line "exit N" or "signal N".
func parseStatus(line string) procStatus {
	kind, num, _ := strings.Cut(strings.TrimSpace(line), " ")
	n, err := strconv.Atoi(num)
	switch {
	case err != nil:
		return procStatus{}
	case kind == "exit":
		return procStatus{known: true, code: n}
	case kind == "signal":
		return procStatus{known: true, code: -1, signal: sigName(syscall.Signal(n))}
	}
	return procStatus{}
}

// reaperMain runs in the reaper process: it starts argv from path with
// fds 0-2, reports its end on fd 4, and kills every descendant when fd 3
// reaches end of file or a termination signal arrives. It returns the
// reaper's exit code. With ids ("UID GID", reaperIsolateEnv) it first
// maps them, sets up the namespaces' mounts and drops the capabilities
// the command could inherit.
func reaperMain(path string, argv []string, grace time.Duration, ids, hide string) int {
	ctl, status := os.NewFile(3, "control"), os.NewFile(4, "status")
	// Neither pipe may reach the command: with the status pipe it could
	// forge its own exit status. Nor may any descriptor the collector
	// inherited without close-on-exec (a terminal its caller left open
	// at fd 5): the command would write to it past the cleaning.
	closeOnExecFrom(3)
	// ps names it (and not "exe", the name of /proc/self/exe); 15 bytes,
	// the most a name holds.
	os.WriteFile("/proc/self/comm", []byte(reaperArg0), 0)
	if ids != "" {
		// Capability sets are per thread: the drop and the fork of the
		// command happen on this one (init runs locked to it anyway).
		// The maps are written while the reaper is still dumpable.
		runtime.LockOSThread()
		if step, err := isolateCommand(ids, hide); err != nil {
			fmt.Fprintf(status, "isolate %d %s\n", errnoOf(err), step)
			return 1
		}
	}
	if err := hideFds(); err != nil {
		fmt.Fprintf(status, "start %d\n", errnoOf(err))
		return 1
	}
	for _, opt := range [][2]uintptr{{unix.PR_SET_CHILD_SUBREAPER, 1}, {unix.PR_SET_PDEATHSIG, uintptr(syscall.SIGTERM)}} {
		if err := unix.Prctl(int(opt[0]), opt[1], 0, 0, 0); err != nil {
			fmt.Fprintf(status, "start %d\n", errnoOf(err))
			return 1
		}
	}
	sigs := make(chan os.Signal, 4)
	signal.Notify(sigs, syscall.SIGCHLD, syscall.SIGTERM, syscall.SIGINT, syscall.SIGHUP)
	stop := make(chan struct{})
	go func() {
		io.Copy(io.Discard, ctl)
		close(stop)
	}()
	pid, err := syscall.ForkExec(path, argv, &syscall.ProcAttr{
		Env:   withoutVar(os.Environ(), reaperEnv, reaperIsolateEnv, reaperHideEnv),
		Files: []uintptr{0, 1, 2},
		Sys:   &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL},
	})
	if err != nil {
		fmt.Fprintf(status, "start %d\n", errnoOf(err))
		return 1
	}
	// The output pipes reach end of file when the command and its
	// descendants close them: the reaper lets go of its copies.
	if null, err := os.OpenFile(os.DevNull, os.O_RDWR, 0); err == nil {
		for fd := range 3 {
			unix.Dup2(int(null.Fd()), fd)
		}
		null.Close()
	}
	fmt.Fprintf(status, "started %d\n", pid)
	// Until teardown the reaper sleeps until a child ends (SIGCHLD);
	// from then on it also wakes every 20 ms to signal what is left.
	var killAt time.Time
	var tick <-chan time.Time
	teardown := func() {
		if killAt.IsZero() {
			killAt = time.Now()
			tick = time.NewTicker(20 * time.Millisecond).C // lives as long as the reaper
		}
	}
	reported := false
	for {
		// Reap every child that has ended; the command's end is
		// reported, the others were orphans adopted by the reaper.
		for {
			var ws syscall.WaitStatus
			got, err := syscall.Wait4(-1, &ws, syscall.WNOHANG, nil)
			if errors.Is(err, syscall.ECHILD) {
				if !reported {
					fmt.Fprintln(status, "exit -1")
				}
				return 0
			}
			if err != nil && !errors.Is(err, syscall.EINTR) || err == nil && got <= 0 {
				break
			}
			if got == pid && !reported {
				reported = true
				if ws.Signaled() {
					fmt.Fprintf(status, "signal %d\n", int(ws.Signal()))
				} else {
					fmt.Fprintf(status, "exit %d\n", ws.ExitStatus())
				}
			}
		}
		if !killAt.IsZero() {
			sig := syscall.SIGKILL
			if grace > 0 && time.Since(killAt) < grace {
				sig = syscall.SIGTERM
			}
			signalDescendants(os.Getpid(), sig, sig == syscall.SIGTERM)
		}
		select {
		case s := <-sigs:
			if s != syscall.SIGCHLD {
				teardown()
			}
		case <-stop:
			teardown()
			stop = nil
		case <-tick:
		}
	}
}

// signalDescendants sends sig to every process below root, found through
// the parent ids in /proc. With once set, a process already sent sig is
// not sent it again (SIGTERM goes once to each; SIGKILL to whatever is
// still there on every round).
func signalDescendants(root int, sig syscall.Signal, once bool) {
	for _, pid := range descendants(root) {
		if once && termSent[pid] {
			continue
		}
		syscall.Kill(pid, sig)
		if once {
			termSent[pid] = true
		}
	}
}

// termSent remembers which processes the reaper sent SIGTERM to. Only the
// reaper process uses it, from one goroutine.
var termSent = map[int]bool{}

// descendants lists the processes below root, from a scan of /proc. A
// process whose parent cannot be read is skipped; it is found on a later
// round if it is still there.
func descendants(root int) []int {
	des, err := os.ReadDir("/proc")
	if err != nil {
		return nil
	}
	children := map[int][]int{}
	for _, de := range des {
		pid, err := strconv.Atoi(de.Name())
		if err != nil {
			continue
		}
		if ppid, ok := parentOf(pid); ok {
			children[ppid] = append(children[ppid], pid)
		}
	}
	var out []int
	queue := []int{root}
	for len(queue) > 0 {
		p := queue[0]
		queue = queue[1:]
		for _, c := range children[p] {
			out = append(out, c)
			queue = append(queue, c)
		}
	}
	return out
}

// parentOf reads the parent pid of pid from /proc/PID/stat. The command
// name, field 2, is in parentheses and may hold any byte, ')' included, so
// the fields after it are found from its last ')'.
func parentOf(pid int) (int, bool) {
	b, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "stat"))
	if err != nil {
		return 0, false
	}
	s := string(b)
	i := strings.LastIndexByte(s, ')')
	if i < 0 {
		return 0, false
	}
	f := strings.Fields(s[i+1:])
	if len(f) < 2 {
		return 0, false
	}
	ppid, err := strconv.Atoi(f[1])
	return ppid, err == nil
}

// errnoOf returns the errno inside err, or EINVAL.
func errnoOf(err error) int {
	var e syscall.Errno
	if errors.As(err, &e) {
		return int(e)
	}
	return int(syscall.EINVAL)
}

// withoutVar returns env without the entries for names.
func withoutVar(env []string, names ...string) []string {
	out := make([]string, 0, len(env))
	for _, kv := range env {
		name, _, _ := strings.Cut(kv, "=")
		if !slices.Contains(names, name) {
			out = append(out, kv)
		}
	}
	return out
}

// isolationMounts are the reaper's first mounts in its mount namespace,
// in order: every mount private first (MS_REC|MS_PRIVATE: nothing
// mounted here propagates out, nor in), then a procfs, which shows the
// processes of the reaper's PID namespace only. The /dev of isolateDev
// comes after them.
var isolationMounts = []mountStep{
	{"make mounts private", "", "/", "", "", unix.MS_REC | unix.MS_PRIVATE},
	{"mount /proc", "proc", "/proc", "proc", "", unix.MS_NOSUID | unix.MS_NODEV | unix.MS_NOEXEC},
}

// mountStep is one mount(2) of the isolation set-up.
type mountStep struct {
	step                         string // named in isolationError
	source, target, fstype, data string
	flags                        uintptr
}

// devNodes are the host's device nodes the command's /dev holds, each
// bound over an empty file of the same name: the data sinks and sources
// (mem(4): null, zero, full; random(4)) and tty(4), which names the
// opener's controlling terminal: the command, in a new session, has none
// until it makes a pseudo-terminal its own (as script(1) does), so it
// reaches no other terminal through it.
var devNodes = []string{"full", "null", "random", "tty", "urandom", "zero"}

// devLinks are the symbolic links of the command's /dev (name, target):
// the descriptors through /proc/self/fd, and ptmx to the multiplexer of
// the private devpts instance (Documentation/filesystems/devpts.rst).
var devLinks = [][2]string{
	{"fd", "/proc/self/fd"},
	{"stdin", "/proc/self/fd/0"},
	{"stdout", "/proc/self/fd/1"},
	{"stderr", "/proc/self/fd/2"},
	{"ptmx", "pts/ptmx"},
}

// devMounts are mounted in the command's /dev once it holds the nodes and
// links: a new devpts instance, holding none of the user's terminals (the
// command can still open pseudo-terminals of its own through /dev/ptmx),
// a tmpfs for POSIX shared memory (shm_overview(7)), then /dev itself
// made read-only, so that not even a command run as root adds to it.
var devMounts = []mountStep{
	{"mount /dev/pts", "devpts", "/dev/pts", "devpts", "newinstance,ptmxmode=0666,mode=0620", unix.MS_NOSUID | unix.MS_NOEXEC},
	{"mount /dev/shm", "tmpfs", "/dev/shm", "tmpfs", "mode=1777", unix.MS_NOSUID | unix.MS_NODEV},
	{"make /dev read-only", "", "/dev", "", "", unix.MS_REMOUNT | unix.MS_BIND | unix.MS_RDONLY | unix.MS_NOSUID | unix.MS_NODEV | unix.MS_NOEXEC},
}

// isolateDev replaces /dev, in the reaper's mount namespace, by an
// allowlist: a tmpfs holding devNodes, bound from the host's /dev (a user
// namespace may not mknod(2)), reached through a descriptor opened before
// the tmpfs hides it, devLinks, and the mounts of devMounts. Every other
// node, the kernel log (/dev/kmsg), the consoles, serial lines, memory,
// disks, is absent. On failure it names the step that failed.
func isolateDev() (string, error) {
	host, err := unix.Open("/dev", unix.O_PATH|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		return "open /dev", err
	}
	defer unix.Close(host)
	if err := unix.Mount("tmpfs", "/dev", "tmpfs", unix.MS_NOSUID|unix.MS_NODEV|unix.MS_NOEXEC, "mode=0755,size=64k"); err != nil {
		return "mount /dev", err
	}
	for _, dir := range []string{"pts", "shm"} {
		if err := os.Mkdir("/dev/"+dir, 0o755); err != nil {
			return "make /dev/" + dir, err
		}
	}
	for _, name := range devNodes {
		target := "/dev/" + name
		if err := os.WriteFile(target, nil, 0o666); err != nil {
			return "bind " + target, err
		}
		if err := unix.Mount(fmt.Sprintf("/proc/self/fd/%d/%s", host, name), target, "", unix.MS_BIND, ""); err != nil {
			return "bind " + target, err
		}
	}
	for _, l := range devLinks {
		if err := os.Symlink(l[1], "/dev/"+l[0]); err != nil {
			return "link /dev/" + l[0], err
		}
	}
	return mountAll(devMounts)
}

// mountAll makes the mounts of steps in order; on failure it names the
// step that failed.
func mountAll(steps []mountStep) (string, error) {
	for _, m := range steps {
		if err := unix.Mount(m.source, m.target, m.fstype, m.flags, m.data); err != nil {
			return m.step, err
		}
	}
	return "", nil
}

// hiddenDirs lists, for reaperHideEnv, the directories that an isolated
// command must not reach, with env the command's environment: the
// store's (read-only: it holds the raw artifacts and cleaned text of
// every run, and a command that rewrote them would forge what excerpt
// and view show of another run), and the socket directories of the
// user's terminal multiplexers, through which a command would type into
// the user's panes or run commands outside the namespaces (tmux
// send-keys, run-shell): tmux's ($TMUX_TMPDIR, else /tmp, /tmux-UID, and
// the directory of the socket $TMUX names) and GNU screen's ($SCREENDIR,
// /run/screen/S-USER). Those are writable, so the command can still
// start a multiplexer of its own. Directories that do not exist are
// left out.
func hiddenDirs(o *RunOptions, env []string) (string, error) {
	lookup := func(name string) string {
		for _, kv := range slices.Backward(env) {
			if v, ok := strings.CutPrefix(kv, name+"="); ok {
				return v
			}
		}
		return ""
	}
	var dirs []string
	if o.Store != nil {
		dir, err := filepath.Abs(o.Store.Dir())
		if err != nil {
			return "", err
		}
		dirs = append(dirs, "r"+dir)
	}
	tmpdir := cmp.Or(lookup("TMUX_TMPDIR"), "/tmp")
	socket, _, _ := strings.Cut(lookup("TMUX"), ",")
	for _, d := range []string{
		filepath.Join(tmpdir, "tmux-"+strconv.Itoa(os.Geteuid())),
		filepath.Dir(socket),
		lookup("SCREENDIR"),
		filepath.Join("/run/screen", "S-"+lookup("USER")),
	} {
		if !filepath.IsAbs(d) || d == "/" || slices.Contains(dirs, "w"+d) {
			continue
		}
		if fi, err := os.Stat(d); err == nil && fi.IsDir() {
			dirs = append(dirs, "w"+d)
		}
	}
	return strings.Join(dirs, "\n"), nil
}

// isolateCommand maps ids ("UID GID") to themselves in the reaper's user
// namespace (user_namespaces(7): setgroups "deny" first, as an
// unprivileged map of the gid needs), makes the isolation mounts and the
// allowlisted /dev, covers each directory of hide (hiddenDirs) with an
// empty tmpfs, then empties the calling thread's capability
// bounding set and its inheritable and ambient sets, so that the command
// gets no capability at execve, even as root, and so cannot unmount them
// or trace the reaper. On failure it names the step that failed ("uid
// map", "mount /proc", "bind /dev/null", "drop capabilities"...), for
// isolationError.
func isolateCommand(ids, hide string) (string, error) {
	uid, gid, ok := strings.Cut(ids, " ")
	if !ok {
		return "parse " + reaperIsolateEnv, unix.EINVAL
	}
	for _, f := range []struct{ step, file, content string }{
		{"deny setgroups", "setgroups", "deny"},
		{"gid map", "gid_map", gid + " " + gid + " 1"},
		{"uid map", "uid_map", uid + " " + uid + " 1"},
	} {
		if err := os.WriteFile("/proc/self/"+f.file, []byte(f.content), 0); err != nil {
			return f.step, err
		}
	}
	if step, err := mountAll(isolationMounts); err != nil {
		return step, err
	}
	if step, err := isolateDev(); err != nil {
		return step, err
	}
	for d := range strings.Lines(hide) {
		d = strings.TrimSuffix(d, "\n")
		flags, data := uintptr(unix.MS_NOSUID|unix.MS_NODEV|unix.MS_NOEXEC), "mode=0700,size=1m"
		if d[0] == 'r' {
			flags, data = flags|unix.MS_RDONLY, "mode=0,size=4k"
		}
		if err := unix.Mount("tmpfs", d[1:], "tmpfs", flags, data); err != nil {
			return "hide " + d[1:], err
		}
	}
	for c := 0; ; c++ {
		// PR_CAPBSET_DROP fails with EINVAL past the last capability.
		if err := unix.Prctl(unix.PR_CAPBSET_DROP, uintptr(c), 0, 0, 0); err != nil {
			if c == 0 || !errors.Is(err, unix.EINVAL) {
				return "drop capabilities", err
			}
			break
		}
	}
	hdr := unix.CapUserHeader{Version: unix.LINUX_CAPABILITY_VERSION_3}
	var data [2]unix.CapUserData
	if err := unix.Capget(&hdr, &data[0]); err != nil {
		return "drop capabilities", err
	}
	data[0].Inheritable, data[1].Inheritable = 0, 0
	if err := unix.Capset(&hdr, &data[0]); err != nil {
		return "drop capabilities", err
	}
	if err := unix.Prctl(unix.PR_CAP_AMBIENT, unix.PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0); err != nil {
		return "drop capabilities", err
	}
	return "", nil
}

// closeOnExecFrom sets close-on-exec on every descriptor from first on:
// with close_range(2) (Linux 5.11), else one by one as /proc/self/fd
// lists them.
func closeOnExecFrom(first int) {
	if unix.CloseRange(uint(first), math.MaxUint32, unix.CLOSE_RANGE_CLOEXEC) == nil {
		return
	}
	fds, _ := os.ReadDir("/proc/self/fd")
	for _, e := range fds {
		if fd, err := strconv.Atoi(e.Name()); err == nil && fd >= first {
			unix.CloseOnExec(fd)
		}
	}
}

// hideFds makes the calling process non-dumpable (PR_SET_DUMPABLE 0), so
// that a process of the same user without CAP_SYS_PTRACE can no longer
// open its descriptors through /proc/PID/fd: the command would otherwise
// reopen the collector's stdout, the agent's stream or the MCP server's
// JSON-RPC channel, as /proc/PID/fd/1, and write raw bytes into it past
// the cleaning, or the reaper's status pipe and forge its exit status.
// execve makes the command dumpable again; it cannot make its ancestors so.
func hideFds() error {
	if err := unix.Prctl(unix.PR_SET_DUMPABLE, 0, 0, 0, 0); err != nil {
		return fmt.Errorf("capture: PR_SET_DUMPABLE: %w", err)
	}
	return nil
}
