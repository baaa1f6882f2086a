//go:build !unix

package store

import (
	"io/fs"
	"os"
)

// openNoFollow is 0 where O_NOFOLLOW does not exist.
const openNoFollow = 0

// Without flock(2), a temporary file is taken as in progress while it is
// younger than PruneOptions.TempBefore only.
func lock(*os.File) error { return nil }

func tryLock(*os.File) bool { return true }

func unlinked(fs.FileInfo) bool { return false }

func ownedByOther(fs.FileInfo) (uint32, bool) { return 0, false }
