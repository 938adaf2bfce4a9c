package server

import (
	"bytes"
	"fmt"
	"strings"
	"sync"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/parser"
)

// The shape of a rules page the server serves. Markdown renderers,
// goldmark among them, take time quadratic in the length of a paragraph
// or the nesting on a line for some input (unclosed links, nested
// quotes); within these bounds the worst page renders in about a second,
// once. A page out of shape is left out when the server starts, and
// logged. Real pages are far inside: the longest shipped line has 165
// bytes, the longest paragraph or table 1 KiB, the longest page 21 KiB.
const (
	maxRulesBytes     = 64 << 10 // the whole page
	maxRulesLine      = 1000     // one line, in bytes
	maxRulesParagraph = 8 << 10  // lines without a blank line between them
)

// rulesShape says why a page is out of shape, or returns "".
func rulesShape(page string) string {
	if len(page) > maxRulesBytes {
		return fmt.Sprintf("the page has %d bytes, more than %d", len(page), maxRulesBytes)
	}
	block, start := 0, 0
	for n, line := range strings.Split(page, "\n") {
		line = strings.TrimSuffix(line, "\r")
		if len(line) > maxRulesLine {
			return fmt.Sprintf("line %d has %d bytes, more than %d", n+1, len(line), maxRulesLine)
		}
		if strings.TrimSpace(line) == "" {
			block = 0
			continue
		}
		if block == 0 {
			start = n + 1
		}
		block += len(line) + 1
		if block > maxRulesParagraph {
			return fmt.Sprintf("lines %d to %d, with no blank line between them, have more than %d bytes", start, n+1, maxRulesParagraph)
		}
	}
	return ""
}

// rulesPage is one game's rules page: its Markdown, and the answer to
// GET /api/catalog/{game}/rules, rendered on the first request and then
// kept.
type rulesPage struct {
	markdown string
	once     sync.Once
	body     []byte // the JSON answer
}

// markdownRenderer renders rules pages: CommonMark with GitHub's tables
// and strikethrough, headings with ids. Raw HTML is left out (goldmark
// renders it only when told it is safe) and links to javascript: and
// other dangerous targets are dropped, so the HTML can go into the page
// as it is.
var markdownRenderer = goldmark.New(
	goldmark.WithExtensions(extension.Table, extension.Strikethrough),
	goldmark.WithParserOptions(parser.WithAutoHeadingID()),
)

// renderMarkdown returns the HTML of a Markdown page.
func renderMarkdown(src string) (string, error) {
	var b bytes.Buffer
	if err := markdownRenderer.Convert([]byte(src), &b); err != nil {
		return "", fmt.Errorf("rendering the rules page: %w", err)
	}
	return b.String(), nil
}

// answer returns the JSON answer for the page of game name, rendering it
// the first time.
func (p *rulesPage) answer(name string) []byte {
	p.once.Do(func() {
		html, err := renderMarkdown(p.markdown)
		if err != nil {
			// goldmark's errors come from the writer, a bytes.Buffer: none.
			html = "<p>The rules page could not be shown.</p>"
		}
		p.body = encodeJSON(rulesView{Game: name, Markdown: p.markdown, HTML: html})
	})
	return p.body
}
