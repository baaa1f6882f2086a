package capture

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func TestCompareCase(t *testing.T) {
	path := filepath.Join("..", "testdata", "corpus", "cr-progress.bin")
	d, err := CompareCase(path, CorpusOptions{B: "cr=overwrite"})
	if err != nil || d.Equal() || d.Text.Equal() {
		t.Errorf("cr=lines against cr=overwrite: equal %v, err %v", d.Equal(), err)
	}
	if d, err := CompareCase(path, CorpusOptions{A: "cr=drop", B: "cr=drop"}); err != nil || !d.Equal() {
		t.Errorf("same policies differ: %v %v", d.Summary(), err)
	}
	if _, err := CompareCase(path, CorpusOptions{Stream: "stderr"}); err == nil || !strings.Contains(err.Error(), `no stream "stderr"`) {
		t.Errorf("missing stream: %v", err)
	}
	if _, err := CompareCase(path, CorpusOptions{B: "cr=sideways"}); err == nil || !strings.Contains(err.Error(), "B policy") {
		t.Errorf("bad B policy: %v", err)
	}
	files, err := CorpusFiles(filepath.Join("testdata", "logs"))
	if err != nil || !slices.Contains(files, "docker-json.log") || slices.Contains(files, "README.md") {
		t.Errorf("CorpusFiles(testdata/logs) = %q, %v", files, err)
	}
}

func TestCompareCorpus(t *testing.T) {
	dir := t.TempDir()
	for name, body := range map[string]string{"cr.bin": "a\rb\n", "plain.bin": "ok\n", "cr.clean.txt": "b\n"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink(filepath.Join(dir, "nowhere"), filepath.Join(dir, "broken.bin")); err != nil {
		t.Fatal(err)
	}
	var failed []string
	d, err := CompareCorpus(dir, CorpusOptions{B: "cr=overwrite"}, false, func(name string, err error) { failed = append(failed, name) })
	if err != nil {
		t.Fatal(err)
	}
	if d.Total != 3 || d.Changed != 1 || d.Failed != 1 || len(d.Cases) != 2 || !slices.Equal(failed, []string{"broken"}) {
		t.Errorf("CompareCorpus = %+v, failed %q", d, failed)
	}
	for _, c := range d.Cases {
		if c.Name.String() == "cr" && (c.Equal || c.Diff == nil || c.Summary == "") || c.Name.String() == "broken" && c.Error.IsZero() {
			t.Errorf("case %+v", c)
		}
	}
	if d, _ := CompareCorpus(dir, CorpusOptions{}, true, nil); d.Changed != 0 || len(d.Cases) != 3 {
		t.Errorf("all, same policies: %+v", d)
	}
	if _, err := CompareCorpus(filepath.Join(dir, "none"), CorpusOptions{}, false, nil); err == nil {
		t.Error("missing directory: no error")
	}
}
