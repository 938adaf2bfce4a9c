package games_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/matombo/matombo/games"
	"github.com/matombo/matombo/host"
	"github.com/matombo/matombo/host/analysis"
	"github.com/matombo/matombo/host/solve"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The figures of the rules pages (docs/rules/*.md) are computed, never
// copied by hand: TestRulesPageFigures checks each statement of a figure
// against the games (positions and values from the solver, legal moves,
// the values of moves, boards after records), and fails for any number
// in the checked sections of a page (its examples, its perfect play and
// the other sections listed in figureSections) that no claim below checks
// or declares given (a quotation, a date, a definition). A page whose
// figure changes with its script fails until the page says the new
// figure; a figure added to a page fails until a claim checks it.
//
// Each claim names text of the page, whitespace collapsed, which must be
// there as written: a statement with the check that proves it, a text the
// test writes itself (a row of a table of solved values), or a board
// diagram the test draws after a record.

// figureSections are the sections (## headings) whose every number a claim
// must cover, by page.
var figureSections = map[string][]string{
	"achi":         {"Example", "Perfect play"},
	"nineholes":    {"Perfect play"},
	"shisima":      {"Example", "Perfect play"},
	"tantfant":     {"Example", "Perfect play"},
	"tapatan":      {"Examples", "Perfect play"},
	"tictactoe":    {"Examples", "Perfect play"},
	"yematatu":     {"Examples", "Perfect play"},
	"yemutwelve":   {"Example", "How the variants compare"},
	"oware":        {"How long a game lasts"},
	"kalah":        {"Variants"},
	"gore":         {"Worked example: a capture chain", "Worked example: a trade"},
	"tsoro":        {"Worked example 1: a move with relays", "Worked example 2: capture and bonus captures"},
	"baokiswahili": {"Example", "Perfect play and measures"},
	"bawo":         {"Example", "Measures"},
}

// claim is text of a rules page and how it is checked.
type claim struct {
	page  string
	text  string             // the page's text, whitespace collapsed (a diagram: as drawn, see diagramClaim)
	check func(t *testing.T) // proves what the text says; nil when the text itself is computed
	// diagram marks text that is a board diagram: it matches a fenced block
	// of the page line by line (the page may leave out the names the
	// program draws beside the board).
	diagram bool
	given   string // why the numbers of the text are not figures to compute
}

// pageText is a rules page split for the test: its prose with whitespace
// collapsed, and its fenced blocks, each with the section it is in.
type pageText struct {
	prose    string
	sections []sectionSpan // of prose
	blocks   []block
}

type sectionSpan struct {
	title      string
	start, end int
}

type block struct {
	section string
	text    string
}

func readRulesPage(t *testing.T, name string) pageText {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "docs", "rules", name+".md"))
	require.NoError(t, err)
	var p pageText
	var prose strings.Builder
	section, inBlock := "", false
	var blk []string
	for _, line := range strings.Split(string(b), "\n") {
		switch {
		case strings.HasPrefix(line, "```"):
			if inBlock {
				p.blocks = append(p.blocks, block{section: section, text: strings.Join(blk, "\n")})
				blk = nil
			}
			inBlock = !inBlock
		case inBlock:
			blk = append(blk, line)
		default:
			if title, ok := strings.CutPrefix(line, "## "); ok {
				if n := len(p.sections); n > 0 {
					p.sections[n-1].end = prose.Len()
				}
				section = strings.TrimSpace(title)
			}
			if f := strings.Fields(line); len(f) > 0 {
				if prose.Len() > 0 {
					prose.WriteByte(' ')
				}
				prose.WriteString(strings.Join(f, " "))
			}
			if strings.HasPrefix(line, "## ") { // the section's text starts after its title
				p.sections = append(p.sections, sectionSpan{title: section, start: prose.Len()})
			}
		}
	}
	if n := len(p.sections); n > 0 {
		p.sections[n-1].end = prose.Len()
	}
	p.prose = prose.String()
	return p
}

// numberPattern finds the numbers of a text: digits not part of a name
// (a1, T7, Y5) and the number words of counts.
var numberPattern = regexp.MustCompile(`(?i)(^|[^A-Za-z0-9_^])([0-9][0-9,.]*[0-9]|[0-9])\b|\b(two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|twenty)\b`)

// vocabulary is words of the rules that hold a number and state no
// figure: the players' numbers, the rule of three in a row.
var vocabulary = regexp.MustCompile(`Players? [12]( and [12])?|[Tt]hree (on|in) a (line|row)|line of three|[Tt]hree-in-a-row`)

// numbers returns the spans of the numbers of s.
func numbers(s string) [][2]int {
	var out [][2]int
	for _, m := range numberPattern.FindAllStringSubmatchIndex(s, -1) {
		switch {
		case m[4] >= 0:
			out = append(out, [2]int{m[4], m[5]})
		case m[6] >= 0:
			out = append(out, [2]int{m[6], m[7]})
		}
	}
	return out
}

func TestRulesPageFigures(t *testing.T) {
	if raceEnabled {
		t.Skip("the figures do not depend on the race detector, under which solving the games and playing 50,000 random games take minutes")
	}
	pages := map[string]pageText{}
	for page := range figureSections {
		pages[page] = readRulesPage(t, page)
	}
	covered := map[string][][2]int{} // prose spans of each page a claim covers
	blocksDone := map[string]map[int]bool{}
	for _, c := range rulesClaims(t) {
		p, ok := pages[c.page]
		require.True(t, ok, "a claim on %s, which has no figureSections entry", c.page)
		name := c.page + ": " + clip(c.text)
		if c.diagram {
			found := -1
			for i, b := range p.blocks {
				if diagramMatches(b.text, c.text) {
					found = i
				}
			}
			if !assert.GreaterOrEqual(t, found, 0, "%s: no diagram of the page is the board after its record:\n%s", c.page, c.text) {
				continue
			}
			if blocksDone[c.page] == nil {
				blocksDone[c.page] = map[int]bool{}
			}
			blocksDone[c.page][found] = true
			continue
		}
		text := strings.Join(strings.Fields(c.text), " ")
		at := strings.Index(p.prose, text)
		if !assert.GreaterOrEqual(t, at, 0, "%s: the page does not say %q", c.page, text) {
			continue
		}
		for from := at; from >= 0; {
			covered[c.page] = append(covered[c.page], [2]int{from, from + len(text)})
			next := strings.Index(p.prose[from+1:], text)
			if next < 0 {
				break
			}
			from += 1 + next
		}
		if c.check != nil {
			t.Run(name, c.check)
		}
	}
	// Every number of a checked section is covered.
	for page, p := range pages {
		for _, sec := range p.sections {
			if !slices.Contains(figureSections[page], sec.title) {
				continue
			}
			body := p.prose[sec.start:sec.end]
			var words [][2]int
			for _, m := range vocabulary.FindAllStringIndex(body, -1) {
				words = append(words, [2]int{sec.start + m[0], sec.start + m[1]})
			}
			for _, n := range numbers(body) {
				from, to := sec.start+n[0], sec.start+n[1]
				if !coveredBy(covered[page], from, to) && !coveredBy(words, from, to) {
					t.Errorf("docs/rules/%s.md, %s: the figure %q in %q is checked by no claim (rulesClaims)", page, sec.title, p.prose[from:to], around(p.prose, from, to))
				}
			}
			for i, b := range p.blocks {
				if b.section == sec.title && len(numbers(b.text)) > 0 && !blocksDone[page][i] && !strings.Contains(b.text, "go run ") {
					t.Errorf("docs/rules/%s.md, %s: no claim draws the diagram\n%s", page, sec.title, b.text)
				}
			}
		}
	}
}

func coveredBy(spans [][2]int, from, to int) bool {
	for _, s := range spans {
		if s[0] <= from && to <= s[1] {
			return true
		}
	}
	return false
}

func around(s string, from, to int) string {
	return s[max(0, from-40):min(len(s), to+40)]
}

func clip(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) > 60 {
		return s[:60]
	}
	return s
}

// diagramMatches reports whether a diagram of a page is the one drawn: the
// same lines, each the drawn one or its start (a page may leave out the
// names drawn beside the board), trailing spaces aside.
func diagramMatches(page, drawn string) bool {
	pl := strings.Split(strings.TrimRight(page, "\n"), "\n")
	dl := strings.Split(strings.TrimRight(drawn, "\n"), "\n")
	if len(pl) != len(dl) {
		return false
	}
	for i := range pl {
		p, d := strings.TrimRight(pl[i], " "), strings.TrimRight(dl[i], " ")
		if p != d && !(strings.HasPrefix(d, p) && strings.TrimSpace(d[len(p):]) != "" && d[len(p)] == ' ') {
			return false
		}
	}
	return true
}

// ---- the games, loaded and solved once ----

var (
	figureMu    sync.Mutex
	figureGames = map[string]*host.Game{}
	figureSols  = map[string]*solve.Solution{}
)

// variantOf loads a game with a variant ("" for none) and parameters
// "k=v" separated by commas.
func variantOf(t *testing.T, game, variant string, params ...string) *host.Game {
	t.Helper()
	key := game + "|" + variant + "|" + strings.Join(params, ",")
	figureMu.Lock()
	defer figureMu.Unlock()
	if g, ok := figureGames[key]; ok {
		return g
	}
	var opts []host.Option
	if variant != "" {
		opts = append(opts, host.WithVariant(variant))
	}
	for _, p := range params {
		k, v, _ := strings.Cut(p, "=")
		opts = append(opts, host.WithParam(k, v))
	}
	g, err := games.Library().Load(game, opts...)
	require.NoError(t, err)
	figureGames[key] = g
	return g
}

func solved(t *testing.T, g *host.Game) *solve.Solution {
	t.Helper()
	figureMu.Lock()
	sol, ok := figureSols[g.Fingerprint()]
	figureMu.Unlock()
	if ok {
		return sol
	}
	sol, err := solve.Solve(context.Background(), g)
	require.NoError(t, err)
	figureMu.Lock()
	figureSols[g.Fingerprint()] = sol
	figureMu.Unlock()
	return sol
}

// after plays a record (tokens separated by spaces) from the opening.
func after(t *testing.T, g *host.Game, record string) *host.State {
	t.Helper()
	s := g.Start()
	for _, tok := range strings.Fields(record) {
		require.NoError(t, s.Play(tok), record)
	}
	return s
}

// commas writes a whole number with thousands separated: 5,478.
func commas(n int) string {
	s := strconv.Itoa(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// opening says the opening's value as the tables of the pages do.
func opening(sol *solve.Solution) string {
	o := sol.Opening()
	switch v := o.Value.For(1, o.ToMove); v {
	case solve.Win:
		return fmt.Sprintf("**Player 1 wins in %d plies**", o.Plies)
	case solve.Loss:
		return fmt.Sprintf("**Player 2 wins in %d plies**", o.Plies)
	}
	return "**draw**"
}

// solvedRow is a row of a table of solved values: the label, then the
// positions, the finished ones, the opening's value and the won, drawn and
// lost positions for the player to move.
func solvedRow(t *testing.T, label string, g *host.Game) string {
	sol := solved(t, g)
	c := sol.Counts()
	return fmt.Sprintf("| %s | %s | %s | %s | %s / %s / %s |", label, commas(sol.Positions()), commas(sol.Terminals()),
		opening(sol), commas(c.Won), commas(c.Drawn), commas(c.Lost))
}

// moveValue says what a move is worth for its player, as the pages do:
// "draw", "win in 9", "loss in 10".
func moveValue(mv solve.MoveValue) string {
	switch mv.Value {
	case solve.Win:
		return fmt.Sprintf("win in %d", mv.Plies)
	case solve.Loss:
		return fmt.Sprintf("loss in %d", mv.Plies)
	}
	return "draw"
}

// hintIs checks the values of the legal moves after a record: want maps
// each legal token to its value (moveValue); every legal token is listed.
func hintIs(g func(*testing.T) *host.Game, record string, want map[string]string) func(*testing.T) {
	return func(t *testing.T) {
		game := g(t)
		s := after(t, game, record)
		mvs, err := solved(t, game).Moves(s)
		require.NoError(t, err)
		got := map[string]string{}
		for _, mv := range mvs {
			got[mv.Token] = moveValue(mv)
		}
		assert.Equal(t, want, got, "the values of the moves after %q", record)
	}
}

// legalIs checks the legal tokens after a record, in any order.
func legalIs(g func(*testing.T) *host.Game, record string, want ...string) func(*testing.T) {
	return func(t *testing.T) {
		assert.ElementsMatch(t, want, after(t, g(t), record).Legal(), "the legal tokens after %q", record)
	}
}

// game returns a function loading a game, for checks.
func game(name, variant string, params ...string) func(*testing.T) *host.Game {
	return func(t *testing.T) *host.Game { return variantOf(t, name, variant, params...) }
}

// drawn is the diagram of the board after a record, as a claim.
func drawn(t *testing.T, page string, g *host.Game, record string) claim {
	return claim{page: page, text: after(t, g, record).Diagram(), diagram: true}
}

func all(checks ...func(*testing.T)) func(*testing.T) {
	return func(t *testing.T) {
		for _, c := range checks {
			c(t)
		}
	}
}

var figureReports = map[string]analysis.Report{}

// randomGames is the report of n random games of g from seed 1, as
// matombo analyze GAME --games N makes it.
func randomGames(t *testing.T, g *host.Game, n int) analysis.Report {
	t.Helper()
	key := fmt.Sprintf("%s|%d", g.Fingerprint(), n)
	figureMu.Lock()
	r, ok := figureReports[key]
	figureMu.Unlock()
	if ok {
		return r
	}
	res, err := analysis.Run(context.Background(), g, analysis.WithGames(n), analysis.WithSeed(1), analysis.WithParallel(2))
	require.NoError(t, err)
	r = analysis.Summarize(res)
	figureMu.Lock()
	figureReports[key] = r
	figureMu.Unlock()
	return r
}

func sorted(s []string) []string {
	s = slices.Clone(s)
	slices.Sort(s)
	return s
}
