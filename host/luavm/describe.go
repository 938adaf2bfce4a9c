package luavm

import (
	"fmt"
	"math"

	"github.com/matombo/matombo/host/diag"
	"github.com/matombo/matombo/host/kernel"
	lua "github.com/yuin/gopher-lua"
)

// Describing what a script passed, for the error that refuses it.
//
// The handles of tags, tracks, move kinds and variables are plain numbers
// from 1, so a number alone cannot say which declaration it came from: 1
// may be the first tag, the first track, the first move kind and the
// first variable at once (and a site). describe says what a number means
// in the slot that refused it, and which declarations have it as their
// handle; a filter, a rule part and a name are known for what they are.

// slotSort is what a slot takes, which decides what a number or a string
// given to it means.
type slotSort int

const (
	anySlot    slotSort = iota // a table, a function or a filter: no number
	plainSlot                  // a number, text or truth value that is no site or handle
	siteSlot                   // a site: its number from 1 or its name
	trackSlot                  // a track: its handle or its name
	tagSlot                    // a tag: its handle or its name
	kindSlot                   // a move kind: its handle or its name
	varSlot                    // a variable: its handle or its name
	filterSlot                 // a filter
)

// noun is what a slot of the sort holds, in words.
func (s slotSort) noun() string {
	switch s {
	case siteSlot:
		return "site"
	case trackSlot:
		return "track"
	case tagSlot:
		return "tag"
	case kindSlot:
		return "move kind"
	case varSlot:
		return "variable"
	case filterSlot:
		return "filter"
	}
	return "value"
}

// maker is the primitive that declares things of the sort.
func (s slotSort) maker() string {
	switch s {
	case trackSlot:
		return "matombo.track"
	case tagSlot:
		return "matombo.tag"
	case kindSlot:
		return "matombo.move"
	case varSlot:
		return "matombo.var"
	case filterSlot:
		return "matombo.filter"
	}
	return ""
}

// describe names v, which a slot of sort want refused, as the script's
// author knows it: `number 3, which is no track's handle (tracks are
// 1..2: south, north); 3 is the handle of the tag store`, `string "xyz", which names
// no track (tracks: south, north)`, `a filter (from matombo.filter)`,
// `the rule part sow_rule (from matombo.sow_rule)`. Other values are
// named by their Lua type, as Lua's own errors name them ("nil",
// "table").
func (vm *Machine) describe(v lua.LValue, want slotSort) string {
	switch x := v.(type) {
	case lua.LNumber:
		return vm.describeNumber(x, want)
	case lua.LString:
		return vm.describeString(string(x), want)
	case *lua.LUserData:
		if _, ok := x.Value.(*kernel.Filter); ok {
			return "a filter (from matombo.filter)"
		}
	case *lua.LFunction:
		if ref := vm.parts[x]; ref != nil {
			return fmt.Sprintf("the rule part %s (from matombo.%s)", ref.spec.Name, ref.spec.Name)
		}
	}
	return describeLua(v)
}

// describeList names what a script gave where a list of a bounded length
// is wanted: a table by its length ("a list of 81"), so a list too long or
// too short says so; anything else as describe does.
func (vm *Machine) describeList(v lua.LValue, want slotSort) string {
	lt, ok := v.(*lua.LTable)
	if !ok {
		return vm.describe(v, want)
	}
	if n := lt.Len(); n > 0 {
		return fmt.Sprintf("a list of %d", n)
	}
	return "an empty list"
}

// describeNumber names a number given to a slot of sort want: what it
// means there, then which declarations have it as their handle.
func (vm *Machine) describeNumber(x lua.LNumber, want slotSort) string {
	out := describeLua(x)
	f := float64(x)
	whole := f == math.Trunc(f) && math.Abs(f) <= math.MaxInt32
	n := int(f)
	switch want {
	case siteSlot:
		if b := vm.def.Board; b != nil && (!whole || n < 1 || n > b.NumSites()) {
			out += fmt.Sprintf(", which is no site (sites are 1..%d)", b.NumSites())
		}
	case trackSlot, tagSlot, kindSlot, varSlot:
		if names := vm.declared(want); !whole || n < 1 || n > len(names) {
			out += fmt.Sprintf(", which is no %s's handle %s", want.noun(), rangeOf(want, names))
		}
	}
	if !whole || want == plainSlot {
		return out
	}
	var also []string
	for s := trackSlot; s <= varSlot; s++ { // the sorts whose handles are numbers
		if names := vm.declared(s); s != want && n >= 1 && n <= len(names) {
			also = append(also, fmt.Sprintf("the %s %s", s.noun(), names[n-1]))
		}
	}
	if len(also) > 0 {
		out += fmt.Sprintf("; %d is the handle of %s", n, diag.AndList(also))
	}
	return out
}

