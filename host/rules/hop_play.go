package rules

import "github.com/matombo/matombo/host/kernel"

// hop_play: the play of a piece's move along a line that captures what it
// passes over, and goes on jumping while it can: a step, a jump, the next
// jump of a chain of captures.

func init() {
	Register(Spec{Name: "hop_play", Group: "Placing and moving", Slot: SlotKindPlay, Mutates: true, Ends: true,
		Doc: "`(p, from, to)`, or `(p, to)` for the piece that waits in the middle of a capture (the pending decision holds its site): the pieces of other players on the sites between `from` and `to` along a line go to p's captured total (as `m.capture`), then the piece moves to `to` (as `m.move_piece`) and each part of `arrival` follows, `(p, to)` (a crowning). After a capture, unless an arrival acted and `arrival_ends` is set, when `again(p, to)` holds the move waits at `to` (the pending decision becomes its site, and p decides next); otherwise the pending decision becomes 0. A capture, and a move of a piece of `progress`, forget every earlier position (as `m.irreversible`). Then `after(p, n)` for each part of `after`, until the game ends: n is the counters captured, or 1 for a move of a piece of `progress` that captured none",
		Fields: []Field{
			{Name: "pending", Type: FieldVar, Required: true, Doc: "the variable of the pending decision: the site (from 1) of a piece that must jump again, 0 otherwise"},
			{Name: "again", Type: FieldPart, Slot: SlotSiteTest, Doc: "after a capture, whether the piece goes on from the site it landed on (a `jumps_rule`); a capture is one jump without it"},
			{Name: "arrival", Type: FieldParts, Slot: SlotArrive, Max: 8, Doc: "what follows the piece's arrival (a `promote_rule`)"},
			{Name: "arrival_ends", Type: FieldBool, Doc: "an arrival that acted ends the move, even when the piece could jump again (a man crowned in the middle of a capture stops there)"},
			{Name: "progress", Type: FieldFilter, PerPlayer: true, Doc: "the pieces whose every move is progress, tested where the piece stood (a man, which never moves back)"},
			{Name: "after", Type: FieldParts, Slot: SlotAfter, Max: 8, Doc: "what follows each decision, `(p, n)`: a `quiet_rule`, the end of the game"},
		},
		New: func(a *Args) (any, error) {
			r := &hopPlay{pending: a.Var("pending"), again: tester(a.Part("again")), arrivalEnds: a.Bool("arrival_ends"), progress: a.Filters("progress")}
			for _, x := range a.Parts("arrival") {
				r.arrival = append(r.arrival, x.(Arriver))
			}
			for _, x := range a.Parts("after") {
				r.after = append(r.after, x.(Follower))
			}
			return r, nil
		}})
}

type hopPlay struct {
	pending     int
	again       SiteTester
	arrival     []Arriver
	arrivalEnds bool
	progress    []*kernel.Filter // per player; nil for none
	after       []Follower
}

func (r *hopPlay) Play(c *kernel.Ctx, p int, m kernel.Move) error {
	var from, to int
	switch m.N {
	case 1:
		w, at := c.Pending(r.pending)
		if w != kernel.WaitingAt {
			return kernel.Failf("hop_play: a move of kind %s names only the site landed on, but no piece waits in the middle of a capture", c.Def.Kinds[m.Kind].Name)
		}
		from, to = at, int(m.Sites[0])
	case 2:
		from, to = int(m.Sites[0]), int(m.Sites[1])
	default:
		return kernel.Failf("hop_play: a move of kind %s names %d sites; it takes the site moved from and the site moved to, or the site landed on", c.Def.Kinds[m.Kind].Name, m.N)
	}
	progress := false
	if r.progress != nil {
		f := r.progress[p-1]
		progress = f.Matches(c.S.Cells, &c.Def.Layout, p, int32(from))
	}
	n, err := c.CaptureBetween(p, from, to)
	if err != nil {
		return err
	}
	if err := c.MovePiece(from, to); err != nil {
		return err
	}
	if n > 0 || progress {
		c.Irreversible = true
	}
	acted := false
	for _, t := range r.arrival {
		if c.S.Result.Over {
			return nil
		}
		ok, err := t.Arrive(c, p, to)
		if err != nil {
			return err
		}
		acted = acted || ok
	}
	goesOn := false
	if n > 0 && r.again != nil && !(acted && r.arrivalEnds) && !c.S.Result.Over {
		if goesOn, err = r.again.TestSite(c, p, to); err != nil {
			return err
		}
	}
	if goesOn {
		c.WaitAt(r.pending, to, p)
	} else {
		c.Done(r.pending)
	}
	if n == 0 && progress {
		n = 1
	}
	for _, f := range r.after {
		if c.S.Result.Over {
			break
		}
		if err := f.After(c, p, n); err != nil {
			return err
		}
	}
	return nil
}
