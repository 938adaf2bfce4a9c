package host

import (
	"errors"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/matombo/matombo/host/internal/memwalk"
	"github.com/matombo/matombo/host/luavm"
	lua "github.com/yuin/gopher-lua"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The step budget is deterministic: the same script, state and move fail
// with the same error at the same line, however many goroutines run and
// however loaded the machine is.
func TestStepBudgetIsDeterministic(t *testing.T) {
	src := miniSource("spin", `
local function spin(n)
  local x = 0
  for i = 1, n do
    x = (x * 31 + i) % 1000003
  end
  return x
end`)
	src = replaceOnce(src, `play = function(p, kind, s) m.finish(0, "done") end`,
		`play = function(p, kind, s) spin(1e9); m.finish(0, "done") end`)
	// The time guard must not fire first, also under the race detector on
	// a machine whose cores are all busy many times over.
	g, err := loadSource(t, "spin", src, WithLimits(Limits{Steps: 300_000, Time: hangGuard()}))
	require.NoError(t, err)
	const goroutines = 16
	errs := make([]string, goroutines)
	var wg sync.WaitGroup
	for i := range goroutines {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s := g.Start()
			err := s.Play("a1")
			var be *BudgetError
			if errors.As(err, &be) && be.Budget == BudgetSteps {
				errs[i] = err.Error()
			} else {
				errs[i] = "unexpected: " + errString(err)
			}
		}()
	}
	wg.Wait()
	for i := range errs {
		assert.Equal(t, errs[0], errs[i], "goroutine %d", i)
	}
	assert.Contains(t, errs[0], "spin.lua:8: step budget exceeded (limit 300000 steps)")
	assert.True(t, BudgetSteps.Deterministic())
	assert.False(t, BudgetTime.Deterministic())
	assert.False(t, BudgetMemory.Deterministic())
}

// Primitives charge steps for the work they do in Go, so a loop of cheap
// Lua instructions around an expensive primitive is stopped too.
func TestPrimitivesChargeSteps(t *testing.T) {
	src := miniSource("sums", `local ANY = m.filter {}`)
	src = replaceOnce(src, `m.board { rows = { "a", "b" }, columns = 2 }`, `m.board { rows = { "a", "b" }, columns = 2000 }`)
	src = replaceOnce(src, `play = function(p, kind, s) m.finish(0, "done") end`,
		`play = function(p, kind, s) for i = 1, 100 do m.sum(ANY) end m.finish(0, "done") end`)
	// 100 sums of 4000 sites take about 500 instructions but visit 400,000
	// sites: the charge for the sites stops the call.
	g, err := loadSource(t, "sums", src, WithLimits(Limits{Steps: 50_000}))
	require.NoError(t, err)
	err = g.Start().Play("a1")
	var be *BudgetError
	require.ErrorAs(t, err, &be)
	assert.Equal(t, BudgetSteps, be.Budget)
}

func errString(err error) string {
	if err == nil {
		return "<nil>"
	}
	return err.Error()
}

func replaceOnce(s, old, new string) string {
	i := indexOf(s, old)
	if i < 0 {
		panic("replaceOnce: not found: " + old)
	}
	return s[:i] + new + s[i+len(old):]
}

func indexOf(s, sub string) int {
	for i := 0; i+len(sub) <= len(s); i++ {
		if s[i:i+len(sub)] == sub {
			return i
		}
	}
	return -1
}

