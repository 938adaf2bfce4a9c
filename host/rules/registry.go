package rules

import (
	"fmt"
	"sort"
	"sync"

	"github.com/matombo/matombo/host/kernel"
)

// Spec describes a kind of rule part: how a script declares it and what
// it fits.
type Spec struct {
	// Name is the constructor's name in the Lua API: matombo.Name{...}.
	Name string
	// Group is the section of the reference the part is listed in, e.g.
	// "Sowing".
	Group string
	// Slot is how a script calls the part as a function (see Slot.Call),
	// and the slot it is documented for; a part may fit other slots too.
	Slot Slot
	// Doc says what the part does, in one paragraph of Markdown.
	Doc string
	// Fields are the fields of the table that declares the part, in the
	// order the reference lists them.
	Fields []Field
	// Mutates says the part changes the state when it runs (a script may
	// call it only where it may change the state).
	Mutates bool
	// Ends says the part may end the game, as matombo.finish does: a
	// script may call it wherever it may call finish.
	Ends bool
	// New makes the part from the declared fields.
	New func(a *Args) (any, error)
}

// FieldType is what a field of a part's table holds.
type FieldType uint8

// The field types. A field given "per player" takes one value for every
// player or a list of one value per player.
const (
	FieldInt       FieldType = iota + 1 // a whole number from Min to Max
	FieldBool                           // true or false
	FieldWord                           // one of Words
	FieldText                           // a reason or a note, at most 200 characters
	FieldSite                           // a site: its number or name
	FieldSites                          // a list of sites (per player: one list per player)
	FieldTrack                          // a track: its handle or name
	FieldFilter                         // a filter from matombo.filter
	FieldTag                            // a tag: its handle or name
	FieldVar                            // a variable: its handle or name
	FieldVars                           // a list of variables
	FieldKind                           // a move kind: its handle or name
	FieldKinds                          // a list of move kinds
	FieldCounts                         // a list of 1 to MaxCounts counts, e.g. {2, 3}
	FieldRow                            // a row number, from 1
	FieldPart                           // a part or a function that fits Slot
	FieldParts                          // a list of parts or functions that fit Slot
	FieldTable                          // a table with the fields Fields
	FieldTables                         // a list of tables with the fields Fields
	FieldKindMap                        // a table from move kinds to parts of Slot (or false)
	FieldTracks                         // a list of tracks (per player: a list for each player, or one for all)
	FieldSiteLists                      // a list of lists of sites
)

// MaxCounts is the most counts a field of counts lists (a capture's
// `counts`).
const MaxCounts = 8

var fieldTypeNames = [...]string{"", "whole number", "boolean", "word", "text", "site", "list of sites", "track", "filter", "tag", "variable", "list of variables", "move kind", "list of move kinds", "list of counts", "row", "part", "list of parts", "table", "list of tables", "table of move kinds", "list of tracks", "list of lists of sites"}

func (t FieldType) String() string {
	if int(t) < len(fieldTypeNames) {
		return fieldTypeNames[t]
	}
	return "field?"
}

// List is the Name of the field that stands for a table's list items
// (its array part), e.g. the conditions of end_rule.
const List = "[]"

// Field is one field of a part's table.
type Field struct {
	Name      string
	Type      FieldType
	Doc       string
	Required  bool
	PerPlayer bool     // one value, or one per player
	Min, Max  int      // FieldInt: the bounds; lists: the lengths (0: any)
	Default   int      // FieldInt: the value when absent
	Words     []string // FieldWord: the words allowed
	Slot      Slot     // FieldPart, FieldParts, FieldKindMap: the slot (a script function stands in it)
	Or        Slot     // FieldPart: another slot whose parts the field takes too
	Fields    []Field  // FieldTable, FieldTables: the fields of the table
	Arity     int      // FieldKind(s): the sites a move of the kind must name; AnyArity for any
}

// AnyArity is a move kind field that takes kinds of any arity.
const AnyArity = -2

// registry holds the registered kinds of parts, by name.
var registry struct {
	sync.RWMutex
	specs map[string]*Spec
}

// Register adds a kind of part. It panics on a second registration of a
// name, as the parts of the program register themselves once, when it
// starts.
func Register(s Spec) {
	registry.Lock()
	defer registry.Unlock()
	if registry.specs == nil {
		registry.specs = map[string]*Spec{}
	}
	if _, dup := registry.specs[s.Name]; dup {
		panic(fmt.Sprintf("rules: part %q registered twice", s.Name))
	}
	if s.New == nil || s.Slot == SlotNone {
		panic(fmt.Sprintf("rules: part %q needs a slot and a constructor", s.Name))
	}
	registry.specs[s.Name] = &s
}

// Lookup returns the kind of part named name.
func Lookup(name string) (*Spec, bool) {
	registry.RLock()
	defer registry.RUnlock()
	s, ok := registry.specs[name]
	return s, ok
}

// All returns every kind of part, by group, then name.
func All() []*Spec {
	registry.RLock()
	defer registry.RUnlock()
	out := make([]*Spec, 0, len(registry.specs))
	for _, s := range registry.specs {
		out = append(out, s)
	}
	sort.Slice(out, func(i, j int) bool {
		if gi, gj := groupOrder(out[i].Group), groupOrder(out[j].Group); gi != gj {
			return gi < gj
		}
		return out[i].Name < out[j].Name
	})
	return out
}

