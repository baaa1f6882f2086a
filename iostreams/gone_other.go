//go:build !unix

package iostreams

import "io"

// OutputGone returns nil: there is no poll(2) to ask whether the reading
// end of a pipe is gone.
func OutputGone(io.Writer) <-chan struct{} { return nil }
