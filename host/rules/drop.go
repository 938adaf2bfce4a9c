package rules

import (
	"github.com/matombo/matombo/host/kernel"
)

// A move that puts a counter from the hand into a site and plays that
// site as the end of a lap: in a stage of a sowing game where every move
// starts with a counter from the hand, the counter put in captures (or
// stops, or relays) as a relay's last counter would.

func init() {
	Register(Spec{Name: "drop_relay_play", Group: "Relays and decisions", Slot: SlotKindPlay, Mutates: true,
		Doc: "`(p, s, d)`: one counter from p's hand goes into `s`, then the `lap` of `relay` (a `relay_rule` with `tracks` and `lap`) is asked about `s` as about the end of a lap of p's in the direction the move names with `d` (its `start` site, or else the first site sown), and the relay goes on as the lap says: a capture sown in and relayed, the sowing of `s` on, or nothing; with `sow_on`, `s` is sown on without asking. With `pending`, when that variable is not 0 after the relay (a decision waits), p moves next; with `irreversible` the move forgets every earlier position. Then `after(p, 0)` for each part of `after`, in order, until the game ends",
		Fields: []Field{
			{Name: "relay", Type: FieldPart, Slot: SlotRelay, Required: true, Doc: "the relay (a `relay_rule` with `tracks` and `lap`): its lap rule, lap tag and lap limit"},
			{Name: "start", Type: FieldSiteLists, Doc: "per player, a site for each direction of the relay's `tracks`: the site a move names for its direction (a `sowings_rule`'s `start`); without it a move names the first site sown"},
			{Name: "pending", Type: FieldVar, Doc: "the variable of a decision that waits: when it is not 0 after the relay, p moves next"},
			{Name: "irreversible", Type: FieldBool, Doc: "the move forgets every earlier position (the hand only shrinks)"},
			{Name: "after", Type: FieldParts, Slot: SlotAfter, Max: 8, Doc: "what follows the move: the end of the game"},
			{Name: "drop", Type: FieldInt, Min: 0, Max: 1, Default: 1, Doc: "the counters from the hand put into `s`: 1, or 0 (with `sow_on`: a sowing of `s` as it is, a relay move)"},
			{Name: "clear", Type: FieldVars, Max: 64, Doc: "the variables that become 0 after the relay"},
			{Name: "sow_on", Type: FieldBool, Doc: "`s` is always taken up and sown on, its lap not asked (a move that sows the site it drops into)"},
			{Name: "house", Type: FieldPart, Slot: SlotCond, Doc: "with `sow_on`: the houses (a `house_rule`); a house taken up so is lost"},
		},
		New: newDropRelay})
	Register(Spec{Name: "if_play", Group: "Turns", Slot: SlotKindPlay, Mutates: true, Ends: true,
		Doc: "`(p, sites...)`: a move played by `play` when `when(p)` holds (or the move test `test(p, kind, sites...)`), otherwise by `otherwise` (a stage of the game whose moves of one kind play another way; a move that captures)",
		Fields: []Field{
			{Name: "when", Type: FieldPart, Slot: SlotCond, Doc: "the condition"},
			{Name: "test", Type: FieldPart, Slot: SlotMoveTest, Doc: "or: the move test"},
			{Name: "play", Type: FieldPart, Slot: SlotKindPlay, Required: true, Doc: "plays the move when it holds"},
			{Name: "otherwise", Type: FieldPart, Slot: SlotKindPlay, Required: true, Doc: "plays it when it does not"},
		},
		New: func(a *Args) (any, error) {
			if a.Has("when") == a.Has("test") {
				return nil, a.Errorf("give when (a condition) or test (a move test), not both")
			}
			r := &ifPlay{play: a.Part("play").(Player), otherwise: a.Part("otherwise").(Player)}
			r.when, _ = a.Part("when").(Condition)
			r.test, _ = a.Part("test").(MoveTester)
			return r, nil
		}})
}

type dropRelay struct {
	relay        *relay
	start        [][]int // per player, per direction; nil: the first site sown
	pending      int     // -1: none
	irreversible bool
	after        []Follower
	sowOn        bool
	house        *house // with sowOn; nil: none
	drop         int    // counters from the hand: 1 or 0
	clear        []int  // variables set to 0 after the relay
}

