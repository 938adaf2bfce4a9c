package luavm

import (
	"fmt"

	"github.com/matombo/matombo/host/diag"
	"github.com/matombo/matombo/host/kernel"
	lua "github.com/yuin/gopher-lua"
)

// MaxPrompt is the longest prompt a script may give, in bytes.
const MaxPrompt = 300

// Prompt runs the script's prompt function for the player to move of s,
// with the script's variables as legal gets them. ok is false when it
// returned nil.
func (vm *Machine) Prompt(s *kernel.State) (text string, ok bool, err error) {
	vm.bind(s)
	defer vm.bind(nil)
	p := vm.toMove(s)
	vm.ctx.Mover = p
	L := vm.L
	L.Push(vm.fnPrompt)
	L.Push(luaInt(p))
	for _, v := range vm.def.Vars {
		L.Push(luaNumber(float64(s.Cells[v.Cell])))
	}
	if err := vm.invoke(diag.CallPrompt, 1+len(vm.def.Vars), 1); err != nil {
		return "", false, err
	}
	v := L.Get(-1)
	L.Pop(1)
	out, terr := vm.textResult(v, "the prompt", vm.fnPrompt, diag.CallPrompt, fmt.Sprintf("prompt(%d)", p))
	return out, terr == nil && v != lua.LNil, terr
}

// textResult checks a text a script function returned for the player to
// read: nil (no text) or a string of at most MaxPrompt bytes of printable
// characters. what names the text in a message ("the prompt"), call the
// function as the message shows it.
func (vm *Machine) textResult(v lua.LValue, what string, fn lua.LValue, name diag.Call, call string) (string, error) {
	switch x := v.(type) {
	case *lua.LNilType:
		return "", nil
	case lua.LString:
		msg := diag.TextProblem(what, string(x), false)
		if msg == "" && len(x) > MaxPrompt {
			msg = fmt.Sprintf("%s has at most %d characters, got %d", what, MaxPrompt, len(x))
		}
		if msg != "" {
			vm.broken = true
			return "", &diag.ScriptError{Pos: vm.funcPos(fn), Func: name, Msg: msg}
		}
		return string(x), nil
	}
	vm.broken = true
	return "", &diag.ScriptError{Pos: vm.funcPos(fn), Func: name,
		Msg: fmt.Sprintf("%s must return a text or nil, got %s", call, vm.describe(v, plainSlot))}
}
