package luavm

import (
	"bytes"
	"fmt"
	"reflect"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/matombo/matombo/host/diag"
	"github.com/matombo/matombo/host/params"
	lua "github.com/yuin/gopher-lua"
	"github.com/yuin/gopher-lua/ast"
	"github.com/yuin/gopher-lua/parse"
)

// A script may extend another game: it calls
//
//	matombo.extends("BASE", { title = ..., description = ..., replace = { RULE = function(base, ...) ... end } })
//
// which runs BASE's script in the same machine, with the named rule points
// of BASE replaced, and returns what BASE's script returned. A script
// offers a rule point by writing a rule function as
//
//	local t8_capture = matombo.rule("t8_capture", function(p, last, was_empty) ... end)
//
// matombo.rule returns the function itself, or the replacement an
// extending script gave, called with the replaced function first. The
// library finds BASE before the script runs (the name is a literal
// string), so BASE's variants files and rules page count for the game too.

// MaxExtendsDepth bounds a chain of games extending games.
const MaxExtendsDepth = 8

// Base is one game of a chain of extended games, nearest first.
type Base struct {
	Name   string
	File   string
	Source string // the layer's root
	Proto  *lua.FunctionProto
	Rules  string // the rules page of its folder, if any
}

// ExtendsTarget finds the game a script extends: the literal first argument
// of its call NAME.extends(...), if it has one.
func ExtendsTarget(file string, src []byte) (string, bool, error) {
	name, _, ok, err := ExtendsCall(file, src)
	return name, ok, err
}

// ExtendsCall is ExtendsTarget with the line of the call, where errors
// about the game it names (unknown, extending it again, too deep) are.
func ExtendsCall(file string, src []byte) (name string, line int, ok bool, err error) {
	if !bytes.Contains(src, []byte("extends")) {
		return "", 0, false, nil
	}
	chunk, err := parse.Parse(bytes.NewReader(src), file)
	if err != nil {
		return "", 0, false, nil // CompileScript reports it with its position
	}
	var calls []*ast.FuncCallExpr
	findCalls(reflect.ValueOf(chunk), func(c *ast.FuncCallExpr) {
		if attr, ok := c.Func.(*ast.AttrGetExpr); ok {
			if key, ok := attr.Key.(*ast.StringExpr); ok && key.Value == "extends" {
				calls = append(calls, c)
			}
		}
	})
	if len(calls) == 0 {
		return "", 0, false, nil
	}
	c := calls[0]
	if len(calls) > 1 {
		return "", 0, false, &diag.ScriptError{Pos: diag.Pos{File: file, Line: calls[1].Line()}, Func: "load",
			Msg: "matombo.extends is called more than once: a script extends one game"}
	}
	lit := false
	if len(c.Args) > 0 {
		if s, ok := c.Args[0].(*ast.StringExpr); ok {
			name, lit = s.Value, true
		}
	}
	switch {
	case !lit:
		return "", 0, false, &diag.ScriptError{Pos: diag.Pos{File: file, Line: c.Line()}, Func: "load",
			Msg: "matombo.extends needs the base game's name as a literal string, as in matombo.extends(\"NAME\", { ... })"}
	case !ValidGameName(name):
		return "", 0, false, &diag.ScriptError{Pos: diag.Pos{File: file, Line: c.Line()}, Func: "load",
			Msg: fmt.Sprintf("matombo.extends(%s): a game's name is 1 to 64 lower-case letters, digits, - and _ (the name of its folder or script)", diag.ClipText(strconv.Quote(name), 100))}
	}
	return name, c.Line(), true, nil
}

var astCallType = reflect.TypeOf(&ast.FuncCallExpr{})

// findCalls walks a gopher-lua syntax tree (structs, pointers, interfaces
// and slices of them) and reports every function call.
func findCalls(v reflect.Value, found func(*ast.FuncCallExpr)) {
	switch v.Kind() {
	case reflect.Interface, reflect.Pointer:
		if v.IsNil() {
			return
		}
		if v.Type() == astCallType {
			found(v.Interface().(*ast.FuncCallExpr))
		}
		findCalls(v.Elem(), found)
	case reflect.Slice:
		for i := 0; i < v.Len(); i++ {
			findCalls(v.Index(i), found)
		}
	case reflect.Struct:
		for i := 0; i < v.NumField(); i++ {
			if v.Type().Field(i).IsExported() {
				findCalls(v.Field(i), found)
			}
		}
	}
}

