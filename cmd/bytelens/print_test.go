package main

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// rawPrinting lists the functions that write text straight to an
// io.Writer. In this package text for people goes through render.Writer
// (streams.out, streams.stderr), whose arguments are escaped; data goes
// to streams.stdout through sanitize, safejson or render's dumps.
var rawPrinting = map[string][]string{
	"fmt": {"Fprint", "Fprintf", "Fprintln", "Print", "Printf", "Println"},
	"io":  {"WriteString"},
	"os":  {"Stdout", "Stderr"},
}

// TestNoRawPrinting fails when a non-test file of this package calls one
// of rawPrinting, or the print and println builtins: the way to print
// unescaped text is not there to take.
func TestNoRawPrinting(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		src, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, name, src, 0)
		if err != nil {
			t.Fatal(err)
		}
		if name == "main.go" {
			continue // the one place that hands os.Stdout and os.Stderr to run
		}
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.SelectorExpr:
				if id, ok := n.X.(*ast.Ident); ok {
					for _, fn := range rawPrinting[id.Name] {
						if n.Sel.Name == fn {
							t.Errorf("%s: %s.%s: print through streams.out or streams.stderr (render.Writer) instead", fset.Position(n.Pos()), id.Name, fn)
						}
					}
				}
			case *ast.CallExpr:
				if id, ok := n.Fun.(*ast.Ident); ok && (id.Name == "print" || id.Name == "println") {
					t.Errorf("%s: builtin %s", fset.Position(n.Pos()), id.Name)
				}
			}
			return true
		})
	}
}
