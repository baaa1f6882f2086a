package capture

import (
	"bytes"
	"compress/gzip"
	"encoding/base64"
	"encoding/binary"
	"errors"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"
)

// jenkinsNote encodes a ConsoleNote as Jenkins does: base64 of
// [int32 -mac, mac, int32 len(gzip), gzip] between ESC[8mha: and ESC[0m.
func jenkinsNote(mac int) []byte {
	var z bytes.Buffer
	zw := gzip.NewWriter(&z)
	zw.Write([]byte("\xac\xed\x00\x05note"))
	zw.Close()
	var body []byte
	if mac > 0 {
		body = binary.BigEndian.AppendUint32(body, uint32(-int32(mac)))
		body = append(body, make([]byte, mac)...)
	}
	body = binary.BigEndian.AppendUint32(body, uint32(z.Len()))
	body = append(body, z.Bytes()...)
	return []byte("\x1b[8mha:" + base64.StdEncoding.EncodeToString(body) + "\x1b[0m")
}

// journalBinary is one binary-safe field of the journal export format.
func journalBinary(key string, v []byte) []byte {
	b := append([]byte(key+"\n"), binary.LittleEndian.AppendUint64(nil, uint64(len(v)))...)
	return append(append(b, v...), '\n')
}

func TestLogLoaders(t *testing.T) {
	note := jenkinsNote(32)
	tests := []struct {
		name, format string
		data         []byte
		want         map[string]string // stream name → bytes
		warn         string            // a substring of some warning, or ""
		removed      []Removal
	}{
		{
			name: "docker streams and partial message", data: []byte(
				`{"log":"red \u001b[31mx","stream":"stdout","time":"2026-11-29T11:47:47Z"}` + "\n" +
					`{"log":"y\n","stream":"stdout","time":"2026-11-29T11:47:48Z"}` + "\n" +
					`{"log":"err\n","stream":"stderr","time":"2026-11-29T11:47:48Z"}` + "\n" +
					`{"stream":"stdout","time":"2026-11-29T11:47:49Z"}` + "\n"),
			want: map[string]string{"stdout": "red \x1b[31mxy\n", "stderr": "err\n"},
		},
		{
			name: "docker bad time", format: "docker", data: []byte(`{"log":"a","stream":"stdout","time":"yesterday"}`),
			want: map[string]string{"stdout": "a"}, warn: "line 1: entry time is not RFC 3339",
		},
		{
			name: "timestamps stripped",
			data: []byte("2026-11-29T11:47:47.1Z a\n2026-11-29T11:47:47.2Z b \x1b[31mc\n2026-11-29T11:47:48Z "),
			want: map[string]string{"output": "a\nb \x1b[31mc\n"}, removed: []Removal{{Class: RemovedTimestamp, Count: 3, Bytes: 23 + 23 + 21}},
		},
		{
			name: "timestamps and a bare line", format: "timestamped",
			data: []byte("2026-11-29T11:47:47Z a\nbare\n2026-11-29T11:47:48Z b\n"),
			want: map[string]string{"output": "a\nbare\nb\n"}, warn: "line 2: line does not start with an RFC 3339 timestamp",
			removed: []Removal{{Class: RemovedTimestamp, Count: 2, Bytes: 42}},
		},
		{
			name: "jenkins notes removed", data: cat([]byte("a"), note, []byte("b\n"), note, jenkinsNote(0), []byte("c\n")),
			want: map[string]string{"output": "ab\nc\n"}, removed: []Removal{{Class: RemovedJenkinsNote, Count: 3, Bytes: int64(2*len(note) + len(jenkinsNote(0)))}},
		},
		{
			name: "jenkins forged note kept", format: "jenkins", data: cat(note, []byte("\x1b[8mha:////4AAA\x1b[0mhidden\n")),
			want: map[string]string{"output": "\x1b[8mha:////4AAA\x1b[0mhidden\n"}, warn: "capture offset " + strconv.Itoa(len(note)) + ": Jenkins ConsoleNote preamble without a well-formed note",
			removed: []Removal{{Class: RemovedJenkinsNote, Count: 1, Bytes: int64(len(note))}},
		},
		{
			name: "journald json string, bytes, null and several values", data: []byte(
				`{"__CURSOR":"s=1","__REALTIME_TIMESTAMP":"1795952867100444","MESSAGE":"plain"}` + "\n" +
					`{"__REALTIME_TIMESTAMP":"1795952867200444","MESSAGE":[27,91,51,49,109,255]}` + "\n" +
					`{"__REALTIME_TIMESTAMP":"1795952867300444","MESSAGE":["one",[7],null]}` + "\n" +
					`{"__REALTIME_TIMESTAMP":"1795952867400444","_PID":"1"}` + "\n"),
			want: map[string]string{"output": "plain\n\x1b[31m\xff\none\n\a\n"},
		},
		{
			name: "journald export text and binary", data: cat(
				[]byte("__CURSOR=s=1\n__REALTIME_TIMESTAMP=1795952867100444\nMESSAGE=plain\nPRIORITY=6\n\n"),
				[]byte("__CURSOR=s=2\n__REALTIME_TIMESTAMP=1795952867200444\n"), journalBinary("MESSAGE", []byte("two\nlines \x1b[31m\xff")), []byte("\n")),
			want: map[string]string{"output": "plain\ntwo\nlines \x1b[31m\xff\n"},
		},
		{
			name: "journald export binary past the end", format: "journald-export", data: cat(
				[]byte("__CURSOR=s=1\nMESSAGE=a\n\nMESSAGE\n"), binary.LittleEndian.AppendUint64(nil, 1<<40), []byte("x\n")),
			want: map[string]string{"output": "a\n"}, warn: "capture offset 24: binary field of 1099511627776 bytes runs past the end",
		},
		{
			name: "journald export not a field", format: "journald-export", data: []byte("__CURSOR=s=1\nnot a field\nMESSAGE=a\n"),
			want: map[string]string{"output": "a\n"}, warn: "capture offset 13: not a journal export field",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := loadBytes(t, tt.data, tt.format, nil, OpenOptions{})
			got := map[string]string{}
			var removed []Removal
			for i := range c.Streams {
				got[c.Streams[i].Name] = string(streamBytes(t, &c.Streams[i]))
				removed = append(removed, c.Streams[i].Removed...)
			}
			if len(got) != len(tt.want) {
				t.Errorf("streams %q, want %q", got, tt.want)
			}
			for k, v := range tt.want {
				if got[k] != v {
					t.Errorf("stream %s = %q, want %q", k, got[k], v)
				}
			}
			if tt.warn == "" && len(c.Warnings) > 0 || tt.warn != "" && !warned(c, tt.warn) {
				t.Errorf("warnings %v, want one with %q", c.Warnings, tt.warn)
			}
			if len(removed) != len(tt.removed) || len(removed) > 0 && removed[0] != tt.removed[0] {
				t.Errorf("removed %+v, want %+v", removed, tt.removed)
			}
		})
	}
}

