package main

import (
	"bytes"
	"fmt"
	"os"

	"github.com/bytelens/bytelens/capture"
	"github.com/bytelens/bytelens/internal/command"
	"github.com/bytelens/bytelens/internal/job"
	"github.com/bytelens/bytelens/iostreams"
	"github.com/bytelens/bytelens/render"
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
	fo := command.FailOnFlag(cmd.Flags())
	cmd.RunE = func(_ *cobra.Command, args []string) error {
		if _, err := fo.Classes(); err != nil {
			return err
		}
		in, err := openInput(s, args, cf, false)
		if err != nil {
			return err
		}
		defer in.Close()
		out := iostreams.NewDataWriter(s.stdout)
		_, reps, err := s.env().Clean(in, cf.stream, out, *pf)
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
			var b bytes.Buffer
			if err := writeJSON(&b, capture.ReportJSON(reps)); err != nil {
				return err
			}
			if err := os.WriteFile(reportPath, b.Bytes(), 0o644); err != nil {
				return fileError(reportPath, err)
			}
		}
		return fo.Check(s.stderr, reps)
	}
	return cmd
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
	fo := command.FailOnFlag(cmd.Flags())
	sf := command.ScreenFlags(cmd.Flags())
	cmd.RunE = func(_ *cobra.Command, args []string) error {
		if _, err := fo.Classes(); err != nil {
			return err
		}
		if err := sf.Check(); err != nil {
			return err
		}
		in, err := cf.openArg(s, args, capture.ArgOptions{Whole: sf.On})
		if err != nil {
			return err
		}
		defer in.Close()
		reps, err := s.env().Report(in, cf.stream, *pf, sf)
		switch {
		case err != nil:
			return err
		case asJSON:
			err = writeJSON(s.stdout, capture.ReportJSON(reps))
		default:
			err = job.WriteReports(s.out, in.Name, reps)
		}
		if err != nil {
			return err
		}
		return fo.Check(s.stderr, reps)
	}
	return cmd
}
