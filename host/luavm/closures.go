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
//     a call of the sandbox's closure charge with the number it captures,
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

// chargeHiddenWork puts a closure charge (see closureGlobal) before every
// function of a parsed chunk that captures local variables of the
// function around it, and rewrites each "..." that gives every value
// into a charged call (varargs.go). It runs after globalcheck, which
// bounds the nesting (and so this recursion).
func chargeHiddenWork(chunk []ast.Stmt) {
	c := &closureScan{fn: &funcScope{captured: map[*localVar]struct{}{}}}
	c.fn.push()
	c.stmts(chunk)
}

// closureScan resolves the names of a chunk to their local variables,
// function by function, to count what each closure captures from the
// function around it; on its way it charges the varargs (varargs.go).
type closureScan struct {
	fn *funcScope // the function being read
}

// funcScope is a function being read: its blocks' local variables, and
// those of the function around it that it captures (itself or through
// the functions inside it).
type funcScope struct {
	parent   *funcScope
	blocks   []map[string]*localVar
	captured map[*localVar]struct{}
}

// localVar is one declaration of a local variable (not of size zero:
// pointers to distinct zero-size values may be equal).
type localVar struct{ name string }

func (f *funcScope) push() { f.blocks = append(f.blocks, map[string]*localVar{}) }
func (f *funcScope) pop()  { f.blocks = f.blocks[:len(f.blocks)-1] }

func (f *funcScope) declare(name string) { f.blocks[len(f.blocks)-1][name] = &localVar{name: name} }

// use records a reference to name from the function being read: a local
// variable of a function around it is captured by the function directly
// inside that one (the others get it from there, with no walk).
func (c *closureScan) use(name string) {
	for f := c.fn; f != nil; f = f.parent {
		for i := len(f.blocks) - 1; i >= 0; i-- {
			v, ok := f.blocks[i][name]
			if !ok {
				continue
			}
			if f != c.fn {
				inner := c.fn
				for inner.parent != f {
					inner = inner.parent
				}
				inner.captured[v] = struct{}{}
			}
			return
		}
	}
	// A global: captures nothing.
}

// block reads stmts as a block of their own.
func (c *closureScan) block(stmts []ast.Stmt) []ast.Stmt {
	c.fn.push()
	stmts = c.stmts(stmts)
	c.fn.pop()
	return stmts
}

// stmts reads stmts in the current block and returns them with the
// charges of the functions their statements define.
func (c *closureScan) stmts(stmts []ast.Stmt) []ast.Stmt {
	var out []ast.Stmt // made once a charge is put in
	for i, s := range stmts {
		if n, line := c.stmt(s); n > 0 {
			if out == nil {
				out = append(make([]ast.Stmt, 0, len(stmts)+1), stmts[:i]...)
			}
			call := &ast.FuncCallStmt{Expr: closureCall(n, line)}
			call.SetLine(line)
			call.SetLastLine(line)
			out = append(out, call)
		}
		if out != nil {
			out = append(out, s)
		}
	}
	if out == nil {
		return stmts
	}
	return out
}

// stmt reads s; for a statement that defines a function (the compiler
// makes its closure in place, so it cannot be rewritten as an
// expression), it returns the number of variables the function captures
// and its line, for a charge put before the statement.
func (c *closureScan) stmt(s ast.Stmt) (captured, line int) {
	switch st := s.(type) {
	case *ast.AssignStmt:
		c.exprs(st.Rhs)
		c.exprs(st.Lhs)
	case *ast.LocalAssignStmt:
		if len(st.Names) == 1 && len(st.Exprs) == 1 {
			if f, ok := st.Exprs[0].(*ast.FunctionExpr); ok {
				// "local function f" and "local f = function": gopher-lua
				// declares f first, so the function sees itself.
				c.fn.declare(st.Names[0])
				return c.function(f, false), f.Line()
			}
		}
		c.exprs(st.Exprs)
		for _, name := range st.Names {
			c.fn.declare(name)
		}
	case *ast.FuncCallStmt:
		st.Expr = c.expr(st.Expr)
	case *ast.DoBlockStmt:
		st.Stmts = c.block(st.Stmts)
	case *ast.WhileStmt:
		st.Condition = c.expr(st.Condition)
		st.Stmts = c.block(st.Stmts)
	case *ast.RepeatStmt:
		// The condition sees the body's locals.
		c.fn.push()
		st.Stmts = c.stmts(st.Stmts)
		st.Condition = c.expr(st.Condition)
		c.fn.pop()
	case *ast.IfStmt:
		st.Condition = c.expr(st.Condition)
		st.Then = c.block(st.Then)
		st.Else = c.block(st.Else)
	case *ast.NumberForStmt:
		st.Init = c.expr(st.Init)
		st.Limit = c.expr(st.Limit)
		st.Step = c.expr(st.Step)
		c.fn.push()
		c.fn.declare(st.Name)
		st.Stmts = c.stmts(st.Stmts)
		c.fn.pop()
	case *ast.GenericForStmt:
		c.exprs(st.Exprs)
		c.fn.push()
		for _, name := range st.Names {
			c.fn.declare(name)
		}
		st.Stmts = c.stmts(st.Stmts)
		c.fn.pop()
	case *ast.FuncDefStmt:
		if st.Name != nil {
			st.Name.Func = c.expr(st.Name.Func)
			st.Name.Receiver = c.expr(st.Name.Receiver)
		}
		if st.Func != nil {
			return c.function(st.Func, st.Name != nil && st.Name.Method != ""), st.Func.Line()
		}
	case *ast.ReturnStmt:
		c.exprs(st.Exprs)
		chargeLastVarargs(st.Exprs) // varargs.go
	}
	return 0, 0
}

