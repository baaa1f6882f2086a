//go:build !linux

package capture

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"time"
)

// directProc runs the command as the collector's own child, in a new
// session where the system has them; teardown kills its process group.
type directProc struct {
	cmd    *exec.Cmd
	grace  time.Duration
	exited chan struct{}
	stop   chan struct{}
	st     procStatus
	err    error
}

func newProc(c *exec.Cmd, path string, stdout, stderr *os.File, o *RunOptions) (proc, error) {
	if o.Isolate {
		return nil, fmt.Errorf("%w: namespaces are Linux only", ErrIsolation)
	}
	d := &exec.Cmd{Path: path, Args: c.Args, Env: c.Env, Dir: c.Dir, Stdin: c.Stdin, Stdout: stdout, Stderr: stderr, WaitDelay: o.WaitDelay}
	newSession(d)
	return &directProc{cmd: d, grace: o.KillGrace, exited: make(chan struct{}), stop: make(chan struct{})}, nil
}

func (p *directProc) start() error {
	if err := p.cmd.Start(); err != nil {
		return err
	}
	go func() {
		defer close(p.exited)
		p.err = p.cmd.Wait()
		if p.cmd.ProcessState != nil {
			p.st = statusOf(p.cmd.ProcessState)
		}
	}()
	return nil
}

func (p *directProc) done() <-chan struct{} { return p.exited }

func (p *directProc) teardown() {
	select {
	case <-p.exited:
	default:
		go killGroup(p.cmd.Process.Pid, p.grace, p.exited)
	}
}

func (p *directProc) wait() (procStatus, error) {
	<-p.exited
	var ee *exec.ExitError
	if p.err != nil && !errors.As(p.err, &ee) && !errors.Is(p.err, exec.ErrWaitDelay) {
		return procStatus{}, p.err
	}
	return p.st, nil
}
