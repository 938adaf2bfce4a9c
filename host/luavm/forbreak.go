package luavm

import "github.com/yuin/gopher-lua/ast"

// A gopher-lua compiler bug, worked around. A generic for ("for k in
// pairs(t) do ... end") ends in TFORLOOP and a jump back to its body, and
// TFORLOOP takes that jump's distance itself. When the body's first
// instruction is a jump to the loop's end ("for k in pairs(t) do break
// end"), the compiler's jump-to-jump pass threads the jump back onto it,
// finds a distance of 0 and turns the jump into a no-op without writing
// its distance: TFORLOOP then jumps by the label number left in it, and
// the function runs on at an arbitrary instruction (returning from it, in
// the cases found). Compile puts one instruction that does nothing
// before such a body, a local set to nil, so that its first instruction
// is never a jump.

// forGuardName names the local the workaround declares: no Lua name, so
// no script can read it.
const forGuardName = "(for guard)"

// guardForBody puts the no-op local before the body of the generic for
// st when that body may begin with a jump.
func guardForBody(st *ast.GenericForStmt) {
	if !mayStartWithJump(st.Stmts) {
		return
	}
	guard := &ast.LocalAssignStmt{Names: []string{forGuardName}}
	guard.SetLine(st.Line())
	guard.SetLastLine(st.Line())
	st.Stmts = append([]ast.Stmt{guard}, st.Stmts...)
}

// mayStartWithJump reports whether the first instruction compiled for
// stmts may be a jump: a break, a condition the compiler decides itself
// (a constant, which compiles to a jump or to nothing), or such a
// statement first in a block that begins them. It errs towards true:
// the guard costs one instruction a turn of the loop.
func mayStartWithJump(stmts []ast.Stmt) bool {
	for _, s := range stmts {
		switch st := s.(type) {
		case *ast.LabelStmt:
			continue // compiles to nothing
		case *ast.BreakStmt:
			return true
		case *ast.DoBlockStmt:
			if len(st.Stmts) == 0 {
				continue
			}
			return mayStartWithJump(st.Stmts)
		case *ast.IfStmt:
			return isConstantCondition(st.Condition)
		case *ast.WhileStmt:
			return isConstantCondition(st.Condition)
		case *ast.RepeatStmt:
			return len(st.Stmts) == 0 || mayStartWithJump(st.Stmts)
		}
		return false
	}
	return false
}

// isConstantCondition reports whether the compiler may decide condition
// e without an instruction that reads a value: a constant, or "not",
// "and" and "or" over conditions (erring towards true).
func isConstantCondition(e ast.Expr) bool {
	switch ex := e.(type) {
	case *ast.NilExpr, *ast.FalseExpr, *ast.TrueExpr, *ast.NumberExpr, *ast.StringExpr:
		return true
	case *ast.UnaryNotOpExpr:
		return isConstantCondition(ex.Expr)
	case *ast.LogicalOpExpr:
		return isConstantCondition(ex.Lhs) || isConstantCondition(ex.Rhs)
	}
	return false
}
