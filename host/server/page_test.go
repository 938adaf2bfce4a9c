package server

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/matombo/matombo/host"
)

// TestPageNamesNoGame: the page draws every game from the data the server
// sends; none of its files names a game of the library, by name or title,
// or a word of one game's rules.
func TestPageNamesNoGame(t *testing.T) {
	l := lib()
	words := []string{"mancala", "heads", "musoro", "morris", "kichwa"} // words of one game's rules

	for _, name := range l.Games() {
		words = append(words, name)
		if g, err := l.Load(name); err == nil {
			words = append(words, g.Title())
		}
	}
	require.NotEmpty(t, words)
	files, err := fs.Sub(web, "web")
	require.NoError(t, err)
	n := 0
	err = fs.WalkDir(files, ".", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := fs.ReadFile(files, path)
		if err != nil {
			return err
		}
		n++
		text := strings.ToLower(string(b))
		for _, w := range words {
			re := regexp.MustCompile(`(^|[^\p{L}\p{N}])` + regexp.QuoteMeta(strings.ToLower(w)) + `($|[^\p{L}\p{N}])`)
			if loc := re.FindStringIndex(text); loc != nil {
				t.Errorf("web/%s names the game %q: %q", path, w, text[max(0, loc[0]-30):min(len(text), loc[1]+30)])
			}
		}
		return nil
	})
	require.NoError(t, err)
	require.Greater(t, n, 5, "the page's files were read")
}

// TestPageWordsEveryCode: every code the server answers a refusal with
// (its own, codes.go and any written as JSON by hand, and the host's,
// which its answers pass on) has the page's words (web/words.js), so that
// a new code cannot reach a player as the server's message; the words
// are for codes that exist, read as sentences, and the page shows no
// server message but through said (its own words, from words.js, are
// notAMove's).
func TestPageWordsEveryCode(t *testing.T) {
	src, err := fs.ReadFile(web, "web/words.js")
	require.NoError(t, err)
	block := regexp.MustCompile(`(?s)export const refusals = \{\n(.*?)\n\};`).FindSubmatch(src)
	require.NotNil(t, block, "words.js declares refusals")
	words := map[string]string{}
	for _, line := range strings.Split(string(block[1]), "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "//") {
			continue
		}
		m := regexp.MustCompile(`^"([a-z0-9-]+)": "([^"\\]+)",$`).FindStringSubmatch(line)
		require.NotNil(t, m, "a line of refusals is `\"code\": \"words\",`: %s", line)
		require.NotContains(t, words, m[1], "%s has words twice", m[1])
		words[m[1]] = m[2]
	}

	codes := serverCodes(t)
	require.Contains(t, codes, codeStalePly, "the codes were read")
	for _, c := range host.ErrorCodes() {
		codes[c] = true
	}
	for c := range codes {
		assert.Contains(t, words, c, "the page has no words for the server's code %q", c)
	}
	for c, w := range words {
		assert.True(t, codes[c], "the page has words for %q, which is no code of the server", c)
		assert.Regexp(t, `^\p{Lu}.*[.!?]$`, w, "the words for %q are a sentence", c)
		assert.NotContains(t, w, "ply", "the words for %q speak of moves, not plies", c)
	}

	// A message of the server shown as it is would bypass the words.
	files, err := fs.Sub(web, "web")
	require.NoError(t, err)
	js, err := fs.Glob(files, "*.js")
	require.NoError(t, err)
	for _, name := range js {
		b, err := fs.ReadFile(files, name)
		require.NoError(t, err)
		for _, line := range strings.Split(string(b), "\n") {
			if strings.Contains(line, "showError(") && !regexp.MustCompile(`showError\((""|said\(e\)|notAMove\(.*\))\);?$`).MatchString(line) && !strings.Contains(line, "export function showError") {
				t.Errorf("%s: an error shown other than through said: %s", name, strings.TrimSpace(line))
			}
		}
	}
}

// serverCodes are the codes of the server's refusals: the string
// constants of codes.go (those taken from package host are among
// host.ErrorCodes), and any code a Go file of the server writes in JSON
// of its own ({"code":"..."}).
func serverCodes(t *testing.T) map[string]bool {
	t.Helper()
	codes := map[string]bool{}
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "codes.go", nil, 0)
	require.NoError(t, err)
	for _, d := range f.Decls {
		gd, ok := d.(*ast.GenDecl)
		if !ok || gd.Tok != token.CONST {
			continue
		}
		for _, spec := range gd.Specs {
			for _, v := range spec.(*ast.ValueSpec).Values {
				switch v := v.(type) {
				case *ast.BasicLit:
					s, err := strconv.Unquote(v.Value)
					require.NoError(t, err)
					codes[s] = true
				case *ast.SelectorExpr:
					require.Equal(t, "host", fmt.Sprint(v.X), "a code of codes.go is a string or one of package host's")
				default:
					t.Fatalf("codes.go: a code that is neither a string nor one of package host's: %T", v)
				}
			}
		}
	}
	names, err := filepath.Glob("*.go")
	require.NoError(t, err)
	by := regexp.MustCompile(`\\?"code\\?":\s*\\?"([a-z0-9-]+)`)
	for _, name := range names {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		b, err := os.ReadFile(name)
		require.NoError(t, err)
		for _, m := range by.FindAllSubmatch(b, -1) {
			codes[string(m[1])] = true
		}
	}
	return codes
}

// TestPageWordsEveryEnding: every way a game ends (the host's methods,
// and the server's loss on time, abort and failed script) has a line of the page's words
// for its result (web/words.js endings), and the words are sentences
// without the code's words.
func TestPageWordsEveryEnding(t *testing.T) {
	src, err := fs.ReadFile(web, "web/words.js")
	require.NoError(t, err)
	block := regexp.MustCompile(`(?s)export const endings = \{\n(.*?)\n\};`).FindSubmatch(src)
	require.NotNil(t, block, "words.js declares endings")
	words := map[string]string{}
	for _, line := range strings.Split(string(block[1]), "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "//") {
			continue
		}
		m := regexp.MustCompile(`^"([a-z ]+)": "([^"\\]*)",$`).FindStringSubmatch(line)
		require.NotNil(t, m, "a line of endings is `\"method\": \"words\",`: %s", line)
		require.NotContains(t, words, m[1], "%s has words twice", m[1])
		words[m[1]] = m[2]
	}
	methods := map[string]bool{"time": true, methodAborted: true, methodFailed: true, methodResignation: true, methodAgreement: true}
	for m := host.MethodNone + 1; !strings.HasPrefix(m.String(), "method("); m++ {
		methods[m.String()] = true
	}
	require.Contains(t, methods, "repetition", "the host's methods were read")
	require.Equal(t, "time", timeLoss(1, 2).Method, "the server's loss on time")
	for m := range methods {
		assert.Contains(t, words, m, "the page has no words for the ending %q", m)
	}
	for m, w := range words {
		assert.True(t, methods[m], "the page has words for %q, which is no way a game ends", m)
		if w != "" {
			assert.Regexp(t, `^\p{Lu}.*[.!?]$`, w, "the words for %q are a sentence", m)
		}
	}
}
