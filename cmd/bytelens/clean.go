package main

import (
	"bytes"
	"fmt"
	"io"
	"os"

	"github.com/bytelens/bytelens/capture"
	"github.com/bytelens/bytelens/iostreams"
	"github.com/bytelens/bytelens/render"
	"github.com/bytelens/bytelens/sanitize"
	"github.com/spf13/cobra"
)

func newCleanCmd(s *streams) *cobra.Command {
	var reportPath string
	cmd := &cobra.Command{
		Use:   "clean [FILE|-]",
		Short: "Write the agent-safe text of a capture to stdout",
		Long: `Clean reads a terminal capture (a file, or stdin for - or no argument) and
writes plain UTF-8 text that keeps the text, line breaks and link labels and
drops every control. Files are loaded by format (raw bytes, asciinema casts,
ttyrec, script typescripts, CI, container and journal logs, bytelens
artifacts; --format overrides sniffing); raw input streams in constant
memory whatever its size. A capture with several streams is cleaned stream
by stream (--stream picks one). --fail-on CLASSES exits 1 after writing the
text when the report counts one of the classes, naming each occurrence
with its offset on stderr (see bytelens report).`,
		Args: cobra.MaximumNArgs(1),
	}
	pf := addPolicyFlags(cmd.Flags())
	cf := addCaptureFlags(cmd.Flags())
	cmd.Flags().StringVar(&reportPath, "report", "", "also write the JSON removal report to this file (an array when there are several streams)")
	fo := addFailOnFlag(cmd.Flags())
	cmd.RunE = func(_ *cobra.Command, args []string) error {
		opts := *pf
		if _, err := fo.classes(); err != nil {
			return err
		}
		out := iostreams.NewDataWriter(s.stdout)
		reps, err := cleanInput(s, args, cf, out, opts)
		if err != nil {
			return err
		}
		if err := out.Flush(); err != nil {
			return fmt.Errorf("writing cleaned text: %w", err)
		}
		for _, r := range reps {
			render.WriteSwallowed(s.stderr, r.Stream, &r.Report)
		}
		if reportPath != "" {
			var v any = reps
			if len(reps) == 1 {
				v = reps[0].Solo()
			}
			if err := writeJSONFile(reportPath, v); err != nil {
				return err
			}
		}
		return fo.check(s.stderr, reps)
	}
	return cmd
}

// cleanInput cleans the FILE argument into w (io.Discard for report) and
// returns one report per stream cleaned. Raw stdin is streamed.
func cleanInput(s *streams, args []string, cf *captureFlags, w io.Writer, opts sanitize.Options) ([]capture.StreamReport, error) {
	in, err := openInput(s, args, cf, false)
	if err != nil {
		return nil, err
	}
	defer in.Close()
	if in.Capture != nil {
		_, reps, err := cleanCapture(s, in, cf, w, opts)
		return reps, err
	}
	sw := sanitize.NewWriter(w, opts)
	p := iostreams.NewProgress(s.tty, render.Sprintf("cleaning %s", in.Name), max(iostreams.RegularSize(in.Raw), 0))
	defer p.Finish()
	if err := iostreams.CopyChunks(sw, p.Reader(in.Raw), w); err != nil {
		return nil, fmt.Errorf("reading %s: %w", in.Name, err)
	}
	if err := sw.Close(); err != nil {
		return nil, fmt.Errorf("writing cleaned text: %w", err)
	}
	return []capture.StreamReport{{Stream: capture.StreamOutput, Report: sw.Report()}}, nil
}

