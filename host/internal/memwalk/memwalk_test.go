package memwalk

import (
	"runtime"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	lua "github.com/yuin/gopher-lua"
)

// The walk reads gopher-lua's unexported fields: with the version in
// go.mod they are all found.
func TestInternalsAreFound(t *testing.T) {
	require.NoError(t, Check())
}

// Values reachable from globals, from the registers and from extra roots
// count; a string shared by two tables counts once; the walk stops soon
// after the limit.
func TestHeld(t *testing.T) {
	L := lua.NewState(lua.Options{SkipOpenLibs: true})
	defer L.Close()
	base := Held(L, 1<<40)

	big := L.NewTable()
	for i := 1; i <= 10000; i++ {
		big.Append(lua.LNumber(i))
	}
	L.SetGlobal("big", big)
	withGlobal := Held(L, 1<<40)
	assert.GreaterOrEqual(t, withGlobal-base, uint64(10000*SlotSize))

	text := lua.LString(string(make([]byte, 1<<20)))
	a, b := L.NewTable(), L.NewTable()
	a.Append(text)
	b.Append(text)
	withOne := Held(L, 1<<40, a)
	withBoth := Held(L, 1<<40, a, b)
	assert.GreaterOrEqual(t, withOne-withGlobal, uint64(1<<20))
	assert.Less(t, withBoth-withOne, uint64(16<<10), "a shared string counts once (b itself is a few KiB)")

	L.Push(L.NewTable()) // a value in a register
	reg := L.Get(-1).(*lua.LTable)
	reg.RawSetString("x", text)
	assert.GreaterOrEqual(t, Held(L, 1<<40)-withGlobal, uint64(1<<20))

	assert.Less(t, Held(L, 1000, a), uint64(2<<20), "stops once over the limit")
}

// Each shape of value a script can hold is counted at least at what Go
// really allocates for it (within a tenth), and at most a few times that
// where the walk cannot see what was allocated: a table's hash part
// counts as gopher-lua allocates it (a script's first field of an empty
// table makes room for 32 string keys; a constructor's fields size it for
// themselves, which the walk cannot tell, so it counts as the former) and
// every key it ever had, cleared keys too, whose strings stay alive in its
// key list; a number keeps alive the block of 32 numbers it was allocated
// from. Lua code builds n copies of each shape into a global table; the
// estimate of the table is compared with the live heap it takes.
func TestShapesCount(t *testing.T) {
	for _, c := range []struct {
		name string
		n    int    // copies measured
		make string // Lua code for the value of copy i
		over float64
	}{
		{"empty tables", 2000, `{}`, 1.3},
		{"a field set", 2000, `(function() local x = {} x.n = true return x end)()`, 1.3},
		{"a constructor's field", 2000, `{ n = true }`, 4.5},
		{"8 fields", 1000, `(function() local x = {} for _, k in ipairs(names) do x[k] = true end return x end)()`, 1.3},
		{"a number key", 2000, `(function() local x = {} x[0.5] = true return x end)()`, 1.3},
		{"1000 fields", 20, `(function() local x = {} for _, k in ipairs(many) do x[k] = true end return x end)()`, 2.2},
		{"1000 number keys", 20, `(function() local x = {} for j = 1, 1000 do x[j + 0.5] = true end return x end)()`, 2.2},
		{"1000 fields set and cleared", 20, `(function() local x = {} for _, k in ipairs(many) do x[k] = true x[k] = nil end return x end)()`, 3.2},
		{"1000 number keys set and cleared", 20, `(function() local x = {} for j = 1, 1000 do x[j + 0.5] = true x[j + 0.5] = nil end return x end)()`, 3.2},
		{"numbers", 20000, `i + 0.5`, 1.3},
		{"arrays of 4 numbers", 2000, `{ i, i, i, i }`, 1.3},
		{"short strings", 20000, `"s" .. i`, 1.3},
		{"long strings", 2000, `string.rep("x", 200) .. i`, 1.3},
		{"closures", 2000, `function() return i end`, 1.3},
	} {
		t.Run(c.name, func(t *testing.T) {
			L := lua.NewState()
			defer L.Close()
			require.NoError(t, L.DoString(`names, many = {}, {}
				for i = 1, 1000 do many[i] = "k" .. i end
				for i = 1, 8 do names[i] = many[i] end`))
			empty := Held(L, 1<<40)
			runtime.GC()
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			require.NoError(t, L.DoString(`kept = {} for i = 1, `+strconv.Itoa(c.n)+` do kept[i] = `+c.make+` end`))
			runtime.GC()
			runtime.ReadMemStats(&after)
			real := float64(after.HeapAlloc - before.HeapAlloc)
			est := float64(Held(L, 1<<40) - empty)
			t.Logf("real %.0f bytes a copy, estimate %.0f (%.2f)", real/float64(c.n), est/float64(c.n), est/real)
			assert.GreaterOrEqual(t, est, real*0.9, "the estimate is too low")
			assert.LessOrEqual(t, est, real*c.over, "the estimate is too high")
		})
	}

	L := lua.NewState(lua.Options{SkipOpenLibs: true})
	defer L.Close()
	keys := make([]string, 100)
	for i := range keys {
		keys[i] = string(rune('a'+i%26)) + string(rune('a'+i/26%26))
	}
	// A cleared key's string stays alive in the key list: it counts.
	x := L.CreateTable(0, 0)
	for i := range 100 {
		k := string(make([]byte, 10000)) + keys[i]
		x.RawSetString(k, lua.LTrue)
		x.RawSetString(k, lua.LNil)
	}
	assert.Greater(t, Held(L, 1<<40, x)-Held(L, 1<<40), uint64(100*10000), "the strings of cleared keys count")
}

// OpenUpvalues counts the captured locals of the running functions, the
// list gopher-lua walks, at most the number asked for; a function's are
// closed when it returns.
func TestOpenUpvalues(t *testing.T) {
	L := lua.NewState(lua.Options{SkipOpenLibs: true})
	defer L.Close()
	var seen []int
	L.SetGlobal("probe", L.NewFunction(func(L *lua.LState) int {
		seen = append(seen, OpenUpvalues(L, 1<<20), OpenUpvalues(L, 2))
		return 0
	}))
	require.NoError(t, L.DoString(`
		probe()                                  -- nothing captured yet
		local a, b, c = 1, 2, 3
		local f = function() return a + b + c end
		probe()                                  -- a, b, c
		local function g()
			local x = 1
			local h = function() return x + a end -- a is found, not added
			probe()                              -- a, b, c, x
		end
		g()
		probe()                                  -- x closed by g's return
	`))
	assert.Equal(t, []int{0, 0, 3, 2, 4, 2, 3, 2}, seen)
}
