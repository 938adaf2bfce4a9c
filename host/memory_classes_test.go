package host

import (
	"errors"
	"runtime"
	"strconv"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	lua "github.com/yuin/gopher-lua"
)

// memoryClasses are the shapes of memory a script can hold (the hostile
// suite's table_growth, string_rep_loop and the rows of
// TestMemoryOfHashPartsIsCharged, in all their kinds): each grows what it
// keeps, in the table kept, by one piece per turn of its loop, for ever.
var memoryClasses = []struct {
	name  string
	piece string // Lua statements adding to kept; i counts
	every int    // turns of the loop between two probes
}{
	{"numbers in an array part", `kept[#kept + 1] = i`, 5000},
	{"empty tables", `kept[#kept + 1] = {}`, 2000},
	{"tables with a field set", `local x = {} x.f = i kept[#kept + 1] = x`, 50},
	{"tables built with a field", `kept[#kept + 1] = { f = i }`, 250},
	{"tables of 4 numbers", `kept[#kept + 1] = { i, i, i, i }`, 1000},
	{"string keys", `kept["k" .. i] = i`, 2000},
	{"number keys", `kept[i + 0.5] = i`, 2000},
	{"string keys set and cleared", `local k = string.rep("k", 100) .. i kept[k] = true kept[k] = nil`, 1000},
	{"number keys set and cleared", `kept[i + 0.5] = true kept[i + 0.5] = nil`, 2000},
	{"short strings", `kept[#kept + 1] = "s" .. i`, 2000},
	{"long strings", `kept[#kept + 1] = string.rep("x", 10000) .. i`, 20},
	{"strings built by ..", `local s = "" for j = 1, 20 do s = s .. "abcdefghijklmnopqrstuvwxyz" end kept[#kept + 1] = s .. i`, 100},
	{"closures", `kept[#kept + 1] = function() return i end`, 1000},
	{"closures over 4 upvalues", `local a, b, c, d = i, i, i, i kept[#kept + 1] = function() return a + b + c + d end`, 500},
	{"nested tables", `kept = { kept }`, 2000},
}

// liveHeap is the live heap after a collection.
func liveHeap() uint64 {
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return ms.HeapAlloc
}

// settledHeap is the live heap once it has settled: what earlier tests
// left running (a stopped call's goroutine, a watchdog going idle) may
// still hold memory and free it during a measurement, which would count
// against the script measured. It collects until two readings 5 ms apart
// differ by less than 64 KiB, for at most a second; on a loaded machine
// those goroutines take longer to end (a run beside two busy loops once
// read a script stopped at 8 MiB as holding 1.9).
func settledHeap() uint64 {
	h := liveHeap()
	for range 200 {
		time.Sleep(5 * time.Millisecond)
		next := liveHeap()
		if next <= h+64<<10 && h <= next+64<<10 {
			return next
		}
		h = next
	}
	return h
}

// memoryPeak runs play (which calls m.probe() now and then) under a memory
// budget of limit until it fails, and returns the error and the most a
// probe saw the script hold: the live heap above what it held without
// the game. That is read twice, when the game was loaded and once it is
// gone, and the peak is given for both (low with the larger, high with
// the smaller): memory that something else held at one reading and not
// at the other (an earlier test's goroutine ending late on a loaded
// machine) would otherwise count for or against the script.
func memoryPeak(t *testing.T, body, play string, limit uint64, calls int) (err error, low, high uint64) {
	var base, top uint64
	probe := withTestPrimitive("probe", func(*lua.LState) int {
		top = max(top, liveHeap())
		return 0
	})
	src := replaceOnce(miniSource("hoard", body), `play = function(p, kind, s) m.finish(0, "done") end`,
		"play = function(p, kind, s) "+play+" end")
	err = playUntilFails(t, src, probe, limit, calls, &base)
	end := settledHeap() // the game is gone
	above := func(b uint64) uint64 {
		if top > b {
			return top - b
		}
		return 0
	}
	return err, above(max(base, end)), above(min(base, end))
}

// playUntilFails loads the game of src and plays a1 calls times or until
// it fails, setting *base to the settled heap once the game is loaded;
// the game is unreachable once it returns.
func playUntilFails(t *testing.T, src string, probe Option, limit uint64, calls int, base *uint64) error {
	g, err := loadSource(t, "hoard", src, probe, WithLimits(Limits{Memory: limit, Steps: 1 << 40, Time: hangGuard()}))
	require.NoError(t, err)
	s := g.Start()
	*base = settledHeap()
	for range calls {
		if err = s.Play("a1"); err != nil {
			break
		}
	}
	return err
}

// Every shape of memory a script can hold is stopped with a memory
// BudgetError before the script holds more than its budget and a quarter,
// whether it holds it in a local variable during one call or keeps it
// between calls, and not before it holds a quarter of it. The most a
// script held (the live heap seen by probes between its pieces, after a
// collection) is compared with the budget. When the script is measured
// depends on the steps it runs and the bytes it allocates, not on a clock,
// so the bounds hold on a loaded machine too. Before, numbers in an array
// were stopped at 2.9 budgets (a number keeps a block of 32 alive), tables
// with a field set at 1.8 and others between 1.1 and 1.5, as the tick of
// the watchdog allowed.
func TestMemoryClassesStayWithinBudget(t *testing.T) {
	if testing.Short() {
		t.Skip("collects the heap hundreds of times")
	}
	const limit = 8 << 20
	for _, c := range memoryClasses {
		t.Run(c.name, func(t *testing.T) {
			for _, mode := range []struct {
				name, body, play string
				calls            int
			}{
				{"in a call", ``, `local kept, n = {}, 0 for i = 1, 1e9 do ` + c.piece + ` n = n + 1 if n == ` + strconv.Itoa(c.every) + ` then n = 0 m.probe() end end`, 1},
				{"between calls", `local kept, calls = {}, 0`, `calls = calls + 1 for i = calls * ` + strconv.Itoa(c.every) + `, (calls + 1) * ` + strconv.Itoa(c.every) + ` - 1 do ` + c.piece + ` end m.probe()`, 1 << 30},
			} {
				err, low, high := memoryPeak(t, mode.body, mode.play, limit, mode.calls)
				var be *BudgetError
				if !errors.As(err, &be) || be.Budget != BudgetMemory {
					t.Errorf("%s: want a memory budget error, got %v", mode.name, err)
					continue
				}
				t.Logf("%-14s held %5.1f to %5.1f MiB, %.2f to %.2f of the budget", mode.name,
					float64(low)/(1<<20), float64(high)/(1<<20), float64(low)/limit, float64(high)/limit)
				assert.LessOrEqual(t, float64(low)/limit, 1.25, mode.name)
				assert.GreaterOrEqual(t, float64(high)/limit, 0.25, mode.name)
			}
		})
	}
}
