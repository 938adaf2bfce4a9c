package luavm

import (
	lua "github.com/yuin/gopher-lua"
	"github.com/yuin/gopher-lua/ast"
)

// The varargs. Where "..." gives all a function's extra arguments (the
// last argument of a call, the last item of a table constructor, the last
// value returned), gopher-lua copies them all in one instruction, charged
// one step: a function called with 30,000 arguments (unpack of a table
// of 30,000, charged once) that built "{...}" in a loop ran into the
// time guard. So Compile rewrites each such "..." as a call of the
// sandbox's varargs function with "..." as its arguments, which charges
// a step per 4 values (as unpack does) and returns them all: the copies
// it adds are charged with the one it stands for. Where "..." gives a
// fixed number of values (local a, b = ...), the copy is as long as the
// names, and is left as it is.

// varargsGlobal is the global the rewritten "..." calls. It is no Lua
// name, so no script can write it; a traceback shows it as function
// '...'.
const varargsGlobal = "..."

// varargs returns its arguments, charging a step per 4 of them.
func (vm *Machine) varargs(L *lua.LState) int {
	n := L.GetTop()
	vm.charge(L, 1+n/4)
	return n
}

// chargedVarargs returns e, or, when e is "...", the call of the varargs
// charge that gives the same values.
func chargedVarargs(e ast.Expr) ast.Expr {
	dots, ok := e.(*ast.Comma3Expr)
	if !ok {
		return e
	}
	fn := &ast.IdentExpr{Value: varargsGlobal}
	fn.SetLine(dots.Line())
	fn.SetLastLine(dots.LastLine())
	// Not AdjustRet: every value, as "..." gives them.
	call := &ast.FuncCallExpr{Func: fn, Args: []ast.Expr{dots}}
	call.SetLine(dots.Line())
	call.SetLastLine(dots.LastLine())
	return call
}

// chargeLastVarargs rewrites the last of es when it is "..." (see
// chargedVarargs): the place where "..." gives every value.
func chargeLastVarargs(es []ast.Expr) {
	if n := len(es); n > 0 {
		es[n-1] = chargedVarargs(es[n-1])
	}
}

// isVarargsCharge reports whether call is a rewritten "..." (whose own
// "..." is left as it is).
func isVarargsCharge(call *ast.FuncCallExpr) bool {
	id, ok := call.Func.(*ast.IdentExpr)
	return ok && id.Value == varargsGlobal
}
