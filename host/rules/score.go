package rules

import "github.com/matombo/matombo/host/kernel"

// The players' scores from amounts: the rules table's score, run by the
// host instead of a script function (a solver asks for the final score of
// every game it finishes).

func init() {
	Register(Spec{Name: "score_rule", Group: "Conditions and amounts", Slot: SlotScore,
		Doc: "the rules table's `score`: each player's score is the amount `amount` asked for that player; once the game is over, the amount `over` (when given). " +
			"For example the counters each player captured, `m.score_rule { amount = m.captured_rule {} }`",
		Fields: []Field{
			{Name: "amount", Type: FieldPart, Slot: SlotAmount, Required: true, Doc: "a player's score, asked for each player"},
			{Name: "over", Type: FieldPart, Slot: SlotAmount, Doc: "a player's score once the game is over, instead of `amount`"},
		},
		New: func(a *Args) (any, error) {
			r := &score{amount: a.Part("amount").(Amount)}
			r.over = r.amount
			if a.Has("over") {
				r.over = a.Part("over").(Amount)
			}
			return r, nil
		}})
}

type score struct{ amount, over Amount }

func (r *score) Score(c *kernel.Ctx, over bool, dst []int) ([]int, error) {
	a := r.amount
	if over {
		a = r.over
	}
	for p := 1; p <= c.Def.Players; p++ {
		v, err := a.Value(c, p)
		if err != nil {
			return dst, err
		}
		if v < -kernel.MaxCount || v > kernel.MaxCount {
			return dst, kernel.Failf("the score of player %d is %d (at most %d either way)", p, v, kernel.MaxCount)
		}
		dst = append(dst, v)
	}
	return dst, nil
}
