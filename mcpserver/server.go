// Package mcpserver is bytelens as a Model Context Protocol server, on the
// official Go SDK (github.com/modelcontextprotocol/go-sdk). Its tools give
// an agent cleaned text only:
//
//	run      run a command through the collector (capture.Run: pipes, no
//	         terminal, a time limit) and return the cleaned head and tail of
//	         each stream with a reference to the record
//	excerpt  cleaned lines of a record by range or by search, each with its
//	         raw byte span
//	report   the removal report of a record or of a line range
//	verify   whether a file holds the bytes of a record (digests only)
//
// No tool returns raw bytes, hex of control strings or payloads. Every
// result is structuredContent (with an output schema) plus a short text
// form. Every byte the server writes to its output is JSON-RPC, passed
// through safejson.Escape so that no C1, U+2028, U+2029 or format
// character reaches the client unescaped, whatever the SDK's encoder does;
// logs go to their own writer, each line through render.Line.
package mcpserver

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"reflect"
	"sync"
	"time"

	"github.com/bytelens/bytelens/capture"
	"github.com/bytelens/bytelens/capture/store"
	"github.com/bytelens/bytelens/excerpt"
	"github.com/bytelens/bytelens/render"
	"github.com/bytelens/bytelens/safejson"
	"github.com/bytelens/bytelens/sanitize"
	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// DefaultTimeout is the run tool's time limit when the call gives none.
const DefaultTimeout = 120 * time.Second

// MaxTimeout is the longest time limit a run call may ask for.
const MaxTimeout = time.Hour

// MaxSearch is the longest an excerpt call's search runs: its cost is the
// text's length times the pattern's RE2 program, and the caller chooses
// the pattern (excerpt.Record.Grep). A client's cancellation stops it
// sooner.
const MaxSearch = 30 * time.Second

// Options configures a server. The zero value runs commands without a
// store (no records: excerpt, report and verify then fail).
type Options struct {
	// Store keeps the raw artifacts and cleaned text; nil keeps none.
	// The server sets its sidecar (excerpt.Sidecar) under Sanitize.
	Store *store.Store
	// StoreErr, when Store is nil, says why (shown in tool errors).
	StoreErr error
	// Sanitize is the cleaning policy.
	Sanitize sanitize.Options
	// MaxOutput and MaxRaw are capture.RunOptions' limits (0: defaults).
	MaxOutput, MaxRaw int64
	// Isolate runs every command in its own namespaces
	// (capture.RunOptions.Isolate); where they are unavailable each run
	// call fails and says so.
	Isolate bool
	// Log receives the server's log lines, each made safe by render.Line;
	// nil discards them. Only warnings and errors are written unless
	// LogInfo is set: the SDK logs an INFO line per client session, and a
	// healthy server should leave its client's stderr quiet.
	Log *render.Writer
	// LogInfo writes INFO lines to Log too.
	LogInfo bool
	// Version is reported to clients.
	Version string
}

// New returns the server with its four tools.
func New(o Options) *mcp.Server {
	if o.Store != nil {
		o.Store.SetSidecar(excerpt.Sidecar(o.Sanitize))
	}
	if o.Version == "" {
		o.Version = "dev"
	}
	var logger *slog.Logger
	if o.Log != nil {
		level := slog.LevelWarn
		if o.LogInfo {
			level = slog.LevelInfo
		}
		logger = slog.New(slog.NewTextHandler(&safeLines{w: o.Log}, &slog.HandlerOptions{Level: level}))
	}
	s := mcp.NewServer(&mcp.Implementation{Name: "bytelens", Version: o.Version},
		&mcp.ServerOptions{Logger: logger, Capabilities: &mcp.ServerCapabilities{},
			Instructions: "Run commands through bytelens to read their output as cleaned text: terminal control traffic removed and reported, never replayed. Ask for more of a long output with excerpt (by line range or search); each line carries the raw byte span it came from."})
	s.AddReceivingMiddleware(safeToolErrors, validErrorData)
	t := &tools{o: o}
	mcp.AddTool(s, &mcp.Tool{Name: "run", InputSchema: runInSchema, OutputSchema: runSchema, Description: "Run a command (argv, no shell) with pipes and a time limit (default 120 s). Returns the compact envelope (schema bytelens.envelope, zero counters and empty fields left out): the cleaned stdout and stderr, head and tail when long, with the lines left out; what was removed; the exit status; and raw_artifact, the ref to pass to excerpt, report and verify."}, t.run)
	mcp.AddTool(s, &mcp.Tool{Name: "excerpt", OutputSchema: excerptSchema, Description: "Cleaned lines of a record: lines from..to (1-based, at most 200 lines or 16 KiB per call), or with pattern the lines matching it (literal, or RE2 with regex) with context lines, at most 50 matches per call, a search stopped after " + MaxSearch.String() + "; next continues. Each line has its number and raw byte span."}, t.excerpt)
	mcp.AddTool(s, &mcp.Tool{Name: "report", OutputSchema: reportSchema, Description: "The removal report of a record (every stream), or with stream, from and to, of one line range: its raw span, byte counts and findings."}, t.report)
	mcp.AddTool(s, &mcp.Tool{Name: "verify", OutputSchema: verifySchema, Description: "Does the file at path hold the same bytes as the record (the raw artifact) or one of its raw streams? Compares SHA-256 digests; returns no bytes."}, t.verify)
	return s
}

