package rules

import "github.com/matombo/matombo/host/kernel"

// hop_play: the play of a piece's move along a line that captures what it
// passes over, and goes on jumping while it can: a step, a jump, the next
// jump of a chain of captures.

func init() {
	Register(Spec{Name: "hop_play", Group: "Placing and moving", Slot: SlotKindPlay, Mutates: true, Ends: true,
		Doc: "`(p, from, to)`, or `(p, to)` for the piece that waits in the middle of a capture (the pending decision holds its site): the pieces of other players on the sites between `from` and `to` along a line go to p's captured total (as `m.capture`; where two lines join `from` and `to`, along the first whose sites between hold one piece, another player's: the one a jump passed over), then the piece moves to `to` (as `m.move_piece`) and each part of `arrival` follows, `(p, to)` (a crowning). After a capture, unless an arrival acted and `arrival_ends` is set, when `again(p, to)` holds the move waits at `to` (the pending decision becomes its site, and p decides next); otherwise the pending decision becomes 0. A capture, and a move of a piece of `progress`, forget every earlier position (as `m.irreversible`). Then `after(p, n)` for each part of `after`, until the game ends: n is the counters captured, or 1 for a move of a piece of `progress` that captured none. A move naming no site, `(p)` (a `jumps_rule`'s `stop`), ends the capture of the piece that waits where it stands: the pending decision becomes 0, the pieces of `taken` come off, and `arrival` (with `arrival_last`) and `after` follow as at the end of any move",
		Fields: []Field{
			{Name: "pending", Type: FieldVar, Required: true, Doc: "the variable of the pending decision: the site (from 1) of a piece that must jump again, 0 otherwise"},
			{Name: "again", Type: FieldPart, Slot: SlotSiteTest, Doc: "after a capture, whether the piece goes on from the site it landed on (a `jumps_rule`); a capture is one jump without it"},
			{Name: "arrival", Type: FieldParts, Slot: SlotArrive, Max: 8, Doc: "what follows the piece's arrival (a `promote_rule`)"},
			{Name: "arrival_ends", Type: FieldBool, Doc: "an arrival that acted ends the move, even when the piece could jump again (a man crowned in the middle of a capture stops there)"},
			{Name: "progress", Type: FieldFilter, PerPlayer: true, Doc: "the pieces whose every move is progress, tested where the piece stood (a man, which never moves back)"},
			{Name: "after", Type: FieldParts, Slot: SlotAfter, Max: 8, Doc: "what follows each decision, `(p, n)`: a `quiet_rule`, the end of the game"},
			{Name: "taken", Type: FieldVars, Max: 64, Doc: "the variables that hold the sites (from 1) of the pieces jumped so far in the move: with them a piece jumped stays on the board, its site in the first variable that holds 0, until the move ends; then the pieces jumped go to p's captured total together, in the order jumped, the variables become 0, and only then do the parts of `after` follow, once for the whole move, n the counters captured in it"},
			{Name: "arrival_last", Type: FieldBool, Doc: "the parts of `arrival` follow only where the move ends, after the pieces jumped come off (a man crowned only where its capture ends)"},
		},
		New: func(a *Args) (any, error) {
			r := &hopPlay{pending: a.Var("pending"), again: tester(a.Part("again")), arrivalEnds: a.Bool("arrival_ends"), progress: a.Filters("progress"),
				taken: a.Ints("taken"), arrivalLast: a.Bool("arrival_last")}
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
	taken       []int // the variables of the pieces jumped so far; nil: captured at once
	arrivalLast bool
}

func (r *hopPlay) Play(c *kernel.Ctx, p int, m kernel.Move) error {
	var from, to int
	switch m.N {
	case 0:
		w, at := c.Pending(r.pending)
		if w != kernel.WaitingAt {
			return kernel.Failf("hop_play: a move of kind %s names no site, which ends a capture, but no piece waits in the middle of one", c.Def.Kinds[m.Kind].Name)
		}
		return r.end(c, p, at, 0, false)
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
	// The jumped pieces are marked before the piece moves (a mark can
	// refuse the move), and taken after it, so the effects read in the
	// order a player sees the move made.
	var n int
	var err error
	jumped := false
	if r.taken != nil {
		if jumped, err = r.mark(c, p, from, to); err != nil {
			return err
		}
	}
	if err := c.MovePiece(from, to); err != nil {
		return err
	}
	if r.taken == nil {
		if n, err = c.CaptureBetween(p, from, to); err != nil {
			return err
		}
	}
	if n > 0 || jumped || progress {
		c.Irreversible = true
	}
	acted := false
	if !r.arrivalLast {
		if acted, err = r.arrive(c, p, to); err != nil {
			return err
		}
	}
	goesOn := false
	if (n > 0 || jumped) && r.again != nil && !(acted && r.arrivalEnds) && !c.S.Result.Over {
		if goesOn, err = r.again.TestSite(c, p, to); err != nil {
			return err
		}
	}
	if !goesOn {
		return r.end(c, p, to, n, progress)
	}
	c.WaitAt(r.pending, to, p)
	if r.taken != nil {
		return nil // the move goes on: what follows it waits for its end
	}
	return followAll(c, r.after, p, n) // n > 0: a capture goes on
}

// end ends the move of p's piece on site at, which captured n counters
// in this decision (a move of progress counts one when it captured
// none): nothing is pending any more, the pieces jumped come off, then
// the arrivals that wait for the end and the parts of after.
func (r *hopPlay) end(c *kernel.Ctx, p, at, n int, progress bool) error {
	c.Done(r.pending)
	if r.taken != nil {
		var err error
		if n, err = r.takeOff(c, p); err != nil {
			return err
		}
	}
	if n == 0 && progress {
		n = 1
	}
	if r.arrivalLast && !c.S.Result.Over {
		if _, err := r.arrive(c, p, at); err != nil {
			return err
		}
	}
	return followAll(c, r.after, p, n)
}

// arrive runs the parts of arrival on p's piece arrived at to, until the
// game ends; it reports whether one acted.
func (r *hopPlay) arrive(c *kernel.Ctx, p, to int) (bool, error) {
	acted := false
	for _, t := range r.arrival {
		if c.S.Result.Over {
			break
		}
		ok, err := t.Arrive(c, p, to)
		if err != nil {
			return acted, err
		}
		acted = acted || ok
	}
	return acted, nil
}

// mark keeps the site of the piece of another player between from and to
// in the first free variable of taken; it reports whether there was one.
func (r *hopPlay) mark(c *kernel.Ctx, p, from, to int) (bool, error) {
	if err := c.Charge(c.LineCost(from)); err != nil {
		return false, err
	}
	var buf [16]int32
	jumped := false
	for _, s := range c.JumpedOver(buf[:0], p, from, to) {
		if o := c.Owner(int(s)); o == 0 || o == p {
			continue
		}
		free := -1
		for _, v := range r.taken {
			x := c.Var(v)
			if x == int(s)+1 {
				return false, kernel.Failf("hop_play: the piece on %s was jumped already in this move", c.SiteName(int(s)))
			}
			if x == 0 && free < 0 {
				free = v
			}
		}
		if free < 0 {
			return false, kernel.Failf("hop_play: the move has jumped %d pieces, as many as the variables of taken hold", len(r.taken))
		}
		c.SetVar(free, int(s)+1)
		jumped = true
	}
	return jumped, nil
}

// takeOff moves the pieces jumped in the move into p's captured total, in
// the order jumped, and clears the variables of taken; it returns the
// counters captured.
func (r *hopPlay) takeOff(c *kernel.Ctx, p int) (int, error) {
	n := 0
	for _, v := range r.taken {
		x := c.Var(v)
		if x == 0 {
			continue
		}
		c.SetVar(v, 0)
		if c.Owner(x-1) == 0 {
			continue
		}
		k, err := c.Capture(x-1, p, -1)
		if err != nil {
			return n, err
		}
		n += k
	}
	return n, nil
}
