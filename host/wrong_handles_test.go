package host

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var updateWrongHandles = flag.Bool("update-wrong-handles", false, "rewrite testdata/wrong_handles.golden")

// wrongHandlesGame declares a handle of every sort (tags 1 to 3, track 1,
// move kinds 1 and 2, variable 1), a filter and a rule part; LOAD runs
// while the script loads, SETUP in setup, where a primitive has a state.
const wrongHandlesGame = `local m = matombo
m.declare { name = "hx", players = 2 }
m.board { rows = { "a", "b" }, columns = 3 }
local RING = m.track("ring", { "a1", "a2", "a3", "b3", "b2", "b1" }, true)
local STORE, HOUSE, HEAD = m.tag("store", { "a3" }), m.tag("house", { "b1" }), m.tag("head", { "a1" })
local SOW, TAKE = m.move("sow", "{1}"), m.move("take", "{1}")
local PENDING = m.var("pending")
local F = m.filter { row = 1 }
local SOW_PART = m.sow_rule { track = RING }
LOAD
return {
  setup = function() SETUP end,
  legal = function(p) m.emit(SOW, "a1") end,
  play = function(p, kind, s) m.finish(0, "done") end,
}
`

// Every slot that takes a site, a handle, a filter or a part, given every
// sort of value a script author may pass by mistake: the error names the
// value as the author knows it (the tag head, a filter, the rule part
// sow_rule, a name of the wrong sort, a number and what it means in that
// slot), or the golden file says "accepted" where a number that is the
// handle of something else is a valid handle of what the slot takes.
func TestWrongHandlesNameWhatWasPassed(t *testing.T) {
	slots := []struct{ where, code string }{
		{"load", `m.sow_rule { track = X }`},
		{"load", `m.relay_rule { track = RING, stop = X }`},
		{"load", `m.emit_rule { kind = X, each = F }`},
		{"load", `m.bonus_rule { pending = X, from = F }`},
		{"load", `m.extra_turn_rule { sites = X }`},
		{"load", `m.bonus_rule { pending = PENDING, from = X }`},
		{"load", `m.sowing_play { kind = SOW, sow = X }`},
		{"load", `m.filter { tag = X }`},
		{"load", `m.filter { track = X }`},
		{"load", `m.tag("t", { X })`},
		{"load", `m.next(X, "a1")`},
		{"load", `m.has_tag("a1", X)`},
		{"setup", `m.count(X)`},
		{"setup", `m.get(X)`},
		{"setup", `m.count_sites(X)`},
	}
	values := []string{"HEAD", "TAKE", "RING", "F", "SOW_PART", `"ring"`, `"head"`, `"z9"`, "99", "{}"}
	var out strings.Builder
	for _, slot := range slots {
		fmt.Fprintf(&out, "## %s (in %s)\n", slot.code, slot.where)
		for _, v := range values {
			code := strings.ReplaceAll(slot.code, "X", v)
			load, setup := code, ""
			if slot.where == "setup" {
				load, setup = "", code
			}
			src := strings.NewReplacer("LOAD", load, "SETUP", setup).Replace(wrongHandlesGame)
			_, err := loadSource(t, "hx", src)
			got := "accepted"
			if err != nil {
				got = err.Error()
				got = got[strings.Index(got, "hx.lua:"):]
			}
			fmt.Fprintf(&out, "%s\n\t%s\n", code, got)
		}
	}
	golden := filepath.Join("testdata", "wrong_handles.golden")
	if *updateWrongHandles {
		require.NoError(t, os.WriteFile(golden, []byte(out.String()), 0o644))
	}
	want, err := os.ReadFile(golden)
	require.NoError(t, err)
	assert.Equal(t, string(want), out.String(), "run go test ./host -run TestWrongHandles -update-wrong-handles to see the difference in git")
}

// A value a script function gives back to a rule part is named as an
// argument is: a capture function that returns a filter says so, not
// "userdata".
func TestWrongHookResultNamesWhatWasReturned(t *testing.T) {
	for _, c := range []struct{ returned, want string }{
		{"F", "a capture function returned a filter (from matombo.filter); want"},
		{"SOW_PART", "a capture function returned the rule part sow_rule (from matombo.sow_rule); want"},
		{"{}", "a capture function returned table; want"},
	} {
		t.Run(c.returned, func(t *testing.T) {
			load := "local play = m.sowing_play { kind = SOW, sow = SOW_PART, capture = function(p, last) return " + c.returned + " end }"
			src := strings.NewReplacer("LOAD", load, "SETUP", `m.set_count("a1", 1)`, `play = function(p, kind, s) m.finish(0, "done") end`, "play = play").Replace(wrongHandlesGame)
			g, err := loadSource(t, "hx", src)
			require.NoError(t, err)
			err = g.Start().Play("a1")
			require.Error(t, err)
			assert.Contains(t, err.Error(), c.want)
		})
	}
}
