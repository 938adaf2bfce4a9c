package luavm

import (
	"strconv"
	"time"

	"github.com/matombo/matombo/host/internal/watchdog"
)

// Limits bound what one call into a script may use. The zero value of a
// field means its default.
//
// The primary budget is Steps: a count of Lua instructions, with the host's
// primitives, the library functions and the .. operator charging steps for
// the work they do in Go (bytes built, values pushed, table elements walked). It does not
// depend on the machine or its load, so the same script, state and move
// pass or fail identically everywhere. Time is only a guard against a hang
// the step count cannot see. Memory is charged to the game whose scripts
// hold the memory, during a call and between calls (what a script keeps in
// upvalues counts, over all the game's script machines); a game that goes
// over it fails for good: that call and every later one return the same
// memory diag.BudgetError (load the game again to play on). See
// docs/embedding.md, "Limits".
type Limits struct {
	Steps       int64         // Lua instructions and primitive work per call (default 2,000,000)
	Time        time.Duration // wall time of one call, a guard against hangs (default 30s)
	Memory      uint64        // memory the game's scripts may hold, during and between calls, in bytes (default 256 MiB)
	CallStack   int           // Lua call frames (default 200, at most MaxCallStack)
	DataStack   int           // Lua stack slots (default 65536, at most MaxDataStack)
	StringBytes int           // largest string a library function may build or scan (default 1 MiB)
	PatternText int           // largest subject of string.find/match/gmatch/gsub (default 64 KiB)
	TableItems  int           // most elements table.concat joins or table.insert grows to (default 65536)
}

// DefaultSteps is the default step budget of one call. The longest call of
// the shipped games takes about 14,800 steps (loading the largest of their
// scripts; a move takes tens to hundreds), so the default leaves
// a margin of a hundred and more, and stops a runaway loop in tens of
// milliseconds (a second or two under the race detector).
const DefaultSteps = 2_000_000

// MaxCallStack and MaxDataStack are the largest CallStack and DataStack
// a game runs with; larger values mean these. Each Lua state sizes its
// frame index by CallStack when it is made, so an unbounded value would
// allocate without bound before any script ran; and gopher-lua's work for
// a deep stack is more than linear in its depth (a traceback walks the
// frames from the top for each frame; a growing data stack is copied),
// which the step budget does not see: at 65,536 frames one runaway
// recursion took 9 s, and a data stack of millions of values ran into
// the 30 s time guard.
const (
	MaxCallStack = 1 << 12
	MaxDataStack = 1 << 16
)

// WithDefaults returns l with every zero field set to its default, and
// CallStack and DataStack at most MaxCallStack and MaxDataStack.
func (l Limits) WithDefaults() Limits {
	if l.Steps <= 0 {
		l.Steps = DefaultSteps
	}
	// The wall-clock limit only guards against what the step count cannot
	// see. It must be generous: on an overloaded machine a thread waits a
	// long while for a core, and a legitimate call must not fail then.
	if l.Time <= 0 {
		l.Time = 30 * time.Second
	}
	if l.Memory == 0 {
		l.Memory = 256 << 20
	}
	if l.CallStack <= 0 {
		l.CallStack = 200
	}
	l.CallStack = min(l.CallStack, MaxCallStack)
	if l.DataStack <= 0 {
		l.DataStack = 1 << 16
	}
	l.DataStack = min(l.DataStack, MaxDataStack)
	if l.StringBytes <= 0 {
		l.StringBytes = 1 << 20
	}
	if l.PatternText <= 0 {
		l.PatternText = 64 << 10
	}
	if l.TableItems <= 0 || l.TableItems >= maxArrayIndex {
		l.TableItems = 1 << 16
	}
	return l
}

// tripwire is the context a machine's Lua state runs under (see package
// watchdog).
type tripwire = watchdog.Tripwire

// memSize writes a memory size in MiB (with a decimal when it is not
// whole MiB), or in bytes below a MiB, so that a budget below a MiB is not
// reported as "0 MiB".
func memSize(n uint64) string {
	switch {
	case n < 1<<20:
		return strconv.FormatUint(n, 10) + " bytes"
	case n%(1<<20) == 0:
		return strconv.FormatUint(n>>20, 10) + " MiB"
	}
	return strconv.FormatFloat(float64(n)/(1<<20), 'f', 1, 64) + " MiB"
}
