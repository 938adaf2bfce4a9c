package rules

import (
	"github.com/matombo/matombo/host/kernel"
)

// Moves judged by playing them out on a copy of the state: moves a player
// must prefer when some exist (compulsory captures), and moves that must
// end.

func init() {
	Register(Spec{Name: "prefer_rule", Group: "Turns", Slot: SlotEmit,
		Doc: "the moves of `moves`; when some of them pass `when`, only those (a capture that must be taken when one is possible); then only those that pass `keep`",
		Fields: []Field{
			{Name: "moves", Type: FieldPart, Slot: SlotEmit, Required: true, Doc: "the moves"},
			{Name: "when", Type: FieldPart, Slot: SlotMoveTest, Required: true, Doc: "the moves preferred"},
			{Name: "keep", Type: FieldPart, Slot: SlotMoveTest, Doc: "the moves kept in the end"},
		},
		New: func(a *Args) (any, error) {
			r := &prefer{moves: a.Part("moves").(Emitter), when: a.Part("when").(MoveTester)}
			r.keep, _ = a.Part("keep").(MoveTester)
			return r, nil
		}})
	Register(Spec{Name: "ends_rule", Group: "Relays and decisions", Slot: SlotMoveTest,
		Doc: "whether a move's relay ends within the relay's lap limit, tried on a copy of the state (a relay whose laps capture and sow on cannot be bounded without playing it)",
		Fields: []Field{
			{Name: "relay", Type: FieldPart, Slot: SlotRelay, Required: true, Doc: "the relay of the move (a `relay_rule`)"},
		},
		New: func(a *Args) (any, error) {
			r := &ends{relay: a.Part("relay").(Relayer)}
			r.directed, _ = r.relay.(DirectedRelayer)
			return r, nil
		}})
	Register(Spec{Name: "any_move_rule", Group: "Relays and decisions", Slot: SlotMoveTest,
		Doc:    "whether some move test of the list holds for the move, asked in order until one does: a cheap test first (a `relay_ends_rule`), a costly one (a script's, an `ends_rule`) only for the moves it leaves",
		Fields: []Field{{Name: List, Type: FieldParts, Slot: SlotMoveTest, Required: true, Min: 1, Doc: "the move tests"}},
		New: func(a *Args) (any, error) {
			r := &anyMove{}
			for _, x := range a.Parts(List) {
				r.tests = append(r.tests, x.(MoveTester))
			}
			return r, nil
		}})
	Register(Spec{Name: "after_move_rule", Group: "Turns", Slot: SlotMoveTest,
		Doc: "whether `cond(p)` holds once the move is played with `play`, tried on a copy of the state: a move legal only for what it leaves (a sowing that must feed an opponent without counters, with `cond` a `not_rule` of the next player's `empty_rule`; in a `prefer_rule`'s `when` or `keep`)",
		Fields: []Field{
			{Name: "play", Type: FieldPart, Slot: SlotPlay, Required: true, Doc: "plays the move (the turn's `play`)"},
			{Name: "cond", Type: FieldPart, Slot: SlotCond, Required: true, Doc: "the condition asked of the mover after the move (`player = \"next\"` in it asks it of the opponent)"},
		},
		New: func(a *Args) (any, error) {
			return &afterMove{play: a.Part("play").(Player), cond: a.Part("cond").(Condition)}, nil
		}})
	Register(Spec{Name: "first_lap_rule", Group: "Relays and decisions", Slot: SlotMoveTest,
		Doc: "whether a move's first lap ends where `lap` acts (a lap that captures), tried on a copy of the counts: the first lap sows every counter of the site moved from, in the move's direction",
		Fields: []Field{
			{Name: "tracks", Type: FieldTracks, PerPlayer: true, Required: true, Doc: "the tracks of the directions"},
			{Name: "lap", Type: FieldPart, Slot: SlotLap, Required: true, Doc: "the rule of a lap's end"},
			{Name: "lap_tag", Type: FieldTag, Doc: "only laps ending on a site with this tag are asked"},
			{Name: "max", Type: FieldInt, Min: 1, Max: kernel.MaxCount, Doc: "the most counters a first lap may sow for `lap` to be asked: a longer first lap never acts"},
		},
		New: func(a *Args) (any, error) {
			return &firstLap{dirs: a.TrackLists("tracks"), lap: a.Part("lap").(LapRule), tag: a.Tag("lap_tag"), max: int32(a.Int("max"))}, nil
		}})
}

