package memwalk

import (
	"runtime"
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

// A table's hash part counts what gopher-lua really allocates for it,
// within a factor of about 2.5 either way: its maps (a script's first
// field of an empty table makes room for 32 string keys) and every key
// it ever had, cleared keys too, whose strings stay alive in its key list.
// The estimate of each shape is compared with the heap it takes, n copies
// of it held at once.
func TestHashPartsCount(t *testing.T) {
	L := lua.NewState(lua.Options{SkipOpenLibs: true})
	defer L.Close()
	keys := make([]string, 1000)
	for i := range keys {
		keys[i] = string(rune('a'+i%26)) + string(rune('a'+i/26%26)) + string(rune('a'+i/676))
	}
	for _, c := range []struct {
		name string
		n    int // copies measured
		make func() *lua.LTable
	}{
		{"empty", 2000, func() *lua.LTable { return L.CreateTable(0, 0) }},
		{"a field set", 2000, func() *lua.LTable { x := L.CreateTable(0, 0); x.RawSetString("n", lua.LTrue); return x }},
		{"a constructor's field", 2000, func() *lua.LTable { x := L.CreateTable(0, 1); x.RawSetString("n", lua.LTrue); return x }},
		{"8 fields", 1000, func() *lua.LTable {
			x := L.CreateTable(0, 0)
			for _, k := range keys[:8] {
				x.RawSetString(k, lua.LTrue)
			}
			return x
		}},
		{"a number key", 2000, func() *lua.LTable { x := L.CreateTable(0, 0); x.RawSet(lua.LNumber(0.5), lua.LTrue); return x }},
		{"1000 fields", 20, func() *lua.LTable {
			x := L.CreateTable(0, 0)
			for _, k := range keys {
				x.RawSetString(k, lua.LTrue)
			}
			return x
		}},
		{"1000 number keys", 20, func() *lua.LTable {
			x := L.CreateTable(0, 0)
			for i := range 1000 {
				x.RawSet(lua.LNumber(float64(i)+0.5), lua.LTrue)
			}
			return x
		}},
		{"1000 fields set and cleared", 20, func() *lua.LTable {
			x := L.CreateTable(0, 0)
			for _, k := range keys {
				x.RawSetString(k, lua.LTrue)
				x.RawSetString(k, lua.LNil)
			}
			return x
		}},
		{"1000 number keys set and cleared", 20, func() *lua.LTable {
			x := L.CreateTable(0, 0)
			for i := range 1000 {
				x.RawSet(lua.LNumber(float64(i)+0.5), lua.LTrue)
				x.RawSet(lua.LNumber(float64(i)+0.5), lua.LNil)
			}
			return x
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			held := make([]*lua.LTable, c.n)
			runtime.GC()
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			for i := range held {
				held[i] = c.make()
			}
			runtime.GC()
			runtime.ReadMemStats(&after)
			real := float64(after.HeapAlloc-before.HeapAlloc) / float64(c.n)
			empty := Held(L, 1<<40)
			est := float64(Held(L, 1<<40, held[0]) - empty)
			runtime.KeepAlive(held)
			t.Logf("real %.0f bytes, estimate %.0f", real, est)
			assert.GreaterOrEqual(t, est, real/2.5, "the estimate is too low")
			assert.LessOrEqual(t, est, real*2.6, "the estimate is too high")
		})
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
