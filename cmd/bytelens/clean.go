package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"

	"github.com/bytelens/bytelens/sanitize"
	"github.com/spf13/cobra"
)

func init() { subcommands = append(subcommands, newCleanCmd, newReportCmd) }

func newCleanCmd(s *streams) *cobra.Command {
	var reportPath string
	cmd := &cobra.Command{
		Use:   "clean [FILE|-]",
		Short: "Write the agent-safe text of a capture to stdout",
		Long: `Clean reads a terminal byte stream (a file, or stdin for - or no argument)
and writes plain UTF-8 text that keeps the text, line breaks and link labels
and drops every control. It streams: memory stays constant whatever the size.`,
		Args: cobra.MaximumNArgs(1),
	}
	pf := addPolicyFlags(cmd.Flags())
	cmd.Flags().StringVar(&reportPath, "report", "", "also write the JSON removal report to this file")
	cmd.RunE = func(_ *cobra.Command, args []string) error {
		opts, err := pf.options()
		if err != nil {
			return err
		}
		in, name, closeIn, err := openInput(s, args)
		if err != nil {
			return err
		}
		defer closeIn()
		out := bufio.NewWriterSize(s.stdout, 64<<10)
		rep, err := clean(out, in, name, opts)
		if err != nil {
			return err
		}
		if err := out.Flush(); err != nil {
			return fmt.Errorf("writing cleaned text: %w", err)
		}
		if reportPath != "" {
			return writeJSONFile(reportPath, rep)
		}
		return nil
	}
	return cmd
}

// clean streams in through a sanitizer into w and returns the report.
func clean(w io.Writer, in io.Reader, name string, opts sanitize.Options) (sanitize.Report, error) {
	sw := sanitize.NewWriter(w, opts)
	if _, err := io.CopyBuffer(sw, in, make([]byte, 64<<10)); err != nil {
		return sanitize.Report{}, fmt.Errorf("reading %s: %w", name, err)
	}
	if err := sw.Close(); err != nil {
		return sanitize.Report{}, fmt.Errorf("writing cleaned text: %w", err)
	}
	return sw.Report(), nil
}

// writeJSONFile writes v as indented JSON to path.
func writeJSONFile(path string, v any) error {
	b, err := json.MarshalIndent(v, "", "  ")
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
		Long: `Report reads a terminal byte stream and prints the removal report: counts
per class, anomalies, advisory flags and findings with byte offsets. It never
prints payloads. --json prints the report as JSON (schema bytelens.report/v1).`,
		Args: cobra.MaximumNArgs(1),
	}
	pf := addPolicyFlags(cmd.Flags())
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the report as JSON")
	cmd.RunE = func(_ *cobra.Command, args []string) error {
		opts, err := pf.options()
		if err != nil {
			return err
		}
		in, name, closeIn, err := openInput(s, args)
		if err != nil {
			return err
		}
		defer closeIn()
		rep, err := clean(io.Discard, in, name, opts)
		if err != nil {
			return err
		}
		if asJSON {
			b, _ := json.MarshalIndent(rep, "", "  ")
			_, err = fmt.Fprintf(s.stdout, "%s\n", b)
			return err
		}
		return writeSummary(s.stdout, name, &rep)
	}
	return cmd
}
