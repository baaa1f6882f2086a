package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/bytelens/bytelens/capture/store"
	"github.com/bytelens/bytelens/extract"
	"github.com/creack/pty"
)

const secretOut = "ok \x1b]52;c;SECRETSECRETSECRET\x07after\n"

// collect runs a command that prints secretOut on stdout and "e\n" on
// stderr, and returns the raw artifact reference.
func collect(t *testing.T, extra ...string) string {
	t.Helper()
	args := append(extra, "--", "sh", "-c", `printf 'ok \033]52;c;SECRETSECRETSECRET\007after\n'; printf 'e\n' >&2`)
	env := runEnvelope(t, args...)
	if env.Stdout != "ok after\n" {
		t.Fatalf("stdout %q", env.Stdout)
	}
	return env.RawArtifact
}

func TestExtract(t *testing.T) {
	withStore(t)
	ref := collect(t)
	tests := []struct {
		name string
		args []string
		code int
		out  string
		err  string
	}{
		{"hex", []string{"--range", "0:20"}, 0,
			"0x00000000  6f 6b 20 1b 5d 35 32 3b  63 3b 53 45 43 52 45 54  |ok ␛]░░░░░░░░░░░|\n0x00000010  53 45 43 52                                       |░░░░|\n0x00000014\n", ""},
		{"hex offset", []string{"--range", "0x1c:", "--as", "hex"}, 0,
			"0x0000001c  07 61 66 74 65 72 0a                              |␇after␊|\n0x00000023\n", ""},
		{"stderr", []string{"--stream", "stderr"}, 0, "0x00000000  65 0a                                             |e␊|\n0x00000002\n", ""},
		{"text whole", []string{"--as", "text"}, 0, "ok after\n", ""},
		{"text inside payload", []string{"--as", "text", "--range", "10:28"}, 0, "", ""},
		{"text across payload end", []string{"--as", "text", "--range", "20:31"}, 0, "af", ""},
		{"text after payload", []string{"--as", "text", "--range", "10:"}, 0, "after\n", ""},
		{"too long", []string{"--range", "0:4097"}, 2, "", "at most 4096"},
		{"backwards", []string{"--range", "9:3"}, 2, "", "before START"},
		{"bad range", []string{"--range", "abc"}, 2, "", "START:END"},
		{"past end", []string{"--range", "100:"}, 2, "", "START 100 is past the end of the stream, which holds 35 bytes"},
		{"end past end", []string{"--range", "30:36"}, 2, "", "END 36 is past the end of the stream, which holds 35 bytes"},
		{"end at end", []string{"--range", "30:35"}, 0, "0x0000001e  66 74 65 72 0a                                    |fter␊|\n0x00000023\n", ""},
		{"bad as", []string{"--as", "raw"}, 2, "", "hex or text"},
		{"raw without -o", []string{"--raw"}, 2, "", "go together"},
		{"raw to stdout", []string{"--raw", "-o", "-"}, 2, "", "never to standard output"},
		{"no stream", []string{"--stream", "stdin"}, 2, "", "no stream"},
		{"json hex", []string{"--json", "--range", "0:4"}, 0, "{\n  \"schema\": \"bytelens.extract/v1\",\n  \"ref\": \"REF\",\n  \"stream\": \"stdout\",\n  \"start\": 0,\n  \"end\": 4,\n  \"stream_bytes\": 35,\n  \"as\": \"hex\",\n  \"hex\": \"6f6b201b\"\n}\n", ""},
		{"json text", []string{"--json", "--as", "text", "--range", "20:31"}, 0, "{\n  \"schema\": \"bytelens.extract/v1\",\n  \"ref\": \"REF\",\n  \"stream\": \"stdout\",\n  \"start\": 20,\n  \"end\": 31,\n  \"stream_bytes\": 35,\n  \"as\": \"text\",\n  \"text\": \"af\"\n}\n", ""},
		{"json raw", []string{"--json", "--raw", "-o", "x"}, 2, "", "raw bytes go only to a file"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, out, errs := cli(t, "", append([]string{"extract", ref}, tt.args...)...)
			tt.out = strings.ReplaceAll(tt.out, "REF", ref)
			if code != tt.code || out != tt.out || !strings.Contains(errs, tt.err) {
				t.Errorf("exit %d stdout %q stderr %q; want %d %q %q", code, out, errs, tt.code, tt.out, tt.err)
			}
			if strings.Contains(out, "SECRET") || strings.ContainsRune(out, 0x1b) {
				t.Errorf("raw bytes in output: %q", out)
			}
		})
	}
}

