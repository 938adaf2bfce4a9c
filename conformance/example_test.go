package conformance_test

import (
	"context"
	"fmt"
	"os"
	"time"

	"github.com/matombo/matombo/conformance"
	"github.com/matombo/matombo/games"
)

// Run the scenario files of a folder against the shipped games, as
// `matombo conform` does, and print the report when something failed.
func ExampleSuite_Run() {
	lib := games.Library()

	files, errs := conformance.LoadFiles("tsoro") // a folder stands for its *.yaml files
	report := conformance.NewSuite(lib).Run(files, errs)
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
