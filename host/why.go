package host

import (
	"errors"
	"fmt"

	lua "github.com/yuin/gopher-lua"
)

// What a script says to the players beyond its rules: what a move kind
// does in words (MoveKind.Doc), what a tag means (Board.TagDoc), and why
// a move is not possible (a move kind's why function), which the host
// puts in front of its own explanation of an illegal token (WhyNot).
//
//	local PLACE = m.move("place", "{1}", {
//	  doc = "Place a piece on {1}",
//	  why = function(p, sites) if m.owner(sites[1]) ~= 0 then return "it is occupied" end end,
//	})
//	local HEAD = m.tag("head", { 20, 21 }, { doc = "a head: a lap ending there may go on" })

// CallWhy is a move kind's why function: why a move of the kind is not
// possible.
const CallWhy Call = "why"

// maxDoc is the longest doc a script may give a move kind or a tag, in
// bytes.
const maxDoc = 200

// TagDoc is what tag name means to the players, in the script's words
// (matombo.tag's doc), or "" when the script says nothing or there is no
// such tag.
func (b *Board) TagDoc(name string) string {
	for t, n := range b.tags {
		if n == name && t < len(b.tagDocs) {
			return b.tagDocs[t]
		}
	}
	return ""
}

// TagMark is the character diagrams write after the count of a site that
// carries tag name (matombo.mark), or "" when the tag has none.
func (b *Board) TagMark(name string) string {
	for _, m := range b.marks {
		if m.tag < len(b.tags) && b.tags[m.tag] == name {
			return string(m.mark)
		}
	}
	return ""
}

// setTagDoc keeps the doc of tag t.
func (b *Board) setTagDoc(t int, doc string) {
	for len(b.tagDocs) <= t {
		b.tagDocs = append(b.tagDocs, "")
	}
	b.tagDocs[t] = doc
}

// docText reads an optional doc option: a text of 1 to maxDoc printable
// characters.
func docText(L *lua.LState, what string, v lua.LValue) string {
	if v == lua.LNil {
		return ""
	}
	s, ok := v.(lua.LString)
	if !ok || len(s) == 0 || len(s) > maxDoc {
		L.RaiseError("%s: a doc is a text of 1 to %d characters, got %s", what, maxDoc, describeLua(v))
	}
	checkText(L, what+": the doc", string(s), false)
	return string(s)
}

// kindOptions reads a move kind's doc and why options.
func (vm *machine) kindOptions(L *lua.LState, name, tmpl string, opts *lua.LTable) (doc string, why lua.LValue) {
	doc = docText(L, "move kind "+name, opts.RawGetString("doc"))
	if doc != "" {
		// The doc's placeholders are the template's.
		for _, ph := range placeholders(doc) {
			if !containsPlaceholder(tmpl, ph) {
				L.RaiseError("move kind %s: the doc's {%s} is not in the template %q", name, ph, tmpl)
			}
		}
	}
	switch w := opts.RawGetString("why").(type) {
	case *lua.LNilType:
	case *lua.LFunction:
		why = w
	default:
		L.RaiseError("move kind %s: why must be a function (p, sites, vars...) returning a text or nil, got %s", name, describeLua(w))
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
func (vm *machine) tagDoc(L *lua.LState, name string) string {
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

// WhyNot explains to the players why tok is not legal in s: the script's
// reason, from the why function of the move kind the token is written in
// (which rule the move breaks, in the rules' words), then the host's own
// (IllegalMoveError.Reason: what part of the token is wrong and what is
// possible there), joined by "; ". It is "" for a legal token. A why
// function that fails or says nothing leaves the host's reason alone: the
// script's reason is a help, never a new error. Error messages (and so
// scenarios matching them) keep the host's reason only.
func (s *State) WhyNot(tok string) string {
	_, err := s.ParseMove(tok)
	var ill *IllegalMoveError
	if err == nil || !errors.As(err, &ill) {
		return ""
	}
	k, sites, ok := s.kindOf(tok)
	if !ok || s.over {
		return ill.Reason
	}
	vm, err := s.g.machine()
	if err != nil {
		return ill.Reason
	}
	defer s.g.release(vm)
	if k >= len(vm.whys) || vm.whys[k] == nil {
		return ill.Reason
	}
	why, err := vm.why(s, k, sites)
	if err != nil || why == "" {
		return ill.Reason
	}
	return why + "; " + ill.Reason
}

// kindOf finds the move kind a token is written in and the sites it names,
// as the explanation of an illegal token does: the first kind whose
// template fits the token with every name a site (or that names none).
func (s *State) kindOf(tok string) (k int, sites []int, ok bool) {
	for k := range s.g.kinds {
		names, fits := s.g.kinds[k].parseWith(tok)
		if !fits {
			continue
		}
		sites := make([]int, 0, len(names))
		for _, n := range names {
			i, known := s.g.board.byName[n]
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

// why runs the why function of kind k for the sites of a move that is not
// legal in s, on a copy of s (it must not change the state): it gets the
// player to move, the sites (a list of site numbers, empty for a kind
// without sites) and the script's variables, as legal gets them, and
// returns a text or nil.
func (vm *machine) why(s *State, k int, sites []int) (string, error) {
	c := s.Clone()
	vm.bind(c)
	defer vm.bind(nil)
	p := c.ToMove()
	vm.mover = p
	L := vm.L
	L.Push(vm.whys[k])
	L.Push(luaInt(p))
	list := L.CreateTable(len(sites), 0)
	for i, x := range sites {
		list.RawSetInt(i+1, luaInt(x+1))
	}
	L.Push(list)
	for _, v := range vm.g.vars {
		L.Push(luaNumber(float64(c.cells[v.cell])))
	}
	if err := vm.invoke(CallWhy, 2+len(vm.g.vars), 1); err != nil {
		return "", err
	}
	v := L.Get(-1)
	L.Pop(1)
	switch x := v.(type) {
	case *lua.LNilType:
		return "", nil
	case lua.LString:
		msg := textProblem("a why text", string(x), false)
		if msg == "" && len(x) > maxPrompt {
			msg = fmt.Sprintf("a why text has at most %d characters, got %d", maxPrompt, len(x))
		}
		if msg != "" {
			vm.broken = true
			return "", &ScriptError{Pos: Pos{File: vm.g.file}, Func: CallWhy, Msg: msg}
		}
		return string(x), nil
	}
	vm.broken = true
	return "", &ScriptError{Pos: Pos{File: vm.g.file}, Func: CallWhy,
		Msg: fmt.Sprintf("why must return a text or nil, got %s", describeLua(v))}
}
