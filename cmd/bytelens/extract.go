package main

import (
	"errors"
	"io"
	"os"

	"github.com/bytelens/bytelens/extract"
	"github.com/bytelens/bytelens/internal/command"
	"github.com/bytelens/bytelens/safejson"
	"github.com/bytelens/bytelens/sanitize"
	"github.com/spf13/cobra"
)

type extractFlags struct {
	rng, as, stream, output string
	raw, asJSON             bool
	policy                  *sanitize.Options
}

func newExtractCmd(s *streams) *cobra.Command {
	f := &extractFlags{}
	cmd := withHelp("extract", &cobra.Command{
		Use:  "extract REF [--stream NAME] [--range START:END] [--as hex|text | --raw -o FILE]",
		Args: cobra.ExactArgs(1),
		RunE: func(_ *cobra.Command, args []string) error { return runExtract(s, f, args[0]) },
	})
	fs := cmd.Flags()
	fs.StringVar(&f.rng, "range", "", "byte range `START:END` of the stream (END excluded; either may be omitted)")
	fs.StringVar(&f.as, "as", "hex", "show the range as `hex` or text")
	fs.StringVar(&f.stream, "stream", "stdout", "the stream `NAME`: stdout or stderr (or artifact with --raw)")
	fs.BoolVar(&f.raw, "raw", false, "export raw bytes to the file given by -o")
	fs.StringVarP(&f.output, "output", "o", "", "with --raw, write to `FILE` (a file or pipe: no terminal, no device but /dev/null, /dev/zero, /dev/full)")
	fs.BoolVar(&f.asJSON, "json", false, "print the range as a JSON object (schema bytelens.extract/v1): hex digits, or the cleaned text with --as text")
	f.policy = addPolicyFlags(fs)
	return cmd
}

func runExtract(s *streams, f *extractFlags, refArg string) error {
	switch {
	case f.raw != (f.output != ""):
		return usagef("--raw and -o FILE go together")
	case f.output == "-":
		return usagef("-o - is refused: raw bytes go to a file, never to standard output (to feed a pipe, use -o /dev/stdout)")
	case !f.raw && f.as != "hex" && f.as != "text":
		return usagef("--as must be hex or text")
	case f.raw && f.asJSON:
		return usagef("--json shows hex or cleaned text; raw bytes go only to a file with --raw -o FILE")
	case f.stream == extract.StreamArtifact && (!f.raw || f.rng != ""):
		return usagef("--stream artifact exports the whole artifact: use it with --raw -o FILE and no --range")
	}
	st, ref, err := keys.OpenRef(refArg)
	if err != nil {
		return err
	}
	if f.raw {
		return extractError(extract.Export(st, ref, f.stream, f.rng, f.output))
	}
	x, err := extract.Range(st, ref, f.stream, f.rng, f.as, *f.policy)
	switch {
	case err != nil:
		return extractError(err)
	case f.asJSON:
		return writeJSON(s.stdout, x)
	}
	return x.WriteText(s.stdout)
}

// extractError names the --range flag in a range error.
func extractError(err error) error {
	var re *extract.RangeError
	if errors.As(err, &re) {
		return usagef("--range: %v", re)
	}
	return err
}

// writeJSON writes v as one indented JSON document (safejson).
var writeJSON = safejson.WriteIndented

func newVerifyCmd(s *streams) *cobra.Command {
	var asJSON bool
	cmd := withHelp("verify", &cobra.Command{
		Use:  "verify REF FILE",
		Args: cobra.ExactArgs(2),
		RunE: func(_ *cobra.Command, args []string) error { return runVerify(s, args[0], args[1], asJSON) },
	})
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the result as JSON (schema bytelens.verify/v1)")
	return cmd
}

func runVerify(s *streams, refArg, path string, asJSON bool) error {
	st, ref, err := keys.OpenRef(refArg)
	if err != nil {
		return err
	}
	v, err := extract.Verify(st, ref, func() (io.ReadCloser, error) {
		if path == "-" {
			return io.NopCloser(s.stdin), nil
		}
		fh, err := os.Open(path)
		if err != nil {
			return nil, fileError(path, err)
		}
		return fh, nil
	})
	switch {
	case err != nil:
		return err
	case asJSON:
		err = writeJSON(s.stdout, v)
	default:
		err = v.WriteText(s.out)
	}
	if err == nil && !v.Match {
		return command.ExitError{Code: command.ExitFailure}
	}
	return err
}
