package rules

import (
	"flag"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

var update = flag.Bool("update", false, "rewrite the parts' reference in docs/lua-api.md and games/types/matombo.lua")

// TestReferenceIsCurrent: the reference tables of docs/lua-api.md and the
// editor stubs of games/types/matombo.lua are made from the registry; a
// new part, field or doc text shows there once the test is run with
// -update.
func TestReferenceIsCurrent(t *testing.T) {
	for _, c := range []struct {
		file, begin, end, body string
	}{
		{"../../docs/lua-api.md", ReferenceBegin, ReferenceEnd, Reference()},
		{"../../games/types/matombo.lua", StubsBegin, StubsEnd, LuaStubs()},
	} {
		data, err := os.ReadFile(c.file)
		require.NoError(t, err)
		text := string(data)
		i, j := strings.Index(text, c.begin), strings.Index(text, c.end)
		require.True(t, i >= 0 && j > i, "%s has the lines %q and %q around the generated part", c.file, c.begin, c.end)
		want := text[:i+len(c.begin)] + "\n" + c.body + text[j:]
		if *update {
			require.NoError(t, os.WriteFile(c.file, []byte(want), 0o644))
			continue
		}
		require.Equal(t, want, text, "%s is out of date: run go test ./host/rules -update", c.file)
	}
}

// TestEveryPartDocumented: every part, field and slot says what it is.
func TestEveryPartDocumented(t *testing.T) {
	for _, s := range All() {
		require.NotEmpty(t, s.Doc, s.Name)
		require.NotEmpty(t, s.Slot.Call(), s.Name)
		require.Contains(t, Groups, s.Group, s.Name)
		for _, f := range s.Fields {
			require.NotEmpty(t, f.Doc, "%s.%s", s.Name, f.Name)
			if f.Type == FieldKind || f.Type == FieldKinds {
				require.True(t, f.Arity >= -2, "%s.%s", s.Name, f.Name)
			}
		}
	}
}
