package luavm

import (
	"strconv"

	"github.com/matombo/matombo/host/internal/memwalk"
	"github.com/matombo/matombo/host/internal/watchdog"
	lua "github.com/yuin/gopher-lua"
	"github.com/yuin/gopher-lua/ast"
)

// The open upvalues. gopher-lua keeps the local variables of the running
// functions that closures captured in one list, ordered by their place on
// the stack, and walks it in Go within one instruction, charged one step:
// the whole list at every return and at the end of every block that closes
// captured variables, and, when it makes a closure, the list up to each
// variable the closure captures from the function making it. A script
// that keeps thousands of captured variables open down its stack made
// each of those instructions walk thousands of them: 190 frames of 60
// captured locals, then a loop calling a function, ran 100 times longer
// than its steps said; a loop making closures there ran into the time
// guard. Both walks are charged now:
//
//   - the returns and the blocks' ends by the tripwire, which counts the
//     list every watchdog.UpvalueEvery steps and charges those steps as if
//     each had walked it (watchdog.Tripwire.WatchUpvalues);
//   - the closures by the script's code: Compile puts before each
//     function expression that captures locals of the function around it
//     (rewrite.go) a call of the sandbox's closure charge with the number
//     it captures,
//     which counts the list and charges that many walks of it before the
//     closure is made.
//
// A script's own functions keep a few captured variables open at once
// (the top level's, while it loads): the tripwire charges nothing for the
// first watchdog.UpvalueFree of them, and a closure's charge is a step or
// two.

// closureGlobal is the global the closure charges call. It is no Lua name
// (a keyword), so no script can write it; a traceback shows it as
// function 'function'.
const closureGlobal = "function"

// openUpvalues is the number of open upvalues of the machine's stack,
// counting at most most (for the tripwire).
func (vm *Machine) openUpvalues(most int) int { return memwalk.OpenUpvalues(vm.L, most) }

// closureCharge charges the walks of the list of open upvalues that the
// closure about to be made does: its argument is the number of variables
// it captures from the function making it, each found by a walk of the
// list. It returns true (the rewritten code is "charge(n) and function
// ... end").
func (vm *Machine) closureCharge(L *lua.LState) int {
	captured := max(L.CheckInt(1), 1)
	room := max(vm.trip.Steps.Limit-vm.trip.Steps.Spent, 0)
	// Counting further than what spends the budget changes nothing.
	most := int(min(room, 1<<24)+1) * watchdog.UpvaluesPerStep / captured
	vm.charge(L, watchdog.UpvalueWalkSteps(captured*memwalk.OpenUpvalues(L, most+1)))
	L.Push(lua.LTrue)
	return 1
}

// closureCall is the call of the closure charge for a function capturing
// n variables, on line.
func closureCall(n, line int) ast.Expr {
	arg := &ast.NumberExpr{Value: strconv.Itoa(n)}
	arg.SetLine(line)
	arg.SetLastLine(line)
	return operatorCall(closureGlobal, []ast.Expr{arg}, arg) // concat.go
}
