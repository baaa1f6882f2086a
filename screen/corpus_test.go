package screen

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files of testdata/deception")

// benign are the corpus files that hide nothing a person would miss: no
// finding of theirs may reach Deception.
var benign = map[string]bool{"same-text-back": true, "progress-frames": true}

// describe returns a golden text of the model: the non-blank rows and
// every finding.
func describe(m *Model) string {
	var b strings.Builder
	cols, rows := m.Size()
	fmt.Fprintf(&b, "screen %dx%d alternate=%v\n", cols, rows, m.Alternate())
	for y := range rows {
		if line := m.AppendLine(nil, y); len(line) > 0 {
			fmt.Fprintf(&b, "row %2d %q\n", y, line)
		}
	}
	for _, f := range m.Findings() {
		fmt.Fprintf(&b, "finding rank=%d %s %d+%d by=%q via=%q text=%q replaced=%q reasons=%q\n",
			f.Rank, f.Cause, f.Off, f.Len, f.By.Name, f.Via, f.Text, f.ReplacedBy, f.Reasons)
	}
	return b.String()
}

// TestDeceptionCorpus checks each crafted deception against its golden,
// that its top finding reaches Deception, and that the benign files stay
// below it.
func TestDeceptionCorpus(t *testing.T) {
	files, _ := filepath.Glob("testdata/deception/*.bin")
	if len(files) < 10 {
		t.Fatalf("only %d corpus files", len(files))
	}
	for _, path := range files {
		name := strings.TrimSuffix(filepath.Base(path), ".bin")
		t.Run(name, func(t *testing.T) {
			in, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			m := feed(t, Options{NewlineCRLF: true, Findings: true}, string(in))
			got := describe(m)
			golden := strings.TrimSuffix(path, ".bin") + ".golden"
			if *update {
				if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatal(err)
			}
			if got != string(want) {
				t.Errorf("golden mismatch:\n got:\n%s\nwant:\n%s", got, want)
			}
			fs := m.Findings()
			top := 0
			if len(fs) > 0 {
				top = fs[0].Rank
			}
			if benign[name] && top >= Deception {
				t.Errorf("benign capture has a finding ranked %d >= %d: %+v", top, Deception, fs[0])
			}
			if !benign[name] && top < Deception {
				t.Errorf("deception ranked only %d < %d: %s", top, Deception, got)
			}
		})
	}
}
