package markdown

import (
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/matombo/matombo/docs"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

func TestRender(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"heading", "# Goré rules", `<h1 id="gor-rules">Goré rules</h1>` + "\n"},
		{"heading levels and closing hashes", "### G1 Board ###", `<h3 id="g1-board">G1 Board</h3>` + "\n"},
		{"not a heading without a space", "#hashtag", "<p>#hashtag</p>\n"},
		{"paragraphs", "one\ntwo\n\nthree", "<p>one\ntwo</p>\n<p>three</p>\n"},
		{"escaping", `a < b & "c" <script>`, "<p>a &lt; b &amp; &#34;c&#34; &lt;script&gt;</p>\n"},
		{"emphasis", "*sowing* and **strong** and _cows_", "<p><em>sowing</em> and <strong>strong</strong> and <em>cows</em></p>\n"},
		{"no emphasis inside words", "snake_case_name", "<p>snake_case_name</p>\n"},
		{"a lone star", "6 * 3 = 18", "<p>6 * 3 = 18</p>\n"},
		{"code span", "play `a3` now", "<p>play <code>a3</code> now</p>\n"},
		{"code span keeps stars", "`*x*`", "<p><code>*x*</code></p>\n"},
		{"code span escapes", "`<b>`", "<p><code>&lt;b&gt;</code></p>\n"},
		{"link", "[Mancala World](https://mancala.fandom.com/wiki/Gor%C3%A9)", `<p><a href="https://mancala.fandom.com/wiki/Gor%C3%A9">Mancala World</a></p>` + "\n"},
		{"relative link", "[T1](#t1-board)", `<p><a href="#t1-board">T1</a></p>` + "\n"},
		{"javascript link loses its target", "[x](javascript:alert(1))", "<p>x</p>\n"},
		{"data link loses its target", "[x](data:text/html,hi)", "<p>x</p>\n"},
		{"unordered list", "- a\n- b", "<ul>\n<li>a</li>\n<li>b</li>\n</ul>\n"},
		{"ordered list from 3", "3. c\n4. d", "<ol start=\"3\">\n<li>c</li>\n<li>d</li>\n</ol>\n"},
		{"nested list", "1. a\n   - x\n   - y\n2. b", "<ol>\n<li>a\n<ul>\n<li>x</li>\n<li>y</li>\n</ul></li>\n<li>b</li>\n</ol>\n"},
		{"lazy continuation", "- one\ntwo", "<ul>\n<li>one\ntwo</li>\n</ul>\n"},
		{"fenced code", "```\nb  6 6\na  6 6\n```", "<pre><code>b  6 6\na  6 6\n</code></pre>\n"},
		{"unclosed fence", "```\n<x>", "<pre><code>&lt;x&gt;\n</code></pre>\n"},
		{"table", "| Token | Meaning |\n|---|--:|\n| `a3` | sow |", "<table>\n<thead>\n<tr><th>Token</th><th class=\"right\">Meaning</th></tr>\n</thead>\n<tbody>\n<tr><td><code>a3</code></td><td class=\"right\">sow</td></tr>\n</tbody>\n</table>\n"},
		{"block quote", "> T1: no stores", "<blockquote>\n<p>T1: no stores</p>\n</blockquote>\n"},
		{"rule", "---", "<hr>\n"},
		{"backslash escape", `\*not em\*`, "<p>*not em*</p>\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, Render(tt.in))
		})
	}
}

// TestGolden renders a copy of a rules page (testdata/sample.md) against
// its golden HTML; go test -update rewrites the golden file.
func TestGolden(t *testing.T) {
	src, err := os.ReadFile(filepath.Join("testdata", "sample.md"))
	require.NoError(t, err)
	got := Render(string(src))
	assertSafe(t, got)
	golden := filepath.Join("testdata", "sample.html")
	if *update {
		require.NoError(t, os.WriteFile(golden, []byte(got), 0o644))
	}
	want, err := os.ReadFile(golden)
	require.NoError(t, err, "run go test -update to write %s", golden)
	assert.Equal(t, string(want), got)
}

// TestRulesPages renders the shipped rules pages: safe HTML, one heading
// per heading line, no emphasis markers left over.
func TestRulesPages(t *testing.T) {
	for _, game := range docs.RulesGames() {
		t.Run(game, func(t *testing.T) {
			page, ok := docs.Rules(game)
			require.True(t, ok)
			got := Render(page)
			assertSafe(t, got)
			headings, code := 0, false
			for _, line := range strings.Split(page, "\n") {
				if strings.HasPrefix(line, "```") {
					code = !code
				}
				if !code && heading(line) > 0 {
					headings++
				}
			}
			assert.Equal(t, headings, strings.Count(got, "<h"+"1 ")+strings.Count(got, "<h2 ")+strings.Count(got, "<h3 ")+
				strings.Count(got, "<h4 ")+strings.Count(got, "<h5 ")+strings.Count(got, "<h6 "))
			text := regexp.MustCompile(`(?s)<pre>.*?</pre>|<code>.*?</code>`).ReplaceAllString(got, "")
			assert.NotContains(t, text, "**")
		})
	}
}

// allowedTag matches the tags Render writes.
var allowedTag = regexp.MustCompile(`</?(h[1-6]|p|ul|ol|li|pre|code|em|strong|blockquote|table|thead|tbody|tr|th|td|hr|a)( (id|class|start|href)="[^"<>]*")?>`)

// assertSafe checks that every < in html starts a tag Render writes and
// that no link target is a script.
func assertSafe(t *testing.T, html string) {
	t.Helper()
	rest := allowedTag.ReplaceAllString(html, "")
	assert.NotContains(t, rest, "<", "only known tags")
	assert.NotContains(t, strings.ToLower(html), `href="javascript`)
	assert.NotContains(t, strings.ToLower(html), `href="data`)
}

func FuzzRender(f *testing.F) {
	for _, s := range []string{"# h", "- a\n  - b", "| a |\n|---|\n| b |", "```\nx", "[a](javascript:b)", "*a **b** c*", "> > q", "`x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		assertSafe(t, Render(in))
	})
}
