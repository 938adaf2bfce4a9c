package luavm

import (
	"github.com/matombo/matombo/host/diag"
	"github.com/matombo/matombo/host/kernel"
	lua "github.com/yuin/gopher-lua"
)

// What a script says to the players beyond its rules: what a move kind
// does in words (MoveKind.Doc), what a tag means (Board.TagDoc), and why
// a move is not possible (a move kind's why function), which the host
// puts in front of its own explanation of an illegal token
// (host.State.WhyNot).
//
//	local PLACE = m.move("place", "{1}", {
//	  doc = "Place a piece on {1}",
//	  why = function(p, sites) if m.owner(sites[1]) ~= 0 then return "it is occupied" end end,
//	})
//	local HEAD = m.tag("head", { 20, 21 }, { doc = "a head: a lap ending there may go on" })

// MaxDoc is the longest doc a script may give a move kind or a tag, in
// bytes.
const MaxDoc = 200

// docText reads an optional doc option: a text of 1 to MaxDoc printable
// characters.
func docText(L *lua.LState, what string, v lua.LValue) string {
	if v == lua.LNil {
		return ""
	}
	s, ok := v.(lua.LString)
	if !ok || len(s) == 0 || len(s) > MaxDoc {
		L.RaiseError("%s: a doc is a text of 1 to %d characters, got %s", what, MaxDoc, describeLua(v))
	}
	checkText(L, what+": the doc", string(s), false)
	return string(s)
}

// kindOptions reads a move kind's doc and why options.
func (vm *Machine) kindOptions(L *lua.LState, name, tmpl string, opts *lua.LTable) (doc string, why lua.LValue) {
	doc = docText(L, "move kind "+name, opts.RawGetString("doc"))
	// The doc's placeholders are the template's.
	for _, ph := range placeholders(doc) {
		if !containsPlaceholder(tmpl, ph) {
			L.RaiseError("move kind %s: the doc's {%s} is not in the template %q", name, ph, tmpl)
		}
	}
	switch w := opts.RawGetString("why").(type) {
	case *lua.LNilType:
	case *lua.LFunction:
		why = w
	default:
		L.RaiseError("move kind %s: why must be a function (p, sites, vars...) returning a text or nil, got %s", name, vm.describe(w, anySlot))
	}
	return doc, why
}

// placeholders lists the names in braces of a text.
func placeholders(t string) []string {
	var out []string
	for i := 0; i < len(t); i++ {
		if t[i] != '{' {
			continue
		}
		j := i + 1
		for j < len(t) && t[j] != '}' {
			j++
		}
		if j < len(t) {
			out = append(out, t[i+1:j])
		}
		i = j
	}
	return out
}

func containsPlaceholder(tmpl, name string) bool {
	for _, p := range placeholders(tmpl) {
		if p == name {
			return true
		}
	}
	return false
}

// tagDoc reads matombo.tag's optional third argument, { doc = "..." }.
func (vm *Machine) tagDoc(L *lua.LState, name string) string {
	v := L.Get(3)
	if v == lua.LNil {
		return ""
	}
	opts, ok := v.(*lua.LTable)
	if !ok {
		L.ArgError(3, "options expected: a table such as { doc = \"...\" }")
	}
	checkFields(L, opts, "matombo.tag options", "doc")
	return docText(L, "tag "+name, opts.RawGetString("doc"))
}

// Why runs the why function of the move kind tok is written in, for a
// token that is not legal in s: which rule the move breaks, in the
// script's words. The kind is the first whose template fits the token
// with every name a site (or that names none), as the host's explanation
// of an illegal token finds it. ok is false when no kind fits, the kind
// has no why function or it returned nil. The function runs on a copy of
// s (it must not change the state) and gets the player to move, the sites
// (a list of site numbers, empty for a kind without sites) and the
// script's variables, as legal gets them.
func (vm *Machine) Why(s *kernel.State, tok string) (text string, ok bool, err error) {
	k, sites, found := vm.kindOf(tok)
	if !found || k >= len(vm.whys) || vm.whys[k] == nil {
		return "", false, nil
	}
	c := &kernel.State{}
	c.CopyFrom(s)
	vm.bind(c)
	defer vm.bind(nil)
	p := vm.toMove(c)
	vm.ctx.Mover = p
	L := vm.L
	fn := vm.whys[k]
	L.Push(fn)
	L.Push(luaInt(p))
	list := L.CreateTable(len(sites), 0)
	for i, x := range sites {
		list.RawSetInt(i+1, luaInt(x+1))
	}
	L.Push(list)
	for _, v := range vm.def.Vars {
		L.Push(luaNumber(float64(c.Cells[v.Cell])))
	}
	if err := vm.invoke(diag.CallWhy, 2+len(vm.def.Vars), 1); err != nil {
		return "", false, err
	}
	v := L.Get(-1)
	L.Pop(1)
	out, terr := vm.textResult(v, "the why text", fn, diag.CallWhy, "why")
	return out, out != "", terr
}

// kindOf finds the move kind a token is written in and the sites it names.
func (vm *Machine) kindOf(tok string) (k int, sites []int, ok bool) {
	b := vm.def.Board
	for k := range vm.def.Kinds {
		kind := &vm.def.Kinds[k]
		names, fits := kind.ParseToken(tok)
		if !fits {
			continue
		}
		sites := make([]int, 0, len(names))
		for _, n := range names {
			if kind.Numbers() {
				n = b.ByNumberName(n)
			}
			i, known := b.Index(n)
			if !known {
				sites = nil
				break
			}
			sites = append(sites, i)
		}
		if sites != nil || len(names) == 0 {
			return k, sites, true
		}
	}
	return 0, nil, false
}