func TestExtractRefs(t *testing.T) {
	withStore(t)
	ref := collect(t)
	hexPart := strings.TrimPrefix(ref, "restricted:sha256:")
	for _, bad := range []string{
		"restricted:sha256:../" + hexPart[3:],
		"restricted:sha256:" + strings.ToUpper(hexPart),
		"restricted:sha256:" + hexPart[:63],
		"restricted:sha256:" + hexPart + "00",
		hexPart,
		"/etc/passwd",
	} {
		for _, cmd := range [][]string{{"extract", bad}, {"verify", bad, "/dev/null"}} {
			code, out, errs := cli(t, "", cmd...)
			if code != 2 || out != "" || !strings.Contains(errs, "invalid reference") {
				t.Errorf("%s %q: exit %d stdout %q stderr %q", cmd[0], bad, code, out, errs)
			}
		}
	}
	missing := "restricted:sha256:" + strings.Repeat("0", 64)
	if code, _, errs := cli(t, "", "extract", missing); code != 1 || !strings.Contains(errs, "not in store") {
		t.Errorf("missing: exit %d %q", code, errs)
	}
}

// TestRefRefusesFormat checks that --format and --timing, which a stored
// artifact does not take, are refused with a reference rather than
// ignored.
func TestRefRefusesFormat(t *testing.T) {
	withStore(t)
	ref := collect(t)
	for _, args := range [][]string{
		{"clean", ref, "--format", "asciicast"},
		{"clean", ref, "--format", "raw"},
		{"clean", ref, "--timing", "/dev/null"},
		{"report", ref, "--format", "script"},
		{"screen", ref, "--format", "ttyrec"},
	} {
		code, out, errs := cli(t, "", args...)
		if code != 2 || out != "" || !strings.Contains(errs, "do not apply to a restricted: reference") {
			t.Errorf("%v: exit %d stdout %q stderr %q", args, code, out, errs)
		}
	}
	if code, _, errs := cli(t, "", "clean", ref); code != 0 {
		t.Errorf("clean %s: exit %d %q", ref, code, errs)
	}
}

func TestExtractCorrupt(t *testing.T) {
	dir := withStore(t)
	ref := collect(t)
	p := filepath.Join(dir, "raw", strings.TrimPrefix(ref, "restricted:sha256:"))
	b, _ := os.ReadFile(p)
	i := strings.Index(string(b), "after")
	b[i] = 'A'
	os.WriteFile(p, b, 0o600)
	for _, args := range [][]string{{"extract", ref, "--as", "text"}, {"extract", ref}, {"verify", ref, p}} {
		code, out, errs := cli(t, "", args...)
		if code != 1 || out != "" || !strings.Contains(errs, "corrupt") {
			t.Errorf("%v: exit %d stdout %q stderr %q", args, code, out, errs)
		}
	}
}

func TestExportAndVerify(t *testing.T) {
	withStore(t)
	ref := collect(t)
	dir := t.TempDir()
	out := filepath.Join(dir, "stdout.bin")
	if code, _, errs := cli(t, "", "extract", ref, "--raw", "-o", out); code != 0 {
		t.Fatalf("export: exit %d %q", code, errs)
	}
	b, _ := os.ReadFile(out)
	if string(b) != secretOut {
		t.Errorf("exported %q", b)
	}
	if fi, _ := os.Stat(out); fi.Mode().Perm() != 0o600 {
		t.Errorf("export mode %04o", fi.Mode().Perm())
	}
	whole := filepath.Join(dir, "artifact.blr")
	if code, _, errs := cli(t, "", "extract", ref, "--raw", "--stream", "artifact", "-o", whole); code != 0 {
		t.Fatalf("export artifact: exit %d %q", code, errs)
	}
	other := filepath.Join(dir, "other")
	os.WriteFile(other, []byte("something else"), 0o600)

	tests := []struct {
		file, stdin string
		code        int
		out         string
	}{
		{out, "", 0, "match: stdout (35 bytes)\n"},
		{whole, "", 0, "match: artifact " + ref},
		{"-", "e\n", 0, "match: stderr (2 bytes)\n"},
		{other, "", 1, "no match: sha256:"},
	}
	for _, tt := range tests {
		code, got, errs := cli(t, tt.stdin, "verify", ref, tt.file)
		if code != tt.code || !strings.HasPrefix(got, tt.out) || errs != "" {
			t.Errorf("verify %s: exit %d stdout %q stderr %q; want %d %q", tt.file, code, got, errs, tt.code, tt.out)
		}
	}
	for _, tt := range []struct {
		file, want string
		code       int
	}{
		{out, `"file_bytes":35,"match":true,"matches":[{"name":"stdout","stored_bytes":35,"seen_bytes":35}]}`, 0},
		{whole, `"match":true,"matches":[{"name":"artifact","stored_bytes":`, 0},
		{other, `"file_bytes":14,"match":false,"matches":[]}`, 1},
	} {
		code, got, _ := cli(t, "", "verify", "--json", ref, tt.file)
		var v extract.Verification
		if err := json.Unmarshal([]byte(got), &v); err != nil || v.Schema != extract.VerifySchema || v.Ref != ref {
			t.Errorf("verify --json %s: %v %q", tt.file, err, got)
		}
		compact, _ := json.Marshal(v)
		if code != tt.code || !strings.Contains(string(compact), tt.want) {
			t.Errorf("verify --json %s: exit %d %s; want %d …%s", tt.file, code, compact, tt.code, tt.want)
		}
	}
}

