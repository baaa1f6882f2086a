//go:build !unix

package main

import "io"

// outputGone returns nil: there is no poll(2) to ask whether the reading
// end of a pipe is gone.
func outputGone(io.Writer) <-chan struct{} { return nil }
