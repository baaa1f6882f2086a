package capture

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/bytelens/bytelens/render"
	"github.com/bytelens/bytelens/sanitize"
)

// corpusSkip lists the file name endings that CorpusFiles never takes as
// captures: the sidecars of corpus cases and source files.
var corpusSkip = []string{".policy", ".clean.txt", ".report.json", ".golden", ".go", ".md", ".timing"}

// CorpusFiles lists the captures of a corpus directory by name: *.bin,
// and other regular files (or symbolic links) that sniff as a format other
// than raw, less the sidecars (.policy, .clean.txt, .report.json, …) and
// names starting with a dot. The error is from reading dir.
func CorpusFiles(dir string) ([]string, error) {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	var files []string
	for _, e := range ents {
		name := e.Name()
		if strings.HasPrefix(name, ".") || !e.Type().IsRegular() && e.Type()&fs.ModeSymlink == 0 {
			continue
		}
		if strings.HasSuffix(name, ".bin") {
			files = append(files, name)
			continue
		}
		skip := false
		for _, suf := range corpusSkip {
			skip = skip || strings.HasSuffix(name, suf)
		}
		if !skip && sniffsAsCapture(filepath.Join(dir, name)) {
			files = append(files, name)
		}
	}
	return files, nil
}

// sniffsAsCapture reports whether the regular file at path sniffs as a
// capture format other than raw.
func sniffsAsCapture(path string) bool {
	fh, err := os.Open(path)
	if err != nil {
		return false
	}
	defer fh.Close()
	st, err := fh.Stat()
	if err != nil || !st.Mode().IsRegular() {
		return false
	}
	format, err := Sniff(fh, st.Size())
	return err == nil && format != FormatRaw
}

// CorpusName returns a case's name (the file name less .bin) and the stem
// its .policy file is named after (the file name less its extension).
func CorpusName(file string) (name, stem string) {
	if n, ok := strings.CutSuffix(file, ".bin"); ok {
		return n, n
	}
	return file, strings.TrimSuffix(file, filepath.Ext(file))
}

// CorpusOptions say how CompareCase compares a corpus capture.
type CorpusOptions struct {
	// Format and Stream are as for OpenOptions.Format and the stream to
	// compare; "" sniffs and takes the first stream.
	Format, Stream string
	// Base is the policy both sides start from; a STEM.policy file beside
	// the capture applies its key=value settings on top, then A and B
	// (key=value lists, sanitize.Options.Apply) make the two sides.
	Base sanitize.Options
	A, B string
	// Lines is how many differing lines of cleaned text the diff keeps
	// (at least 1).
	Lines int
}

// CompareCase cleans the capture at path under both sides' policies and
// compares the reports and texts. Errors name the file at fault.
func CompareCase(path string, o CorpusOptions) (sanitize.ReportDiff, error) {
	_, stem := CorpusName(filepath.Base(path))
	base := o.Base
	policy := filepath.Join(filepath.Dir(path), stem+".policy")
	if p, err := os.ReadFile(policy); err == nil {
		if err := base.Apply(string(p)); err != nil {
			return sanitize.ReportDiff{}, fmt.Errorf("%s: %w", stem+".policy", err)
		}
	} else if !errors.Is(err, fs.ErrNotExist) {
		return sanitize.ReportDiff{}, fmt.Errorf("%s: %w", stem+".policy", unwrapPath(err))
	}
	a, b := base, base
	if err := a.Apply(o.A); err != nil {
		return sanitize.ReportDiff{}, fmt.Errorf("A policy: %w", err)
	}
	if err := b.Apply(o.B); err != nil {
		return sanitize.ReportDiff{}, fmt.Errorf("B policy: %w", err)
	}
	c, err := Open(path, OpenOptions{Format: o.Format})
	if err != nil {
		return sanitize.ReportDiff{}, err
	}
	defer c.Close()
	st := &c.Streams[0]
	if o.Stream != "" {
		if st = c.Stream(o.Stream); st == nil {
			return sanitize.ReportDiff{}, fmt.Errorf("%s: capture has no stream %q", path, o.Stream)
		}
	}
	var ta, tb bytes.Buffer
	ra, err := Clean(&ta, st, a)
	if err != nil {
		return sanitize.ReportDiff{}, err
	}
	rb, err := Clean(&tb, st, b)
	if err != nil {
		return sanitize.ReportDiff{}, err
	}
	d := sanitize.Compare(ra, rb)
	t := sanitize.CompareText(ta.Bytes(), tb.Bytes(), max(o.Lines, 1))
	d.Text = &t
	return d, nil
}

// CorpusCase is one case of a corpus comparison (CorpusDiff).
type CorpusCase struct {
	// Name is the case's name (the file name less .bin); File the file
	// name in the corpus directory. Both are escaped (render.Line): the
	// directory's files may be named anything.
	Name render.Safe `json:"name"`
	File render.Safe `json:"file"`
	// Equal, Summary (sanitize.ReportDiff.Summary) and Diff describe the
	// comparison; Error (render.ErrorText, which quotes the file name)
	// is set instead when the case could not be read.
	Equal   bool                 `json:"equal"`
	Summary string               `json:"summary"`
	Diff    *sanitize.ReportDiff `json:"diff,omitempty"`
	Error   render.Safe          `json:"error,omitzero"`
}

// CorpusDiff is the comparison of every capture of a corpus directory
// under two policies, and its JSON form (schema sanitize.DiffSchema).
type CorpusDiff struct {
	Schema string `json:"schema"`
	// Corpus is the directory as it was given, escaped (render.Line).
	Corpus  render.Safe `json:"corpus"`
	PolicyA string      `json:"a_policy"`
	PolicyB string      `json:"b_policy"`
	// Total counts the cases; Changed those whose report or text differ;
	// Failed those that could not be read.
	Total   int `json:"total"`
	Changed int `json:"changed"`
	Failed  int `json:"failed"`
	// Cases lists the changed and failed cases (when all is asked, every
	// case), in the corpus's order.
	Cases []CorpusCase `json:"cases"`
}

// CompareCorpus compares every capture of the corpus directory dir
// (CorpusFiles) with CompareCase under o. Cases that differ or fail are
// listed, and with all every case; onError, when not nil, is called for
// each case that fails, which is counted and does not stop the others.
// The error is for a directory that cannot be listed.
func CompareCorpus(dir string, o CorpusOptions, all bool, onError func(name string, err error)) (CorpusDiff, error) {
	out := CorpusDiff{Schema: sanitize.DiffSchema, Corpus: render.LineString(dir), PolicyA: o.A, PolicyB: o.B, Cases: []CorpusCase{}}
	files, err := CorpusFiles(dir)
	if err != nil {
		return out, err
	}
	for _, file := range files {
		name, _ := CorpusName(file)
		out.Total++
		cc := CorpusCase{Name: render.LineString(name), File: render.LineString(file)}
		d, err := CompareCase(filepath.Join(dir, file), o)
		switch {
		case err != nil:
			out.Failed++
			cc.Error = render.ErrorText(err)
			if onError != nil {
				onError(name, err)
			}
		default:
			cc.Equal, cc.Summary, cc.Diff = d.Equal(), d.Summary(), &d
			if !cc.Equal {
				out.Changed++
			}
		}
		if err != nil || !cc.Equal || all {
			out.Cases = append(out.Cases, cc)
		}
	}
	return out, nil
}
