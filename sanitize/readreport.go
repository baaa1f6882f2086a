package sanitize

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
)

// ErrNotReport is returned by ReadReports for JSON (or other bytes) that
// is not a bytelens report.
var ErrNotReport = errors.New("not a bytelens report")

// StreamReport is the report of one named stream of a capture, as an
// element of the array that report --json writes for a capture with
// several streams.
type StreamReport struct {
	Stream string `json:"stream"`
	Report
}

// ReadReports parses b (a UTF-8 byte order mark is skipped) as report
// JSON: an object with "schema": Schema, returned as one StreamReport
// with Stream "", or a non-empty array of such objects with a "stream"
// each. It returns ErrNotReport for anything else, and an error for a
// bytelens report of another schema version or a malformed one, or one
// with a string (or key) that cleaning changes: a control, a format
// character the default policy strips, invalid UTF-8.
func ReadReports(b []byte) ([]StreamReport, error) {
	b = bytes.TrimPrefix(b, []byte("\xef\xbb\xbf"))
	var probe struct {
		Schema string `json:"schema"`
	}
	var probes []struct {
		Schema string `json:"schema"`
	}
	var schema string
	if json.Unmarshal(b, &probe) == nil {
		schema = probe.Schema
	} else if json.Unmarshal(b, &probes) == nil && len(probes) > 0 {
		schema = probes[0].Schema
	}
	switch {
	case schema == Schema:
	case strings.HasPrefix(schema, "bytelens.report/"):
		return nil, fmt.Errorf("report schema %s is not supported (want %s)", schema, Schema)
	default:
		return nil, ErrNotReport
	}
	var all any
	if json.Unmarshal(b, &all) != nil || !CleanJSON(all, Options{}) {
		return nil, errors.New("bad report: a string or key holds control or format characters (bytelens writes none)")
	}
	if probes == nil {
		reps := make([]StreamReport, 1)
		if err := json.Unmarshal(b, &reps[0].Report); err != nil {
			return nil, fmt.Errorf("bad report: %v", err)
		}
		return reps, nil
	}
	var reps []StreamReport
	if err := json.Unmarshal(b, &reps); err != nil {
		return nil, fmt.Errorf("bad report: %v", err)
	}
	for _, r := range reps {
		if r.Schema != Schema {
			return nil, fmt.Errorf("stream %s: report schema %s is not supported", r.Stream, r.Schema)
		}
	}
	return reps, nil
}

// CleanJSON reports whether every string of the decoded JSON value v
// (what json.Unmarshal gives an any), object keys included, is one that
// Text leaves unchanged under o: no control, no format character o
// strips, no invalid UTF-8. Files bytelens wrote from cleaned text (a
// report, excerpt's meta.json) pass; strings in them reach JSON outputs
// and agents as they are, so a file that fails is refused.
func CleanJSON(v any, o Options) bool {
	return EveryJSONString(v, func(s string) bool { return Text(s, o) == s })
}

// EveryJSONString reports whether ok holds for every string of the
// decoded JSON value v (what json.Unmarshal gives an any), object keys
// included; it stops at the first that fails. It is the one walk over a
// decoded document's strings, for the checks that a file read back or
// a message on its way out holds nothing cleaning would change.
func EveryJSONString(v any, ok func(string) bool) bool {
	switch v := v.(type) {
	case string:
		return ok(v)
	case []any:
		for _, e := range v {
			if !EveryJSONString(e, ok) {
				return false
			}
		}
	case map[string]any:
		for k, e := range v {
			if !ok(k) || !EveryJSONString(e, ok) {
				return false
			}
		}
	}
	return true
}

// PickReport returns the report of stream among reps, or the first when
// stream is "" or reps is a single report without a stream name; false
// when stream names none of them.
func PickReport(reps []StreamReport, stream string) (StreamReport, bool) {
	if stream == "" || len(reps) == 1 && reps[0].Stream == "" {
		return reps[0], true
	}
	for _, r := range reps {
		if r.Stream == stream {
			return r, true
		}
	}
	return StreamReport{}, false
}
