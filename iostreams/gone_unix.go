//go:build unix

package iostreams

import (
	"io"
	"os"

	"golang.org/x/sys/unix"
)

// OutputGone returns a channel that is closed when w is a pipe whose
// reading end has been closed (poll(2) reports POLLERR or POLLHUP on its
// writing end), or nil when w is not a pipe. hex - squeezes identical rows
// and glyphs --describe lists only controls, so fed endlessly (yes |
// bytelens hex - | head -1) they may write nothing for ever, and no
// SIGPIPE would stop them.
func OutputGone(w io.Writer) <-chan struct{} {
	f, ok := w.(*os.File)
	if !ok {
		return nil
	}
	if st, err := f.Stat(); err != nil || st.Mode()&os.ModeNamedPipe == 0 {
		return nil
	}
	gone := make(chan struct{})
	fds := []unix.PollFd{{Fd: int32(f.Fd())}} // no events asked: errors and hang-ups only
	go func() {
		for {
			n, err := unix.Poll(fds, -1)
			switch {
			case err == unix.EINTR:
			case err != nil:
				return
			case n > 0 && fds[0].Revents&(unix.POLLERR|unix.POLLHUP|unix.POLLNVAL) != 0:
				close(gone)
				return
			}
		}
	}()
	return gone
}
