package rules

import "github.com/matombo/matombo/host/kernel"

// quiet_rule: a game drawn after so many decisions in a row that capture
// nothing, while a condition holds (a fifty-move rule, or a limit on the
// moves made while both players are down to a few pieces).

func init() {
	Register(Spec{Name: "quiet_rule", Group: "Turns", Slot: SlotAfter, Ends: true,
		Doc: "`(p, n)`, after a decision that captured n: when n > 0 or `when(p)` does not hold, the variable `count` becomes 0; otherwise it grows by one, and when it reaches `limit` the game ends with `result(reason)`",
		Fields: []Field{
			{Name: "count", Type: FieldVar, Required: true, Doc: "the variable that counts (best declared outside the position)"},
			{Name: "when", Type: FieldPart, Slot: SlotCond, Doc: "the decisions count only while this holds (always without it)"},
			{Name: "limit", Type: FieldInt, Min: 1, Max: kernel.MaxCount, Required: true, Doc: "the count that ends the game"},
			{Name: "reason", Type: FieldText, Required: true, Doc: "how the game ends"},
			{Name: "result", Type: FieldPart, Slot: SlotResult, Required: true, Doc: "ends the game: `result(reason)` (a `winner_rule`)"},
		},
		New: func(a *Args) (any, error) {
			r := &quiet{count: a.Var("count"), limit: a.Int("limit"), reason: a.Word("reason"), result: a.Part("result").(Resulter)}
			r.when, _ = a.Part("when").(Condition)
			return r, nil
		}})
}

type quiet struct {
	count  int
	when   Condition
	limit  int
	reason string
	result Resulter
}

func (r *quiet) After(c *kernel.Ctx, p, n int) error {
	counts := n <= 0
	if counts && r.when != nil {
		var err error
		if counts, err = r.when.Holds(c, p); err != nil {
			return err
		}
	}
	if !counts {
		c.SetVar(r.count, 0)
		return nil
	}
	k := c.Var(r.count) + 1
	c.SetVar(r.count, k)
	if k < r.limit {
		return nil
	}
	mover := c.Mover
	c.Mover = p
	err := r.result.Result(c, r.reason)
	c.Mover = mover
	return err
}
