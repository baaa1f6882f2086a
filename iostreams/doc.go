// Package iostreams is how bytelens writes to its standard streams, by
// what kind of file each one is: data on stdout flushed at line ends on a
// pipe or terminal and in blocks into a regular file ([DataWriter]); a
// progress bar on stderr only when it is a terminal ([Progress]); and
// whether the reader of a pipe has gone ([OutputGone]). It holds no
// command logic: the commands decide what to write, this package how.
package iostreams
