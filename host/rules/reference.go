package rules

import (
	"fmt"
	"strings"
)

// Reference writes the reference of every registered part in Markdown,
// by group: how a script declares it, how it is called, what it does and
// its fields. docs/lua-api.md carries it between the lines
// ReferenceBegin and ReferenceEnd, checked by a test.
func Reference() string {
	var sb strings.Builder
	for _, g := range Groups {
		var specs []*Spec
		for _, s := range All() {
			if s.Group == g {
				specs = append(specs, s)
			}
		}
		if len(specs) == 0 {
			continue
		}
		fmt.Fprintf(&sb, "#### %s\n\n", g)
		for _, s := range specs {
			fmt.Fprintf(&sb, "**`m.%s{%s}`**, %s part: `%s`. %s.\n\n", s.Name, fieldNames(s.Fields), withArticle(s.Slot.String()), s.Slot.Call(), capitalize(s.Doc))
			if len(s.Fields) == 0 {
				continue
			}
			sb.WriteString("| field | holds | meaning |\n|---|---|---|\n")
			for _, f := range s.Fields {
				fmt.Fprintf(&sb, "| %s | %s | %s |\n", fieldLabel(f), fieldType(f), fieldDoc(f))
			}
			sb.WriteString("\n")
		}
	}
	return sb.String()
}

// The lines of docs/lua-api.md around the reference.
const (
	ReferenceBegin = "<!-- parts: made from host/rules by go test ./host/rules -update; do not edit -->"
	ReferenceEnd   = "<!-- end of parts -->"
)

func fieldNames(fields []Field) string {
	var names []string
	for _, f := range fields {
		if f.Name == List {
			names = append(names, "...")
			continue
		}
		names = append(names, f.Name)
	}
	return strings.Join(names, ", ")
}

func fieldLabel(f Field) string {
	if f.Name == List {
		return "the list"
	}
	return "`" + f.Name + "`"
}

func fieldType(f Field) string {
	t := f.Type.String()
	switch f.Type {
	case FieldInt:
		switch {
		case f.Min == 0 && f.Max == 0:
		case f.Default != 0:
			t = fmt.Sprintf("%s, %d to %d, default %d", t, f.Min, f.Max, f.Default)
		default:
			t = fmt.Sprintf("%s, %d to %d", t, f.Min, f.Max)
		}
	case FieldWord:
		var ws []string
		for _, w := range f.Words {
			ws = append(ws, fmt.Sprintf("`%q`", w))
		}
		t = strings.Join(ws, ", ")
	case FieldPart, FieldParts:
		t = fmt.Sprintf("%s of the %s slot, `%s`", t, f.Slot, f.Slot.Call())
		if f.Or != SlotNone {
			t += fmt.Sprintf(", or of the %s slot", f.Or)
		}
	case FieldCounts:
		t = fmt.Sprintf("list of 1 to %d counts", MaxCounts)
	case FieldKindMap:
		t = fmt.Sprintf("%s, each to a part of the %s slot `%s` or `false`", t, f.Slot, f.Slot.Call())
	case FieldKind:
		if f.Arity != AnyArity {
			t = fmt.Sprintf("%s naming %s", t, ArityText(f.Arity))
		}
	}
	if f.PerPlayer {
		t += ", per player"
	}
	if f.Required {
		t += ", required"
	}
	return t
}

func fieldDoc(f Field) string {
	doc := f.Doc
	if len(f.Fields) > 0 {
		var subs []string
		for _, g := range f.Fields {
			subs = append(subs, fmt.Sprintf("%s (%s): %s", fieldLabel(g), fieldType(g), g.Doc))
		}
		doc += "; its fields: " + strings.Join(subs, "; ")
	}
	return strings.ReplaceAll(doc, "|", "\\|")
}

// withArticle puts "a" or "an" before a word.
func withArticle(w string) string {
	if w != "" && strings.ContainsRune("aeiou", rune(w[0])) {
		return "an " + w
	}
	return "a " + w
}

func capitalize(s string) string {
	if s == "" {
		return s
	}
	if s[0] >= 'a' && s[0] <= 'z' {
		return string(s[0]-'a'+'A') + s[1:]
	}
	return s
}

