package conformance

import (
	"fmt"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"github.com/matombo/matombo/host"
	"github.com/matombo/matombo/host/diag"
)

// Point is a numbered rule point of a rules page: a level-3 heading whose
// first word is a capital letter and a number, "### K2 Sowing".
type Point struct {
	Label string // "K2"
	Title string // "Sowing"
	Line  int    // the page's line of the heading, from 1
}

var (
	// pointHeading is a point's heading: "### ", the label, a space or
	// the line's end, then the title.
	pointHeading = regexp.MustCompile(`^### ([A-Z][0-9]+)(?:[ \t]+(.*?))?[ \t]*$`)
	// pointLabel is a label a scenario cites: a point ("T7") or a part of
	// one ("T7b" is part of T7).
	pointLabel = regexp.MustCompile(`^([A-Z][0-9]+)[a-z]?$`)
	// fence opens or closes a fenced code block, whose lines are no
	// headings.
	fence = regexp.MustCompile("^ {0,3}(```|~~~)")
)

// Points returns the rule points of a rules page in the page's order:
// every line "### X1 Title" outside fenced code blocks, X a capital letter
// and 1 a number. A scenario's rule label names one of them, or a part of
// one: "T7b" is part of "T7" (docs/scenarios.md, "Rule labels").
func Points(page string) []Point {
	var out []Point
	textLines(page, func(n int, line string) {
		if m := pointHeading.FindStringSubmatch(line); m != nil {
			out = append(out, Point{Label: m[1], Title: m[2], Line: n})
		}
	})
	return out
}

// lookalike is a line that numbers a rule in another shape than a point
// heading: a heading of another level or with punctuation after the label
// ("## K1 Board", "### K1. Board"), a list item or a paragraph that starts
// with the label in bold ("- **K1 Board.** ...").
var lookalike = regexp.MustCompile(`^[ \t]*(?:#{1,6}[ \t]+(?:\*\*|__)?|(?:[-*+]|[0-9]+[.)])[ \t]+(?:\*\*|__)|\*\*|__)([A-Z][0-9]+)[a-z]?(?:[^A-Za-z0-9]|$)`)

// Lookalikes returns the lines of a page, outside fenced code blocks, that
// number a rule as a point would be numbered but that Points does not
// read: "## K1 Board", "### K1. Board", "- **K1 Board.** ...". Each has
// the label it starts with and its line; Title is the whole line. A page
// whose points are all lookalikes has no points for scenarios to cite.
func Lookalikes(page string) []Point {
	var out []Point
	textLines(page, func(n int, line string) {
		if pointHeading.MatchString(line) {
			return
		}
		if m := lookalike.FindStringSubmatch(line); m != nil {
			out = append(out, Point{Label: m[1], Title: line, Line: n})
		}
	})
	return out
}

// textLines calls f with each line of a page outside fenced code blocks,
// without its line end, and its number from 1.
func textLines(page string, f func(n int, line string)) {
	open := ""
	for n, line := range strings.Split(page, "\n") {
		line = strings.TrimSuffix(line, "\r")
		if m := fence.FindStringSubmatch(line); m != nil {
			switch open {
			case "":
				open = m[1]
			case m[1]:
				open = ""
			}
			continue
		}
		if open == "" {
			f(n+1, line)
		}
	}
}

// PointOf returns the point a rule label names ("T7" for "T7" and "T7b"),
// and false for a text that is no point label.
func PointOf(label string) (string, bool) {
	m := pointLabel.FindStringSubmatch(label)
	if m == nil {
		return "", false
	}
	return m[1], true
}

// RuleError is a scenario's rule label that names no point of its game's
// rules page.
type RuleError struct {
	Pos   host.Pos // the label's place in the scenario file
	Label string
	Game  string
	Page  string   // where the rules page is, for the reader
	Known []string // the labels of the page's points, in its order
}

// Error is the error with the label's place, file:line first.
func (e *RuleError) Error() string { return e.Pos.String() + ": " + e.Msg() }

// Msg is the error without its place: what is wrong with the label, and
// the labels the page has.
func (e *RuleError) Msg() string {
	if _, ok := PointOf(e.Label); !ok {
		return fmt.Sprintf("rule %s is no point label: a label is a capital letter and a number, such as %s, or a part of a point, such as %sb (docs/scenarios.md#rule-labels)",
			quoteLabel(e.Label), e.example(), e.example())
	}
	if len(e.Known) == 0 {
		// The same words for every label: a report writes them once.
		return fmt.Sprintf("%s %s", e.Page, noPoints)
	}
	return fmt.Sprintf("rule %s is no point of %s; its points are %s", quoteLabel(e.Label), e.Page, knownText(e.Known))
}

// noPoints ends the error of a label of a page without points.
const noPoints = "has no numbered points for rule labels to name: a point is a heading such as \"### K1 Title\" (docs/scenarios.md#rule-labels)"

// example is a label for messages: the page's first, else "K1".
func (e *RuleError) example() string {
	if len(e.Known) > 0 {
		return e.Known[0]
	}
	return "K1"
}

// quoteLabel writes a label as it is when it is a plain word, quoted when
// not, clipped to a line.
func quoteLabel(label string) string {
	label = diag.ClipText(label, diag.MaxTokenText)
	if strings.ContainsAny(label, " \t\"'") || label == "" {
		return fmt.Sprintf("%q", label)
	}
	return label
}

// maxKnown bounds the labels a RuleError lists.
const maxKnown = 40

