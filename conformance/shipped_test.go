package conformance

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/matombo/matombo/docs"
	"github.com/matombo/matombo/games"
)

// TestShippedScenarios runs every scenario under conformance/ against the
// shipped games.
func TestShippedScenarios(t *testing.T) {
	entries, err := os.ReadDir(".")
	if err != nil {
		t.Fatal(err)
	}
	var dirs []string
	for _, e := range entries {
		if e.IsDir() && e.Name() != "testdata" && !hasGoFiles(e.Name()) {
			dirs = append(dirs, e.Name())
		}
	}
	if len(dirs) == 0 {
		t.Skip("no scenario folders yet")
	}
	files, errs := LoadFiles(dirs...)
	suite := NewSuite(games.Library()).WithRules(docs.Rules)
	for _, err := range errs {
		t.Errorf("%v", err)
	}
	for _, f := range files {
		for _, sc := range f.Scenarios {
			sc := sc
			t.Run(filepath.ToSlash(f.Path)+"/"+sc.Name, func(t *testing.T) {
				res := suite.RunScenario(sc)
				if res.Status != Passed {
					var out bytes.Buffer
					(&Report{Results: []Result{res}}).WriteText(&out, false)
					t.Error("\n" + out.String())
				}
			})
		}
	}
}

// hasGoFiles reports whether dir is a Go package (conformance/openspiel)
// rather than a folder of scenarios.
func hasGoFiles(dir string) bool {
	m, _ := filepath.Glob(filepath.Join(dir, "*.go"))
	return len(m) > 0
}
