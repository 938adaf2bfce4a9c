package host

import (
	"fmt"
	"strings"

	"github.com/matombo/matombo/host/diag"
	lua "github.com/yuin/gopher-lua"
)

// maxPrompt is the longest prompt a script may give, in bytes.
const maxPrompt = 300

// Prompt says what the decision of s asks of the player to move, in the
// script's words: "Your lap ended on your head a20: continue sowing or stop
// here". It is the script's prompt function's answer; when the script has
// none, or it returns nil, the prompts of the move kinds among the legal
// moves (MoveKind.Prompt), in the order the script declared them, joined
// by "; ". It is "" when the game is over or nothing is said.
func (s *State) Prompt() (string, error) {
	if s.k.Result.Over {
		return "", nil
	}
	if s.g.hasPrompt {
		vm, err := s.g.machine()
		if err != nil {
			return "", err
		}
		text, ok, err := vm.prompt(s)
		s.g.release(vm)
		if err != nil || ok {
			return text, err
		}
	}
	return s.kindPrompts(), nil
}

// kindPrompts joins the prompts of the kinds of the legal moves.
func (s *State) kindPrompts() string {
	var used [256]bool
	for _, m := range s.k.Moves {
		used[m.Kind] = true
	}
	var parts []string
	for k, kind := range s.g.def.Kinds {
		if used[k] && kind.Prompt != "" {
			parts = append(parts, kind.Prompt)
		}
	}
	return strings.Join(parts, "; ")
}

// prompt runs the script's prompt function for the player to move of s,
// with the script's variables as legal gets them. ok is false when it
// returned nil.
func (vm *machine) prompt(s *State) (text string, ok bool, err error) {
	vm.bind(s)
	defer vm.bind(nil)
	p := s.ToMove()
	vm.ctx.Mover = p
	L := vm.L
	L.Push(vm.fnPrompt)
	L.Push(luaInt(p))
	for _, v := range vm.def.Vars {
		L.Push(luaNumber(float64(s.k.Cells[v.Cell])))
	}
	if err := vm.invoke(CallPrompt, 1+len(vm.def.Vars), 1); err != nil {
		return "", false, err
	}
	v := L.Get(-1)
	L.Pop(1)
	switch x := v.(type) {
	case *lua.LNilType:
		return "", false, nil
	case lua.LString:
		msg := diag.TextProblem("the prompt", string(x), false)
		if msg == "" && len(x) > maxPrompt {
			msg = fmt.Sprintf("a prompt has at most %d characters, got %d", maxPrompt, len(x))
		}
		if msg != "" {
			vm.broken = true
			return "", false, &ScriptError{Pos: vm.funcPos(vm.fnPrompt), Func: CallPrompt, Msg: msg}
		}
		return string(x), true, nil
	}
	vm.broken = true
	return "", false, &ScriptError{Pos: vm.funcPos(vm.fnPrompt), Func: CallPrompt,
		Msg: fmt.Sprintf("prompt(%d) must return a text or nil, got %s", p, describeLua(v))}
}
