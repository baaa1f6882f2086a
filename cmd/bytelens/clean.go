package main

import (
	"bytes"
	"os"

	"github.com/bytelens/bytelens/capture"
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