// ---- prefer_rule ----

type prefer struct {
	moves      Emitter
	when, keep MoveTester
}

func (r *prefer) Emit(c *kernel.Ctx, p int) (int, error) {
	before := len(c.S.Moves)
	if _, err := r.moves.Emit(c, p); err != nil {
		return 0, err
	}
	// The preferred moves go to the front, in their order; the list is
	// cut after them when there are any.
	list := c.S.Moves
	n := before
	for i := before; i < len(list); i++ {
		ok, err := r.when.TestMove(c, p, list[i])
		if err != nil {
			return 0, err
		}
		if ok {
			list[n], list[i] = list[i], list[n]
			n++
		}
	}
	if n > before {
		// Swaps kept the preferred in order but not the rest: only the
		// preferred stay.
		c.Keep(n)
	}
	if r.keep != nil {
		list = c.S.Moves
		k := before
		for i := before; i < len(list); i++ {
			ok, err := r.keep.TestMove(c, p, list[i])
			if err != nil {
				return 0, err
			}
			if ok {
				list[k] = list[i]
				k++
			}
		}
		c.Keep(k)
	}
	return len(c.S.Moves) - before, nil
}

// ---- ends_rule ----

type ends struct {
	relay    Relayer
	directed DirectedRelayer
}

// TestMove relays the move on a copy of the state: it ends unless it went
// over the lap limit.
func (r *ends) TestMove(c *kernel.Ctx, p int, m kernel.Move) (bool, error) {
	var how kernel.How
	err := c.Try(func() error {
		var err error
		if m.N >= 2 && r.directed != nil {
			_, how, _, err = r.directed.RelayToward(c, p, int(m.Sites[0]), int(m.Sites[1]))
		} else {
			_, how, _, err = r.relay.Relay(c, p, int(m.Sites[0]))
		}
		return err
	})
	return how != kernel.RelayLaps, err
}

// ---- after_move_rule ----

type afterMove struct {
	play Player
	cond Condition
}

func (r *afterMove) TestMove(c *kernel.Ctx, p int, m kernel.Move) (bool, error) {
	var holds bool
	err := c.Try(func() error {
		if err := r.play.Play(c, p, m); err != nil {
			return err
		}
		var err error
		holds, err = r.cond.Holds(c, p)
		return err
	})
	return holds, err
}

// ---- any_move_rule ----

type anyMove struct{ tests []MoveTester }

func (r *anyMove) TestMove(c *kernel.Ctx, p int, m kernel.Move) (bool, error) {
	for _, t := range r.tests {
		if ok, err := t.TestMove(c, p, m); ok || err != nil {
			return ok, err
		}
	}
	return false, nil
}

// ---- first_lap_rule ----

type firstLap struct {
	dirs [][]*kernel.Track
	lap  LapRule
	tag  uint64
	max  int32 // 0: no limit
}

func (r *firstLap) TestMove(c *kernel.Ctx, p int, m kernel.Move) (bool, error) {
	from := int(m.Sites[0])
	if r.max > 0 && c.S.Cells[from] > r.max {
		return false, nil
	}
	t := r.dirs[p-1][0]
	if m.N >= 2 {
		var err error
		if t, err = toward(c, r.dirs[p-1], from, int(m.Sites[1])); err != nil {
			return false, err
		}
	}
	acts := false
	err := c.Try(func() error {
		last, _, err := c.SowAll(t, from, kernel.OriginLap)
		if err != nil || r.tag != 0 && c.Def.Board.TagMask(last)&r.tag == 0 {
			return err
		}
		end, err := r.lap.Lap(c, p, last, t, 1)
		acts = end.Act != kernel.LapDefault
		return err
	})
	return acts, err
}
