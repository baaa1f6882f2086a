// Package deps_test holds the layering rules of DESIGN.md as data and
// fails when an import breaks them.
package deps_test

import (
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

const module = "github.com/bytelens/bytelens/"

// allowed lists, for each package, the packages of this module and the
// outside modules its non-test files may import. The standard library is
// always allowed.
var allowed = map[string][]string{
	"decode":                        {},
	"ctlfunc":                       {"decode"},
	"safejson":                      {"decode"},
	"sanitize":                      {"decode", "ctlfunc", "screen", "golang.org/x/text/transform"},
	"render":                        {"decode", "ctlfunc", "sanitize", "screen", "internal/cellwidth", "golang.org/x/text/unicode/runenames"},
	"internal/cellwidth":            {},
	"screen":                        {"decode", "internal/cellwidth"},
	"capture/store":                 {"safejson"},
	"excerpt":                       {"sanitize", "render", "capture", "capture/store", "safejson"},
	"diff":                          {"sanitize", "render", "capture"},
	"extract":                       {"sanitize", "render", "capture/store", "excerpt", "github.com/mattn/go-isatty"},
	"version":                       {"render"},
	"iostreams":                     {"render", "github.com/mattn/go-isatty", "github.com/schollz/progressbar/v3", "golang.org/x/sys/unix"},
	"hook":                          {"safejson"},
	"dump":                          {"capture", "render", "iostreams", "safejson"},
	"seal":                          {"capture/store", "filippo.io/age"},
	"mcpserver":                     {"sanitize", "render", "capture", "capture/store", "excerpt", "safejson", "github.com/modelcontextprotocol/go-sdk/", "github.com/google/jsonschema-go/"},
	"internal/command":              {"sanitize", "render", "capture", "capture/store", "seal", "screen", "viewer", "github.com/spf13/cobra", "github.com/spf13/pflag"},
	"internal/job":                  {"sanitize", "render", "capture", "capture/store", "excerpt", "screen", "iostreams", "dump", "safejson", "internal/command"},
	"internal/hostile":              {},
	"internal/benchinput":           {"golang.org/x/sys/unix"},
	"internal/golden":               {},
	"internal/nsprobe":              {"golang.org/x/sys/unix"},
	"sanitize/internal/variantsgen": {},
	// capture's JSON output types (a stream's report, a corpus
	// comparison) hold the names that come from a file as render.Safe,
	// which only render can make; render imports nothing of capture, so
	// this makes no cycle (DESIGN.md had them side by side).
	"capture":                 {"decode", "sanitize", "render", "screen", "safejson", "capture/store", "golang.org/x/sys/unix"},
	"viewer/internal/noquery": {"github.com/charmbracelet/lipgloss"},
	"viewer": {"decode", "ctlfunc", "sanitize", "render", "capture", "capture/store", "screen", "viewer/internal/noquery", "golang.org/x/text/unicode/runenames",
		"github.com/charmbracelet/bubbletea", "github.com/charmbracelet/bubbles/",
		"github.com/charmbracelet/lipgloss", "github.com/charmbracelet/x/ansi", "github.com/muesli/termenv",
		"github.com/aymanbagabas/go-udiff/lcs"}, // compare mode's alignment of two captures
	"cmd/bytelens": {"decode", "sanitize", "render", "capture", "capture/store", "viewer", "diff", "extract", "version", "safejson", "excerpt", "mcpserver", "hook", "seal", "screen", "dump",
		"github.com/spf13/cobra", "github.com/spf13/pflag", "github.com/mattn/go-isatty", "iostreams",
		"internal/command", "internal/job"},
}

func TestLayers(t *testing.T) {
	seen := map[string]bool{}
	err := filepath.WalkDir(".", func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") ||
			strings.HasPrefix(path, "testdata") || strings.Contains(path, "/testdata/") {
			return err
		}
		pkg := filepath.ToSlash(filepath.Dir(path))
		rules, ok := allowed[pkg]
		if !ok {
			t.Errorf("%s: package %s has no layering rule in deps_test.go", path, pkg)
			return nil
		}
		seen[pkg] = true
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		for _, imp := range f.Imports {
			p, _ := strconv.Unquote(imp.Path.Value)
			if !permitted(p, rules) {
				t.Errorf("%s imports %s, which the layering forbids", path, p)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, pkg := range []string{"decode", "sanitize", "cmd/bytelens"} {
		if !seen[pkg] {
			t.Errorf("package %s not found", pkg)
		}
	}
}

// permitted reports whether import path p is allowed by rules.
func permitted(p string, rules []string) bool {
	first := strings.SplitN(p, "/", 2)[0]
	if !strings.Contains(first, ".") {
		return true // standard library
	}
	for _, r := range rules {
		full := r
		if !strings.Contains(strings.SplitN(r, "/", 2)[0], ".") {
			full = module + r
		}
		if p == full || strings.HasSuffix(full, "/") && strings.HasPrefix(p, full) {
			return true
		}
	}
	return false
}
