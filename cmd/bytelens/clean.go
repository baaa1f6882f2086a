package main

import (
	"bytes"
	"io"
	"os"
	"strings"

	"github.com/bytelens/bytelens/capture"
	"github.com/bytelens/bytelens/capture/store"
	"github.com/bytelens/bytelens/internal/command"
	"github.com/bytelens/bytelens/internal/job"
	"github.com/spf13/cobra"
)

func newCleanCmd(s *streams) *cobra.Command {
	var reportPath string
	cmd := withHelp("clean", &cobra.Command{
		Use:  "clean [FILE|-]",
		Args: cobra.MaximumNArgs(1),
	})
	pf := addPolicyFlags(cmd.Flags())
	cf := command.CaptureFlags(cmd.Flags(), s.stdin, keys.OpenStore)
	cmd.Flags().StringVar(&reportPath, "report", "", "also write the JSON removal report to this file (an array when there are several streams)")
	fo := command.FailOnFlag(cmd.Flags())
	cmd.RunE = func(_ *cobra.Command, args []string) error {
		if _, err := fo.Classes(); err != nil {
			return err
		}
		if err := reportOverInput(reportPath, args, cf.Timing, s.stdin); err != nil {
			return err
		}
		in, err := cf.OpenArg(args, capture.ArgOptions{})
		if err != nil {
			return err
		}
		defer in.Close()
		reps, err := s.env().CleanText(s.stdout, in, cf.Stream, *pf)
		if err != nil {
			return err
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

// reportOverInput refuses a --report path in the store (store.Within),
// or a regular file the input is read from, by any path (os.SameFile):
// the FILE argument, the --timing file, standard input, or a REF's raw
// artifact in the store. The report is written after cleaning and would
// replace the capture.
func reportOverInput(path string, args []string, timing string, stdin io.Reader) error {
	if path == "" {
		return nil
	}
	if d, err := store.DefaultDir(); err == nil && store.Within(d, path) {
		return usagef("--report %s is in the store, whose files only bytelens writes", path)
	}
	// A path not there yet (os.WriteFile says why if it fails), or a
	// device or pipe, which writing does not replace, is no input's.
	fi, err := os.Stat(path)
	if err != nil || !fi.Mode().IsRegular() {
		return nil
	}
	arg := ""
	if len(args) > 0 {
		arg = args[0]
	}
	same := func(name string) bool {
		gi, err := os.Stat(name)
		return name != "" && err == nil && os.SameFile(fi, gi)
	}
	over := same(timing)
	switch f, ok := stdin.(*os.File); {
	case arg == "" || arg == "-":
		if ok {
			gi, err := f.Stat()
			over = over || err == nil && os.SameFile(fi, gi)
		}
	case strings.HasPrefix(arg, store.RefPrefix):
		if ref, err := store.ParseRef(arg); err == nil {
			if st, err := keys.OpenStore(); err == nil {
				over = over || st.IsBlob(ref, fi)
			}
		}
	default:
		over = over || same(arg)
	}
	if over {
		return usagef("--report %s is a file the input is read from: the report would replace it", path)
	}
	return nil
}

func newReportCmd(s *streams) *cobra.Command {
	var asJSON bool
	cmd := withHelp("report", &cobra.Command{
		Use:  "report [FILE|-]",
		Args: cobra.MaximumNArgs(1),
	})
	pf := addPolicyFlags(cmd.Flags())
	cf := command.CaptureFlags(cmd.Flags(), s.stdin, keys.OpenStore)
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
		in, err := cf.OpenArg(args, capture.ArgOptions{Whole: sf.On})
		if err != nil {
			return err
		}
		defer in.Close()
		reps, err := s.env().Report(in, cf.Stream, *pf, sf)
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