// Groups are the sections of the reference, in order.
var Groups = []string{"Sowing", "Relays and decisions", "Placing and moving", "Turns", "Trades", "Conditions and amounts"}

func groupOrder(g string) int {
	for i, x := range Groups {
		if x == g {
			return i
		}
	}
	return len(Groups)
}

// Args are the decoded fields of a part's table, for its constructor.
type Args struct {
	Def  *kernel.Def // the game as declared so far: its board and move kinds
	Spec *Spec
	vals map[string]any
}

// NewArgs returns empty Args for spec; a decoder sets the fields given.
func NewArgs(def *kernel.Def, spec *Spec) *Args {
	return &Args{Def: def, Spec: spec, vals: map[string]any{}}
}

// Set sets a field's decoded value: int (FieldInt, FieldSite, FieldVar,
// FieldKind, FieldRow), bool, string (FieldWord, FieldText; []string a
// FieldWord per player), uint64
// (FieldTag), []int (lists of sites, variables, kinds), []int32
// (FieldCounts), [][]int (FieldSiteLists; per player [][][]int),
// *kernel.Track, *kernel.Filter, any (a part), []any,
// *Args (FieldTable), []*Args, map[int]any (FieldKindMap, nil for false);
// a per-player field holds a slice of one per player.
func (a *Args) Set(name string, v any) { a.vals[name] = v }

// Has reports whether the field was given.
func (a *Args) Has(name string) bool {
	_, ok := a.vals[name]
	return ok
}

// Errorf makes the error of a table whose fields do not fit together.
func (a *Args) Errorf(format string, args ...any) error {
	return fmt.Errorf(format, args...)
}

func get[T any](a *Args, name string) (T, bool) {
	v, ok := a.vals[name].(T)
	return v, ok
}

// Int returns a whole number field, or its default.
func (a *Args) Int(name string) int {
	if v, ok := get[int](a, name); ok {
		return v
	}
	for _, f := range a.Spec.Fields {
		if f.Name == name {
			return f.Default
		}
	}
	return 0
}

// Bool returns a boolean field (false when absent).
func (a *Args) Bool(name string) bool { v, _ := get[bool](a, name); return v }

// Words returns a per-player word field, nil when absent.
func (a *Args) Words(name string) []string { v, _ := get[[]string](a, name); return v }

// Word returns a word or text field ("" when absent).
func (a *Args) Word(name string) string { v, _ := get[string](a, name); return v }

// Site returns a site field, -1 when absent.
func (a *Args) Site(name string) int {
	if v, ok := get[int](a, name); ok {
		return v
	}
	return -1
}

// Kind returns a move kind field, -1 when absent.
func (a *Args) Kind(name string) int { return a.Site(name) }

// Var returns a variable field, -1 when absent.
func (a *Args) Var(name string) int { return a.Site(name) }

// Tag returns a tag field's mask, 0 when absent.
func (a *Args) Tag(name string) uint64 { v, _ := get[uint64](a, name); return v }

// Ints returns a list of sites, variables or kinds.
func (a *Args) Ints(name string) []int { v, _ := get[[]int](a, name); return v }

// SiteLists returns a field of one list of sites per player.
func (a *Args) SiteLists(name string) [][]int { v, _ := get[[][]int](a, name); return v }

// SiteListsOf returns a field holding a list of lists of sites.
func (a *Args) SiteListsOf(name string) [][]int { return a.SiteLists(name) }

// SiteListsPer returns a per-player field of lists of lists of sites (a
// FieldSiteLists given per player): one list of lists per player, nil
// when absent.
func (a *Args) SiteListsPer(name string) [][][]int { v, _ := get[[][][]int](a, name); return v }

// Counts returns a list of counts.
func (a *Args) Counts(name string) []int32 { v, _ := get[[]int32](a, name); return v }

// Rows returns a per-player row field, nil when absent.
func (a *Args) Rows(name string) []int { return a.Ints(name) }

// Sites returns a per-player site field, nil when absent.
func (a *Args) Sites(name string) []int { return a.Ints(name) }

// TrackLists returns a per-player field of lists of tracks, nil when
// absent.
func (a *Args) TrackLists(name string) [][]*kernel.Track {
	v, _ := get[[][]*kernel.Track](a, name)
	return v
}

// Tracks returns a per-player track field, nil when absent.
func (a *Args) Tracks(name string) []*kernel.Track { v, _ := get[[]*kernel.Track](a, name); return v }

// Filter returns a filter field, nil when absent.
func (a *Args) Filter(name string) *kernel.Filter { v, _ := get[*kernel.Filter](a, name); return v }

// Filters returns a per-player filter field, nil when absent.
func (a *Args) Filters(name string) []*kernel.Filter {
	v, _ := get[[]*kernel.Filter](a, name)
	return v
}

// Part returns a part field, nil when absent.
func (a *Args) Part(name string) any { return a.vals[name] }

// Parts returns a list of parts.
func (a *Args) Parts(name string) []any { v, _ := get[[]any](a, name); return v }

// Table returns a table field, nil when absent.
func (a *Args) Table(name string) *Args { v, _ := get[*Args](a, name); return v }

// Tables returns a list of tables.
func (a *Args) Tables(name string) []*Args { v, _ := get[[]*Args](a, name); return v }

// KindMap returns a table from move kinds to parts (nil: false).
func (a *Args) KindMap(name string) map[int]any { v, _ := get[map[int]any](a, name); return v }
