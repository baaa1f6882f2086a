package capture

import (
	"encoding/json"
	"os"
	"slices"
	"testing"
)

// keys returns the sorted keys of a JSON object.
func keys(t *testing.T, raw json.RawMessage) []string {
	t.Helper()
	var m map[string]json.RawMessage
	if err := json.Unmarshal(raw, &m); err != nil {
		t.Fatal(err)
	}
	var ks []string
	for k := range m {
		ks = append(ks, k)
	}
	slices.Sort(ks)
	return ks
}

// TestSchemaMatchesEnvelope keeps docs/envelope.schema.json and the
// Envelope type in step: the same fields at each level, every field
// required but those an envelope may omit (decision, store_error,
// isolated, the tails and what they omit).
func TestSchemaMatchesEnvelope(t *testing.T) {
	b, err := os.ReadFile("../docs/envelope.schema.json")
	if err != nil {
		t.Fatal(err)
	}
	var schema struct {
		Properties json.RawMessage `json:"properties"`
		Required   []string        `json:"required"`
		Defs       map[string]struct {
			Properties json.RawMessage `json:"properties"`
			Required   []string        `json:"required"`
		} `json:"$defs"`
	}
	if err := json.Unmarshal(b, &schema); err != nil {
		t.Fatal(err)
	}
	env := Envelope{Decision: json.RawMessage(`{}`), Chunks: []EnvelopeChunk{{}}, StoreError: "x", Isolated: true,
		StdoutOmitted: &Omitted{Excerpt: "x"}, StdoutTail: "x", StderrOmitted: &Omitted{}, StderrTail: "x"}
	js, _ := json.Marshal(env)
	var got struct {
		Streams       struct{ Stdout json.RawMessage } `json:"streams"`
		Chunks        []json.RawMessage                `json:"chunks"`
		Limits        json.RawMessage                  `json:"limits"`
		StdoutOmitted json.RawMessage                  `json:"stdout_omitted"`
	}
	json.Unmarshal(js, &got)

	check := func(level string, schemaProps json.RawMessage, required []string, instance json.RawMessage, optional ...string) {
		t.Helper()
		want := keys(t, instance)
		if have := keys(t, schemaProps); !slices.Equal(have, want) {
			t.Errorf("%s: schema properties %v, envelope fields %v", level, have, want)
		}
		req := slices.Clone(required)
		slices.Sort(req)
		want = slices.DeleteFunc(want, func(k string) bool { return slices.Contains(optional, k) })
		if !slices.Equal(req, want) {
			t.Errorf("%s: schema requires %v, want %v", level, req, want)
		}
	}
	check("envelope", schema.Properties, schema.Required, js, "decision", "store_error", "isolated", "stdout_omitted", "stdout_tail", "stderr_omitted", "stderr_tail")
	limits := limitsSchema(t, schema.Properties)
	check("limits", limits.Properties, limits.Required, got.Limits)
	check("omitted", schema.Defs["omitted"].Properties, schema.Defs["omitted"].Required, got.StdoutOmitted, "excerpt")
	check("stream", schema.Defs["stream"].Properties, schema.Defs["stream"].Required, got.Streams.Stdout)
	check("chunk", schema.Defs["chunk"].Properties, schema.Defs["chunk"].Required, got.Chunks[0])
}

// limitsSchema returns the properties and required list of the schema's
// inline limits object.
func limitsSchema(t *testing.T, props json.RawMessage) (l struct {
	Properties json.RawMessage `json:"properties"`
	Required   []string        `json:"required"`
}) {
	t.Helper()
	var m map[string]json.RawMessage
	if err := json.Unmarshal(props, &m); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(m["limits"], &l); err != nil {
		t.Fatal(err)
	}
	return l
}

func TestCompactEnvelope(t *testing.T) {
	tests := []struct{ in, want string }{
		{`{"schema":"s","exit_code":0,"a":0,"b":false,"c":"","d":null,"e":[],"f":{},"g":{"x":0,"y":{"z":false}}}` + "\n", `{"schema":"s","exit_code":0}` + "\n"},
		{`{"a":1,"b":true,"c":"x","d":[0,{"k":0}],"e":{"x":0,"y":2},"n":-0.0,"m":1e0,"z":0e5}`, `{"a":1,"b":true,"c":"x","d":[0,{"k":0}],"e":{"y":2},"m":1e0}`},
		{`{"chunks":[{"seq":1}],"chunks_omitted":3,"s":"a\"b\\","inner":{"chunks":1}}`, `{"s":"a\"b\\","inner":{"chunks":1}}`},
		{` { "a" : 1 , "b" : [ 1 , 2 ] } `, `{"a":1,"b":[1,2]}`},
	}
	for _, tt := range tests {
		got, err := CompactEnvelope([]byte(tt.in))
		if err != nil || string(got) != tt.want {
			t.Errorf("CompactEnvelope(%s) = %s, %v; want %s", tt.in, got, err, tt.want)
		}
	}
	for _, bad := range []string{``, `[]`, `{"a":}`, `{"a":1,}`, `{"a":1 "b":2}`, `{"a":"x`, `{"a":[1 2]}`, `{"a":1}x`} {
		if got, err := CompactEnvelope([]byte(bad)); err == nil {
			t.Errorf("CompactEnvelope(%s) = %s, want an error", bad, got)
		}
	}
}
