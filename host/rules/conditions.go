package rules

import (
	"github.com/matombo/matombo/host/kernel"
)

// Conditions and amounts: open predicates of a position built from
// counts, filters and lines, for end_rule, capture_rule's when and any
// slot of their types. A condition or amount is asked for a player p (the
// mover, where a turn asks); player words name players relative to p.

func init() {
	who := Field{Name: "player", Type: FieldWord, Words: []string{"mover", "next", "each", "any"}, Doc: "whose: `mover` (p, the default), `next` (the player after p); in a condition also `each` (holds for every player) or `any` (for some player)"}
	Register(Spec{Name: "sum_rule", Group: "Conditions and amounts", Slot: SlotAmount,
		Doc:    "the counters on the sites of the filter (per player: the player's)",
		Fields: []Field{{Name: "filter", Type: FieldFilter, PerPlayer: true, Required: true, Doc: "the sites"}, who},
		New: func(a *Args) (any, error) {
			return &sum{filters: a.Filters("filter"), who: word(a, "player", "mover")}, checkAmountWho(a)
		}})
	Register(Spec{Name: "count_rule", Group: "Conditions and amounts", Slot: SlotAmount,
		Doc:    "the sites of the filter that match (per player: the player's)",
		Fields: []Field{{Name: "filter", Type: FieldFilter, PerPlayer: true, Required: true, Doc: "the sites"}, who},
		New: func(a *Args) (any, error) {
			return &sum{filters: a.Filters("filter"), who: word(a, "player", "mover"), sites: true}, checkAmountWho(a)
		}})
	Register(Spec{Name: "captured_rule", Group: "Conditions and amounts", Slot: SlotAmount,
		Doc:    "a player's captured total",
		Fields: []Field{who},
		New: func(a *Args) (any, error) {
			return &captured{who: word(a, "player", "mover")}, checkAmountWho(a)
		}})
	Register(Spec{Name: "hand_rule", Group: "Conditions and amounts", Slot: SlotAmount,
		Doc:    "the counters or pieces in a player's hand",
		Fields: []Field{who},
		New: func(a *Args) (any, error) {
			return &captured{who: word(a, "player", "mover"), hand: true}, checkAmountWho(a)
		}})
	Register(Spec{Name: "ply_rule", Group: "Conditions and amounts", Slot: SlotAmount,
		Doc:    "the number of decisions made since the opening",
		Fields: nil,
		New:    func(a *Args) (any, error) { return plyCount{}, nil }})
	Register(Spec{Name: "var_rule", Group: "Conditions and amounts", Slot: SlotAmount,
		Doc:    "the value of a script variable (`m.get(var)`)",
		Fields: []Field{{Name: "var", Type: FieldVar, Required: true, Doc: "the variable"}},
		New:    func(a *Args) (any, error) { return varValue{v: a.Var("var")}, nil }})
	Register(Spec{Name: "player_rule", Group: "Conditions and amounts", Slot: SlotCond,
		Doc:    "p is the player `number` (Player 1's first drop, say)",
		Fields: []Field{{Name: "number", Type: FieldInt, Min: 1, Max: 8, Required: true, Doc: "the player, from 1"}},
		New:    func(a *Args) (any, error) { return isPlayer{number: a.Int("number")}, nil }})
	Register(Spec{Name: "over_rule", Group: "Conditions and amounts", Slot: SlotCond,
		Doc:    "the game is over: a rule ended it (after a move, in an `after_move_rule`: the move ended the game)",
		Fields: nil,
		New:    func(a *Args) (any, error) { return isOver{}, nil }})
	Register(Spec{Name: "compare_rule", Group: "Conditions and amounts", Slot: SlotCond,
		Doc: "compares an amount with a number (`value`) or another amount (`to`): `op` is one of `<`, `<=`, `==`, `~=`, `>=`, `>`; `player = \"each\"` or `\"any\"` asks it of every player (all must hold, or one)",
		Fields: []Field{
			{Name: "amount", Type: FieldPart, Slot: SlotAmount, Required: true, Doc: "the amount compared"},
			{Name: "op", Type: FieldWord, Words: cmpOps[:], Required: true, Doc: "the comparison"},
			{Name: "value", Type: FieldInt, Min: -kernel.MaxCount, Max: kernel.MaxCount, Doc: "the number compared with"},
			{Name: "to", Type: FieldPart, Slot: SlotAmount, Doc: "or the amount compared with"},
			who,
		},
		New: func(a *Args) (any, error) {
			if a.Has("value") == a.Has("to") {
				return nil, a.Errorf("give value (a number) or to (an amount), not both")
			}
			var to Amount
			if a.Has("to") {
				to = a.Part("to").(Amount)
			}
			return quantified(a, &compare{amount: a.Part("amount").(Amount), op: opOf(a.Word("op")), value: a.Int("value"), to: to}), nil
		}})
	Register(Spec{Name: "empty_rule", Group: "Conditions and amounts", Slot: SlotCond,
		Doc:    "the player's filter holds no counter",
		Fields: []Field{{Name: "filter", Type: FieldFilter, PerPlayer: true, Required: true, Doc: "the sites"}, who},
		New: func(a *Args) (any, error) {
			return quantified(a, &noCounters{filters: a.Filters("filter")}), nil
		}})
	Register(Spec{Name: "none_rule", Group: "Conditions and amounts", Slot: SlotCond,
		Doc:    "no site of the filter matches (a full board: no empty point), with the mover's filter when it depends on the mover",
		Fields: []Field{{Name: "filter", Type: FieldFilter, Required: true, Doc: "the sites"}},
		New:    func(a *Args) (any, error) { return &noSite{filter: a.Filter("filter")}, nil }})
	Register(Spec{Name: "line_cond_rule", Group: "Conditions and amounts", Slot: SlotCond,
		Doc: "the player owns `length` consecutive sites of one of the board's lines",
		Fields: []Field{
			{Name: "length", Type: FieldInt, Min: 1, Max: kernel.MaxSites, Required: true, Doc: "the sites in a row"},
			who,
		},
		New: func(a *Args) (any, error) {
			if err := needLines(a, "length", "no line can be made"); err != nil {
				return nil, err
			}
			return quantified(a, &hasLine{length: a.Int("length")}), nil
		}})
	Register(Spec{Name: "all_rule", Group: "Conditions and amounts", Slot: SlotCond,
		Doc:    "every condition of the list holds",
		Fields: []Field{{Name: List, Type: FieldParts, Slot: SlotCond, Required: true, Min: 1, Doc: "the conditions"}},
		New:    func(a *Args) (any, error) { return &logic{conds: conds(a.Parts(List)), all: true}, nil }})
	Register(Spec{Name: "any_rule", Group: "Conditions and amounts", Slot: SlotCond,
		Doc:    "some condition of the list holds",
		Fields: []Field{{Name: List, Type: FieldParts, Slot: SlotCond, Required: true, Min: 1, Doc: "the conditions"}},
		New:    func(a *Args) (any, error) { return &logic{conds: conds(a.Parts(List))}, nil }})
	Register(Spec{Name: "not_rule", Group: "Conditions and amounts", Slot: SlotCond,
		Doc:    "the condition does not hold",
		Fields: []Field{{Name: "cond", Type: FieldPart, Slot: SlotCond, Required: true, Doc: "the condition"}},
		New:    func(a *Args) (any, error) { return &not{cond: a.Part("cond").(Condition)}, nil }})
}

