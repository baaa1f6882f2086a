package main

import (
	"strings"

	"github.com/bytelens/bytelens/capture"
	"github.com/bytelens/bytelens/render"
	"github.com/bytelens/bytelens/sanitize"
	"github.com/spf13/pflag"
)

// failOnFlag is the --fail-on flag of report and clean.
type failOnFlag struct{ list string }

func addFailOnFlag(fs *pflag.FlagSet) *failOnFlag {
	f := &failOnFlag{}
	fs.StringVar(&f.list, "fail-on", "", "exit 1, naming each occurrence with its offset, when the report has one of these comma-separated `CLASSES`: advisory flags and anomalies ("+strings.Join(sanitize.ReportClasses(), ", ")+"), or "+sanitize.ClassAny+" for all of them")
	return f
}

// classes returns the classes the flag names, or a usage error.
func (f *failOnFlag) classes() ([]string, error) {
	cs, err := sanitize.ParseClasses(f.list)
	if err != nil {
		return nil, usagef("--fail-on: %v", err)
	}
	return cs, nil
}

// check names on w each occurrence in reps of a class the flag names
// (render.WriteGate), and returns exitError{1} when there was one.
func (f *failOnFlag) check(w *render.Writer, reps []capture.StreamReport) error {
	classes, err := f.classes()
	if err != nil || len(classes) == 0 {
		return err
	}
	failed := false
	for _, r := range reps {
		failed = render.WriteGate(w, r.Stream, &r.Report, classes) || failed
	}
	if err := w.Err(); err != nil {
		return err
	}
	if failed {
		return exitError{exitFailure}
	}
	return nil
}
