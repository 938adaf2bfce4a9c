package luavm

import (
	"fmt"
	"slices"

	lua "github.com/yuin/gopher-lua"
)

// strictFields makes reading a field t does not have an error raised at
// the script's line, whose text missing(key) gives, instead of a nil that
// fails later in Lua's words ("attempt to call a non-function object"):
// for the table of primitives, where a missing field is a misspelt name,
// and the parameters declare returns. Fields t has are read as before, at
// no cost; the metatable is locked.
func strictFields(L *lua.LState, t *lua.LTable, missing func(key string) string) {
	mt := L.NewTable()
	mt.RawSetString("__index", L.NewFunction(func(L *lua.LState) int {
		L.RaiseError("%s", missing(luaText(L.Get(2))))
		return 0
	}))
	mt.RawSetString("__metatable", lua.LString("locked"))
	L.SetMetatable(t, mt)
}

// missingPrimitive words a read of a field the table matombo lacks.
func missingPrimitive(api *lua.LTable) func(key string) string {
	return func(key string) string {
		var names []string
		api.ForEach(func(k, _ lua.LValue) {
			if s, ok := k.(lua.LString); ok {
				names = append(names, string(s))
			}
		})
		if near := nearName(key, names); near != "" {
			return fmt.Sprintf("matombo has no field %q (did you mean matombo.%s?)", key, near)
		}
		return fmt.Sprintf("matombo has no field %q (docs/lua-api.md lists what it has)", key)
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
