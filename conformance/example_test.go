package conformance_test

import (
	"context"
	"fmt"
	"os"
	"time"

	"github.com/matombo/matombo/conformance"
	"github.com/matombo/matombo/docs"
	"github.com/matombo/matombo/games"
)

// Run the scenario files of a folder against the shipped games, as
// `matombo conform` does, and print the report when something failed.
func ExampleSuite_Run() {
	lib := games.Library()

	files, errs := conformance.LoadFiles("tsoro") // a folder stands for its *.yaml files
	// The shipped rules pages, to check the scenarios' rule labels against.
	suite := conformance.NewSuite(lib).WithRules(docs.Rules)
	report := suite.Run(files, errs)
	if !report.OK() {
		report.WriteText(os.Stdout, false) // each failure with its step and the boards side by side
	}
	fmt.Println("ok:", report.OK())
	// Output: ok: true
}

// Run scenario files under a time limit, as `matombo conform --max-time`
// does: a run that reaches it stops the script call in progress, the
// scenarios it stopped or did not start err with "stopped: " and the
// limit's cause, and the report's Stopped says why. An embedder running
// other people's scenarios passes the request's context the same way.
func ExampleSuite_RunContext() {
	lib := games.Library()
	limit := 10 * time.Minute
	ctx, cancel := context.WithTimeoutCause(context.Background(), limit,
		fmt.Errorf("the run's time limit of %v was reached", limit))
	defer cancel()

	files, errs := conformance.LoadFiles("tsoro")
	suite := conformance.NewSuite(lib)
	defer suite.Close()
	report := suite.RunContext(ctx, files, errs)
	if report.Stopped != "" {
		fmt.Println("stopped:", report.Stopped)
	}
	fmt.Println("ok:", report.OK())
	// Output: ok: true
}

// Check the rule labels of scenarios against a rules page without running
// them, as a suite does before each scenario: a label names a heading
// "### D2 Sowing" of the page, or a part of one ("D2b"). Every label that
// names none is reported, each at its line.
func ExampleCheckRules() {
	page := "# Dakon\n\n### D1 Board\n\n### D2 Sowing\n"
	src := "game: dakon\nscenarios:\n  - name: a sowing\n    rule: [D2b, D4, sowing]\n    play: [a3]\n    expect: {to_move: 2}\n"

	f, err := conformance.Parse("dakon.yaml", []byte(src))
	if err != nil {
		panic(err)
	}
	for _, sc := range f.Scenarios {
		if err := conformance.CheckRules(sc, conformance.Points(page), "dakon/rules.md"); err != nil {
			fmt.Println(err)
		}
	}
	// Output:
	// dakon.yaml:4: rule D4 is no point of dakon/rules.md; its points are D1, D2
	// dakon.yaml:4: rule sowing is no point label: a label is a capital letter and a number, such as D1, or a part of a point, such as D1b (docs/scenarios.md#rule-labels)
}
