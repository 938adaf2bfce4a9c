package host

import (
	"fmt"
	"strings"
	"testing"

	"github.com/matombo/matombo/host/luavm"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestCompileScriptErrors(t *testing.T) {
	for _, c := range []struct {
		name, src string
		line      int
		msg       string
	}{
		{"syntax error", "local x = = 1", 1, `1:11: syntax error: unexpected text near "="`},
		// gopher-lua gives a token's last column: the first is named.
		{"a word where none fits", "local x = 1 then\n", 1, `1:13: syntax error: unexpected text near "then"`},
		{"columns count characters", "local s = \"é\" then\n", 1, `1:15: syntax error`},
		{"a statement after return", "local function f()\n  return nil\nlocal y = 2\nend\n", 3, `3:1: syntax error: unexpected text near "local"`},
		// gopher-lua gives no line at the end of the script: its last
		// line holding text is named.
		{"syntax error at the end", "local x = 1\nlocal y = 2\nif x then\n\n", 3, `c.lua:3: syntax error: the script ends inside a statement or block (an end missing?) after "then"`},
		// gopher-lua reports an unterminated string at the line after it,
		// a long one at the end of the script with the rest of the script
		// as its text: the opening is named, and the text's start.
		{"unfinished string", "local s = \"abc\nreturn s", 1, `1:11: syntax error: unterminated string near "abc"`},
		{"unfinished long string", "local s = [[abc\nreturn s\n", 1, `1:11: syntax error: unterminated multiline string near "abc..."`},
		// A missing label is reported at the end of its block, a label
		// defined twice on the line after it.
		{"goto without label", "goto nowhere\nlocal x = 1\n", 1, "no visible label 'nowhere'"},
		{"a label twice", "do\n  ::a::\n  ::a::\nend\n", 3, "label 'a' already defined on line 2"},
		// The static check of globals (package globalcheck) runs first.
		{"undeclared global", "local x = 1\nreturn y", 2, `undeclared global "y"`},
		// gopher-lua names no line for too many locals at the top level:
		// the line of the 200th is named.
		{"too many locals at the top level", manyLocals("", 250), 200, "too many local variables: a function holds at most 200 locals"},
		{"as many locals as fit, and a temporary", manyLocals("", 200) + "return v1 + v2", 200, "the script's top level declares its 200th local here"},
		// In a function, the line the function is defined on.
		{"too many locals in a function", "local x = 1\nlocal function f()\n" + manyLocals("  ", 250) + "end\nreturn f", 2, "(in the function defined here)"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := luavm.Compile("c.lua", []byte(c.src))
			require.Error(t, err)
			var se *ScriptError
			require.ErrorAs(t, err, &se)
			assert.Equal(t, "c.lua", se.Pos.File)
			if c.line > 0 {
				assert.Equal(t, c.line, se.Pos.Line, "%v", err)
			}
			assert.Contains(t, se.Error(), c.msg)
			t.Logf("%v", err)
		})
	}
}

// manyLocals is n local declarations, one a line, each indented.
func manyLocals(indent string, n int) string {
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, "%slocal v%d = %d\n", indent, i, i)
	}
	return b.String()
}