func word(a *Args, name, def string) string {
	if w := a.Word(name); w != "" {
		return w
	}
	return def
}

func checkAmountWho(a *Args) error {
	if w := a.Word("player"); w == "each" || w == "any" {
		return a.Errorf("an amount is one player's: player is mover or next")
	}
	return nil
}

func conds(parts []any) []Condition {
	out := make([]Condition, len(parts))
	for i, x := range parts {
		out[i] = x.(Condition)
	}
	return out
}

// quantified asks a condition of the player its player field names.
func quantified(a *Args, c Condition) Condition {
	switch a.Word("player") {
	case "each":
		return &eachPlayer{cond: c, all: true}
	case "any":
		return &eachPlayer{cond: c}
	case "next":
		return &nextPlayer{cond: c}
	}
	return c
}

// whose is the player a word names, relative to p.
func whose(c *kernel.Ctx, who string, p int) int {
	if who == "next" {
		return c.Def.NextPlayer(p)
	}
	return p
}

// ---- amounts ----

type sum struct {
	filters []*kernel.Filter
	who     string
	sites   bool // count the sites rather than their counters
}

func (r *sum) Value(c *kernel.Ctx, p int) (int, error) {
	q := whose(c, r.who, p)
	f := r.filters[q-1]
	if err := c.Charge(f.Cost()); err != nil {
		return 0, err
	}
	if r.sites {
		return f.Count(c.S.Cells, &c.Def.Layout, q), nil
	}
	return f.Sum(c.S.Cells, &c.Def.Layout, q), nil
}

type captured struct {
	who  string
	hand bool
}

func (r *captured) Value(c *kernel.Ctx, p int) (int, error) {
	q := whose(c, r.who, p)
	if r.hand {
		return c.Hand(q), nil
	}
	return c.Captured(q), nil
}

type varValue struct{ v int }

func (r varValue) Value(c *kernel.Ctx, _ int) (int, error) { return c.Var(r.v), nil }

type isPlayer struct{ number int }

func (r isPlayer) Holds(_ *kernel.Ctx, p int) (bool, error) { return p == r.number, nil }

type isOver struct{}

func (isOver) Holds(c *kernel.Ctx, _ int) (bool, error) { return c.S.Result.Over, nil }

type plyCount struct{}

func (plyCount) Value(c *kernel.Ctx, _ int) (int, error) { return c.S.Ply, nil }

// ---- conditions ----

type compare struct {
	amount Amount
	op     cmpOp
	value  int
	to     Amount // nil: value
}