// The memory budget is charged to the script that holds the memory: a
// hostile game that hoards is stopped, while innocent games' moves all
// succeed although the embedding program allocates hundreds of MiB and
// the hostile games fill the heap at the same time.
func TestMemoryIsChargedToTheScriptThatHoldsIt(t *testing.T) {
	if testing.Short() {
		t.Skip("allocates hundreds of MiB")
	}
	require.NoError(t, memwalk.Check())
	const limit = 48 << 20
	hoard := miniSource("hoard", ``)
	hoard = replaceOnce(hoard, `play = function(p, kind, s) m.finish(0, "done") end`, `play = function(p, kind, s)
    local t = {}
    for i = 1, 1e8 do
      t[i] = string.rep("x", 100000) .. i
    end
  end`)
	hostile, err := loadSource(t, "hoard", hoard, WithLimits(Limits{Memory: limit, Steps: 1 << 40, Time: hangGuard()}))
	require.NoError(t, err)
	innocent := loadTest(t, "kalah", WithLimits(Limits{Memory: limit}))

	stop := make(chan struct{})
	var wg sync.WaitGroup
	// The embedding program allocates and holds hundreds of MiB, in waves.
	wg.Add(1)
	go func() {
		defer wg.Done()
		var keep [][]byte
		for {
			select {
			case <-stop:
				runtime.KeepAlive(keep)
				return
			default:
			}
			keep = append(keep, make([]byte, 16<<20))
			if len(keep) > 20 { // 320 MiB, then let go
				keep = nil
			}
			time.Sleep(time.Millisecond) // leave the other goroutines a core
		}
	}()
	var innocentMoves, innocentErrs atomic.Int64
	var firstErr atomic.Value
	for w := 0; w < 4; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := innocent.NewRunner()
			defer r.Close()
			for i := uint64(0); ; i++ {
				select {
				case <-stop:
					return
				default:
				}
				s := innocent.Start()
				for !s.Over() {
					if err := r.Apply(s, s.Moves()[int(i)%len(s.Moves())]); err != nil {
						innocentErrs.Add(1)
						firstErr.CompareAndSwap(nil, err.Error())
						break
					}
					innocentMoves.Add(1)
				}
			}
		}()
	}
	hostileErrs := make([]error, 2)
	var hw sync.WaitGroup
	for i := range hostileErrs {
		hw.Add(1)
		go func() {
			defer hw.Done()
			hostileErrs[i] = hostile.Start().Play("a1")
		}()
	}
	hw.Wait()
	close(stop)
	wg.Wait()
	for _, err := range hostileErrs {
		var be *BudgetError
		require.ErrorAs(t, err, &be)
		assert.Equal(t, BudgetMemory, be.Budget, "%v", err)
		assert.Contains(t, err.Error(), "hoard.lua:")
	}
	assert.Zero(t, innocentErrs.Load(), "innocent moves failed, the first: %v", firstErr.Load())
	assert.Positive(t, innocentMoves.Load())
	t.Logf("innocent moves played meanwhile: %d", innocentMoves.Load())
}

// The measurement reads gopher-lua's internals; an upgrade that renames
// them must fail here rather than silently measure nothing. A table held in
// a local variable of a running function is counted.
func TestMemoryMeasurementSeesRegistersAndTables(t *testing.T) {
	require.NoError(t, memwalk.Check())
	var vm *luavm.Machine
	var measured []uint64
	measure := withTestPrimitive("measure", func(L *lua.LState) int {
		measured = append(measured, vm.HeldMemory(1<<40))
		return 0
	})
	src := miniSource("held", ``)
	src = replaceOnce(src, `play = function(p, kind, s) m.finish(0, "done") end`, `play = function(p, kind, s)
    m.measure()
    local t = {}
    for i = 1, 100000 do t[i] = i end
    local x = 1
    m.measure()
    m.finish(0, "done")
  end`)
	g, err := loadSource(t, "held", src, measure)
	require.NoError(t, err)
	vm, err = g.machine()
	require.NoError(t, err)
	s := g.Start()
	require.NoError(t, vm.Apply(&s.k, s.Moves()[0]))
	g.release(vm)
	require.Len(t, measured, 2)
	assert.Greater(t, measured[1]-measured[0], uint64(100000*memwalk.SlotSize), "a table in a local variable is counted: %v", measured)
}

