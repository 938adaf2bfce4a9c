package conformance_test

import (
	"fmt"
	"os"

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