// describeString names a string given to a slot of sort want: the
// declaration it names, if any, and the names the slot takes.
func (vm *Machine) describeString(s string, want slotSort) string {
	out := describeLua(lua.LString(s))
	if want == plainSlot {
		return out
	}
	names := vm.declared(want)
	if containsString(names, s) {
		return fmt.Sprintf("%s, the name of the %s %s: give its handle, from %s", out, want.noun(), s, want.maker())
	}
	other := vm.sortNamed(s, want)
	switch {
	case want == anySlot || want == filterSlot:
		if other != anySlot {
			out += fmt.Sprintf(", the name of a %s", other.noun())
		}
		return out
	case want == siteSlot:
		if b := vm.def.Board; b != nil {
			if _, ok := b.Index(s); !ok && other != anySlot {
				out += fmt.Sprintf(", the name of a %s, not of a site", other.noun())
			} else if !ok {
				out += ", which names no site of the board"
			}
		}
		return out
	case other != anySlot:
		return fmt.Sprintf("%s, the name of a %s, not of a %s %s", out, other.noun(), want.noun(), listOf(want, names))
	}
	return fmt.Sprintf("%s, which names no %s %s", out, want.noun(), listOf(want, names))
}

// sortNamed is the sort of a declaration other than of sort but named
// name, or anySlot when there is none.
func (vm *Machine) sortNamed(name string, but slotSort) slotSort {
	for s := trackSlot; s <= varSlot; s++ {
		if s != but && containsString(vm.declared(s), name) {
			return s
		}
	}
	return anySlot
}

// declared is the names of the declarations of sort s, in the order of
// their handles (handle i is names[i-1]).
func (vm *Machine) declared(s slotSort) []string {
	var out []string
	b := vm.def.Board
	switch {
	case s == tagSlot && b != nil:
		for i := 0; i < b.NumTags(); i++ {
			out = append(out, b.TagName(i))
		}
	case s == trackSlot && b != nil:
		for i := 0; i < b.NumTracks(); i++ {
			out = append(out, b.TrackAt(i).Name)
		}
	case s == kindSlot:
		for _, k := range vm.def.Kinds {
			out = append(out, k.Name)
		}
	case s == varSlot:
		for _, v := range vm.def.Vars {
			out = append(out, v.Name)
		}
	}
	return out
}

// maxListed is how many names an error lists before it stops.
const maxListed = 8

// rangeOf says which handles of sort s exist: "(tracks are 1..2: south,
// north)", "(the only track, south, is 1)" or "(no track is declared)".
func rangeOf(s slotSort, names []string) string {
	switch len(names) {
	case 0:
		return fmt.Sprintf("(no %s is declared)", s.noun())
	case 1:
		return fmt.Sprintf("(the only %s, %s, is 1)", s.noun(), names[0])
	}
	return fmt.Sprintf("(%ss are 1..%d: %s)", s.noun(), len(names), diag.ShortList(names, maxListed))
}

// listOf names the declarations of sort s: "(tracks: south, north)", or
// "(no track is declared)".
func listOf(s slotSort, names []string) string {
	if len(names) == 0 {
		return fmt.Sprintf("(no %s is declared)", s.noun())
	}
	return fmt.Sprintf("(%ss: %s)", s.noun(), diag.ShortList(names, maxListed))
}

// numDeclared is how many declarations of sort s there are: its handles
// are 1 to that.
func (vm *Machine) numDeclared(s slotSort) int {
	b := vm.def.Board
	switch {
	case s == trackSlot && b != nil:
		return b.NumTracks()
	case s == tagSlot && b != nil:
		return b.NumTags()
	case s == kindSlot:
		return len(vm.def.Kinds)
	case s == varSlot:
		return len(vm.def.Vars)
	}
	return 0
}

// indexNamed is the index of the declaration of sort s named name.
func (vm *Machine) indexNamed(s slotSort, name string) (int, bool) {
	b := vm.def.Board
	switch {
	case s == trackSlot && b != nil:
		if t, ok := b.TrackNamed(name); ok {
			return b.TrackIndex(t), true
		}
	case s == tagSlot && b != nil:
		return b.TagIndex(name)
	case s == kindSlot:
		for k := range vm.def.Kinds {
			if vm.def.Kinds[k].Name == name {
				return k, true
			}
		}
	case s == varSlot:
		return vm.def.VarNamed(name)
	}
	return 0, false
}