// A script that keeps memory between calls, in an upvalue, is charged for
// it: the game fails once it holds more than its memory budget, with a
// memory BudgetError, and every later call fails with the same error,
// rather than now and then as its machines happen to be measured. The
// memory held when it fails is within the budget and a quarter: when it
// is measured depends on the steps its calls run and the bytes they
// allocate, not on a clock, so this holds on a loaded machine too.
func TestMemoryKeptBetweenCallsIsCharged(t *testing.T) {
	const limit = 8 << 20
	const piece = 256 << 10
	src := replaceOnce(miniSource("keep", `local kept = {}`), `play = function(p, kind, s) m.finish(0, "done") end`,
		`play = function(p, kind, s) kept[#kept + 1] = string.rep("x", 262144) .. #kept end`)
	g, err := loadSource(t, "keep", src, WithLimits(Limits{Memory: limit}))
	require.NoError(t, err)
	s := g.Start()
	var first error
	calls := 0
	for ; calls < 400 && first == nil; calls++ {
		first = s.Play("a1")
	}
	var be *BudgetError
	require.ErrorAs(t, first, &be, "the game holds %d MiB after %d calls", calls*piece>>20, calls)
	assert.Equal(t, BudgetMemory, be.Budget)
	assert.Contains(t, first.Error(), "keep.lua")
	t.Logf("failed at call %d (%d KiB kept): %v", calls, (calls-1)*piece>>10, first)
	assert.LessOrEqual(t, (calls-1)*piece, limit*5/4, "kept within the budget and a quarter")
	for i := 0; i < 5; i++ {
		err := s.Clone().Play("a1")
		assert.Same(t, be, errorsAsBudget(err), "later calls fail with the same error")
	}
	_, err = g.NewState(g.Start().Position())
	assert.ErrorAs(t, err, &be, "every script call of the game fails")
}

func errorsAsBudget(err error) *BudgetError {
	var be *BudgetError
	if errors.As(err, &be) {
		return be
	}
	return nil
}

// What a table's hash part holds is charged as gopher-lua allocates it
// (see memwalk): a script's first field of an empty table makes room for
// 32 keys (2.7 KiB), and a key set and then cleared stays in the table's
// key list, with its string, for as long as the table lives. Each case
// keeps more in an upvalue at every call; the game must fail with a
// memory BudgetError before it holds more than the budget and a quarter.
// Before, the first case held 60 MiB under a 4 MiB budget and the others
// grew without bound, unseen (a table whose keys were all cleared counted
// nothing); then, measured when a 10 ms tick saw the heap grow, the first
// case once held 21.9 MB on a loaded machine.
func TestMemoryOfHashPartsIsCharged(t *testing.T) {
	const limit = 4 << 20
	for _, c := range []struct {
		name    string
		play    string
		perCall int // bytes a call adds, as measured (see memwalk's TestShapesCount)
	}{
		{"a field of each new table", `for i = 1, 2000 do local x = {} x.f = i kept[#kept + 1] = x end`, 2000 * 2741},
		{"string keys set and cleared", `for i = 1, 1000 do local k = string.rep("k", 1024) .. n n = n + 1 kept[k] = true kept[k] = nil end`, 1000 * (1040 + 100)},
		{"number keys set and cleared", `for i = 1, 20000 do kept[n + 0.5] = true kept[n + 0.5] = nil n = n + 1 end`, 20000 * 85},
	} {
		t.Run(c.name, func(t *testing.T) {
			src := replaceOnce(miniSource("hash", `local kept, n = {}, 0`), `play = function(p, kind, s) m.finish(0, "done") end`,
				"play = function(p, kind, s) "+c.play+" end")
			g, err := loadSource(t, "hash", src, WithLimits(Limits{Memory: limit}))
			require.NoError(t, err)
			s := g.Start()
			var first error
			calls := 0
			for ; calls < 200 && first == nil; calls++ {
				first = s.Play("a1")
			}
			var be *BudgetError
			require.ErrorAs(t, first, &be, "the game holds %d MiB after %d calls", calls*c.perCall>>20, calls)
			assert.Equal(t, BudgetMemory, be.Budget)
			assert.Contains(t, first.Error(), "hash.lua")
			t.Logf("failed at call %d (%d KiB kept): %v", calls, (calls-1)*c.perCall>>10, first)
			assert.LessOrEqual(t, (calls-1)*c.perCall, limit*5/4, "kept within the budget and a quarter")
		})
	}
}
