package conformance

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/matombo/matombo/host"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestPoints(t *testing.T) {
	tests := []struct {
		name string
		page string
		want []Point
	}{
		{"none", "# Game\n\nSow.\n", nil},
		{"headings", "# G\n\n## Rules\n\n### K1 Board\ntext\n### K12 End of the game\n",
			[]Point{{"K1", "Board", 5}, {"K12", "End of the game", 7}}},
		{"no title", "### K1\n### K2   \n", []Point{{"K1", "", 1}, {"K2", "", 2}}},
		{"tab and CRLF", "### K1\tBoard\r\n", []Point{{"K1", "Board", 1}}},
		{"other levels are no points", "## K1 Board\n#### K2 Sowing\n# K3 x\n", nil},
		{"no label", "### Board\n### k1 Board\n### K Board\n### K1b Part\n### K1: Board\n### KK1 x\n", nil},
		{"a list item is no point", "- **K1 Board.** Two rows.\n", nil},
		{"fenced code is skipped", "```markdown\n### K9 Not a point\n```\n### K1 Board\n~~~\n### K8 x\n```\n### K7 x\n~~~\n",
			[]Point{{"K1", "Board", 4}}},
		{"an unclosed fence hides the rest", "```\n### K1 x\n", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, Points(tt.page))
		})
	}
}

func TestLookalikes(t *testing.T) {
	tests := []struct {
		name string
		page string
		want []string // label:line
	}{
		{"points are no lookalikes", "### K1 Board\n### K2\n", nil},
		{"bold list items", "# G\n\n- **K1 Board.** Two rows.\n* __K2__ Sowing\n1. **K3b Relay**\n", []string{"K1:3", "K2:4", "K3:5"}},
		{"a bold paragraph", "**K1 Board.** Two rows.\n", []string{"K1:1"}},
		{"other heading levels", "## K1 Board\n#### K2 Sowing\n# K3\n", []string{"K1:1", "K2:2", "K3:3"}},
		{"punctuation after the label", "### K1. Board\n### K2: Sowing\n### **K3** Relay\n", []string{"K1:1", "K2:2", "K3:3"}},
		{"prose, plain list items and code are not", "K1 is the board.\n- K2 sows\n- **Sowing** K3\n```\n## K4 x\n```\n### Board\n", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []string
			for _, p := range Lookalikes(tt.page) {
				got = append(got, fmt.Sprintf("%s:%d", p.Label, p.Line))
			}
			assert.Equal(t, tt.want, got)
		})
	}
}

func TestCheckRules(t *testing.T) {
	points := Points("### D1 Board\n### D2 Sowing\n### D3 Relay\n")
	tests := []struct {
		name   string
		rules  []string
		points []Point
		want   string // the error, "" for none
	}{
		{"a point", []string{"D2"}, points, ""},
		{"a part of a point", []string{"D3b"}, points, ""},
		{"several", []string{"D1", "D3"}, points, ""},
		{"unknown", []string{"D1", "D44"}, points, "s.yaml:4: rule D44 is no point of dakon/rules.md; its points are D1, D2, D3"},
		{"part of an unknown point", []string{"D4a"}, points, "s.yaml:3: rule D4a is no point of dakon/rules.md; its points are D1, D2, D3"},
		{"not a label", []string{"sowing rule"}, points, `s.yaml:3: rule "sowing rule" is no point label: a label is a capital letter and a number, such as D1, or a part of a point, such as D1b (docs/scenarios.md#rule-labels)`},
		{"a page without points", []string{"D1"}, nil, `s.yaml:3: dakon/rules.md has no numbered points for rule labels to name: a point is a heading such as "### K1 Title" (docs/scenarios.md#rule-labels)`},
		{"a page without points errs once", []string{"D1", "D2"}, nil, `s.yaml:3: dakon/rules.md has no numbered points for rule labels to name: a point is a heading such as "### K1 Title" (docs/scenarios.md#rule-labels)`},
		{"every wrong label, each at its line", []string{"D44", "D1", "sowing", "D4a"}, points, "s.yaml:3: rule D44 is no point of dakon/rules.md; its points are D1, D2, D3\n" +
			`s.yaml:5: rule sowing is no point label: a label is a capital letter and a number, such as D1, or a part of a point, such as D1b (docs/scenarios.md#rule-labels)` + "\n" +
			"s.yaml:6: rule D4a is no point of dakon/rules.md; its points are D1, D2, D3"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sc := &Scenario{File: "s.yaml", Line: 2, Game: "dakon", Rules: tt.rules}
			for i := range tt.rules {
				sc.RuleLines = append(sc.RuleLines, 3+i)
			}
			err := CheckRules(sc, tt.points, "dakon/rules.md")
			if tt.want == "" {
				assert.NoError(t, err)
				return
			}
			var re *RuleError
			require.ErrorAs(t, err, &re)
			assert.Equal(t, tt.want, err.Error())
			assert.Equal(t, "dakon", re.Game)
			var all RuleErrors
			require.ErrorAs(t, err, &all)
			assert.Same(t, re, all[0], "errors.As finds the first label's error")
		})
	}
}

