//go:build unix

package store

import (
	"io/fs"
	"os"
	"syscall"
)

// openNoFollow flags: a blob is never reached through a symbolic link,
// and opening a FIFO planted under a blob's name does not block.
const openNoFollow = syscall.O_NOFOLLOW | syscall.O_NONBLOCK

// lock takes an exclusive flock(2) on f, waiting for it; tryLock does not
// wait and reports whether it got the lock. The lock lasts until f is
// closed.
func lock(f *os.File) error { return syscall.Flock(int(f.Fd()), syscall.LOCK_EX) }

func tryLock(f *os.File) bool {
	return syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB) == nil
}

// unlinked reports whether f's file has no name left (a prune removed it).
func unlinked(fi fs.FileInfo) bool {
	st, ok := fi.Sys().(*syscall.Stat_t)
	return ok && st.Nlink == 0
}

// ownedByOther returns the owner of fi and whether it is not the current
// user.
func ownedByOther(fi fs.FileInfo) (uint32, bool) {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return 0, false
	}
	return st.Uid, int(st.Uid) != os.Geteuid()
}
