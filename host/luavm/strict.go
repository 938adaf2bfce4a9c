package luavm

import (
	"fmt"
	"slices"

	"github.com/matombo/matombo/host/diag"
	lua "github.com/yuin/gopher-lua"
)

// strictFields makes reading a field t does not have an error raised at
// the script's line, whose text missing(key) gives, instead of a nil that
// fails later in Lua's words ("attempt to call a non-function object"):
// for the table of primitives, where a missing field is a misspelt name,
// and the parameters declare returns. Fields t has are read as before, at
// no cost; the metatable is locked. missing also returns the work it did
// in Go (values looked at), charged to the call a step per
// missWorkPerStep: a script may read missing fields in a loop under
// pcall.
func strictFields(L *lua.LState, t *lua.LTable, missing func(key string) (msg string, work int)) {
	mt := L.NewTable()
	mt.RawSetString("__index", L.NewFunction(func(L *lua.LState) int {
		// A key no name could be (a string of a megabyte, say) is
		// clipped before it is looked at: the search for the likely
		// name is quadratic in its length.
		msg, work := missing(diag.ClipText(luaText(L.Get(2)), maxFieldName))
		chargeL(L, 1+work/missWorkPerStep)
		L.RaiseError("%s", msg)
		return 0
	}))
	mt.RawSetString("__metatable", lua.LString("locked"))
	L.SetMetatable(t, mt)
}

// missWorkPerStep is the work of a missing field's message (letters
// compared, names gathered) that costs about one instruction.
const missWorkPerStep = 4

// maxFieldName is the longest key a missing field's error shows and
// looks for a likely name for: as long as a name of matombo or a
// parameter (names have at most 64 characters, see checkName).
const maxFieldName = 64

// missingPrimitive words a read of a field the table matombo lacks, with
// the work of finding the likely name meant.
func missingPrimitive(api *lua.LTable) func(key string) (string, int) {
	return func(key string) (string, int) {
		var names []string
		work := 0
		api.ForEach(func(k, _ lua.LValue) {
			if s, ok := k.(lua.LString); ok {
				names = append(names, string(s))
				work += 8 + (len(key)+1)*(len(s)+1) // gathered, sorted, compared
			}
		})
		if near := nearName(key, names); near != "" {
			return fmt.Sprintf("matombo has no field %q (did you mean matombo.%s?)", key, near), work
		}
		return fmt.Sprintf("matombo has no field %q (docs/lua-api.md lists what it has)", key), work
	}
}

// nearName is the name of names nearest to name when name is likely a
// misspelling of it: at most two letters added, dropped or changed, and
// fewer than half of name's letters; "" when none is. Of names equally
// near, the first in sorted order.
func nearName(name string, names []string) string {
	sorted := slices.Sorted(slices.Values(names))
	best, bestDist := "", 3
	for _, n := range sorted {
		if d := editDistance(name, n); d < bestDist {
			best, bestDist = n, d
		}
	}
	if 2*bestDist >= len(name) {
		return ""
	}
	return best
}

// editDistance counts the letters to add, drop or change to make a into b
// (Levenshtein).
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
