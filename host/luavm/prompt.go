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
	switch x := v.(type) {
	case *lua.LNilType:
		return "", false, nil
	case lua.LString:
		msg := diag.TextProblem("the prompt", string(x), false)
		if msg == "" && len(x) > MaxPrompt {
			msg = fmt.Sprintf("a prompt has at most %d characters, got %d", MaxPrompt, len(x))
		}
		if msg != "" {
			vm.broken = true
			return "", false, &diag.ScriptError{Pos: vm.funcPos(vm.fnPrompt), Func: diag.CallPrompt, Msg: msg}
		}
		return string(x), true, nil
	}
	vm.broken = true
	return "", false, &diag.ScriptError{Pos: vm.funcPos(vm.fnPrompt), Func: diag.CallPrompt,
		Msg: fmt.Sprintf("prompt(%d) must return a text or nil, got %s", p, describeLua(v))}
}
