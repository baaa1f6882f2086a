package main

import (
	"strings"
	"testing"
)

// TestLogLineRefused: with --format docker or journald, as the README's
// stdin pipelines give it, a log line that does not load whole fails the
// command (exit 1) with its line number, so report --fail-on cannot pass
// an OSC 52 hidden in a skipped line; --format raw reports the bytes as
// they are.
func TestLogLineRefused(t *testing.T) {
	const (
		dockerOK  = `{"log":"a\n","stream":"stdout","time":"2026-11-29T11:47:47Z"}` + "\n"
		journalOK = `{"__CURSOR":"s=1","__REALTIME_TIMESTAMP":"1795952867100444","MESSAGE":"ok"}` + "\n"
		osc52     = "\x1b]52;c;eA==\a"
	)
	// docker writes the OSC 52 as JSON escapes; a doubled comma breaks the line.
	dockerBad := dockerOK + dockerOK + `{"log":"\u001b]52;c;eA==\u0007","stream":"stdout",,"time":"2026-11-29T11:47:48Z"}` + "\n" + dockerOK
	journalBad := journalOK + `{"__CURSOR":"s=2","MESSAGE":[27,93,53,50,59,99,59,256]}` + "\n" + `{"MESSAGE":"` + osc52
	tests := []cliCase{
		{name: "docker fail-on any", stdin: dockerBad, args: []string{"report", "--format", "docker", "--fail-on", "any"}, code: 1,
			stderr: "bytelens: error: read capture: line 3: not a docker json-file entry (malformed or truncated JSON)\n"},
		{name: "docker-json fail-on clipboard", stdin: dockerBad, args: []string{"report", "--format", "docker-json", "--fail-on", "clipboard"}, code: 1,
			stderr: "line 3: not a docker json-file entry"},
		{name: "docker clean", stdin: dockerBad, args: []string{"clean", "--format", "docker"}, code: 1, stderr: "line 3: "},
		{name: "journald byte out of range", stdin: journalBad, args: []string{"report", "--format", "journald", "--fail-on", "any"}, code: 1,
			stderr: "bytelens: error: read capture: line 2: MESSAGE byte array holds a value that is not an integer from 0 to 255\n"},
		{name: "journald-json truncated", stdin: journalOK + `{"MESSAGE":"` + osc52, args: []string{"report", "--format", "journald-json", "--fail-on", "clipboard"}, code: 1,
			stderr: "line 2: not a journal entry (malformed or truncated JSON)"},
		{name: "raw shows it", stdin: journalBad, args: []string{"report", "--format", "raw", "--fail-on", "clipboard"}, code: 1,
			contains: []string{"clipboard  1"}, stderr: "fail-on: stream output: clipboard at offset"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, errs := tc.run(t)
			if tc.code == 1 && strings.Count(errs, "bytelens: error:") > 1 {
				t.Errorf("more than one error line: %q", errs)
			}
		})
	}
}