// TestCheckRulesSortsByLine: the errors of labels come in the order of
// their lines, whatever the order of the labels (a flow list then a block
// list is not a scenario, but a parser may give any order).
func TestCheckRulesSortsByLine(t *testing.T) {
	sc := &Scenario{File: "s.yaml", Game: "dakon", Rules: []string{"X1", "X2", "X3"}, RuleLines: []int{9, 4, 7}}
	err := CheckRules(sc, Points("### D1 Board\n"), "p.md")
	var all RuleErrors
	require.ErrorAs(t, err, &all)
	var got []string
	for _, re := range all {
		got = append(got, fmt.Sprintf("%s:%d", re.Label, re.Pos.Line))
	}
	assert.Equal(t, []string{"X2:4", "X3:7", "X1:9"}, got)
}

// TestRuleErrorsWritesAtMostSome: a scenario citing thousands of wrong
// labels gets an error of a few lines, and every label in RuleErrors.
func TestRuleErrorsWritesAtMostSome(t *testing.T) {
	sc := &Scenario{File: "s.yaml", Game: "dakon"}
	for i := range maxRuleErrors + 5000 {
		sc.Rules = append(sc.Rules, fmt.Sprintf("X%d", i+1))
		sc.RuleLines = append(sc.RuleLines, i+3)
	}
	err := CheckRules(sc, Points("### D1 Board\n"), "p.md")
	var all RuleErrors
	require.ErrorAs(t, err, &all)
	assert.Len(t, all, maxRuleErrors+5000)
	lines := strings.Split(err.Error(), "\n")
	require.Len(t, lines, maxRuleErrors+1)
	assert.Equal(t, "s.yaml:3: rule X1 is no point of p.md; its points are D1", lines[0])
	assert.Equal(t, "... and 5000 more rule labels that name no point", lines[maxRuleErrors])
}

// TestCheckRulesListsAtMostSomeLabels: a page of 100 points is not listed
// whole in every message.
func TestCheckRulesListsAtMostSomeLabels(t *testing.T) {
	var page strings.Builder
	for i := 1; i <= maxKnown+10; i++ {
		page.WriteString("### P" + string(rune('0'+i/10)) + string(rune('0'+i%10)) + " x\n")
	}
	err := CheckRules(&Scenario{File: "s.yaml", Rules: []string{"Q1"}}, Points(page.String()), "p.md")
	require.Error(t, err)
	assert.True(t, strings.HasSuffix(err.Error(), "P40 and 10 more"), err.Error())
}

// labelsLibrary holds the test game kalah with a rules page of two points,
// and ext, which extends it and has no page of its own.
func labelsLibrary(t *testing.T) *host.Library {
	t.Helper()
	dir := filepath.Join("..", "host", "testdata", "games", "kalah")
	script, err := os.ReadFile(filepath.Join(dir, "kalah.lua"))
	require.NoError(t, err)
	variants, err := os.ReadFile(filepath.Join(dir, "variants.yaml"))
	require.NoError(t, err)
	lib := host.NewLibrary()
	require.NoError(t, lib.AddFS(fstest.MapFS{
		"kalah/kalah.lua":     {Data: script},
		"kalah/variants.yaml": {Data: variants},
		"kalah/rules.md":      {Data: []byte("# Kalah\n\n### K1 Sowing\n\n### K2 Extra turn\n")},
		"ext/ext.lua":         {Data: []byte(`return matombo.extends("kalah")`)},
	}, "authored"))
	return lib
}

