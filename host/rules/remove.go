package rules

import "github.com/matombo/matombo/host/kernel"

// remove_play: a decision that takes a piece off the board, into the
// remover's captured total, as after a line of three is made.

func init() {
	Register(Spec{Name: "remove_play", Group: "Placing and moving", Slot: SlotKindPlay, Mutates: true,
		Doc: "`(p, s)`: the counters on `s` go to p's captured total (as `m.capture(s, p)`), the variables of `clear` become 0, then `after(p, n)` for each part of `after` in order, n the counters taken, until the game ends",
		Fields: []Field{
			{Name: "clear", Type: FieldVars, Max: 64, Doc: "the variables that become 0 (the pending decision)"},
			{Name: "after", Type: FieldParts, Slot: SlotAfter, Max: 8, Doc: "what follows a removal: the end of the game, a count"},
		},
		New: func(a *Args) (any, error) {
			r := &remove{clear: a.Ints("clear")}
			for _, x := range a.Parts("after") {
				r.after = append(r.after, x.(Follower))
			}
			return r, nil
		}})
}

type remove struct {
	clear []int
	after []Follower
}

func (r *remove) Play(c *kernel.Ctx, p int, m kernel.Move) error {
	if m.N < 1 {
		return kernel.Failf("remove_play: a move of kind %s names no site to remove from", c.Def.Kinds[m.Kind].Name)
	}
	n, err := c.Capture(int(m.Sites[0]), p, -1)
	if err != nil {
		return err
	}
	for _, v := range r.clear {
		c.SetVar(v, 0)
	}
	return followAll(c, r.after, p, n)
}