func TestExportRefusesTerminal(t *testing.T) {
	withStore(t)
	ref := collect(t)
	ptm, pts, err := pty.Open()
	if err != nil {
		t.Skipf("no pseudo-terminal: %v", err)
	}
	defer ptm.Close()
	defer pts.Close()
	code, out, errs := cli(t, "", "extract", ref, "--raw", "-o", pts.Name())
	if code != 1 || out != "" || !strings.Contains(errs, "refusing to write raw bytes to a terminal") || !strings.Contains(errs, "hint:") {
		t.Errorf("exit %d stdout %q stderr %q", code, out, errs)
	}
}

// TestExportToPipe: --raw -o into a pipe (as -o /dev/stdout in a pipeline)
// writes the bytes without truncating the pipe; a regular file that held
// more is replaced.
func TestExportToPipe(t *testing.T) {
	withStore(t)
	ref := collect(t)
	for _, stream := range []string{"stdout", "artifact"} {
		r, w, err := os.Pipe()
		if err != nil {
			t.Fatal(err)
		}
		got := make(chan []byte)
		go func() { b, _ := io.ReadAll(r); got <- b }()
		code, out, errs := cli(t, "", "extract", ref, "--raw", "--stream", stream, "-o", fmt.Sprintf("/dev/fd/%d", w.Fd()))
		w.Close()
		b := <-got
		r.Close()
		if code != 0 || out != "" || errs != "" {
			t.Errorf("%s to a pipe: exit %d stdout %q stderr %q", stream, code, out, errs)
		}
		switch {
		case stream == "stdout" && string(b) != secretOut:
			t.Errorf("pipe got %q", b)
		case stream == "artifact" && !store.Sniff(b):
			t.Errorf("pipe got no artifact: %q", b)
		}
	}
	// An existing regular file longer than the export is truncated.
	p := filepath.Join(t.TempDir(), "old")
	os.WriteFile(p, []byte(strings.Repeat("old contents ", 10)), 0o600)
	if code, _, errs := cli(t, "", "extract", ref, "--raw", "--stream", "stderr", "-o", p); code != 0 {
		t.Fatalf("export: exit %d %q", code, errs)
	}
	if b, _ := os.ReadFile(p); string(b) != "e\n" {
		t.Errorf("file holds %q", b)
	}
}

// putArtifact stores an artifact whose stream 1 ("stdout") stored
// stored bytes of seen, and stream 2 ("stderr") holds stderr, and
// returns its reference.
func putArtifact(t *testing.T, stored []byte, seen int, stderr string) string {
	t.Helper()
	var b bytes.Buffer
	m := store.Manifest{Started: time.Unix(0, 0), MaxRaw: -1,
		Streams: []store.StreamDesc{{ID: 1, Name: "stdout"}, {ID: 2, Name: "stderr"}}}
	aw, err := store.NewArtifactWriter(&b, m)
	if err != nil {
		t.Fatal(err)
	}
	if err := aw.Chunk(1, 0, 0, stored, seen); err != nil {
		t.Fatal(err)
	}
	if err := aw.Chunk(2, 1, 0, []byte(stderr), len(stderr)); err != nil {
		t.Fatal(err)
	}
	if err := aw.Finish(store.Trailer{}); err != nil {
		t.Fatal(err)
	}
	st, err := store.OpenDefault()
	if err != nil {
		t.Fatal(err)
	}
	w, err := st.NewWriter()
	if err != nil {
		t.Fatal(err)
	}
	w.Write(b.Bytes())
	ref, err := w.Commit()
	if err != nil {
		t.Fatal(err)
	}
	return ref.String()
}

// TestVerifyEmptyFile checks that an empty file matches only the streams
// that exist and are empty, each named, and never a stream whose stored
// prefix is empty because it passed the raw limit.
func TestVerifyEmptyFile(t *testing.T) {
	withStore(t)
	for _, tc := range []struct {
		name string
		ref  string
		code int
		out  string
	}{
		{"stdout only", putArtifact(t, []byte("hi\n"), 3, ""), 0, "match: stderr (0 bytes: the command wrote nothing to it)\n"},
		{"both empty", putArtifact(t, nil, 0, ""), 0,
			"match: stdout (0 bytes: the command wrote nothing to it)\nmatch: stderr (0 bytes: the command wrote nothing to it)\n"},
		{"nothing kept of stdout", putArtifact(t, nil, 100, "e\n"), 1, "no match: sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855 (0 bytes) is neither the artifact nor any of its streams\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, out, errs := cli(t, "", "verify", tc.ref, os.DevNull)
			if code != tc.code || out != tc.out || errs != "" {
				t.Errorf("exit %d stdout %q stderr %q; want %d %q", code, out, errs, tc.code, tc.out)
			}
		})
	}
}
