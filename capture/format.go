package capture

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// Format is a capture file format.
type Format uint8

// Formats that [Open] recognises. The zero value is FormatRaw.
const (
	// FormatRaw is an unframed byte stream: a pipe capture, tmux
	// pipe-pane, asciinema --raw, or any file no other loader claims.
	FormatRaw Format = iota
	// FormatAsciicastV1 is asciinema 1.x: one JSON object with a "stdout"
	// array of [delay, data] frames (docs.asciinema.org/manual/asciicast/v1).
	FormatAsciicastV1
	// FormatAsciicastV2 is newline-delimited JSON: a header object, then
	// [time, code, data] events with absolute times
	// (docs.asciinema.org/manual/asciicast/v2).
	FormatAsciicastV2
	// FormatAsciicastV3 is like v2 with interval times, a "term" header
	// object, "x" exit events and "#" comment lines
	// (docs.asciinema.org/manual/asciicast/v3).
	FormatAsciicastV3
	// FormatTTYRec is ttyrec: frames of a 12-byte little-endian header
	// (sec, usec, len as uint32) followed by len raw bytes.
	FormatTTYRec
	// FormatScript is a util-linux script(1) typescript without timing.
	FormatScript
	// FormatScriptTiming is a typescript with a classic timing file
	// ("<delay> <bytes>" lines).
	FormatScriptTiming
	// FormatScriptAdvanced is a typescript with an advanced (multi-stream)
	// timing file written by --log-timing (H, O, I and S lines).
	FormatScriptAdvanced
	// FormatGitHubActions is a GitHub Actions job log: lines prefixed with
	// an ISO 8601 UTC timestamp and a space.
	FormatGitHubActions
	// FormatGitLabCI is a GitLab CI job trace with in-band
	// section_start/section_end markers.
	FormatGitLabCI
	// FormatArtifact is the raw-evidence format of the bytelens collector
	// (package capture/store). It has no built-in loader yet: whoever
	// implements it installs one with [Register].
	FormatArtifact
	// FormatDockerJSON is a log of docker's json-file logging driver: one
	// JSON object per line, {"log": …, "stream": "stdout"|"stderr",
	// "time": RFC 3339}, the message bytes decoded from the JSON string.
	FormatDockerJSON
	// FormatTimestamped is a log whose every line starts with an RFC 3339
	// timestamp and a space, as `kubectl logs --timestamps` and
	// `docker logs --timestamps` print it; the prefixes become frame times
	// and are not part of the stream.
	FormatTimestamped
	// FormatJenkins is a Jenkins console log: text with ConsoleNotes
	// (ESC [8m ha:<base64> ESC [0m) that the loader takes out of the stream.
	FormatJenkins
	// FormatJournalJSON is `journalctl -o json`: one JSON object per entry,
	// MESSAGE a string, a byte array, null, or an array of such values.
	FormatJournalJSON
	// FormatJournalExport is `journalctl -o export`, the journal export
	// format: KEY=value lines, binary-safe fields with a 64-bit length, a
	// blank line after each entry.
	FormatJournalExport

	numFormats
)

var formatNames = [numFormats]string{
	FormatRaw:            "raw",
	FormatAsciicastV1:    "asciicast-v1",
	FormatAsciicastV2:    "asciicast-v2",
	FormatAsciicastV3:    "asciicast-v3",
	FormatTTYRec:         "ttyrec",
	FormatScript:         "script",
	FormatScriptTiming:   "script-timing",
	FormatScriptAdvanced: "script-advanced",
	FormatGitHubActions:  "github-actions",
	FormatGitLabCI:       "gitlab-ci",
	FormatArtifact:       "bytelens-artifact",
	FormatDockerJSON:     "docker-json",
	FormatTimestamped:    "timestamped",
	FormatJenkins:        "jenkins",
	FormatJournalJSON:    "journald-json",
	FormatJournalExport:  "journald-export",
}

// String returns the format's name as [ParseFormat] accepts it, such as
// "asciicast-v2".
func (f Format) String() string {
	if f < numFormats {
		return formatNames[f]
	}
	return "Format(" + strconv.Itoa(int(f)) + ")"
}

// Errors returned by [ParseFormat], [Open] and [Load]. They are wrapped;
// test with errors.Is.
var (
	// ErrUnknownFormat means a format name is not one ParseFormat knows.
	ErrUnknownFormat = errors.New("unknown capture format")
	// ErrIsDir means the path names a directory.
	ErrIsDir = errors.New("is a directory")
	// ErrNotRegular means the path names a device, pipe or socket; read it
	// into memory and use Load instead.
	ErrNotRegular = errors.New("not a regular file")
)

var formatAliases = map[string]Format{
	"cast":       FormatAsciicastV2,
	"asciicast":  FormatAsciicastV2,
	"asciinema":  FormatAsciicastV2,
	"tty":        FormatTTYRec,
	"typescript": FormatScript,
	"github":     FormatGitHubActions,
	"gitlab":     FormatGitLabCI,
	"artifact":   FormatArtifact,
	"docker":     FormatDockerJSON,
	"json-file":  FormatDockerJSON,
	"kubectl":    FormatTimestamped,
	"journald":   FormatJournalJSON,
	"journal":    FormatJournalJSON,
	"export":     FormatJournalExport,
}

// ParseFormat returns the format named name: a [Format.String] name or one
// of the aliases "cast", "asciicast", "asciinema", "tty", "typescript",
// "github", "gitlab", "artifact", "docker", "json-file", "kubectl",
// "journald", "journal" and "export". Names are case-insensitive. An unknown
// name gives an error wrapping ErrUnknownFormat.
//
// As an override in [OpenOptions], a name selects a loader family: any
// asciicast name loads v1, v2 or v3 as the header says, and any script name
// loads classic or advanced timing as the timing file says.
func ParseFormat(name string) (Format, error) {
	n := strings.ToLower(strings.TrimSpace(name))
	for f, s := range formatNames {
		if s == n {
			return Format(f), nil
		}
	}
	if f, ok := formatAliases[n]; ok {
		return f, nil
	}
	return 0, fmt.Errorf("%w %q (want one of %s)", ErrUnknownFormat, name, FormatNames())
}

// FormatNames lists the names ParseFormat accepts (aliases aside),
// comma-separated, for help texts and errors.
func FormatNames() string { return strings.Join(formatNames[:], ", ") }

// family groups the formats that share a loader.
func (f Format) family() Format {
	switch f {
	case FormatAsciicastV1, FormatAsciicastV3:
		return FormatAsciicastV2
	case FormatScriptTiming, FormatScriptAdvanced:
		return FormatScript
	}
	return f
}

// FormatList returns the names ParseFormat accepts (aliases aside), in
// the order of the Format constants.
func FormatList() []string { return slices.Clone(formatNames[:]) }
