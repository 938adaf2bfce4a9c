package host

import (
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Load-time costs run in Go, outside the time budget, so they must stay
// near-linear in the size of the input. These inputs took minutes when the
// board's jumps and adjacency were de-duplicated by searching lists, and
// when variants data merged by searching keys (n^2/2 = 5e9 comparisons);
// with sets they take a fraction of a second of CPU. The guard is a hang
// guard (hundreds of times the linear cost), not a measurement: it holds on
// a loaded machine. Measured with a quadratic merge, 100000 keys took 18 s
// of CPU; 150000 jumps of one site would take minutes.
func loadGuard() time.Duration { return hangGuard() }

// Control characters in a variants file are refused with its file and
// line: variant names, descriptions, parameter names and string values.
func TestHostileVariantsText(t *testing.T) {
	script := strings.Replace(miniSource("g", ""), `m.declare { name = "g" }`,
		`m.declare { name = "g", params = { { name = "label", default = "x" } } }`, 1)
	for yml, msg := range map[string]string{
		"variants:\n  \"bad\\e[2J\":\n    params: {label: y}\n":      "variants.yaml:2:3: a variant name contains the control character U+001B",
		"variants:\n  v:\n    description: \"a\\rb\"\n":              "variants.yaml:3:18: the description of variant v contains the control character U+000D",
		"variants:\n  v:\n    params: {\"la\\u202ebel\": y}\n":       "variants.yaml:3:14: a parameter name contains the control character U+202E",
		"variants:\n  v:\n    params: {label: \"\\e]0;title\\a\"}\n": "variants.yaml:3:21: the value of parameter label contains the control character U+001B",
	} {
		_, dir, err := loadFolder(t, "g", map[string]string{"g.lua": script, "variants.yaml": yml})
		var ce *ConfigError
		require.ErrorAs(t, err, &ce, yml)
		assert.Contains(t, err.Error(), msg)
		assert.Contains(t, err.Error(), dir)
		assert.NotContains(t, err.Error(), "\x1b")
	}
	// A parameter set by the embedding program is refused the same way.
	_, _, err := loadFolder(t, "g", map[string]string{"g.lua": script}, WithParam("label", "\x1b[2J"))
	assert.ErrorContains(t, err, "the value contains the control character U+001B")
}

// A rules page is printed as it is: control characters are refused with
// the page's file and line; tabs and Windows line ends are fine.
func TestHostileRulesPage(t *testing.T) {
	script := miniSource("g", "")
	_, _, err := loadFolder(t, "g", map[string]string{"g.lua": script, "rules.md": "# Rules\r\n\tfine\n"})
	require.NoError(t, err)
	_, dir, err := loadFolder(t, "g", map[string]string{"g.lua": script, "rules.md": "# Rules\n\nclear \x1b[2J\n"})
	var ce *ConfigError
	require.ErrorAs(t, err, &ce)
	assert.Equal(t, filepath.Join(dir, "g", "rules.md")+":3: the page contains the control character U+001B: only printable text, tabs and line ends are allowed", err.Error())

	// A game that extends it shows its page (matombo rules): the base's
	// page is checked on that load too, whichever game is loaded.
	for _, page := range []string{"# Rules\n\nclear \x1b[2J\n", "# Rules\n\n\u202eright to left\n", "# Rules\n\nbad \xfe\n"} {
		lib := extLibrary(t,
			fstest.MapFS{"base/base.lua": {Data: []byte(baseGame)}, "base/rules.md": {Data: []byte(page)}},
			fstest.MapFS{"ext/ext.lua": {Data: []byte(`return matombo.extends("base")`)}})
		_, err := lib.Load("ext")
		require.ErrorAs(t, err, &ce, "%q", page)
		assert.Contains(t, err.Error(), "base/rules.md:3: the page contains ")
	}
}