// A scenario whose rule names no point of its game's rules page errs at
// the label, naming the points; the check covers the game's own page, the
// page of the game it extends and the pages given by WithRules, and a
// game without a page is noted once.
func TestSuiteChecksRuleLabels(t *testing.T) {
	const play = "    play: [a3]\n    expect: {to_move: 1}\n"
	const two = "game: GAME\nscenarios:\n  - name: one\n    rule: RULE\n" + play + "  - name: two\n    rule: K2\n" + play
	src := func(game, rule string) string {
		return strings.NewReplacer("GAME", game, "RULE", rule).Replace(two)
	}
	outside := func(game string) (string, bool) {
		if game == "kalah" {
			return "### K2 Extra turn\n", true
		}
		return "", false
	}
	tests := []struct {
		name  string
		lib   func(*testing.T) *host.Library
		rules func(string) (string, bool)
		src   string
		want  string
	}{
		{"known labels pass", labelsLibrary, nil, src("kalah", "[K1, K2b]"), "2 passed, 0 failed, 0 errored\n"},
		{"an unknown label errs at its line", labelsLibrary, nil, src("kalah", "[K1, D44]"),
			"ERROR case.yaml:4: one [K1, D44]\n    rule D44 is no point of authored/kalah/rules.md; its points are K1, K2\n1 passed, 0 failed, 1 errored\n"},
		{"a label of a block list errs at its own line", labelsLibrary, nil, src("kalah", "\n      - K1\n      - D44"),
			"ERROR case.yaml:6: one [K1, D44]\n    rule D44 is no point of authored/kalah/rules.md; its points are K1, K2\n1 passed, 0 failed, 1 errored\n"},
		{"every wrong label of a scenario errs, each at its line", labelsLibrary, nil, src("kalah", "\n      - D44\n      - K1\n      - sowing"),
			"ERROR case.yaml:5: one [D44, K1, sowing]\n" +
				"    case.yaml:5: rule D44 is no point of authored/kalah/rules.md; its points are K1, K2\n" +
				"    case.yaml:7: rule sowing is no point label: a label is a capital letter and a number, such as K1, or a part of a point, such as K1b (docs/scenarios.md#rule-labels)\n" +
				"1 passed, 0 failed, 1 errored\n"},
		{"an extending game is checked against its base's page", labelsLibrary, nil, src("ext", "K3"),
			"ERROR case.yaml:4: one [K3]\n    rule K3 is no point of authored/kalah/rules.md (the page of kalah, which ext extends); its points are K1, K2\n1 passed, 0 failed, 1 errored\n"},
		{"the game's own page comes before WithRules", labelsLibrary, outside, src("kalah", "K1"), "2 passed, 0 failed, 0 errored\n"},
		{"a page given by WithRules", kalahLibrary, outside, src("kalah", "K1"),
			"ERROR case.yaml:4: one [K1]\n    rule K1 is no point of the rules page of kalah; its points are K2\n1 passed, 0 failed, 1 errored\n"},
		{"no page: noted once, not checked", kalahLibrary, nil, src("kalah", "D44"), kalahNote + "2 passed, 0 failed, 0 errored\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "case.yaml")
			require.NoError(t, os.WriteFile(path, []byte(tt.src), 0o644))
			files, errs := LoadFiles(path)
			require.Empty(t, errs)
			suite := NewSuite(tt.lib(t))
			if tt.rules != nil {
				suite.WithRules(tt.rules)
			}
			defer suite.Close()
			var out bytes.Buffer
			suite.Run(files, errs).WriteText(&out, false)
			assert.Equal(t, tt.want, strings.ReplaceAll(out.String(), path, "case.yaml"))
		})
	}
}

// FuzzPoints: any page parses without a panic, every point it finds is a
// heading line of the page with a point label, and every lookalike a line
// of the page that is no point.
func FuzzPoints(f *testing.F) {
	f.Add("# G\n### K1 Board\n```\n### K2 x\n```\n### K3\r\n")
	f.Add("~~~\n### K1 x\n")
	f.Add("### Z17 Repetition\n#### Z18 x\n- **D1 Board.**\n")
	f.Fuzz(func(t *testing.T, page string) {
		lines := strings.Split(page, "\n")
		for _, p := range Points(page) {
			if _, ok := PointOf(p.Label); !ok {
				t.Fatalf("point %q is no label", p.Label)
			}
			if p.Line < 1 || p.Line > len(lines) || !strings.HasPrefix(lines[p.Line-1], "### "+p.Label) {
				t.Fatalf("point %+v is not at its line", p)
			}
		}
		for _, p := range Lookalikes(page) {
			if p.Line < 1 || p.Line > len(lines) || strings.TrimSuffix(lines[p.Line-1], "\r") != p.Title || pointHeading.MatchString(p.Title) {
				t.Fatalf("lookalike %+v is not a line of its own", p)
			}
		}
	})
}

// The note of a game without a rules page is in the JSON report too, once.
func TestNoRulesNoteInJSON(t *testing.T) {
	rep, _ := runText(t, kalahLibrary(t), kalahOK+"  - name: again\n    rule: K1\n    play: [a3]\n    expect: {to_move: 1}\n")
	require.Equal(t, 2, rep.Passed)
	var out bytes.Buffer
	require.NoError(t, rep.WriteJSON(&out))
	var got struct{ Notes []string }
	require.NoError(t, json.Unmarshal(out.Bytes(), &got))
	assert.Equal(t, []string{strings.TrimSuffix(strings.TrimPrefix(kalahNote, "note: "), "\n")}, got.Notes)
}
