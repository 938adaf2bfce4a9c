package luavm

import (
	"strings"

	"github.com/matombo/matombo/host/internal/luastr"
	lua "github.com/yuin/gopher-lua"
	"github.com/yuin/gopher-lua/ast"
)

// The concatenation operator. gopher-lua runs "a .. b" in one VM
// instruction, counted as one step, however long the strings it copies:
// "local t = s .. 'x'" over a 1 MiB s, in a loop, copied gigabytes a second
// uncharged and ran to the time guard instead of the step budget. So the
// compiler never sees a "..": Compile rewrites each chain "a .. b .. c"
// into a call of the sandbox's concat function with the operands, which
// charges the bytes it builds to the step budget before building them, as
// the library functions that build strings do (package luastr), and
// otherwise behaves as the operator: operands are evaluated left to
// right, joined right to left, a run of strings and numbers at once, and
// __concat is asked for any other pair.

// concatGlobal is the global the rewritten chains call. It is no Lua
// name, so no script can write it (and the globals table is out of a
// script's reach); a traceback shows it as function '..'.
const concatGlobal = ".."

// concatCall is the call of concatGlobal that stands for the chain ex
// (see rewrite), its operands read by operand.
func concatCall(ex *ast.StringConcatOpExpr, operand func(ast.Expr) ast.Expr) ast.Expr {
	// The chain the compiler would join in one instruction: the operands
	// down the right-hand side (".." is right associative).
	var args []ast.Expr
	var cur ast.Expr = ex
	for {
		c, ok := cur.(*ast.StringConcatOpExpr)
		if !ok {
			args = append(args, operand(cur))
			break
		}
		args = append(args, operand(c.Lhs))
		cur = c.Rhs
	}
	return operatorCall(concatGlobal, args, ex)
}

// operatorCall is the call of the sandbox's global fn with args, standing
// for the operator expression ex, on its lines. AdjustRet: one value, as
// the operator gives, and never a tail call (the error would then not
// name the script's line).
func operatorCall(fn string, args []ast.Expr, ex ast.Expr) ast.Expr {
	id := &ast.IdentExpr{Value: fn}
	id.SetLine(ex.Line())
	id.SetLastLine(ex.LastLine())
	call := &ast.FuncCallExpr{Func: id, Args: args, AdjustRet: true}
	call.SetLine(ex.Line())
	call.SetLastLine(ex.LastLine())
	return call
}

// concat is the concatenation of its arguments, the operands of a chain
// "a .. b .. c" (see concatCall), as gopher-lua's operator does it,
// with the bytes it builds charged to the step budget first.
func (vm *Machine) concat(L *lua.LState) int {
	n := L.GetTop()
	if n == 0 {
		return 0
	}
	rhs := L.Get(n)
	for i := n - 1; i >= 1; {
		lhs := L.Get(i)
		if !isStringy(lhs) || !isStringy(rhs) {
			mm := L.GetMetaField(lhs, "__concat")
			if mm == lua.LNil {
				mm = L.GetMetaField(rhs, "__concat")
			}
			if mm.Type() != lua.LTFunction {
				L.RaiseError("cannot perform concat operation between %v and %v", lhs.Type().String(), rhs.Type().String())
			}
			L.Push(mm)
			L.Push(lhs)
			L.Push(rhs)
			L.Call(2, 1)
			rhs = L.Get(-1)
			L.Pop(1)
			i--
			continue
		}
		// The run of strings and numbers ending at i, joined with rhs at
		// once.
		j := i
		for j > 1 && isStringy(L.Get(j-1)) {
			j--
		}
		size := 0
		for k := j; k <= i; k++ {
			size += stringyLen(L.Get(k))
		}
		size += stringyLen(rhs)
		vm.charge(L, 1+size/luastr.BytesPerStep)
		var b strings.Builder
		b.Grow(size)
		for k := j; k <= i; k++ {
			b.WriteString(lua.LVAsString(L.Get(k)))
		}
		b.WriteString(lua.LVAsString(rhs))
		rhs = lua.LString(b.String())
		i = j - 1
	}
	L.Push(rhs)
	return 1
}

// isStringy reports whether the operator joins v as text (a string or a
// number).
func isStringy(v lua.LValue) bool {
	switch v.(type) {
	case lua.LString, lua.LNumber:
		return true
	}
	return false
}

// stringyLen is the length of v as text.
func stringyLen(v lua.LValue) int {
	if s, ok := v.(lua.LString); ok {
		return len(s)
	}
	return len(lua.LVAsString(v))
}