// TestLogRefused: a docker json-file or journalctl -o json log with a line
// that does not load whole is refused with the line's number, sniffed or
// given by --format, and format raw reads the same bytes as they are.
func TestLogRefused(t *testing.T) {
	const (
		dockerOK  = `{"log":"a\n","stream":"stdout","time":"2026-11-29T11:47:47Z"}` + "\n"
		journalOK = `{"__CURSOR":"s=1","__REALTIME_TIMESTAMP":"1795952867100444","MESSAGE":"ok"}` + "\n"
	)
	tests := []struct {
		name, format string // format as given by --format; the first line also sniffs as it
		data         string
		line         int
		err          string
	}{
		{"docker truncated line", "docker", dockerOK + `{"log":"\u001b]52;c;eA==\u0007","stream":"std`, 2, "not a docker json-file entry (malformed or truncated JSON)"},
		{"docker malformed line", "docker", dockerOK + dockerOK + `{"log":"b\n",,"stream":"stdout"}` + "\n" + dockerOK, 3, "not a docker json-file entry (malformed or truncated JSON)"},
		{"docker not JSON", "docker-json", dockerOK + "\x1b]52;c;eA==\a\n", 2, "not a docker json-file entry (not the expected JSON object)"},
		{"docker unknown member", "docker", dockerOK + `{"log":"b","stream":"stdout","time":"2026-11-29T11:47:47Z","secret":"zz"}` + "\n", 2, "not the expected JSON object"},
		{"docker other stream", "docker", dockerOK + `{"log":"b","stream":"stdin","time":"2026-11-29T11:47:47Z"}`, 2, "names a stream other than stdout and stderr"},
		{"journald truncated line", "journald", journalOK + `{"__CURSOR":"s=2","MESSAGE":"abc`, 2, "not a journal entry (malformed or truncated JSON)"},
		{"journald malformed line", "journald-json", journalOK + `{"__CURSOR":"s=2" "MESSAGE":"abc"}` + "\n" + journalOK, 2, "not a journal entry (malformed or truncated JSON)"},
		{"journald byte out of range", "journald", journalOK + `{"__CURSOR":"s=2","MESSAGE":[27,93,53,50,256]}` + "\n" + journalOK, 2, "MESSAGE byte array holds a value that is not an integer from 0 to 255"},
		{"journald negative byte", "journald", journalOK + journalOK + `{"__CURSOR":"s=3","MESSAGE":[-1]}` + "\n", 3, "MESSAGE byte array"},
		{"journald fractional byte", "journald", journalOK + `{"__CURSOR":"s=2","MESSAGE":[1e1]}` + "\n", 2, "MESSAGE byte array"},
		{"journald bad time", "journald", journalOK + `{"__REALTIME_TIMESTAMP":"soon","MESSAGE":"x"}` + "\n", 2, "__REALTIME_TIMESTAMP is not a count of microseconds"},
	}
	for _, tt := range tests {
		for _, format := range []string{tt.format, ""} {
			t.Run(tt.name+"/format="+format, func(t *testing.T) {
				c, err := Load(strings.NewReader(tt.data), int64(len(tt.data)), OpenOptions{Format: format})
				var le *LineError
				if !errors.As(err, &le) || le.Line != tt.line || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("Load = %v, %v; want a *LineError for line %d with %q", c, err, tt.line, tt.err)
				}
				if want := "line " + strconv.Itoa(tt.line) + ": "; !strings.Contains(err.Error(), want) {
					t.Errorf("error %q does not name %q", err, want)
				}
			})
		}
		t.Run(tt.name+"/format=raw", func(t *testing.T) {
			c := loadBytes(t, []byte(tt.data), "raw", nil, OpenOptions{})
			if got := string(streamBytes(t, c.Stream(StreamOutput))); got != tt.data {
				t.Errorf("raw stream %q, want the input %q", got, tt.data)
			}
		})
	}
}