func (c *closureScan) exprs(es []ast.Expr) {
	for i, e := range es {
		es[i] = c.expr(e)
	}
}

// expr reads e and returns it, a function expression that captures
// variables with its charge before it.
func (c *closureScan) expr(e ast.Expr) ast.Expr {
	switch ex := e.(type) {
	case *ast.IdentExpr:
		c.use(ex.Value)
	case *ast.FunctionExpr:
		if n := c.function(ex, false); n > 0 {
			and := &ast.LogicalOpExpr{Lhs: closureCall(n, ex.Line()), Operator: "and", Rhs: ex}
			and.SetLine(ex.Line())
			and.SetLastLine(ex.LastLine())
			return and
		}
	case *ast.AttrGetExpr:
		ex.Object = c.expr(ex.Object)
		ex.Key = c.expr(ex.Key)
	case *ast.TableExpr:
		for _, f := range ex.Fields {
			f.Key = c.expr(f.Key)
			f.Value = c.expr(f.Value)
		}
		if n := len(ex.Fields); n > 0 && ex.Fields[n-1].Key == nil {
			ex.Fields[n-1].Value = chargedVarargs(ex.Fields[n-1].Value) // varargs.go
		}
	case *ast.FuncCallExpr:
		ex.Func = c.expr(ex.Func)
		ex.Receiver = c.expr(ex.Receiver)
		c.exprs(ex.Args)
		if !isVarargsCharge(ex) {
			chargeLastVarargs(ex.Args) // varargs.go
		}
	case *ast.LogicalOpExpr:
		ex.Lhs = c.expr(ex.Lhs)
		ex.Rhs = c.expr(ex.Rhs)
	case *ast.RelationalOpExpr:
		ex.Lhs = c.expr(ex.Lhs)
		ex.Rhs = c.expr(ex.Rhs)
	case *ast.StringConcatOpExpr:
		ex.Lhs = c.expr(ex.Lhs)
		ex.Rhs = c.expr(ex.Rhs)
	case *ast.ArithmeticOpExpr:
		ex.Lhs = c.expr(ex.Lhs)
		ex.Rhs = c.expr(ex.Rhs)
	case *ast.UnaryMinusOpExpr:
		ex.Expr = c.expr(ex.Expr)
	case *ast.UnaryNotOpExpr:
		ex.Expr = c.expr(ex.Expr)
	case *ast.UnaryLenOpExpr:
		ex.Expr = c.expr(ex.Expr)
	}
	return e
}

// function reads the function f (a method's, with its implicit self) and
// returns the number of variables it captures from the function around
// it.
func (c *closureScan) function(f *ast.FunctionExpr, method bool) int {
	fn := &funcScope{parent: c.fn, captured: map[*localVar]struct{}{}}
	c.fn = fn
	fn.push()
	if method {
		fn.declare("self")
	}
	if f.ParList != nil {
		for _, name := range f.ParList.Names {
			fn.declare(name)
		}
	}
	f.Stmts = c.stmts(f.Stmts)
	c.fn = fn.parent
	return len(fn.captured)
}

// closureCall is the call of the closure charge for a function capturing
// n variables, on line.
func closureCall(n, line int) *ast.FuncCallExpr {
	fn := &ast.IdentExpr{Value: closureGlobal}
	fn.SetLine(line)
	fn.SetLastLine(line)
	arg := &ast.NumberExpr{Value: strconv.Itoa(n)}
	arg.SetLine(line)
	arg.SetLastLine(line)
	// AdjustRet: one value, and never a tail call.
	call := &ast.FuncCallExpr{Func: fn, Args: []ast.Expr{arg}, AdjustRet: true}
	call.SetLine(line)
	call.SetLastLine(line)
	return call
}
