package capture

import (
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
