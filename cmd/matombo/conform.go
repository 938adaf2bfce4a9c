package main

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/matombo/matombo/conformance"
	"github.com/matombo/matombo/docs"
	"github.com/matombo/matombo/host/safefile"
)

const conformAbout = `
Runs conformance scenarios (docs/scenarios.md) against the games: the
shipped ones plus the --games folders, so a modified copy of a script can be
tested against the documented rules. Without arguments it runs all shipped
scenarios: the folders of conformance/ in the Matombo repository, found from
the working directory upwards. Arguments are scenario files or folders
(every *.yaml below them).

Writes every failure and error with its file:line, the expected and actual
values (boards side by side), then a summary line; -v lists passes too,
--json writes the report as one JSON object. The exit status is 0 only when
every scenario passed.

The run stops at --max-time (default 30m) or at Ctrl-C (SIGINT, SIGTERM),
in the middle of a script's call if need be: the report is still written,
the scenario it stopped and those it did not start are errors ("stopped:
interrupted", "stopped: ... (not run)"), and the exit status is 1 at
--max-time, 130 after Ctrl-C or SIGINT, 143 after SIGTERM.`

// modulePath is the module of the Matombo repository, to find its
// conformance/ folder.
const modulePath = "github.com/matombo/matombo"

// runConform is `matombo conform [SCENARIO_FILE|DIR ...]`.
func runConform(e *env, args []string) int {
	c := newCLI(e, "conform", "[SCENARIO_FILE|DIR ...] [--games DIR] [--max-time D] [--json] [-v]", conformAbout)
	var dirs stringList
	c.fs.Var(&dirs, "games", "add or override games from the folder `DIR` (repeatable)")
	asJSON := c.fs.Bool("json", false, "write the report as one JSON object")
	verbose := c.fs.Bool("v", false, "list the scenarios that pass too")
	maxTime := c.runTimeFlag()
	pos, status, ok := c.parse(args)
	if !ok {
		return status
	}
	if len(pos) == 0 {
		wd, err := os.Getwd()
		if err != nil {
			return c.fail(err)
		}
		if pos, err = shippedScenarios(wd); err != nil {
			return c.fail(err)
		}
	}
	lib, err := libraryWith(dirs)
	if err != nil {
		return c.fail(err)
	}
	ctx, stop := e.runContext(*maxTime)
	defer stop()
	files, errs := conformance.LoadFiles(pos...)
	suite := conformance.NewSuite(lib).WithRules(docs.Rules)
	report := suite.RunContext(ctx, files, errs)
	suite.Close()
	if *asJSON {
		if err := report.WriteJSON(e.stdout); err != nil {
			return c.fail(err)
		}
	} else {
		report.WriteText(e.stdout, *verbose)
	}
	if report.OK() {
		return exitOK
	}
	if report.Stopped != "" {
		fmt.Fprintf(e.stderr, "matombo conform: stopped: %s\n", oneLine(report.Stopped))
		return stoppedStatus(ctx)
	}
	if report.Passed+report.Failed+report.Errored == 0 {
		fmt.Fprintf(e.stderr, "matombo conform: %s\n", oneLine("no scenarios found in "+strings.Join(pos, ", ")))
	}
	return exitFail
}

// shippedScenarios finds the scenario folders of the repository: the
// folders of conformance/ (but testdata) in the directory, above dir, that
// holds the go.mod of the Matombo module.
func shippedScenarios(dir string) ([]string, error) {
	root, err := findModuleRoot(dir)
	if err != nil {
		return nil, err
	}
	conf := filepath.Join(root, "conformance")
	entries, err := os.ReadDir(conf)
	if err != nil {
		return nil, fmt.Errorf("the shipped scenarios: %w", err)
	}
	var out []string
	for _, en := range entries {
		if en.IsDir() && en.Name() != "testdata" {
			if goFiles, _ := filepath.Glob(filepath.Join(conf, en.Name(), "*.go")); len(goFiles) > 0 {
				continue // a Go package (the OpenSpiel importer), not scenarios
			}
			out = append(out, relative(dir, filepath.Join(conf, en.Name())))
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("no scenario folders in %s yet", relative(dir, conf))
	}
	return out, nil
}

// findModuleRoot walks up from dir to the directory whose go.mod declares
// the Matombo module.
func findModuleRoot(dir string) (string, error) {
	for d := dir; ; {
		if isMatomboModule(filepath.Join(d, "go.mod")) {
			return d, nil
		}
		parent := filepath.Dir(d)
		if parent == d {
			return "", errors.New("cannot find the shipped scenarios: no go.mod of module " + modulePath + " in " + dir + " or above; run matombo conform inside the Matombo repository, or name scenario files or folders")
		}
		d = parent
	}
}

// isMatomboModule reports whether the go.mod file declares the Matombo
// module.
func isMatomboModule(gomod string) bool {
	// A go.mod that is a named pipe or a device must not hang the search.
	src, err := safefile.ReadFile(gomod, 1<<20)
	if err != nil {
		return false
	}
	for _, line := range strings.Split(string(src), "\n") {
		fields := strings.Fields(line)
		if len(fields) >= 2 && fields[0] == "module" {
			return strings.Trim(fields[1], `"`) == modulePath
		}
	}
	return false
}

// relative shows path relative to dir when it is below it.
func relative(dir, path string) string {
	if rel, err := filepath.Rel(dir, path); err == nil && !strings.HasPrefix(rel, "..") {
		return rel
	}
	return path
}
