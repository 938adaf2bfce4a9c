package rules

import "github.com/matombo/matombo/host/kernel"

// again_rule: a piece that arrives where a test holds (a mill) gives its
// player another decision, which a variable names (a removal pending).

func init() {
	Register(Spec{Name: "again_rule", Group: "Placing and moving", Slot: SlotArrive, Mutates: true,
		Doc: "after p's piece arrived on `s`: when `when(p, s)` holds and a site of `need` matches (without `need`, always), the variable `set` becomes `value` and p decides again (as `m.set_to_move(p)`): a mill that makes its player remove a piece. Returns whether it did",
		Fields: []Field{
			{Name: "when", Type: FieldPart, Slot: SlotSiteTest, Required: true, Doc: "the test of the site the piece arrived on (a `line_rule`)"},
			{Name: "need", Type: FieldFilter, PerPlayer: true, Doc: "a site of this filter must match (the opponent's pieces, for a removal)"},
			{Name: "set", Type: FieldVar, Required: true, Doc: "the variable that names the decision"},
			{Name: "value", Type: FieldInt, Min: -kernel.MaxCount, Max: kernel.MaxCount, Default: 1, Doc: "its value while the decision is pending"},
		},
		New: func(a *Args) (any, error) {
			return &again{when: a.Part("when").(SiteTester), need: a.Filters("need"), set: a.Var("set"), value: a.Int("value")}, nil
		}})
}

type again struct {
	when  SiteTester
	need  []*kernel.Filter // per player; nil for none
	set   int
	value int
}

func (r *again) Arrive(c *kernel.Ctx, p, at int) (bool, error) {
	ok, err := r.when.TestSite(c, p, at)
	if !ok || err != nil {
		return false, err
	}
	if r.need != nil {
		f := r.need[p-1]
		if err := c.Charge(f.Cost()); err != nil {
			return false, err
		}
		if f.First(c.S.Cells, &c.Def.Layout, p) < 0 {
			return false, nil
		}
	}
	c.SetVar(r.set, r.value)
	c.SetToMove(p)
	return true, nil
}
