// Package globalcheck checks a parsed Lua chunk before it runs: every read
// of a global the sandbox does not provide and every assignment to a
// global is an error naming its line, and statements and expressions nest
// at most MaxNesting levels deep.
package globalcheck

import (
	"fmt"

	"github.com/yuin/gopher-lua/ast"
)

// Error is the first problem found, at a line of the chunk (or lines:
// a statement may end on a later line).
type Error struct {
	Line     int
	LastLine int // the last line of the statement or expression, when known
	Msg      string
}

func (e *Error) Error() string { return fmt.Sprintf("line %d: %s", e.Line, e.Msg) }

// Check walks a parsed chunk and reports the first use of a global
// variable not in allowed, and the first assignment to any global: rule
// scripts keep everything in locals. Doing this before the script runs
// turns typos into errors with a line number at load time.
func Check(chunk []ast.Stmt, allowed map[string]bool) *Error {
	if errs := CheckAll(chunk, allowed); len(errs) > 0 {
		return errs[0]
	}
	return nil
}

// MaxErrors is the most problems CheckAll reports.
const MaxErrors = 20

// CheckAll is Check reporting every problem, in the order of the chunk (at
// most MaxErrors; each message once, at its first line), so that a script
// with several typos hears of all of them at once. A chunk nested too
// deeply stops the check there.
func CheckAll(chunk []ast.Stmt, allowed map[string]bool) []*Error {
	c := &globalChecker{allowed: allowed, seen: map[string]bool{}}
	c.block(chunk, newScope(nil))
	return c.errs
}

type scope struct {
	parent *scope
	names  map[string]bool
}

func newScope(parent *scope) *scope { return &scope{parent: parent, names: map[string]bool{}} }

func (s *scope) declared(name string) bool {
	for ; s != nil; s = s.parent {
		if s.names[name] {
			return true
		}
	}
	return false
}

type globalChecker struct {
	allowed map[string]bool
	errs    []*Error
	seen    map[string]bool // the messages reported
	stop    bool            // too deep, or too many problems: the walk ends
	depth   int
}

// MaxNesting bounds how deeply statements and expressions nest. gopher-lua's
// compiler recurses over the syntax tree and slows down badly on deep
// chains ("1 .. 1 .. 1 ..." two hundred thousand times compiles for a minute
// and a half), and Lua itself allows about 200 levels.
const MaxNesting = 200

// enter counts one more level of nesting; it reports false when too deep.
func (c *globalChecker) enter(line int) bool {
	c.depth++
	if c.depth > MaxNesting {
		c.fail(line, "nested more than %d levels deep (break the expression or function up)", MaxNesting)
		c.stop = true
		return false
	}
	return true
}

// reported declares a global already reported in the outermost scope, so
// its uses are not reported again as undeclared.
func (c *globalChecker) reported(sc *scope, name string) {
	for sc.parent != nil {
		sc = sc.parent
	}
	sc.names[name] = true
}

func (c *globalChecker) fail(line int, format string, args ...any) {
	c.failLines(line, line, format, args...)
}

// failLines reports a problem in lines line to last.
func (c *globalChecker) failLines(line, last int, format string, args ...any) {
	msg := fmt.Sprintf(format, args...)
	if c.stop || c.seen[msg] {
		return
	}
	c.seen[msg] = true
	c.errs = append(c.errs, &Error{Line: line, LastLine: max(line, last), Msg: msg})
	if len(c.errs) == MaxErrors {
		c.stop = true
	}
}

func (c *globalChecker) block(stmts []ast.Stmt, sc *scope) {
	for _, st := range stmts {
		if c.stop {
			return
		}
		c.stmt(st, sc)
	}
}