// knownText lists labels, at most maxKnown of them.
func knownText(labels []string) string {
	if len(labels) <= maxKnown {
		return strings.Join(labels, ", ")
	}
	return strings.Join(labels[:maxKnown], ", ") + fmt.Sprintf(" and %d more", len(labels)-maxKnown)
}

// RuleErrors are the rule labels of a scenario that name no point of its
// game's rules page, one *RuleError each, sorted by line: what CheckRules
// returns. errors.As finds the first as a *RuleError.
type RuleErrors []*RuleError

// maxRuleErrors bounds the labels RuleErrors.Error writes: a scenario
// file of a megabyte may cite a hundred thousand wrong labels.
const maxRuleErrors = 10

// Error is the errors one a line, each with its place, file:line first;
// at most maxRuleErrors of them, then how many more there are.
func (e RuleErrors) Error() string {
	lines := make([]string, 0, min(len(e), maxRuleErrors)+1)
	for _, re := range e[:min(len(e), maxRuleErrors)] {
		lines = append(lines, re.Error())
	}
	if n := len(e) - maxRuleErrors; n > 0 {
		lines = append(lines, fmt.Sprintf("... and %d more rule labels that name no point", n))
	}
	return strings.Join(lines, "\n")
}

// Unwrap returns the errors, for errors.As and errors.Is.
func (e RuleErrors) Unwrap() []error {
	out := make([]error, len(e))
	for i, re := range e {
		out[i] = re
	}
	return out
}

// CheckRules checks the rule labels of sc against the points of its
// game's rules page (see Points); page says where the page is, for the
// messages. It returns nil when every label names a point, else
// RuleErrors: a *RuleError for each label that names none, sorted by
// line. A page without points gives one error, at the first label: the
// fault is the page's, the same for every label.
func CheckRules(sc *Scenario, points []Point, page string) error {
	known := make([]string, len(points))
	for i, p := range points {
		known[i] = p.Label
	}
	var errs RuleErrors
	for i, label := range sc.Rules {
		if pt, ok := PointOf(label); ok && containsLabel(points, pt) {
			continue
		}
		line := sc.Line
		if i < len(sc.RuleLines) {
			line = sc.RuleLines[i]
		}
		errs = append(errs, &RuleError{Pos: host.Pos{File: sc.File, Line: line}, Label: label, Game: sc.Game, Page: page, Known: known})
		if len(points) == 0 {
			break
		}
	}
	if len(errs) == 0 {
		return nil
	}
	slices.SortStableFunc(errs, func(a, b *RuleError) int { return a.Pos.Line - b.Pos.Line })
	return errs
}

func containsLabel(points []Point, label string) bool {
	for _, p := range points {
		if p.Label == label {
			return true
		}
	}
	return false
}

// WithRules gives the suite the rules pages of games whose folder has no
// rules.md, by game name: `matombo conform` passes docs.Rules, the pages
// of the shipped games. It returns the suite.
//
// Before a scenario runs, its rule labels are checked against its game's
// rules page (see CheckRules): the game's own rules.md, else the page f
// gives for its name, else the page of the game it extends (its rules.md,
// else the page f gives for it). A label that names no point of the page
// errs the scenario. A game with none of these pages is not checked, and
// the report says so once (Report.Notes).
func (r *Suite) WithRules(f func(game string) (string, bool)) *Suite {
	r.rules = f
	r.pages = map[string]rulesPage{}
	return r
}

// rulesPage is the rules page a game's scenarios are checked against.
type rulesPage struct {
	found  bool
	where  string // the page's file, or which page it is, for messages
	points []Point
}

// rulesPage finds the rules page of g, as WithRules says, once per game.
func (r *Suite) rulesPage(g *host.Game) rulesPage {
	if p, ok := r.pages[g.Name()]; ok {
		return p
	}
	p := r.findPage(g)
	r.pages[g.Name()] = p
	return p
}

func (r *Suite) findPage(g *host.Game) rulesPage {
	if page := g.Rules(); page != "" {
		return rulesPage{found: true, where: filepath.Join(filepath.Dir(g.File()), "rules.md"), points: Points(page)}
	}
	if page, ok := r.outside(g.Name()); ok {
		return rulesPage{found: true, where: "the rules page of " + g.Name(), points: Points(page)}
	}
	ext, ok := g.Extends()
	if !ok {
		return rulesPage{}
	}
	of := fmt.Sprintf(" (the page of %s, which %s extends)", ext.Base, g.Name())
	if ext.Rules != "" {
		return rulesPage{found: true, where: filepath.Join(filepath.Dir(ext.File), "rules.md") + of, points: Points(ext.Rules)}
	}
	if page, ok := r.outside(ext.Base); ok {
		return rulesPage{found: true, where: fmt.Sprintf("the rules page of %s, which %s extends", ext.Base, g.Name()), points: Points(page)}
	}
	return rulesPage{}
}

// outside is the page WithRules gives for a game, if any.
func (r *Suite) outside(game string) (string, bool) {
	if r.rules == nil {
		return "", false
	}
	page, ok := r.rules(game)
	return page, ok && page != ""
}

// noRulesNote says that the rule labels of a game's scenarios are not
// checked.
func noRulesNote(game string) string {
	return fmt.Sprintf("game %s has no rules page: the rule labels of its scenarios are not checked (a game's page is rules.md in its folder; see docs/scenarios.md#rule-labels)", game)
}
