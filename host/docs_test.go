package host_test

import (
	"fmt"
	"go/ast"
	"go/doc"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestDocsGoBlocksRun checks that every fenced Go block of the
// documentation (docs/*.md and README.md: a new page is included by being
// there) is code that compiles and runs under go test, so the
// documentation cannot drift from the API. A Go block is
// covered by the nearest marker above it, with no heading between:
//
//	<!-- example: NAME -->       the Example function NAME of package host's tests
//	<!-- example: DIR NAME -->   the Example function NAME of the tests in DIR,
//	                             a folder from the repository's root (host/solve)
//
// The Example must exist and be run by go test (it has an output comment,
// so its output is checked as well), and the block, with indentation and
// blank lines dropped, must be consecutive lines of the file that defines
// it. A block that opens with an import declaration shows imports of that
// file, each with the same name. A Go block without a marker fails the
// test, and so does one after a marker that does not run ("not run").
func TestDocsGoBlocksRun(t *testing.T) {
	root := ".."
	pages, err := filepath.Glob(filepath.Join(root, "docs", "*.md"))
	require.NoError(t, err)
	pages = append(pages, filepath.Join(root, "README.md"))
	pkgs := map[string]*examplePackage{}
	total := 0
	for _, page := range pages {
		text, err := os.ReadFile(page)
		require.NoError(t, err)
		rel, err := filepath.Rel(root, page)
		require.NoError(t, err)
		for _, b := range goBlocks(string(text)) {
			total++
			where := fmt.Sprintf("%s:%d", filepath.ToSlash(rel), b.line)
			if b.name == "" {
				t.Errorf("%s: the Go block has no example marker (<!-- example: DIR NAME --> on a line before it, naming the Example function it is copied from)", where)
				continue
			}
			pkg, ok := pkgs[b.dir]
			if !ok {
				pkg, err = loadExamplePackage(filepath.Join(root, filepath.FromSlash(b.dir)))
				require.NoError(t, err, where)
				pkgs[b.dir] = pkg
			}
			for _, problem := range pkg.covers(b) {
				t.Errorf("%s: %s", where, problem)
			}
		}
	}
	assert.NotZero(t, total, "the pages have Go blocks")
}

// docBlock is a fenced Go block of a page and the marker that covers it.
type docBlock struct {
	line      int    // of the opening fence
	dir, name string // the marker's package folder and Example; "" without a marker
	text      string // inside the fence
}

var exampleMarker = regexp.MustCompile(`^<!--\s*example:\s*(?:([\w./-]+)\s+)?(\w+)\s*-->$`)

// goBlocks returns the Go blocks of a Markdown page, each with the marker
// that covers it: the last one above it since the last heading.
func goBlocks(text string) []docBlock {
	var (
		blocks    []docBlock
		dir, name string
		open      = -1 // the line of the open fence, -1 outside one
		lang      string
		body      []string
	)
	for i, line := range strings.Split(text, "\n") {
		trimmed := strings.TrimSpace(line)
		switch {
		case open < 0 && strings.HasPrefix(trimmed, "```"):
			open, lang, body = i+1, "", nil
			if info := strings.Fields(strings.TrimPrefix(trimmed, "```")); len(info) > 0 {
				lang = info[0] // the info string's first word
			}
		case open >= 0 && trimmed == "```":
			if lang == "go" || lang == "golang" {
				blocks = append(blocks, docBlock{line: open, dir: dir, name: name, text: strings.Join(body, "\n")})
			}
			open = -1
		case open >= 0:
			body = append(body, line)
		case strings.HasPrefix(line, "#"):
			dir, name = "", ""
		case strings.HasPrefix(trimmed, "<!--") && strings.Contains(trimmed, "example"):
			dir, name = "", ""
			if m := exampleMarker.FindStringSubmatch(trimmed); m != nil {
				dir, name = m[1], m[2]
				if dir == "" {
					dir = "host"
				}
			}
		}
	}
	return blocks
}

// examplePackage is the test files of one package folder, parsed.
type examplePackage struct {
	dir   string
	files map[string]*exampleFile // by Example function name
}

type exampleFile struct {
	path    string
	lines   []string          // the source without indentation and blank lines
	imports map[string]string // path to name ("" for none)
	runs    bool              // the Example has an output comment, so go test runs it
}

func loadExamplePackage(dir string) (*examplePackage, error) {
	paths, err := filepath.Glob(filepath.Join(dir, "*_test.go"))
	if err != nil {
		return nil, err
	}
	if len(paths) == 0 {
		return nil, fmt.Errorf("%s has no test files", dir)
	}
	pkg := &examplePackage{dir: dir, files: map[string]*exampleFile{}}
	fset := token.NewFileSet()
	for _, path := range paths {
		src, err := os.ReadFile(path)
		if err != nil {
			return nil, err
		}
		f, err := parser.ParseFile(fset, path, src, parser.ParseComments)
		if err != nil {
			return nil, err
		}
		imports := map[string]string{}
		for _, spec := range f.Imports {
			p, _ := strconv.Unquote(spec.Path.Value)
			imports[p] = identName(spec.Name)
		}
		runs := map[string]bool{}
		for _, ex := range doc.Examples(f) {
			runs["Example"+ex.Name] = ex.Output != "" || ex.EmptyOutput
		}
		for _, d := range f.Decls {
			fn, ok := d.(*ast.FuncDecl)
			if !ok || fn.Recv != nil || !strings.HasPrefix(fn.Name.Name, "Example") {
				continue
			}
			pkg.files[fn.Name.Name] = &exampleFile{path: path, lines: codeLines(string(src)), imports: imports, runs: runs[fn.Name.Name]}
		}
	}
	return pkg, nil
}

func identName(id *ast.Ident) string {
	if id == nil {
		return ""
	}
	return id.Name
}

// covers returns what is wrong with b as a copy of code of its Example.
func (pkg *examplePackage) covers(b docBlock) []string {
	f, ok := pkg.files[b.name]
	if !ok {
		return []string{fmt.Sprintf("the Example function %s of its marker is not in the tests of %s", b.name, b.dir)}
	}
	var problems []string
	if !f.runs {
		problems = append(problems, fmt.Sprintf("%s has no output comment, so go test compiles it but never runs it", b.name))
	}
	imports, code, err := splitImports(b.text)
	if err != nil {
		return append(problems, err.Error())
	}
	for _, spec := range imports {
		p, _ := strconv.Unquote(spec.Path.Value)
		name, ok := f.imports[p]
		switch {
		case !ok:
			problems = append(problems, fmt.Sprintf("it imports %q, which %s does not", p, f.path))
		case name != identName(spec.Name):
			problems = append(problems, fmt.Sprintf("it imports %q as %q, %s as %q", p, identName(spec.Name), f.path, name))
		}
	}
	want := codeLines(code)
	if len(want) == 0 && len(imports) == 0 {
		problems = append(problems, "the block is empty")
	}
	switch k := longestRun(f.lines, want); {
	case len(want) == 0 || k == len(want):
	case k == 0:
		problems = append(problems, fmt.Sprintf("the block is not in %s (the file of %s): its first line %q is not there", f.path, b.name, want[0]))
	default:
		problems = append(problems, fmt.Sprintf("the block is not consecutive lines of %s (the file of %s): its line %q does not follow the %d lines before it there", f.path, b.name, want[k], k))
	}
	return problems
}

// splitImports separates an import declaration that opens a block from the
// code after it.
func splitImports(text string) ([]*ast.ImportSpec, string, error) {
	lines := strings.Split(text, "\n")
	first := 0
	for first < len(lines) && strings.TrimSpace(lines[first]) == "" {
		first++
	}
	if first == len(lines) || !strings.HasPrefix(lines[first], "import") {
		return nil, text, nil
	}
	end := first // the last line of the declaration
	if strings.HasSuffix(strings.TrimSpace(lines[first]), "(") {
		for end < len(lines) && strings.TrimSpace(lines[end]) != ")" {
			end++
		}
		if end == len(lines) {
			return nil, "", fmt.Errorf("the import declaration is not closed")
		}
	}
	decl := strings.Join(lines[first:end+1], "\n")
	f, err := parser.ParseFile(token.NewFileSet(), "", "package p\n"+decl, parser.ImportsOnly)
	if err != nil {
		return nil, "", fmt.Errorf("the import declaration does not parse: %w", err)
	}
	return f.Imports, strings.Join(lines[end+1:], "\n"), nil
}

// codeLines returns the lines of s without indentation and blank lines.
func codeLines(s string) []string {
	var out []string
	for _, l := range strings.Split(s, "\n") {
		if l = strings.TrimSpace(l); l != "" {
			out = append(out, l)
		}
	}
	return out
}

// longestRun returns how many of the first lines of want occur in lines
// as consecutive lines, at best: len(want) when all of them do.
func longestRun(lines, want []string) int {
	best := 0
	for i := range lines {
		j := 0
		for j < len(want) && i+j < len(lines) && lines[i+j] == want[j] {
			j++
		}
		if j == len(want) {
			return j
		}
		best = max(best, j)
	}
	return best
}

// The checker itself: markers cover the blocks up to the next heading or
// marker, "not run" covers nothing, and import declarations are split off.
func TestGoBlocks(t *testing.T) {
	page := "# T\n\n```go\nx := 1\n```\n\n## A\n\n<!-- example: ExampleA -->\n```go\na()\n```\n\n```sh\n# not a heading\n```\n\n```go\nb()\n```\n" +
		"<!-- example: host/solve ExampleB -->\n```go\nimport (\n\t\"fmt\"\n\t_ \"os\"\n)\n\nc()\n```\n\n## B\n\n```go\nd()\n```\n" +
		"<!-- example: not run, slow -->\n```go\ne()\n```\n```golang title\nf()\n```\n"
	var got []string
	for _, b := range goBlocks(page) {
		got = append(got, fmt.Sprintf("%d %s %s %q", b.line, b.dir, b.name, b.text))
	}
	assert.Equal(t, []string{
		`3   "x := 1"`,
		`10 host ExampleA "a()"`,
		`18 host ExampleA "b()"`,
		`22 host/solve ExampleB "import (\n\t\"fmt\"\n\t_ \"os\"\n)\n\nc()"`,
		`33   "d()"`,
		`37   "e()"`,
		`40   "f()"`,
	}, got)

	imports, code, err := splitImports("import (\n\t\"fmt\"\n\t_ \"os\"\n)\n\nc()")
	require.NoError(t, err)
	require.Len(t, imports, 2)
	assert.Equal(t, "_", imports[1].Name.Name)
	assert.Equal(t, "\nc()", code)
	_, _, err = splitImports("import (\n\t\"fmt\"\n")
	assert.ErrorContains(t, err, "not closed")
	_, code, err = splitImports("x := 1")
	require.NoError(t, err)
	assert.Equal(t, "x := 1", code)

	file := []string{"a", "b", "c", "a", "b", "d"}
	assert.Equal(t, 3, longestRun(file, []string{"a", "b", "d"}))
	assert.Equal(t, 2, longestRun(file, []string{"a", "b", "e"}))
	assert.Equal(t, 0, longestRun(file, []string{"x"}))
	assert.Equal(t, 1, longestRun(file, []string{"d", "e"}))
}