// TestLogLongLine: a line over MaxLine refuses a docker log too.
func TestLogLongLine(t *testing.T) {
	l := newLoader(strings.NewReader(""), 0, OpenOptions{})
	data := `{"log":"a\n","stream":"stdout","time":"2026-11-29T11:47:47Z"}` + "\n" + strings.Repeat("x", 100) + "\n"
	lr := newLineReader(strings.NewReader(data))
	lr.maxLine = 80
	err := l.readLines(lr, func([]byte) error { return nil })
	var le *LineError
	if !errors.As(err, &le) || le.Line != 2 || err.Error() != "line 2: line longer than 80 bytes" {
		t.Errorf("readLines = %v, want line 2 refused as longer than 80 bytes", err)
	}
}

func TestReadInput(t *testing.T) {
	if b, err := ReadInput(strings.NewReader("abcd"), 4); err != nil || string(b) != "abcd" {
		t.Errorf("at the cap: %q %v", b, err)
	}
	if _, err := ReadInput(strings.NewReader("abcde"), 4); !errors.Is(err, ErrInputTooLarge) || !strings.Contains(err.Error(), "more than 4 bytes") {
		t.Errorf("over the cap: %v", err)
	}
}

// badJenkinsNote is jenkinsNote(mac) with its decoded body or its base64
// text corrupted by how.
func badJenkinsNote(mac int, how string) []byte {
	note := jenkinsNote(mac)
	b64 := note[len(jenkinsPreamble) : len(note)-len(jenkinsPostamble)]
	body, _ := base64.StdEncoding.DecodeString(string(b64))
	switch how {
	case "mac": // a MAC longer than the body
		binary.BigEndian.PutUint32(body, uint32(-int32(len(body))))
	case "length": // a data length one byte short
		i := 4 + mac
		binary.BigEndian.PutUint32(body[i:], binary.BigEndian.Uint32(body[i:])-1)
	case "base64": // a base64 text cut short of its last quantum
		return cat(jenkinsPreamble, b64[:len(b64)-1], jenkinsPostamble)
	}
	return cat(jenkinsPreamble, []byte(base64.StdEncoding.EncodeToString(body)), jenkinsPostamble)
}

