package luavm

import "github.com/yuin/gopher-lua/ast"

// rewrite rewrites a parsed chunk so that the work gopher-lua does in Go
// within one instruction is charged to the step budget, in one pass:
//
//   - each chain "a .. b .. c" becomes a call of the sandbox's concat
//     (concat.go), and each "#t" one of its length (tablewalk.go);
//   - each "..." that gives every value becomes a call of its varargs
//     (varargs.go);
//   - each function that captures local variables of the function around
//     it is preceded by a closure charge (closures.go);
//
// and each generic for whose body may begin with a jump gets a guard
// (forbreak.go). It runs after globalcheck, which bounds the nesting (and
// so this recursion).
func rewrite(chunk []ast.Stmt) {
	c := &chunkScan{fn: &funcScope{captured: map[*localVar]struct{}{}}}
	c.fn.push()
	c.stmts(chunk)
}

// chunkScan reads a chunk for rewrite, resolving its names to their local
// variables function by function, to count what each closure captures
// from the function around it.
type chunkScan struct {
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
func (c *chunkScan) use(name string) {
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
func (c *chunkScan) block(stmts []ast.Stmt) []ast.Stmt {
	c.fn.push()
	stmts = c.stmts(stmts)
	c.fn.pop()
	return stmts
}

// stmts reads stmts in the current block and returns them with the
// charges of the functions their statements define.
func (c *chunkScan) stmts(stmts []ast.Stmt) []ast.Stmt {
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
func (c *chunkScan) stmt(s ast.Stmt) (captured, line int) {
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
		guardForBody(st) // forbreak.go
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

func (c *chunkScan) exprs(es []ast.Expr) {
	for i, e := range es {
		es[i] = c.expr(e)
	}
}

// expr reads e and returns it rewritten (see rewrite).
func (c *chunkScan) expr(e ast.Expr) ast.Expr {
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
		ex.Lhs, ex.Rhs = c.expr(ex.Lhs), c.expr(ex.Rhs)
	case *ast.RelationalOpExpr:
		ex.Lhs, ex.Rhs = c.expr(ex.Lhs), c.expr(ex.Rhs)
	case *ast.StringConcatOpExpr:
		return concatCall(ex, c.expr) // concat.go
	case *ast.ArithmeticOpExpr:
		ex.Lhs, ex.Rhs = c.expr(ex.Lhs), c.expr(ex.Rhs)
	case *ast.UnaryMinusOpExpr:
		ex.Expr = c.expr(ex.Expr)
	case *ast.UnaryNotOpExpr:
		ex.Expr = c.expr(ex.Expr)
	case *ast.UnaryLenOpExpr:
		return lengthCall(ex, c.expr(ex.Expr)) // tablewalk.go
	}
	return e
}

// function reads the function f (a method's, with its implicit self) and
// returns the number of variables it captures from the function around
// it.
func (c *chunkScan) function(f *ast.FunctionExpr, method bool) int {
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