// typeSchemas are the schemas of types jsonschema cannot infer:
// sanitize.Report counts OSC strings in a map keyed by command number,
// which JSON writes as an object with numeric names; the envelope's
// decision is any JSON value; and a render.Safe (a name) is written as a
// string (Safe.MarshalJSON). The decision is written as an object with a
// description, not as the empty schema: jsonschema marshals an empty
// Schema as `true`, which the TypeScript SDK's clients reject.
var typeSchemas = map[reflect.Type]*jsonschema.Schema{
	reflect.TypeFor[map[int32]int64](): {Type: "object", AdditionalProperties: &jsonschema.Schema{Type: "integer"}},
	reflect.TypeFor[json.RawMessage](): {Description: "any JSON value"},
	reflect.TypeFor[render.Safe]():     {Type: "string"},
}

// reportSchema, excerptSchema and verifySchema are the output schemas of
// those tools, given to the SDK, which would infer them without
// typeSchemas.
var (
	reportSchema  = schemaFor[ReportOut](false)
	excerptSchema = schemaFor[excerpt.Excerpt](false)
	verifySchema  = schemaFor[VerifyOut](false)
)

// runInSchema is RunIn's, with argv an array of at least one string:
// jsonschema gives a Go slice the type ["null", "array"], with which
// clients that convert arguments by the schema's type (the MCP inspector
// CLI's --tool-arg) pass argv as a string.
var runInSchema = func() *jsonschema.Schema {
	s := schemaFor[RunIn](false)
	argv := s.Properties["argv"]
	argv.Types, argv.Type, argv.MinItems = nil, "array", jsonschema.Ptr(1)
	return s
}()

// runSchema is the compact envelope's: capture.Envelope's with no
// property required, since compaction leaves out zero and empty ones.
var runSchema = schemaFor[capture.Envelope](true)

func schemaFor[T any](optional bool) *jsonschema.Schema {
	s, err := jsonschema.For[T](&jsonschema.ForOptions{TypeSchemas: typeSchemas})
	if err != nil {
		panic(err)
	}
	if optional {
		unrequire(s)
	}
	return s
}

// unrequire drops the required properties of s and its subschemas.
func unrequire(s *jsonschema.Schema) {
	if s == nil {
		return
	}
	s.Required = nil
	for _, p := range s.Properties {
		unrequire(p)
	}
	unrequire(s.Items)
	unrequire(s.AdditionalProperties)
}

// Serve runs the server on in and out (newline-delimited JSON-RPC, as on
// stdio) until the client disconnects or ctx ends. out receives JSON-RPC
// only, through safejson.Escape; lines the SDK could not decode are
// answered with a JSON-RPC error instead of ending the session. Serve
// never closes in or out (the process's standard streams).
func Serve(ctx context.Context, in io.Reader, out io.Writer, o Options) error {
	calls := new(openCalls)
	ew := &escapeWriter{w: out, calls: calls}
	log := io.Discard
	if o.Log != nil {
		log = &safeLines{w: o.Log}
	}
	gr := io.NopCloser(newGuardReader(ctx, in, ew, log, calls))
	return New(o).Run(ctx, &mcp.IOTransport{Reader: gr, Writer: ew, MaxLineLength: MaxRequest + 1})
}

// escapeWriter passes each newline-ended JSON text written to it through
// safejson.Escape. A text not yet ended is held until its newline. Each
// answer written, or a failed write, is counted off calls.
type escapeWriter struct {
	mu    sync.Mutex
	w     io.Writer
	calls *openCalls
	buf   []byte
}

func (e *escapeWriter) Write(p []byte) (int, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	n := len(p)
	for len(p) > 0 {
		i := bytes.IndexByte(p, '\n')
		if i < 0 {
			e.buf = append(e.buf, p...)
			break
		}
		line := p[:i+1]
		if len(e.buf) > 0 {
			line = append(e.buf, line...)
		}
		if _, err := e.w.Write(safejson.Escape(safeErrorMessage(line))); err != nil {
			e.calls.fail()
			return 0, err
		}
		e.calls.add(-countMessages(line, isAnswer))
		e.buf, p = e.buf[:0], p[i+1:]
	}
	return n, nil
}

