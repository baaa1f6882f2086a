package main

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/bytelens/bytelens/capture"
	"github.com/bytelens/bytelens/render"
	"github.com/bytelens/bytelens/safejson"
	"github.com/bytelens/bytelens/sanitize"
	"github.com/spf13/cobra"
)

func init() { subcommands = append(subcommands, newCleanCmd, newReportCmd) }

func newCleanCmd(s *streams) *cobra.Command {
	var reportPath string
	cmd := &cobra.Command{
		Use:   "clean [FILE|-]",
		Short: "Write the agent-safe text of a capture to stdout",
		Long: `Clean reads a terminal capture (a file, or stdin for - or no argument) and
writes plain UTF-8 text that keeps the text, line breaks and link labels and
drops every control. Files are loaded by format (raw bytes, asciinema casts,
ttyrec, script typescripts, CI logs, bytelens artifacts; --format overrides
sniffing); raw input streams in constant memory whatever its size. A capture
with several streams is cleaned stream by stream (--stream picks one).`,
		Args: cobra.MaximumNArgs(1),
	}
	pf := addPolicyFlags(cmd.Flags())
	cf := addCaptureFlags(cmd.Flags())
	cmd.Flags().StringVar(&reportPath, "report", "", "also write the JSON removal report to this file (an array when there are several streams)")
	cmd.RunE = func(_ *cobra.Command, args []string) error {
		opts, err := pf.options()
		if err != nil {
			return err
		}
		out := bufio.NewWriterSize(s.stdout, 64<<10)
		reps, err := cleanInput(s, args, cf, out, opts)
		if err != nil {
			return err
		}
		if err := out.Flush(); err != nil {
			return fmt.Errorf("writing cleaned text: %w", err)
		}
		for _, r := range reps {
			warnSwallowed(s.stderr, r)
		}
		if reportPath == "" {
			return nil
		}
		if len(reps) == 1 {
			return writeJSONFile(reportPath, reps[0].Report)
		}
		return writeJSONFile(reportPath, reps)
	}
	return cmd
}

// warnSwallowed says on stderr when a control string left open at the end
// of a stream swallowed bytes: they were dropped from the text, as a
// terminal would have hidden them, and the reader should know.
func warnSwallowed(w *render.Writer, r streamReport) {
	if r.BytesSwallowed == 0 {
		return
	}
	// Only what is open at the end swallows, so it starts where the
	// swallowed bytes do; its name is in the findings unless they were
	// capped before it.
	where := render.Sprintf(" from offset 0x%x", r.BytesIn-r.BytesSwallowed)
	for _, f := range r.Findings {
		if f.Kind == "unterminated" {
			where = render.Sprintf(" by the %s at offset 0x%x", f.Sequence, f.Offset)
			break
		}
	}
	amount := render.Sprintf("%d bytes up to the end were", r.BytesSwallowed)
	if r.BytesSwallowed == 1 {
		amount = render.Sprintf("1 byte at the end was")
	}
	w.Printf("bytelens: warning: stream %s: %s swallowed%s, left open; a terminal would not have shown them\n", r.Stream, amount, where)
	if !strings.Contains(r.Policy, "c1=lone") {
		w.Printf("hint: if a raw 0x80-0x9F byte opened it and the input is 8-bit text (Latin-1, CP1252), --c1 lone keeps such bytes from opening strings\n")
	}
}

// streamReport is the report of one stream of a capture.
type streamReport struct {
	Stream string `json:"stream"`
	sanitize.Report
}

// cleanInput cleans the FILE argument into w (io.Discard for report) and
// returns one report per stream cleaned.
func cleanInput(s *streams, args []string, cf *captureFlags, w io.Writer, opts sanitize.Options) ([]streamReport, error) {
	c, raw, name, err := openCapture(s, args, cf)
	if err != nil {
		return nil, err
	}
	if c == nil {
		sw := sanitize.NewWriter(w, opts)
		if _, err := io.CopyBuffer(sw, raw, make([]byte, 64<<10)); err != nil {
			return nil, fmt.Errorf("reading %s: %w", name, err)
		}
		if err := sw.Close(); err != nil {
			return nil, fmt.Errorf("writing cleaned text: %w", err)
		}
		return []streamReport{{"output", sw.Report()}}, nil
	}
	defer c.Close()
	warnCapture(s.stderr, c)
	if err := refuseLossySniff(c, cf, name); err != nil {
		return nil, err
	}
	sts, err := pickStreams(c, cf.stream)
	if err != nil {
		return nil, err
	}
	var reps []streamReport
	for _, st := range sts {
		if len(sts) > 1 && w != io.Discard {
			s.stderr.Printf("bytelens: cleaning stream %s (%d bytes)\n", st.Name, st.Len)
		}
		rep, err := capture.Clean(w, st, opts)
		if err != nil {
			return nil, err
		}
		reps = append(reps, streamReport{st.Name, rep})
	}
	return reps, nil
}

// writeJSONFile writes v as indented JSON to path.
func writeJSONFile(path string, v any) error {
	b, err := safejson.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	if err := os.WriteFile(path, append(b, '\n'), 0o644); err != nil {
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
	sf := addScreenFlags(cmd.Flags())
	cmd.RunE = func(_ *cobra.Command, args []string) error {
		opts, err := pf.options()
		if err != nil {
			return err
		}
		reps, disp, err := reportInput(s, args, cf, opts, sf)
		if err != nil {
			return err
		}
		if asJSON {
			b, err := safejson.MarshalIndent(reportJSON(reps, disp), "", "  ")
			if err != nil {
				return err
			}
			_, err = s.stdout.Write(append(b, '\n'))
			return err
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
			if len(reps) > 1 {
				label = render.Sprintf("%s [%s]", name, r.Stream)
			}
			writeSummary(s.out, label, &r.Report)
			writeDisplay(s.out, disp[i])
		}
		return s.out.Err()
	}
	return cmd
}
