package safefile

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestEveryFileIsReadThroughSafefile checks the class, not cases: no
// program code of the module (tests, test helpers and this package aside)
// opens a file for reading with the os package, so every file a user
// names (scripts, data, merge files, solution caches, databases' headers)
// is read through this package: regular files only, opened without
// blocking, within a limit.
func TestEveryFileIsReadThroughSafefile(t *testing.T) {
	found := osCalls(t, map[string]bool{"ReadFile": true, "Open": true, "OpenFile": true, "ReadDir": false}, false)
	assert.Empty(t, found, "files read without host/safefile")
}

// TestEveryOutputIsWrittenThroughSafefile checks the class, not cases: no
// program code creates or truncates a file with the os package, so every
// output a user names (-o, --out, the charts of --plot) is written through
// this package: a named pipe no program reads fails at once instead of
// hanging, and a device, a pipe or a symbolic link is written through, not
// replaced by a renamed file. The solution caches, which rename files
// they made into folders of their own, are the exceptions.
func TestEveryOutputIsWrittenThroughSafefile(t *testing.T) {
	found := osCalls(t, map[string]bool{"Create": true, "WriteFile": true, "Rename": true, "OpenFile": true}, true)
	var out []string
	for _, f := range found {
		switch f {
		case filepath.Join("host", "solve", "cache.go") + ": os.Rename", filepath.Join("host", "server", "perfect.go") + ": os.Rename":
			continue // a cache's own file, made by CreateTemp in its folder
		}
		out = append(out, f)
	}
	assert.Empty(t, out, "files written without host/safefile")
}

// osCalls lists the calls of the os package's functions named in names by
// the module's program code ("FILE: os.NAME"). OpenFile counts when it
// opens for writing if writing is true, for reading otherwise.
func osCalls(t *testing.T, names map[string]bool, writing bool) []string {
	root := filepath.Join("..", "..")
	var found []string
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		if d.IsDir() {
			if strings.HasPrefix(d.Name(), ".") && rel != "." || d.Name() == "testdata" || rel == filepath.Join("host", "safefile") || d.Name() == "pgtest" {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.SkipObjectResolution)
		require.NoError(t, err)
		osName := ""
		for _, imp := range f.Imports {
			if imp.Path.Value == `"os"` || imp.Path.Value == `"io/ioutil"` {
				osName = strings.Trim(imp.Path.Value, `"`)
				if i := strings.LastIndex(osName, "/"); i >= 0 {
					osName = osName[i+1:]
				}
				if imp.Name != nil {
					osName = imp.Name.Name
				}
			}
		}
		if osName == "" {
			return nil
		}
		ast.Inspect(f, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok {
				return true
			}
			sel, ok := call.Fun.(*ast.SelectorExpr)
			if !ok {
				return true
			}
			if id, ok := sel.X.(*ast.Ident); !ok || id.Name != osName || !names[sel.Sel.Name] {
				return true
			}
			if sel.Sel.Name == "OpenFile" && len(call.Args) > 1 && writes(call.Args[1]) != writing {
				return true // opened the other way
			}
			found = append(found, rel+": "+osName+"."+sel.Sel.Name)
			return true
		})
		return nil
	})
	require.NoError(t, err)
	return found
}

// writes reports whether an OpenFile flag expression names O_WRONLY.
func writes(e ast.Expr) bool {
	found := false
	ast.Inspect(e, func(n ast.Node) bool {
		if sel, ok := n.(*ast.SelectorExpr); ok && sel.Sel.Name == "O_WRONLY" {
			found = true
		}
		return true
	})
	return found
}
