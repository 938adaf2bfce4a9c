package player

import (
	"os"
	"reflect"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// docs/players.md lists every field of each player's config in its table
// of constructors, so that a field added to a config is documented.
func TestDocsListConfigFields(t *testing.T) {
	b, err := os.ReadFile("../../docs/players.md")
	require.NoError(t, err)
	rows := map[string]string{}
	for _, line := range strings.Split(string(b), "\n") {
		if m := regexp.MustCompile("^\\| `player\\.New[A-Za-z]+\\(g, ([A-Za-z]+Config)\\{").FindStringSubmatch(line); m != nil {
			rows[m[1]] = line
		}
	}
	for _, cfg := range []any{MCTSConfig{}, AlphaBetaConfig{}, GreedyConfig{}} {
		typ := reflect.TypeOf(cfg)
		row, ok := rows[typ.Name()]
		if !assert.True(t, ok, "docs/players.md has a row for %s", typ.Name()) {
			continue
		}
		cells := strings.Split(row, "|")
		require.GreaterOrEqual(t, len(cells), 3, row)
		for i := 0; i < typ.NumField(); i++ {
			if f := typ.Field(i); f.IsExported() {
				assert.Contains(t, cells[2], "`"+f.Name+"`", "docs/players.md lists %s.%s", typ.Name(), f.Name)
			}
		}
	}
}
