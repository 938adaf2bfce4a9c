package rules

import "github.com/matombo/matombo/host/kernel"

// The end of a game: end_rule's conditions and result_rule's totals.

func init() {
	Register(Spec{Name: "end_rule", Group: "Sowing", Slot: SlotAfter, Ends: true,
		Doc: "the first condition that holds ends the game with `result(reason)`. A condition is `{when = C, reason = TEXT}` with C a condition (a part of the table below, or a function `(p)` → boolean), or one of the short forms: `empty = F` (per player: some player's filter holds no counter), `none = F` (no site matches), `ply_above = N`, `captured_above = N` (some captured total), `captured_each = N` (every captured total); `player = \"next\"` asks the condition of the player after p",
		Fields: []Field{
			{Name: List, Type: FieldTables, Required: true, Min: 1, Doc: "the conditions, in order", Fields: []Field{
				{Name: "reason", Type: FieldText, Required: true, Doc: "how the game ends, in the rules' words"},
				{Name: "result", Type: FieldPart, Slot: SlotResult, Doc: "the result of this condition, instead of the table's"},
				{Name: "when", Type: FieldPart, Slot: SlotCond, Doc: "the condition"},
				{Name: "empty", Type: FieldFilter, PerPlayer: true, Doc: "some player's filter holds no counter"},
				{Name: "none", Type: FieldFilter, Doc: "no site matches the filter"},
				{Name: "ply_above", Type: FieldInt, Min: 0, Max: kernel.MaxCount, Doc: "the ply count passed this"},
				{Name: "captured_above", Type: FieldInt, Min: 0, Max: kernel.MaxCount, Doc: "some captured total passed this"},
				{Name: "captured_each", Type: FieldInt, Min: 0, Max: kernel.MaxCount, Doc: "every captured total is this"},
				{Name: "player", Type: FieldWord, Words: []string{"mover", "next"}, Doc: "whom the condition is asked of: `mover` (p, the default) or `next` (the player after p)"},
			}},
			{Name: "result", Type: FieldPart, Slot: SlotResult, Doc: "ends the game: `result(reason)`, for the conditions without a result of their own"},
		},
		New: newEnd})
	Register(Spec{Name: "winner_rule", Group: "Sowing", Slot: SlotResult, Ends: true,
		Doc: "ends the game with a winner: the player who moved (`mover`), the next player (`next`), or a draw (`draw`)",
		Fields: []Field{
			{Name: "winner", Type: FieldWord, Words: []string{"mover", "next", "draw"}, Required: true, Doc: "who wins"},
		},
		New: func(a *Args) (any, error) { return &winner{who: a.Word("winner")}, nil }})
	Register(Spec{Name: "result_rule", Group: "Sowing", Slot: SlotResult, Mutates: true,
		Doc: "each player's total is their captured counters plus the counters on the sites they own (with `sweep` these first go into the captured totals, as `m.sweep`); the one largest total wins, otherwise a draw (`finish`)",
		Fields: []Field{
			{Name: "sweep", Type: FieldBool, Doc: "move the counters on the board into the captured totals first"},
		},
		New: func(a *Args) (any, error) { return &result{sweep: a.Bool("sweep")}, nil }})
}

// ---- end_rule ----

type end struct {
	conds   []Condition
	reasons []string
	results []Resulter // per condition; the table's when the condition has none
	result  Resulter
}

func newEnd(a *Args) (any, error) {
	r := &end{result: resulter(a.Part("result"))}
	for i, t := range a.Tables(List) {
		var c Condition
		set := 0
		if t.Has("when") {
			c = t.Part("when").(Condition)
			set++
		}
		if t.Has("empty") {
			c = newSomeEmpty(t.Filters("empty"))
			set++
		}
		if t.Has("none") {
			c = &noSite{filter: t.Filter("none")}
			set++
		}
		if t.Has("ply_above") {
			c = plyAbove{n: t.Int("ply_above")}
			set++
		}
		if t.Has("captured_above") {
			c = &eachPlayer{cond: &compare{amount: &captured{who: "p"}, op: opMore, value: t.Int("captured_above")}}
			set++
		}
		if t.Has("captured_each") {
			c = &eachPlayer{cond: &compare{amount: &captured{who: "p"}, op: opEqual, value: t.Int("captured_each")}, all: true}
			set++
		}
		if set != 1 {
			return nil, a.Errorf("condition %d needs exactly one of when, empty, none, ply_above, captured_above, captured_each", i+1)
		}
		if t.Word("player") == "next" {
			c = &nextPlayer{cond: c}
		}
		res := r.result
		if t.Has("result") {
			res = t.Part("result").(Resulter)
		}
		if res == nil {
			return nil, a.Errorf("condition %d has no result (give result, for the table or the condition)", i+1)
		}
		r.conds = append(r.conds, c)
		r.reasons = append(r.reasons, t.Word("reason"))
		r.results = append(r.results, res)
	}
	return r, nil
}

// After ends the game when a condition holds, for the mover p.
func (r *end) After(c *kernel.Ctx, p, _ int) error {
	if err := c.Charge(1 + c.Def.Layout.Sites/4); err != nil {
		return err
	}
	for i, cond := range r.conds {
		hit, err := cond.Holds(c, p)
		if err != nil {
			return err
		}
		if hit {
			// The result is asked for p: a winner_rule's "mover" is p.
			mover := c.Mover
			c.Mover = p
			err := r.results[i].Result(c, r.reasons[i])
			c.Mover = mover
			return err
		}
	}
	return nil
}

// ---- result_rule ----

type result struct{ sweep bool }

func (r *result) Result(c *kernel.Ctx, reason string) error {
	l, cells := &c.Def.Layout, c.S.Cells
	var totals [8]int
	if l.Players > len(totals) {
		return kernel.Failf("result_rule handles at most %d players", len(totals))
	}
	for i := 0; i < l.Sites; i++ {
		o := int(cells[l.Owners+i])
		if o < 1 || cells[i] == 0 {
			continue
		}
		totals[o-1] += int(cells[i])
		if r.sweep {
			cp := &cells[l.Captured+o-1]
			if int(*cp)+int(cells[i]) > kernel.MaxCount {
				return kernel.Failf("player %d's captured total would pass %d", o, kernel.MaxCount)
			}
			c.Rec.Add(kernel.Effect{Kind: kernel.EffectCapture, Site: i, To: -1, Player: o, Count: int(cells[i])})
			*cp += cells[i]
			cells[i] = 0
		}
	}
	best, winner := -1, 0
	for q := range l.Players {
		t := totals[q]
		if r.sweep {
			t = int(cells[l.Captured+q])
		} else {
			t += int(cells[l.Captured+q])
		}
		switch {
		case t > best:
			best, winner = t, q+1
		case t == best:
			winner = 0
		}
	}
	c.Finish(winner, reason, nil, nil)
	return nil
}

// ---- winner_rule ----

type winner struct{ who string }

func (r *winner) Result(c *kernel.Ctx, reason string) error {
	w := 0
	switch r.who {
	case "mover":
		w = c.Mover
	case "next":
		w = c.Def.NextPlayer(c.Mover)
	}
	c.Finish(w, reason, nil, nil)
	return nil
}