// extending is what a machine knows while the chunks of a chain of
// extended games run.
type extending struct {
	depth    int                         // how many matombo.extends calls are running
	replace  []map[string]*lua.LFunction // the replacements of each running call, outermost first
	params   [][]params.Spec             // the parameters each running call adds, outermost first
	paramsAt []diag.Pos                  // where each running call is, for errors about its parameters
	used     map[string]bool             // replacements a rule point took
	points   []string                    // rule points declared, in order
	declared map[string]bool             // the same, as a set
	expect   string                      // the name the innermost base declares
}

var ruleName = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

// apiExtends is matombo.extends(BASE, spec): run BASE's script with the
// rule points of spec.replace replaced, and return what it returned.
func (vm *Machine) apiExtends(L *lua.LState) int {
	vm.mustLoad(L, "the game a script extends")
	x := vm.ext
	name := L.CheckString(1)
	if x.depth >= len(vm.g.Bases) || vm.g.Bases[x.depth].Name != name {
		L.RaiseError("matombo.extends(%q) was not found when the script was read: call it once, with the base game's name as a literal string", name)
	}
	if vm.dcl.declared {
		L.RaiseError("matombo.extends must come before matombo.declare: the base game declares the game (give title and description to matombo.extends)")
	}
	base := vm.g.Bases[x.depth]
	var title, description lua.LValue = lua.LNil, lua.LNil
	repl := map[string]*lua.LFunction{}
	var params []params.Spec
	if L.GetTop() >= 2 {
		spec := L.CheckTable(2)
		checkFields(L, spec, "matombo.extends", "title", "description", "replace", "params")
		params = vm.extendsParams(L, spec.RawGetString("params"))
		title, description = spec.RawGetString("title"), spec.RawGetString("description")
		for _, v := range []lua.LValue{title, description} {
			if _, ok := v.(lua.LString); v != lua.LNil && !ok {
				L.RaiseError("matombo.extends: title and description must be strings, got %s", vm.describe(v, plainSlot))
			}
		}
		// The same text rules as matombo.declare: no terminal escapes.
		if s, ok := title.(lua.LString); ok {
			checkText(L, "matombo.extends: the title", string(s), false)
		}
		if s, ok := description.(lua.LString); ok {
			checkText(L, "matombo.extends: the description", string(s), true)
		}
		if r := spec.RawGetString("replace"); r != lua.LNil {
			rt, ok := r.(*lua.LTable)
			if !ok {
				L.RaiseError("matombo.extends: replace must be a table of rule name = function, got %s", vm.describe(r, anySlot))
			}
			rt.ForEach(func(k, v lua.LValue) {
				ks, ok := k.(lua.LString)
				fn, isFn := v.(*lua.LFunction)
				if !ok {
					L.RaiseError("matombo.extends: replace must map rule names to functions, got the key %s", vm.describe(k, anySlot))
				}
				if !isFn {
					L.RaiseError("matombo.extends: replace.%s must be a function, got %s", string(ks), vm.describe(v, anySlot))
				}
				repl[string(ks)] = fn
			})
		}
	}
	x.depth++
	x.replace = append(x.replace, repl)
	x.params = append(x.params, params)
	x.paramsAt = append(x.paramsAt, vm.callerPos(L))
	x.expect = name
	func() {
		// Restored also when the base's chunk raises an error, which a
		// script may catch with pcall.
		defer func() {
			x.replace = x.replace[:len(x.replace)-1]
			x.params = x.params[:len(x.params)-1]
			x.paramsAt = x.paramsAt[:len(x.paramsAt)-1]
			x.depth--
		}()
		L.Push(L.NewFunctionFromProto(base.Proto))
		L.Call(0, 1)
	}()
	var missing []string
	for n := range repl {
		if !x.used[n] {
			missing = append(missing, n)
		}
	}
	if len(missing) > 0 {
		sort.Strings(missing)
		L.RaiseError("matombo.extends(%q): no rule point %s to replace (%s offers: %s)", name,
			strings.Join(missing, ", "), name, pointList(x.points))
	}
	if x.depth == 0 {
		for n := range repl {
			vm.dcl.Replaced = append(vm.dcl.Replaced, n)
		}
		sort.Strings(vm.dcl.Replaced)
		vm.dcl.Name = vm.g.Name
	}
	if s, ok := title.(lua.LString); ok {
		vm.dcl.Title = string(s)
	}
	if s, ok := description.(lua.LString); ok {
		vm.dcl.Description = string(s)
	}
	return 1
}

func pointList(points []string) string {
	if len(points) == 0 {
		return "none: its script declares no matombo.rule"
	}
	return strings.Join(points, ", ")
}