func (c *globalChecker) stmt(st ast.Stmt, sc *scope) {
	defer func() { c.depth-- }()
	if !c.enter(st.Line()) {
		return
	}
	switch s := st.(type) {
	case *ast.AssignStmt:
		for _, e := range s.Rhs {
			c.expr(e, sc)
		}
		for _, e := range s.Lhs {
			if id, ok := e.(*ast.IdentExpr); ok {
				if !sc.declared(id.Value) {
					c.fail(id.Line(), "assignment to global %q: declare it local", id.Value)
					c.reported(sc, id.Value)
				}
				continue
			}
			c.expr(e, sc)
		}
	case *ast.LocalAssignStmt:
		// "local function f" reaches us as "local f = function", and f
		// is visible inside its own body.
		if len(s.Names) == 1 && len(s.Exprs) == 1 {
			if _, ok := s.Exprs[0].(*ast.FunctionExpr); ok {
				sc.names[s.Names[0]] = true
			}
		}
		for _, e := range s.Exprs {
			c.expr(e, sc)
		}
		for _, n := range s.Names {
			sc.names[n] = true
		}
	case *ast.FuncCallStmt:
		c.expr(s.Expr, sc)
	case *ast.DoBlockStmt:
		c.block(s.Stmts, newScope(sc))
	case *ast.WhileStmt:
		c.expr(s.Condition, sc)
		c.block(s.Stmts, newScope(sc))
	case *ast.RepeatStmt:
		inner := newScope(sc)
		c.block(s.Stmts, inner)
		c.expr(s.Condition, inner)
	case *ast.IfStmt:
		c.expr(s.Condition, sc)
		c.block(s.Then, newScope(sc))
		c.block(s.Else, newScope(sc))
	case *ast.NumberForStmt:
		c.expr(s.Init, sc)
		c.expr(s.Limit, sc)
		if s.Step != nil {
			c.expr(s.Step, sc)
		}
		inner := newScope(sc)
		inner.names[s.Name] = true
		c.block(s.Stmts, inner)
	case *ast.GenericForStmt:
		for _, e := range s.Exprs {
			c.expr(e, sc)
		}
		inner := newScope(sc)
		for _, n := range s.Names {
			inner.names[n] = true
		}
		c.block(s.Stmts, inner)
	case *ast.FuncDefStmt:
		if s.Name.Func != nil {
			// function name() ... end: an assignment to a global unless
			// it is "local function" (which the parser turns into a
			// LocalAssignStmt) or a field of a table.
			if id, ok := s.Name.Func.(*ast.IdentExpr); ok {
				if !sc.declared(id.Value) {
					c.failLines(id.Line(), s.LastLine(), "function %s is global: write \"local function %s\"", id.Value, id.Value)
					c.reported(sc, id.Value)
					return
				}
			} else {
				c.expr(s.Name.Func, sc)
			}
		}
		if s.Name.Receiver != nil {
			c.expr(s.Name.Receiver, sc)
		}
		inner := newScope(sc)
		if s.Name.Method != "" {
			inner.names["self"] = true
		}
		c.function(s.Func, inner)
	case *ast.ReturnStmt:
		for _, e := range s.Exprs {
			c.expr(e, sc)
		}
	case *ast.BreakStmt, *ast.LabelStmt, *ast.GotoStmt:
	}
}

func (c *globalChecker) function(f *ast.FunctionExpr, sc *scope) {
	if f.ParList != nil {
		for _, n := range f.ParList.Names {
			sc.names[n] = true
		}
	}
	c.block(f.Stmts, sc)
}

func (c *globalChecker) expr(e ast.Expr, sc *scope) {
	if c.stop || e == nil {
		return
	}
	defer func() { c.depth-- }()
	if !c.enter(e.Line()) {
		return
	}
	switch x := e.(type) {
	case *ast.IdentExpr:
		if !sc.declared(x.Value) && !c.allowed[x.Value] {
			c.fail(x.Line(), "undeclared global %q (scripts see only locals and the sandbox's globals)", x.Value)
		}
	case *ast.AttrGetExpr:
		c.expr(x.Object, sc)
		c.expr(x.Key, sc)
	case *ast.TableExpr:
		for _, f := range x.Fields {
			c.expr(f.Key, sc)
			c.expr(f.Value, sc)
		}
	case *ast.FuncCallExpr:
		c.expr(x.Func, sc)
		c.expr(x.Receiver, sc)
		for _, a := range x.Args {
			c.expr(a, sc)
		}
	case *ast.LogicalOpExpr:
		c.expr(x.Lhs, sc)
		c.expr(x.Rhs, sc)
	case *ast.RelationalOpExpr:
		c.expr(x.Lhs, sc)
		c.expr(x.Rhs, sc)
	case *ast.StringConcatOpExpr:
		c.expr(x.Lhs, sc)
		c.expr(x.Rhs, sc)
	case *ast.ArithmeticOpExpr:
		c.expr(x.Lhs, sc)
		c.expr(x.Rhs, sc)
	case *ast.UnaryMinusOpExpr:
		c.expr(x.Expr, sc)
	case *ast.UnaryNotOpExpr:
		c.expr(x.Expr, sc)
	case *ast.UnaryLenOpExpr:
		c.expr(x.Expr, sc)
	case *ast.FunctionExpr:
		c.function(x, newScope(sc))
	}
}
