package luavm

import (
	"io"
	"sync"
	"sync/atomic"

	"github.com/matombo/matombo/host/diag"
	"github.com/matombo/matombo/host/internal/watchdog"
	"github.com/matombo/matombo/host/kernel"
	"github.com/matombo/matombo/host/params"
	lua "github.com/yuin/gopher-lua"
	"gopkg.in/yaml.v3"
)

// Program is a game's compiled script with everything its machines
// share: the script and the games it extends, the variants and parameter
// values to declare it with, its data, its limits, and, once the first
// machine has run it, what it declared (Decl) and its definition (Def) and
// rule parts, made once and shared by every machine. A Program keeps a
// pool of idle machines. It is safe for concurrent use.
type Program struct {
	Name      string // the game's name
	File      string // the script's path, for messages
	Proto     *lua.FunctionProto
	Bases     []Base // the games it extends, nearest first
	Data      *yaml.Node
	DataFiles map[*yaml.Node]string // the variants file each data node came from
	Variants  []params.Variant
	Chosen    []string
	Overrides []params.Override
	Limits    Limits
	Log       io.Writer                 // where the script's log goes; nil for nowhere
	Extra     map[string]lua.LGFunction // primitives added by internal tests

	// Installed, when set, is called once the first machine has run the
	// script, before any call is made on a state: the host fixes the
	// game's identity there (Def.Tag).
	Installed func(d *Decl, def *kernel.Def)

	// Set by the first machine:
	Decl *Decl       // what the script declared
	Def  *kernel.Def // the board, layout, move kinds and variables

	parts       []*partRef // the rule parts, made by the first machine and shared
	fingerprint string     // the declarations, to compare machines of one game

	wd     *watchdog.Watchdog
	held   atomic.Int64                     // memory the machines' scripts held when last measured
	failed atomic.Pointer[diag.BudgetError] // set when the scripts went over the memory budget

	mu     sync.Mutex
	free   []*Machine
	closed atomic.Bool // see Close
}

// Start readies a program for its machines; call it once, before the
// first machine.
func (g *Program) Start() {
	g.Limits = g.Limits.WithDefaults()
	g.wd = watchdog.New(g.Limits.Time)
}

// fail stops the game after its scripts went over the memory budget:
// every later call returns the first such error. The memory a script
// keeps is the game's state, so the game fails once, for good, rather
// than whenever a machine happens to be measured.
func (g *Program) fail(e *diag.BudgetError) *diag.BudgetError {
	g.failed.CompareAndSwap(nil, e)
	return g.failed.Load()
}

// dataFile returns the variants file a data node came from.
func (g *Program) dataFile(n *yaml.Node) string {
	if f, ok := g.DataFiles[n]; ok {
		return f
	}
	return g.File
}

// Machine takes a machine from the pool, or makes one, whose calls stop
// when cancel is done (nil for never) until it is released.
func (g *Program) Machine(cancel *watchdog.Cancel) (*Machine, error) {
	if cancel.Done() {
		return nil, diag.Canceled(cancel.Context(), diag.Pos{}, "")
	}
	if g.closed.Load() {
		return nil, diag.ErrClosed
	}
	g.mu.Lock()
	if n := len(g.free); n > 0 {
		vm := g.free[n-1]
		g.free = g.free[:n-1]
		g.mu.Unlock()
		vm.cancel = cancel
		return vm, nil
	}
	g.mu.Unlock()
	return newMachine(g, cancel)
}

// maxIdle is how many idle machines a game keeps.
const maxIdle = 16

// Release returns a machine to the pool; a machine whose call failed is
// discarded, because a script's own variables may be in any state after an
// error.
func (g *Program) Release(vm *Machine) {
	vm.cancel = nil
	if vm.broken || g.closed.Load() {
		vm.close()
		return
	}
	g.mu.Lock()
	if len(g.free) < maxIdle && !g.closed.Load() {
		g.free = append(g.free, vm)
		g.mu.Unlock()
		return
	}
	g.mu.Unlock()
	vm.close()
}

// Close releases the idle machines and ends the watchdog's goroutine, at
// once when no call is in progress (else as soon as the calls in progress
// end); machines in use are released when they are given back. After
// Close, Machine returns diag.ErrClosed. Close may be called more than
// once and concurrently with other calls.
func (g *Program) Close() {
	if g.closed.Swap(true) {
		return
	}
	g.mu.Lock()
	free := g.free
	g.free = nil
	g.mu.Unlock()
	for _, vm := range free {
		vm.close()
	}
	g.wd.Stop()
}