// cleanCapture cleans the streams of in's capture that --stream picks
// into w, and returns them with their reports.
func cleanCapture(s *streams, in *capture.Input, cf *captureFlags, w io.Writer, opts sanitize.Options) ([]*capture.Stream, []capture.StreamReport, error) {
	c := in.Capture
	warnCapture(s.stderr, c)
	if err := in.CheckSniff(); err != nil {
		return nil, nil, err
	}
	sts, err := pickStreams(c, cf.stream)
	if err != nil {
		return nil, nil, err
	}
	var reps []capture.StreamReport
	for _, st := range sts {
		if len(sts) > 1 && w != io.Discard {
			s.stderr.Printf("bytelens: cleaning stream %s (%d bytes)\n", st.Name, st.Len)
		}
		p := iostreams.NewProgress(s.tty, render.Sprintf("cleaning %s", st.Name), st.Len)
		rep, err := capture.Clean(w, countStream(st, p), opts)
		p.Finish()
		if err != nil {
			return nil, nil, err
		}
		reps = append(reps, capture.StreamReport{Stream: st.Name, Report: rep, LoaderRemoved: st.Removed, Format: c.Format})
	}
	return sts, reps, nil
}

// countStream returns st, or when p is not nil a copy of it whose reads
// p counts.
func countStream(st *capture.Stream, p *iostreams.Progress) *capture.Stream {
	if p == nil {
		return st
	}
	counted := *st
	counted.Data = p.ReaderAt(st.Data)
	return &counted
}

// writeJSONFile writes v as indented JSON (writeJSON) to path.
func writeJSONFile(path string, v any) error {
	var b bytes.Buffer
	if err := writeJSON(&b, v); err != nil {
		return err
	}
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		return fileError(path, err)
	}
	return nil
}

func newReportCmd(s *streams) *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "report [FILE|-]",
		Short: "Say what cleaning a capture removes, and where",
		Long: `Report reads a terminal capture and prints the removal report of each
stream: counts per class, anomalies, advisory flags and findings with byte
offsets. It never prints payloads. --json prints JSON (schema
bytelens.report/v1; an array of {stream, report} when there are several).

--fail-on CLASSES makes it a CI gate: when the report counts one of the
comma-separated advisory flags or anomalies (clipboard,query,title,
unterminated…, or any), the report is still printed, each occurrence is
named with its offset on stderr, and the exit code is 1.

--screen also plays each output stream through the terminal screen model
(see bytelens screen) and lists the text a person at the terminal never
saw, or saw only for an instant: overwritten, erased, left on the
alternate screen, scrolled away, clipped, concealed, invisible, remapped
by DEC graphics or repeated by REP, each with its byte offset, ranked so
that likely deception (rank 50 and above) stands out from progress bars
and redraws; none is dropped. JSON gains a "display" object. Hidden text
is shown escaped and cut short (--hidden-text preview), or not at all
(none), or whole (full).`,
		Args: cobra.MaximumNArgs(1),
	}
	pf := addPolicyFlags(cmd.Flags())
	cf := addCaptureFlags(cmd.Flags())
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the report as JSON")
	fo := addFailOnFlag(cmd.Flags())
	sf := addScreenFlags(cmd.Flags())
	cmd.RunE = func(_ *cobra.Command, args []string) error {
		opts := *pf
		if _, err := fo.classes(); err != nil {
			return err
		}
		reps, disp, err := reportInput(s, args, cf, opts, sf)
		if err != nil {
			return err
		}
		if asJSON {
			if err := writeJSON(s.stdout, reportJSON(reps, disp)); err != nil {
				return err
			}
			return fo.check(s.stderr, reps)
		}
		name := "stdin"
		if len(args) > 0 && args[0] != "-" {
			name = args[0]
		}
		for i, r := range reps {
			if i > 0 {
				s.out.Println()
			}
			label := render.Sprintf("%s", name)
			if r.Format != capture.FormatRaw {
				label = render.Sprintf("%s (%s)", label, r.Format)
			}
			if len(reps) > 1 {
				label = render.Sprintf("%s [%s]", label, r.Stream)
			}
			render.WriteSummary(s.out, label, &r.Report, r.LoaderRemoved)
			render.WriteScreenDisplay(s.out, disp[i])
		}
		if err := s.out.Err(); err != nil {
			return err
		}
		return fo.check(s.stderr, reps)
	}
	return cmd
}
