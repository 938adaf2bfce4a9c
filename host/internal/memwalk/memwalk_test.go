package memwalk

import (
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
	assert.Less(t, withBoth-withOne, uint64(1<<10), "a shared string counts once")

	L.Push(L.NewTable()) // a value in a register
	reg := L.Get(-1).(*lua.LTable)
	reg.RawSetString("x", text)
	assert.GreaterOrEqual(t, Held(L, 1<<40)-withGlobal, uint64(1<<20))

	assert.Less(t, Held(L, 1000, a), uint64(2<<20), "stops once over the limit")
}