// apiRule is matombo.rule(NAME, fn): declare a rule point. It returns fn,
// or the replacement an extending script gave for NAME.
func (vm *Machine) apiRule(L *lua.LState) int {
	vm.mustLoad(L, "a rule point")
	name := L.CheckString(1)
	fn := L.CheckFunction(2)
	if !ruleName.MatchString(name) {
		L.ArgError(1, fmt.Sprintf("a rule point's name is a Lua name (letters, digits, _), got %q", name))
	}
	x := vm.ext
	if x.declared[name] {
		L.RaiseError("matombo.rule(%q) is declared twice", name)
	}
	x.declared[name] = true
	x.points = append(x.points, name)
	var out lua.LValue = fn
	for i := len(x.replace) - 1; i >= 0; i-- {
		if r, ok := x.replace[i][name]; ok {
			x.used[name] = true
			out = replacement(L, r, out)
		}
	}
	L.Push(out)
	return 1
}

// replacement calls r with the replaced rule first, then the arguments.
func replacement(L *lua.LState, r *lua.LFunction, replaced lua.LValue) *lua.LFunction {
	return L.NewFunction(func(L *lua.LState) int {
		n := L.GetTop()
		L.Push(r)
		L.Push(replaced)
		for i := 1; i <= n; i++ {
			L.Push(L.Get(i))
		}
		L.Call(n+1, lua.MultRet)
		return L.GetTop() - n
	})
}

func newExtending() *extending {
	return &extending{used: map[string]bool{}, declared: map[string]bool{}}
}

// declaredName is the name matombo.declare must give: the game's, or while
// an extended game's script runs, that game's.
func (vm *Machine) declaredName() string {
	if vm.ext.depth > 0 {
		return vm.ext.expect
	}
	return vm.g.Name
}

// apiParam is matombo.param(NAME): the value of a parameter, for a
// replacement that cannot see the locals of the script it changes.
func (vm *Machine) apiParam(L *lua.LState) int {
	name := L.CheckString(1)
	var names []string
	for _, p := range vm.dcl.Params {
		if p.Name == name {
			switch v := p.Value.(type) {
			case int:
				L.Push(lua.LNumber(v))
			case bool:
				L.Push(lua.LBool(v))
			case string:
				L.Push(lua.LString(v))
			}
			return 1
		}
		names = append(names, p.Name)
	}
	if !vm.dcl.declared {
		L.RaiseError("matombo.param(%q): the game has not been declared yet", name)
	}
	L.RaiseError("matombo.param: unknown parameter %q (parameters: %s)", name, orNoParams(names))
	return 0
}

func orNoParams(names []string) string {
	if len(names) == 0 {
		return "none"
	}
	return strings.Join(names, ", ")
}

// extendsParams reads the params field of matombo.extends: parameters of
// the extending game's own, declared as in matombo.declare and added after
// the base game's (see addExtendsParams).
func (vm *Machine) extendsParams(L *lua.LState, v lua.LValue) []params.Spec {
	if v == lua.LNil {
		return nil
	}
	pt, ok := v.(*lua.LTable)
	if !ok {
		L.RaiseError("matombo.extends: params must be a list of parameter declarations, got %s", vm.describe(v, anySlot))
	}
	var out []params.Spec
	for i := 1; i <= pt.Len(); i++ {
		spec := vm.paramSpec(L, pt.RawGetInt(i), i)
		for _, o := range out {
			if o.Name == spec.Name {
				L.RaiseError("matombo.extends: parameter %s is declared twice", spec.Name)
			}
		}
		out = append(out, spec)
	}
	return out
}

// addExtendsParams adds to the specs a base game declares the parameters
// of the games extending it, nearest first.
func (vm *Machine) addExtendsParams(L *lua.LState, specs []params.Spec) []params.Spec {
	x := vm.ext
	for i := len(x.params) - 1; i >= 0; i-- {
		for _, p := range x.params[i] {
			for _, s := range specs {
				if s.Name == p.Name {
					// Reported where the extending script declares it, not
					// at the base's matombo.declare that runs now.
					at := x.paramsAt[i]
					L.Error(lua.LString(fmt.Sprintf("%s:%d: matombo.extends: the parameter %s is the base game's already (its parameters: %s)",
						at.File, at.Line, p.Name, specNames(specs))), 0)
				}
			}
			specs = append(specs, p)
		}
	}
	return specs
}

func specNames(specs []params.Spec) string {
	names := make([]string, len(specs))
	for i, s := range specs {
		names[i] = s.Name
	}
	return orNoParams(names)
}