// cmpOp is a comparison, decided when the part is made (a word compared
// at every move cost a string comparison a case).
type cmpOp uint8

const (
	opLess cmpOp = iota
	opAtMost
	opEqual
	opOther
	opAtLeast
	opMore
)

// cmpOps are the comparisons by their words, in the order of cmpOp.
var cmpOps = [...]string{"<", "<=", "==", "~=", ">=", ">"}

// opOf is the comparison a word names (one of cmpOps: the part's field
// accepts no other; anything else is ">").
func opOf(word string) cmpOp {
	for i, w := range cmpOps {
		if w == word {
			return cmpOp(i)
		}
	}
	return opMore
}

// holds compares x with y.
func (op cmpOp) holds(x, y int) bool {
	switch op {
	case opLess:
		return x < y
	case opAtMost:
		return x <= y
	case opEqual:
		return x == y
	case opOther:
		return x != y
	case opAtLeast:
		return x >= y
	}
	return x > y
}

func (r *compare) Holds(c *kernel.Ctx, p int) (bool, error) {
	x, err := r.amount.Value(c, p)
	if err != nil {
		return false, err
	}
	y := r.value
	if r.to != nil {
		if y, err = r.to.Value(c, p); err != nil {
			return false, err
		}
	}
	return r.op.holds(x, y), nil
}

// plyAbove: the ply count passed a number (end_rule's ply_above).
type plyAbove struct{ n int }

func (r plyAbove) Holds(c *kernel.Ctx, _ int) (bool, error) { return c.S.Ply > r.n, nil }

// someEmpty: some player's filter holds no counter (end_rule's empty).
// When every filter's emptiness is that of its sites (EmptyAsSites),
// sites holds them, tested here at every move without a call.
type someEmpty struct {
	filters []*kernel.Filter
	sites   [][]int32
}

func newSomeEmpty(filters []*kernel.Filter) *someEmpty {
	r := &someEmpty{filters: filters}
	for _, f := range filters {
		if !f.EmptyAsSites() {
			return r
		}
	}
	r.sites = make([][]int32, len(filters))
	for i, f := range filters {
		r.sites[i] = f.Cand()
	}
	return r
}

func (r *someEmpty) Holds(c *kernel.Ctx, _ int) (bool, error) {
	if r.sites != nil {
		return someSitesEmpty(c.S.Cells, r.sites[:c.Def.Players]), nil
	}
	for q := 1; q <= c.Def.Players; q++ {
		if r.filters[q-1].Empty(c.S.Cells, &c.Def.Layout, c.Mover) {
			return true, nil
		}
	}
	return false, nil
}

// someSitesEmpty reports whether one of the lists of sites holds no
// counter on any of its sites.
func someSitesEmpty(cells []int32, lists [][]int32) bool {
next:
	for _, sites := range lists {
		for _, i := range sites {
			if cells[i] != 0 {
				continue next
			}
		}
		return true
	}
	return false
}

// noCounters: the player's filter holds no counter.
type noCounters struct{ filters []*kernel.Filter }

func (r *noCounters) Holds(c *kernel.Ctx, p int) (bool, error) {
	return r.filters[p-1].Empty(c.S.Cells, &c.Def.Layout, c.Mover), nil
}

// noSite: no site matches the filter.
type noSite struct{ filter *kernel.Filter }

func (r *noSite) Holds(c *kernel.Ctx, _ int) (bool, error) {
	if err := c.Charge(r.filter.Cost()); err != nil {
		return false, err
	}
	return r.filter.First(c.S.Cells, &c.Def.Layout, c.Mover) < 0, nil
}

type hasLine struct{ length int }

func (r *hasLine) Holds(c *kernel.Ctx, p int) (bool, error) {
	line, _, _, err := c.InARow(p, -1, r.length, false)
	return line != nil, err
}

type eachPlayer struct {
	cond Condition
	all  bool // every player; otherwise some player
}

func (r *eachPlayer) Holds(c *kernel.Ctx, _ int) (bool, error) {
	for q := 1; q <= c.Def.Players; q++ {
		ok, err := r.cond.Holds(c, q)
		if err != nil {
			return false, err
		}
		if ok != r.all {
			return ok, nil
		}
	}
	return r.all, nil
}

type nextPlayer struct{ cond Condition }

func (r *nextPlayer) Holds(c *kernel.Ctx, p int) (bool, error) {
	return r.cond.Holds(c, c.Def.NextPlayer(p))
}

type logic struct {
	conds []Condition
	all   bool
}

func (r *logic) Holds(c *kernel.Ctx, p int) (bool, error) {
	for _, x := range r.conds {
		ok, err := x.Holds(c, p)
		if err != nil {
			return false, err
		}
		if ok != r.all {
			return ok, nil
		}
	}
	return r.all, nil
}

type not struct{ cond Condition }

func (r *not) Holds(c *kernel.Ctx, p int) (bool, error) {
	ok, err := r.cond.Holds(c, p)
	return !ok, err
}
