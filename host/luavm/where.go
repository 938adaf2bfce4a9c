package luavm

import (
	"github.com/matombo/matombo/host/diag"
	lua "github.com/yuin/gopher-lua"
)

// Where a script's function is, for errors about what it returned or did
// not do: a bad score, prompt or evaluation, a legal list that is too long,
// a blocked function that does not end the game. A Lua error names its
// line itself; these errors are found after the function returned, so
// they name the function.

// funcPos is where the rule function fn is defined: the lines of a Lua
// function (in its own file: a base game's for a function of the game
// extended), or the line that made a native rule; the script's file when
// neither is known.
func (vm *Machine) funcPos(fn lua.LValue) diag.Pos {
	f, ok := fn.(*lua.LFunction)
	switch {
	case !ok:
	case f.Proto != nil && f.Proto.SourceName != "":
		return diag.Pos{File: f.Proto.SourceName, Line: f.Proto.LineDefined, EndLine: f.Proto.LastLineDefined}
	case vm.parts[f] != nil && vm.parts[f].pos.File != "":
		return vm.parts[f].pos
	}
	return diag.Pos{File: vm.g.File}
}

// callerPos is the line of the script that called the running Go
// function, as Lua's error(msg, 2) names it.
func (vm *Machine) callerPos(L *lua.LState) diag.Pos {
	p, _ := vm.splitPos(L.Where(1) + " ")
	return p
}

// rulesPos is where the script returns its table of rule functions: the
// line of the chunk's last return with values.
func (vm *Machine) rulesPos() diag.Pos {
	p := vm.g.Proto
	for pc := len(p.Code) - 1; pc >= 0; pc-- {
		inst := p.Code[pc]
		if int(inst>>26) == lua.OP_RETURN && inst&0x1ff != 1 && pc < len(p.DbgSourcePositions) {
			return diag.Pos{File: vm.g.File, Line: p.DbgSourcePositions[pc]}
		}
	}
	return diag.Pos{File: vm.g.File}
}