func newDropRelay(a *Args) (any, error) {
	rl, ok := a.Part("relay").(*relay)
	if !ok || rl.lap == nil {
		return nil, a.Errorf("relay must be a relay_rule with a lap (the rule asked about the site the counter goes into)")
	}
	r := &dropRelay{relay: rl, start: a.SiteLists("start"), pending: a.Var("pending"), irreversible: a.Bool("irreversible"), sowOn: a.Bool("sow_on"),
		drop: a.Int("drop"), clear: a.Ints("clear")}
	if r.drop == 0 && !r.sowOn {
		return nil, a.Errorf("drop = 0 needs sow_on (the site sown as it is)")
	}
	if a.Has("house") {
		h, ok := a.Part("house").(*house)
		if !ok {
			return nil, a.Errorf("house must be a house_rule")
		}
		if !r.sowOn {
			return nil, a.Errorf("house needs sow_on (the house a move takes up is lost)")
		}
		r.house = h
	}
	for _, x := range a.Parts("after") {
		r.after = append(r.after, x.(Follower))
	}
	if r.start != nil {
		if len(r.start) != a.Def.Players {
			return nil, a.Errorf("start must list one list of sites per player (%d)", a.Def.Players)
		}
		for p, starts := range r.start {
			if len(starts) != len(rl.dirs[p]) {
				return nil, a.Errorf("start[%d] must name a site for each of player %d's %d directions", p+1, p+1, len(rl.dirs[p]))
			}
		}
	}
	return r, nil
}

// direction is the track of p's direction that move site named names.
func (r *dropRelay) direction(c *kernel.Ctx, p, at, named int) (*kernel.Track, error) {
	for d, t := range r.relay.dirs[p-1] {
		if r.start != nil && r.start[p-1][d] == named || r.start == nil && t.On(at) && t.Next(at) == named {
			if !t.On(at) {
				return nil, kernel.Failf("drop_relay_play: %s is not on track %s", c.SiteName(at), t.Name)
			}
			return t, nil
		}
	}
	return nil, kernel.Failf("drop_relay_play: %s names no direction of player %d from %s", c.SiteName(named), p, c.SiteName(at))
}

func (r *dropRelay) Play(c *kernel.Ctx, p int, m kernel.Move) error {
	if m.N != 2 {
		return kernel.Failf("drop_relay_play: a move names the site the counter goes into and its direction, 2 sites, not %d", m.N)
	}
	at := int(m.Sites[0])
	t, err := r.direction(c, p, at, int(m.Sites[1]))
	if err != nil {
		return err
	}
	if r.drop > 0 {
		h := int(c.S.Cells[c.Def.Layout.Hand+p-1])
		if h < 1 {
			return kernel.Failf("drop_relay_play: player %d has no counter in hand to put into %s", p, c.SiteName(at))
		}
		if err := c.SetHand(p, h-1); err != nil {
			return err
		}
		if _, err := c.Add(at, 1); err != nil {
			return err
		}
	}
	if r.irreversible {
		c.Irreversible = true
	}
	rl := r.relay
	how := kernel.RelayEmpty
	var end kernel.LapEnd
	if r.sowOn {
		if r.house != nil {
			r.house.lose(c, at)
		}
		end.Act = kernel.LapRelay
	} else if end, err = rl.lap.Lap(c, p, at, t, 0); err != nil {
		return err
	}
	switch {
	case end.Act == kernel.LapResow:
		_, how, _, err = c.RelayOn("drop_relay_play", end, rl.stop, rl.maxLaps, rl.lapTag, &rl.hook)
	case end.Act == kernel.LapRelay || end.Act == kernel.LapDefault && c.Count(at) > 1 && c.Def.Board.TagMask(at)&rl.stop == 0:
		_, how, _, err = rl.relayOn(c, t, at)
	}
	if err != nil {
		return err
	}
	if how == kernel.RelayLaps {
		return kernel.Failf("drop_relay_play: the move from %s went over %d laps; legal must not offer it", c.SiteName(at), rl.maxLaps)
	}
	for _, v := range r.clear {
		c.SetVar(v, 0)
	}
	if r.pending >= 0 && c.Var(r.pending) != 0 {
		c.SetToMove(p)
	}
	return followAll(c, r.after, p, 0)
}

// ---- if_play ----

type ifPlay struct {
	when            Condition
	test            MoveTester // or
	play, otherwise Player
}

func (r *ifPlay) Play(c *kernel.Ctx, p int, m kernel.Move) error {
	var ok bool
	var err error
	if r.test != nil {
		ok, err = r.test.TestMove(c, p, m)
	} else {
		ok, err = r.when.Holds(c, p)
	}
	if err != nil {
		return err
	}
	if ok {
		return r.play.Play(c, p, m)
	}
	return r.otherwise.Play(c, p, m)
}
