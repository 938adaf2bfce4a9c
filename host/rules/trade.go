package rules

import (
	"github.com/matombo/matombo/host/kernel"
)

// Trades of sites for captured counters: a player offers some of their
// sites, the next player answers, and on accepting takes them over,
// paying a price per site from their captured counters. The sites of a
// pending offer wait in script variables (0 for none).

func init() {
	Register(Spec{Name: "offers_rule", Group: "Trades", Slot: SlotEmit,
		Doc: "a move of kind `kind` (a kind taking a list of sites) for each set of 1 to k sites of the filter `from`, smaller sets first, each in board order (as `emit_subsets`), k the most sites p may offer: at most `most`, keeping `keep` sites of the filter, and no more than the next player can pay for at `price` counters each from their captured total",
		Fields: []Field{
			{Name: "kind", Type: FieldKind, Required: true, Arity: -1, Doc: "the kind of an offer"},
			{Name: "from", Type: FieldFilter, PerPlayer: true, Required: true, Doc: "the sites a player may offer"},
			{Name: "keep", Type: FieldInt, Min: 0, Max: kernel.MaxSites, Doc: "sites of the filter a player keeps"},
			{Name: "most", Type: FieldInt, Min: 1, Max: kernel.MaxMoveSites, Default: kernel.MaxMoveSites, Doc: "the most sites of one offer"},
			{Name: "price", Type: FieldInt, Min: 0, Max: kernel.MaxCount, Doc: "counters a site costs the next player"},
		},
		New: func(a *Args) (any, error) {
			return &offers{kind: a.Kind("kind"), from: a.Filters("from"), keep: a.Int("keep"), most: a.Int("most"), price: a.Int("price")}, nil
		}})
	vars := Field{Name: "holes", Type: FieldVars, Required: true, Min: 1, Max: kernel.MaxMoveSites, Doc: "the variables that hold the sites of a pending offer"}
	Register(Spec{Name: "offer_rule", Group: "Trades", Slot: SlotKindPlay, Mutates: true,
		Doc:    "`(p, s1, s2, ...)`: the sites offered go into the variables `holes`, the rest become 0",
		Fields: []Field{vars},
		New:    func(a *Args) (any, error) { return &offer{holes: a.Ints("holes")}, nil }})
	Register(Spec{Name: "accept_rule", Group: "Trades", Slot: SlotKindPlay, Mutates: true,
		Doc: "`(p)`: each site of the pending offer becomes p's (as `m.set_owner`) and p pays `price` of their captured counters into it (as `m.pay`); then the offer is cleared and p decides next",
		Fields: []Field{vars,
			{Name: "price", Type: FieldInt, Min: 0, Max: kernel.MaxCount, Doc: "counters p pays into each site"},
		},
		New: func(a *Args) (any, error) { return &accept{holes: a.Ints("holes"), price: a.Int("price")}, nil }})
	Register(Spec{Name: "decline_rule", Group: "Trades", Slot: SlotKindPlay, Mutates: true,
		Doc: "`(p)`: the pending offer is cleared, p's variable of `declined` (one per player) becomes 1, and p decides next",
		Fields: []Field{vars,
			{Name: "declined", Type: FieldVars, Min: 1, Max: kernel.MaxMoveSites, Doc: "one variable per player: whether the player declined an offer"},
		},
		New: func(a *Args) (any, error) {
			r := &decline{holes: a.Ints("holes"), declined: a.Ints("declined")}
			if r.declined != nil && len(r.declined) != a.Def.Players {
				return nil, a.Errorf("declined must list one variable per player (%d)", a.Def.Players)
			}
			return r, nil
		}})
}

// ---- offers_rule ----

type offers struct {
	kind              int
	from              []*kernel.Filter
	keep, most, price int
}

func (r *offers) Emit(c *kernel.Ctx, p int) (int, error) {
	k := r.most
	if r.price > 0 {
		k = min(k, c.Captured(c.Def.NextPlayer(p))/r.price)
	}
	if k < 1 {
		return 0, nil
	}
	f := r.from[p-1]
	if err := c.Charge(f.Cost()); err != nil {
		return 0, err
	}
	var buf [64]int32
	pool := f.AppendSites(buf[:0], c.S.Cells, &c.Def.Layout, c.Mover)
	return c.EmitSubsets(r.kind, pool, 1, min(k, len(pool)-r.keep))
}

// ---- offer_rule, accept_rule, decline_rule ----

type offer struct{ holes []int }

func (r *offer) Play(c *kernel.Ctx, p int, m kernel.Move) error {
	if int(m.N) > len(r.holes) {
		return kernel.Failf("an offer of %d sites, but offer_rule keeps %d", m.N, len(r.holes))
	}
	for i, v := range r.holes {
		x := 0
		if i < int(m.N) {
			x = int(m.Sites[i]) + 1
		}
		c.SetVar(v, x)
	}
	return nil
}

type accept struct {
	holes []int
	price int
}

func (r *accept) Play(c *kernel.Ctx, p int, _ kernel.Move) error {
	for _, v := range r.holes {
		s := c.Var(v) - 1
		if s < 0 {
			continue
		}
		if s >= c.Def.Layout.Sites {
			return kernel.Failf("the offer names %d, which is not a site", s+1)
		}
		c.SetOwner(s, p)
		if err := c.Pay(p, s, r.price); err != nil {
			return err
		}
	}
	for _, v := range r.holes {
		c.SetVar(v, 0)
	}
	c.SetToMove(p)
	return nil
}

type decline struct {
	holes, declined []int
}

func (r *decline) Play(c *kernel.Ctx, p int, _ kernel.Move) error {
	if r.declined != nil {
		c.SetVar(r.declined[p-1], 1)
	}
	for _, v := range r.holes {
		c.SetVar(v, 0)
	}
	c.SetToMove(p)
	return nil
}