// TestJenkinsMalformedNote: a log whose only ConsoleNote is malformed
// sniffs as Jenkins, and the sniffed reading is refused with a SniffError
// whose warning names the note's offset and whose hint names --format raw
// and --format jenkins; asked for, jenkins keeps the note as text and
// warns the same.
func TestJenkinsMalformedNote(t *testing.T) {
	dir := t.TempDir()
	for _, how := range []string{"mac", "length", "base64"} {
		t.Run(how, func(t *testing.T) {
			data := cat([]byte("Started by user admin\n"), badJenkinsNote(32, how), []byte("Building\n"))
			path := filepath.Join(dir, how+".log")
			if err := os.WriteFile(path, data, 0o644); err != nil {
				t.Fatal(err)
			}
			wantWarn := "capture offset 22: Jenkins ConsoleNote preamble without a well-formed note; kept as text"
			in, err := OpenArg(path, ArgOptions{})
			if err != nil {
				t.Fatal(err)
			}
			defer in.Close()
			var se *SniffError
			if err := in.CheckSniff(); !errors.As(err, &se) {
				t.Fatalf("sniffed as %v, CheckSniff() = %v; want a SniffError", in.Capture.Format, err)
			}
			wantHint := "--format raw cleans the file's bytes as they are; --format jenkins accepts the jenkins reading"
			if se.Format != FormatJenkins || se.Warning.String() != wantWarn || se.Hint() != wantHint {
				t.Errorf("SniffError{%v, %q}, hint %q; want jenkins, %q, %q", se.Format, se.Warning, se.Hint(), wantWarn, wantHint)
			}
			c, err := Load(bytes.NewReader(data), int64(len(data)), OpenOptions{Format: "jenkins"})
			if err != nil {
				t.Fatal(err)
			}
			got, _ := io.ReadAll(c.Streams[0].Reader())
			if !bytes.Equal(got, data) || len(c.Warnings) != 1 || c.Warnings[0].String() != wantWarn || c.Streams[0].Removed != nil {
				t.Errorf("--format jenkins: %q, warnings %v, removed %v; want the bytes kept and %q", got, c.Warnings, c.Streams[0].Removed, wantWarn)
			}
			// The note kept as text is counted, so that a gate can fail on it.
			wantAnomalies := []Anomaly{{Class: "jenkins_note_malformed", Count: 1, FirstOffset: 22}}
			if !reflect.DeepEqual(c.Streams[0].Anomalies, wantAnomalies) {
				t.Errorf("--format jenkins: anomalies %+v, want %+v", c.Streams[0].Anomalies, wantAnomalies)
			}
		})
	}
	// Among well-formed notes, the malformed ones are counted with the
	// offset of the first, the well-formed ones removed.
	good := jenkinsNote(0)
	data := cat(good, []byte("a\n"), badJenkinsNote(32, "mac"), good, badJenkinsNote(16, "length"), badJenkinsNote(32, "base64"))
	c, err := Load(bytes.NewReader(data), int64(len(data)), OpenOptions{Format: "jenkins"})
	if err != nil {
		t.Fatal(err)
	}
	first := int64(len(good) + 2)
	want := []Anomaly{{Class: "jenkins_note_malformed", Count: 3, FirstOffset: first}}
	if st := c.Streams[0]; !reflect.DeepEqual(st.Anomalies, want) || len(st.Removed) != 1 || st.Removed[0].Count != 2 {
		t.Errorf("mixed notes: anomalies %+v, removed %+v; want %+v and 2 notes removed", st.Anomalies, st.Removed, want)
	}
}
