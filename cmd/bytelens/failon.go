package main

import (
	"slices"
	"strings"

	"github.com/bytelens/bytelens/render"
	"github.com/bytelens/bytelens/sanitize"
	"github.com/spf13/pflag"
)

// failOnAny stands for every class --fail-on knows.
const failOnAny = "any"

// maxFailOnListed is how many occurrences of one class --fail-on names;
// the rest are counted.
const maxFailOnListed = 20

// failOnClasses returns the report classes --fail-on accepts: the advisory
// flags and the anomalies, by their JSON names.
func failOnClasses() []string {
	var names []string
	for _, c := range append(sanitize.Flags{}.ByName(), sanitize.Anomalies{}.ByName()...) {
		names = append(names, c.Name)
	}
	return names
}

// failOnFlag is the --fail-on flag of report and clean.
type failOnFlag struct{ list string }

func addFailOnFlag(fs *pflag.FlagSet) *failOnFlag {
	f := &failOnFlag{}
	fs.StringVar(&f.list, "fail-on", "", "exit 1, naming each occurrence with its offset, when the report has one of these comma-separated classes: advisory flags and anomalies ("+strings.Join(failOnClasses(), ", ")+") or any")
	return f
}

// classes returns the classes the flag names, or a usage error.
func (f *failOnFlag) classes() ([]string, error) {
	var out []string
	known := failOnClasses()
	for item := range strings.SplitSeq(f.list, ",") {
		item = strings.TrimSpace(item)
		switch {
		case item == "":
		case item == failOnAny:
			return known, nil
		case slices.Contains(known, item):
			out = append(out, item)
		default:
			return nil, usagef("--fail-on: unknown class %q (want any or some of %s)", item, strings.Join(known, ", "))
		}
	}
	return out, nil
}

// check writes one line to w for each occurrence of a class in reps,
// "bytelens: fail-on: stream S: clipboard at offset 0x4 (OSC 52 write)",
// and returns exitError{1} when there was one. Occurrences past the
// report's findings list, or of classes without findings (split), are
// counted. Names come from the report, which holds no payload, and are
// escaped by render like every argument.
func (f *failOnFlag) check(w *render.Writer, reps []streamReport) error {
	classes, err := f.classes()
	if err != nil || len(classes) == 0 {
		return err
	}
	failed := false
	for _, r := range reps {
		counts := map[string]int64{}
		for _, c := range append(r.Flags.ByName(), r.Anomalies.ByName()...) {
			counts[c.Name] = c.Count
		}
		for _, class := range classes {
			total := counts[class]
			if total == 0 {
				continue
			}
			failed = true
			var listed int64
			for _, fd := range r.Findings {
				if fd.Kind != class {
					continue
				}
				if listed == maxFailOnListed {
					break
				}
				listed++
				w.Printf("bytelens: fail-on: stream %s: %s at offset 0x%x (%d, %s)\n", r.Stream, class, fd.Offset, fd.Offset, fd.Sequence)
			}
			if rest := total - listed; rest > 0 {
				w.Printf("bytelens: fail-on: stream %s: %s: %d more without offsets listed\n", r.Stream, class, rest)
			}
		}
	}
	if err := w.Err(); err != nil {
		return err
	}
	if failed {
		return exitError{exitFailure}
	}
	return nil
}
