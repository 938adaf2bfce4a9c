package host

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A generic for whose body begins with a jump to its end (a break, first
// or inside a block or under a constant condition) runs as Lua says,
// inside any loop: gopher-lua's compiler alone made such a loop jump to
// an arbitrary instruction, returning from the function (see
// host/luavm/forbreak.go). Each case counts the turns of an outer loop
// that runs such a for three times, in a script's setup.
func TestGenericForBeginningWithABreak(t *testing.T) {
	for _, c := range []struct{ name, outer, body string }{
		{"break in a while", "while n < 3 do %s; n = n + 1 end", "break"},
		{"break in a repeat", "repeat %s; n = n + 1 until n >= 3", "break"},
		{"break in a numeric for", "for j = 1, 3 do %s; n = n + 1 end", "break"},
		{"break in a generic for", "for _ in pairs({1, 2, 3}) do %s; n = n + 1 end", "break"},
		{"break in a do block", "while n < 3 do %s; n = n + 1 end", "do break end"},
		{"break after a label", "while n < 3 do %s; n = n + 1 end", "::top:: break"},
		{"break under a constant condition", "while n < 3 do %s; n = n + 1 end", "if true then break end"},
		{"a condition never true", "while n < 3 do %s; n = n + 1 end", "if nil then n = 99 end"},
		{"break under a condition", "while n < 3 do %s; n = n + 1 end", "if k then break end"},
		{"a statement before the break", "while n < 3 do %s; n = n + 1 end", "n = n + 0; break"},
	} {
		t.Run(c.name, func(t *testing.T) {
			inner := "for k in pairs({1}) do " + c.body + " end"
			count := "local function turns() local n = 0; " + fmt.Sprintf(c.outer, inner) + "; return n, 'done' end\n"
			src := strings.Replace(miniSource("fb", ""), `setup = function() m.set_count("a1", 1) end`,
				`setup = function() local n, done = turns(); assert(done == "done", "turns returned early"); m.set_count("a1", n) end`, 1)
			src = strings.Replace(src, "return {", count+"return {", 1)
			g, err := loadSource(t, "fb", src)
			require.NoError(t, err)
			assert.Equal(t, 3, g.Start().Count(0))
		})
	}
}