// Close writes a text not yet ended; it never closes w.
func (e *escapeWriter) Close() error {
	e.mu.Lock()
	defer e.mu.Unlock()
	if len(e.buf) > 0 {
		e.w.Write(safejson.Escape(e.buf))
		e.buf = nil
	}
	return nil
}

// safeErrorMessage returns line, one JSON-RPC message and its LF, with
// the message of its error, if it is an error answer, passed through
// render.Line. The SDK writes some errors where no middleware sees them
// (an unknown method is answered by its JSON-RPC layer) and quotes the
// client's tool, prompt or method name with %q, which escapes controls
// but keeps the invisible characters Go counts as printable (variation
// selectors, Hangul fillers, U+034F). A tool's error is a result, not a
// JSON-RPC error, and is escaped by safeToolErrors instead. A batch's
// answer, an array (protocol 2025-03-26), has each of its errors' messages
// passed through render.Line.
func safeErrorMessage(line []byte) []byte {
	if !bytes.Contains(line, []byte(`"error"`)) {
		return line
	}
	batch, ok := splitBatch(line)
	if !ok {
		if js, ok := safeMessage(line); ok {
			return append(js, '\n')
		}
		return line
	}
	changed := false
	for i, m := range batch {
		if js, ok := safeMessage(m); ok {
			batch[i], changed = js, true
		}
	}
	if !changed {
		return line
	}
	js := []byte{'['}
	for i, m := range batch {
		if i > 0 {
			js = append(js, ',')
		}
		js = append(js, m...)
	}
	return append(js, ']', '\n')
}

// safeMessage returns msg, one JSON-RPC message, encoded again with its
// error's message passed through render.Line, and true; or false when
// that would not change it.
func safeMessage(msg []byte) ([]byte, bool) {
	m, err := jsonrpc.DecodeMessage(msg)
	r, ok := m.(*jsonrpc.Response)
	if err != nil || !ok {
		return nil, false
	}
	je, ok := r.Error.(*jsonrpc.Error)
	if !ok || je == nil {
		return nil, false
	}
	safe := render.Line([]byte(je.Message)).String()
	if safe == je.Message {
		return nil, false
	}
	je.Message = safe
	js, err := jsonrpc.EncodeMessage(r)
	return js, err == nil
}

// safeLines writes each line given to it through render.Line.
type safeLines struct {
	mu sync.Mutex
	w  *render.Writer
}

func (s *safeLines) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for line := range bytes.Lines(p) {
		s.w.Println(render.TextString("bytelens mcp: "), render.Line(bytes.TrimSuffix(line, []byte("\n"))))
	}
	return len(p), nil
}

// validErrorData drops the data of a JSON-RPC error that is not valid
// JSON, or holds a string render.Line would change (plainData). The SDK writes the data of its error for resources/read by hand
// (go-sdk 1.8.0 ResourceNotFoundError: `{"uri":%q}`), which spells a C0
// control or DEL in the client's URI as Go does ("\x1b"): its encoder
// then fails on the answer and ends the session, so that one request
// with a URI of "x\u0007" stopped the server for every later call.
func validErrorData(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		res, err := next(ctx, method, req)
		var je *jsonrpc.Error
		if errors.As(err, &je) && len(je.Data) > 0 && !plainData(je.Data) {
			err = &jsonrpc.Error{Code: je.Code, Message: je.Message}
		}
		return res, err
	}
}

// plainData reports whether data is JSON whose strings, object keys
// included, render.Line leaves as they are. The SDK's data quotes the
// client's URI with %q, which keeps the invisible characters Go counts
// as printable (U+FE0F, U+115F): such data is left out, as the message
// that goes with it says what failed.
func plainData(data json.RawMessage) bool {
	var v any
	if json.Unmarshal(data, &v) != nil {
		return false
	}
	return sanitize.EveryJSONString(v, func(s string) bool { return render.Line([]byte(s)).String() == s })
}

// safeToolErrors passes the text of every tools/call error result through
// render.Line. The SDK writes its own errors there, and the one for
// arguments that fail the input schema quotes the client's value
// ("type: \u009b\u202e has type string"): escaped on the wire, but once
// decoded a C1 control or a bidi override that the client or the model
// reads, and the tools' own errors quote command names and paths as they
// are. This is the one place a tool error is escaped: render.Line marks
// its own glyphs in text it is given (␛ becomes <U+241B>), so an error
// escaped twice would misquote a path.
func safeToolErrors(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		res, err := next(ctx, method, req)
		if r, ok := res.(*mcp.CallToolResult); ok && r != nil && r.IsError {
			for _, c := range r.Content {
				if tc, ok := c.(*mcp.TextContent); ok {
					tc.Text = render.Line([]byte(tc.Text)).String()
				}
			}
		}
		return res, err
	}
}