// LuaStubs writes the LuaLS annotations of every part's constructor, for
// games/types/matombo.lua (between the lines StubsBegin and StubsEnd,
// checked by a test).
func LuaStubs() string {
	var sb strings.Builder
	for _, s := range All() {
		fmt.Fprintf(&sb, "---%s: %s.\n", s.Slot.Call(), s.Doc)
		fmt.Fprintf(&sb, "---@param spec %s\n", luaTable(s.Fields))
		fmt.Fprintf(&sb, "---@return %s\n", luaFunc(s.Slot))
		fmt.Fprintf(&sb, "function matombo.%s(spec) end\n", s.Name)
	}
	return sb.String()
}

// The lines of games/types/matombo.lua around the stubs.
const (
	StubsBegin = "-- Rule parts (made from host/rules by go test ./host/rules -update; do not edit):"
	StubsEnd   = "-- End of the rule parts."
)

func luaTable(fields []Field) string {
	var parts []string
	for _, f := range fields {
		if f.Name == List {
			return "table"
		}
		t := luaType(f)
		if !f.Required {
			t += "?"
		}
		parts = append(parts, f.Name+": "+t)
	}
	return "{" + strings.Join(parts, ", ") + "}"
}

func luaType(f Field) string {
	var t string
	switch f.Type {
	case FieldInt, FieldRow:
		t = "integer"
	case FieldBool:
		t = "boolean"
	case FieldWord:
		var ws []string
		for _, w := range f.Words {
			ws = append(ws, fmt.Sprintf("%q", w))
		}
		t = strings.Join(ws, "|")
		if !f.PerPlayer {
			return "(" + t + ")"
		}
	case FieldText:
		t = "string"
	case FieldSite:
		t = "matombo.Site"
	case FieldSites:
		t = "matombo.Site[]"
	case FieldSiteLists:
		return "matombo.Site[][]"
	case FieldTrack:
		t = "matombo.Track|string"
	case FieldTracks:
		return "matombo.Track[]|matombo.Track[][]"
	case FieldFilter:
		t = "matombo.Filter"
	case FieldTag:
		return "matombo.Tag|string"
	case FieldVar:
		return "matombo.Var|string"
	case FieldVars:
		return "(matombo.Var|string)[]"
	case FieldKind:
		return "matombo.Kind|string"
	case FieldKinds:
		return "(matombo.Kind|string)[]"
	case FieldCounts:
		return "integer[]"
	case FieldPart:
		return "function"
	case FieldParts:
		return "function|function[]" // one part alone is a list of one
	case FieldTable:
		return luaTable(f.Fields)
	case FieldTables:
		return "table[]"
	case FieldKindMap:
		return "table<matombo.Kind, function|false>"
	}
	if f.PerPlayer {
		return "(" + t + ")|(" + t + ")[]"
	}
	return t
}

func luaFunc(s Slot) string {
	switch s {
	case SlotEmit:
		return "fun(p: integer): integer"
	case SlotPlay:
		return "fun(p: integer, kind: matombo.Kind, ...: integer)"
	case SlotKindPlay:
		return "fun(p: integer, ...: matombo.Site)"
	case SlotSow:
		return "fun(p: integer, from: matombo.Site): integer, boolean"
	case SlotRelay:
		return "fun(p: integer, from: matombo.Site): integer, string, integer"
	case SlotCapture:
		return "fun(p: integer, last: matombo.Site, was_empty: boolean): integer"
	case SlotSiteTest:
		return "fun(p: integer, site: matombo.Site?): boolean"
	case SlotUnless:
		return "fun(last: matombo.Site, owner: integer): boolean"
	case SlotAfter:
		return "fun(p: integer, n: integer?)"
	case SlotResult:
		return "fun(reason: string)"
	case SlotChoices:
		return "fun(p: integer, at: matombo.Site): integer"
	case SlotCount:
		return "fun(p: integer, k: integer): integer"
	case SlotCond:
		return "fun(p: integer): boolean"
	case SlotAmount:
		return "fun(p: integer): integer"
	case SlotLap:
		return "fun(p: integer, last: matombo.Site, track: matombo.Track, laps: integer): any"
	case SlotMoveTest:
		return "fun(p: integer, kind: matombo.Kind, ...: integer): boolean"
	case SlotScore:
		return "fun(over: boolean): integer..."
	}
	return "function"
}
