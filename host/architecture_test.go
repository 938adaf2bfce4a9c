package host_test

import (
	"os/exec"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// The packages of the host import one way (docs/architecture.md): the
// kernel and the rule parts know no Lua and no host; the Lua machine knows
// the kernel, the parts and the errors but not the facade; the facade
// knows its parts but none of the programs built on it (players, solving,
// analysis, the server), which use its public API as any embedder would.
// A test, because a cycle the compiler refuses is only the worst case of
// an import going the wrong way.
func TestImportsRunOneWay(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go list")
	}
	const mod = "github.com/matombo/matombo/"
	out, err := exec.Command("go", "list", "-f", `{{.ImportPath}}{{range .Imports}} {{.}}{{end}}`, mod+"host/...").Output()
	require.NoError(t, err)
	imports := map[string][]string{}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		f := strings.Fields(line)
		imports[strings.TrimPrefix(f[0], mod)] = f[1:]
	}
	// forbidden lists, for each package, the packages it must not import
	// (a prefix: "host/" is every package under host).
	lua := "github.com/yuin/gopher-lua"
	forbidden := map[string][]string{
		"host/kernel":  {mod + "host", lua},
		"host/rules":   {mod + "host/luavm", mod + "host/diag", mod + "host/params", mod + "host/diagram", mod + "host/internal", mod + "host/player", lua},
		"host/diag":    {mod + "host/", lua},
		"host/params":  {mod + "host/kernel", mod + "host/rules", mod + "host/luavm", lua},
		"host/diagram": {mod + "host/luavm", mod + "host/rules", lua},
		"host/luavm":   {mod + "host/diagram", mod + "host/player", mod + "host/solve", mod + "host/match", mod + "host/analysis", mod + "host/server", mod + "host/store", mod + "host/verify"},
		"host": {mod + "host/player", mod + "host/solve", mod + "host/match", mod + "host/analysis", mod + "host/server",
			mod + "host/store", mod + "host/verify", mod + "host/rules"},
	}
	for _, pkg := range []string{"host/player", "host/solve", "host/match", "host/analysis", "host/server", "host/verify"} {
		forbidden[pkg] = []string{mod + "host/luavm", mod + "host/rules", lua}
	}
	for pkg, imps := range imports {
		for _, imp := range imps {
			if strings.HasPrefix(imp, mod+"cmd") || strings.HasPrefix(imp, mod+"games") {
				t.Errorf("%s imports %s: the host knows no program and no game", pkg, imp)
			}
			for _, bad := range forbidden[pkg] {
				if imp == bad || strings.HasSuffix(bad, "/") && strings.HasPrefix(imp, bad) || strings.HasPrefix(imp, bad+"/") {
					t.Errorf("%s imports %s, against the direction of the layers", pkg, imp)
				}
			}
		}
	}
	require.NotEmpty(t, imports["host/kernel"], "the listing has the kernel")
}
