package rules

import "github.com/matombo/matombo/host/kernel"

// no_return_rule: a piece that broke a line and made one may not go
// straight back on its player's next move if that would make a line again
// (a rule against a line remade at once by moving back and forth).

func init() {
	Register(Spec{Name: "no_return_rule", Group: "Placing and moving", Slot: SlotPlay, Mutates: true,
		Doc: "plays a move with `play`; a move `(from, to)` by p that broke a line (`line(p, from)` held before it) and made one (`line(p, to)` holds after it) bars its way back: the variables `from` and `to` of p become `to` and `from` (sites from 1), and 0 after any other move of two sites. As a move test (`except_rule`'s `except`), `(p, kind, a, b)` holds for the barred move back when p's piece is on `a`, `b` is empty and the move would make a line again (tried on a copy)",
		Fields: []Field{
			{Name: "play", Type: FieldPart, Slot: SlotPlay, Required: true, Doc: "plays the moves"},
			{Name: "line", Type: FieldPart, Slot: SlotSiteTest, Required: true, Doc: "whether p has a line through a site (a `line_rule`)"},
			{Name: "from", Type: FieldVar, PerPlayer: true, Required: true, Doc: "the variable of the site a player's barred move starts from (0: none)"},
			{Name: "to", Type: FieldVar, PerPlayer: true, Required: true, Doc: "the variable of the site it goes to"},
		},
		New: func(a *Args) (any, error) {
			return &noReturn{play: a.Part("play").(Player), line: a.Part("line").(SiteTester), from: a.Ints("from"), to: a.Ints("to")}, nil
		}})
}

type noReturn struct {
	play     Player
	line     SiteTester
	from, to []int // per player: the variables of the barred move
}

func (r *noReturn) Play(c *kernel.Ctx, p int, m kernel.Move) error {
	if m.N != 2 {
		return r.play.Play(c, p, m)
	}
	from, to := int(m.Sites[0]), int(m.Sites[1])
	broke, err := r.line.TestSite(c, p, from)
	if err != nil {
		return err
	}
	if err := r.play.Play(c, p, m); err != nil {
		return err
	}
	made := false
	if broke {
		if made, err = r.line.TestSite(c, p, to); err != nil {
			return err
		}
	}
	bf, bt := 0, 0
	if made {
		bf, bt = to+1, from+1
	}
	c.SetVar(r.from[p-1], bf)
	c.SetVar(r.to[p-1], bt)
	return nil
}

// TestMove reports whether m is p's barred move back and would make a
// line again.
func (r *noReturn) TestMove(c *kernel.Ctx, p int, m kernel.Move) (bool, error) {
	bf := c.Var(r.from[p-1])
	if bf == 0 || m.N != 2 {
		return false, nil
	}
	bt := c.Var(r.to[p-1])
	sites := c.Def.Layout.Sites
	if bf < 1 || bf > sites || bt < 1 || bt > sites {
		return false, kernel.Failf("no_return_rule: the barred move's variables hold %d and %d, which are not sites", bf, bt)
	}
	from, to := bf-1, bt-1
	if int(m.Sites[0]) != from || int(m.Sites[1]) != to || c.Owner(from) != p || c.Count(to) != 0 {
		return false, nil
	}
	again := false
	err := c.Try(func() error {
		if err := c.MovePiece(from, to); err != nil {
			return err
		}
		var err error
		again, err = r.line.TestSite(c, p, to)
		return err
	})
	return again, err
}
