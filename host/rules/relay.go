package rules

import (
	"github.com/matombo/matombo/host/kernel"
)

// The parts of relay sowings whose moves pause for decisions: a relay
// that stops at an occupied site with a stop tag, where the mover chooses
// to continue or stop; a capture after a sowing that ends in an empty
// site; and bonus captures of sites the mover chooses, one decision each.
//
// A decision within a turn is kept in a script variable, the pending
// decision (see kernel.Ctx.Pending): 0 when a move starts, a site (from
// 1) while a sowing waits at that site, -k while the mover still makes k
// choices.

var relayFields = []Field{
	{Name: "track", Type: FieldTrack, PerPlayer: true, Doc: "the looping track sown along"},
	{Name: "tracks", Type: FieldTracks, PerPlayer: true, Doc: "or: the looping tracks of the directions a player may sow in; a move names the first site it sows to choose one (`b3-b4`), a part given only the site sows along the first"},
	{Name: "stop", Type: FieldTag, Doc: "the tag of the sites where an occupied lap end stops the sowing"},
	{Name: "max_laps", Type: FieldInt, Min: 1, Max: 1 << 30, Default: 1000, Doc: "the most laps a sowing may make"},
	{Name: "skip_origin", Type: FieldBool, Doc: "a lap never drops into the site it picked up from, however many times it goes round (as `sow_rule`'s); not with `lap`"},
	{Name: "lap", Type: FieldPart, Slot: SlotLap, Doc: "hears the end of every lap (of those ending on a site tagged `lap_tag`, when given) and says how the sowing goes on: a capture in the middle of a move"},
	{Name: "lap_tag", Type: FieldTag, Doc: "with `lap`: only the laps ending on a site with this tag are heard"},
}

func init() {
	Register(Spec{Name: "relay_rule", Group: "Relays and decisions", Slot: SlotRelay, Mutates: true,
		Doc:    "sows every counter of `from` along p's track and relays, as `matombo.relay`: while the last counter falls into an occupied site without the `stop` tag, its counters are sown on; returns the last site and how the sowing ended (`\"empty\"`, `\"stop\"`, `\"laps\"`, or `\"hook\"` when `lap` ended it). It fits the sow slot too (a `sowing_play`'s `sow`, a multi-lap sowing with stores and captures): there it returns the last site and whether the sowing ended in an empty site (`was_empty`, as `how == \"empty\"`)",
		Fields: relayFields,
		New: func(a *Args) (any, error) {
			r, err := newRelay(a)
			return &r, err
		}})
	Register(Spec{Name: "relay_ends_rule", Group: "Relays and decisions", Slot: SlotSiteTest,
		Doc: "with the table of a relay: whether the relay from `from` ends (in an empty site or at the stop tag) within `max_laps` laps, without changing the state, as `matombo.relay_ends`; with `drop`, that many counters put into `from` first. As a move test (`ends(p, kind, from, first)`, a `sowings_rule`'s `ends` with `tracks`) the relay goes in the direction the move names by the first site it sows",
		Fields: append(relayFields[:len(relayFields):len(relayFields)],
			Field{Name: "drop", Type: FieldInt, Min: 0, Max: kernel.MaxCount, Doc: "counters put into `from` before its relay is tried (a counter from the hand that starts the move)"}),
		New: func(a *Args) (any, error) {
			r, err := newRelay(a)
			return &relayEnds{relay: r, drop: int32(a.Int("drop"))}, err
		}})
	Register(Spec{Name: "relay_choices_rule", Group: "Relays and decisions", Slot: SlotChoices,
		Doc: "at a site where a sowing waits: a move of kind `continue` (when `ends(p, at)` holds, or without `ends`), then one of kind `stop`",
		Fields: []Field{
			{Name: "continue", Type: FieldKind, Required: true, Arity: 0, Doc: "the kind of a move that sows on"},
			{Name: "stop", Type: FieldKind, Required: true, Arity: 0, Doc: "the kind of a move that stops"},
			{Name: "ends", Type: FieldPart, Slot: SlotSiteTest, Doc: "whether the sowing on from the site ends"},
		},
		New: func(a *Args) (any, error) {
			return &relayChoices{cont: a.Kind("continue"), stop: a.Kind("stop"), ends: tester(a.Part("ends"))}, nil
		}})
	Register(Spec{Name: "bonus_rule", Group: "Relays and decisions", Slot: SlotAfter, Mutates: true,
		Doc: "`(p, left)`: with `left > 0` and a site of the filter `from` to take from, p makes `left` more choices, one decision each: the pending decision becomes `-left` and p decides next. Otherwise it becomes 0: the move is over",
		Fields: []Field{
			{Name: "pending", Type: FieldVar, Required: true, Doc: "the variable of the pending decision"},
			{Name: "from", Type: FieldFilter, PerPlayer: true, Required: true, Doc: "the sites p may take from"},
		},
		New: func(a *Args) (any, error) { return &bonus{pending: a.Var("pending"), from: a.Filters("from")}, nil }})
	Register(Spec{Name: "relay_play", Group: "Relays and decisions", Slot: SlotPlay, Mutates: true,
		Doc: "a move of kind `sow` relays with `relay(p, from)`; a relay that ends at a stop waits there (the pending decision becomes the site) for a move of kind `continue` (sow on from it) or `stop`; one that ends in an empty site is followed by `capture(p, last, true)`, and a capture by `bonus(p, bonus_count)`; a move of kind `take` captures the site chosen, then `bonus(p, left - 1)`. With `irreversible` a capture forgets every earlier position. Other kinds go to `other`",
		Fields: []Field{
			{Name: "pending", Type: FieldVar, Required: true, Doc: "the variable of the pending decision"},
			{Name: "sow", Type: FieldKind, Required: true, Arity: 1, Doc: "the kind of the sowings"},
			{Name: "continue", Type: FieldKind, Arity: 0, Doc: "the kind of a move that sows on from a stop"},
			{Name: "stop", Type: FieldKind, Arity: 0, Doc: "the kind of a move that stops there"},
			{Name: "take", Type: FieldKind, Arity: 1, Doc: "the kind of a bonus capture"},
			{Name: "relay", Type: FieldPart, Slot: SlotRelay, Required: true, Doc: "the relay"},
			{Name: "capture", Type: FieldPart, Slot: SlotCapture, Doc: "the capture after a relay that ends in an empty site"},
			{Name: "bonus", Type: FieldPart, Slot: SlotAfter, Doc: "the bonus captures after a capture (a `bonus_rule`)"},
			{Name: "bonus_count", Type: FieldInt, Min: 0, Max: kernel.MaxCount, Doc: "the bonus captures a capture brings"},
			{Name: "irreversible", Type: FieldBool, Doc: "a capture forgets every earlier position"},
			{Name: "other", Type: FieldPart, Slot: SlotPlay, Doc: "plays moves of other kinds"},
		},
		New: func(a *Args) (any, error) {
			r := &relayPlay{pending: a.Var("pending"), sow: a.Kind("sow"), cont: a.Kind("continue"), stop: a.Kind("stop"),
				take: a.Kind("take"), relay: a.Part("relay").(Relayer), capture: capturer(a.Part("capture")),
				bonus: follower(a.Part("bonus")), other: player(a.Part("other")), bonusCount: a.Int("bonus_count"),
				irreversible: a.Bool("irreversible")}
			if r.take >= 0 && r.bonus == nil {
				return nil, a.Errorf("take needs bonus (the rule that counts the captures left)")
			}
			return r, nil
		}})
}

// ---- relay_rule and relay_ends_rule ----

type relay struct {
	tracks  []*kernel.Track   // per player: the first direction
	dirs    [][]*kernel.Track // per player: every direction
	stop    uint64
	maxLaps int
	skip    bool // a lap skips the site it picked up from
	lap     LapRule
	lapTag  uint64
	hook    lapHook // lap as the kernel's relay hears it
}

// lapHook is a LapRule as kernel.RelayWith calls it, for the relay of
// c.Mover.
type lapHook struct{ rule LapRule }

func (h *lapHook) Lap(c *kernel.Ctx, last int, t *kernel.Track, laps int) (kernel.LapEnd, error) {
	return h.rule.Lap(c, c.Mover, last, t, laps)
}

func newRelay(a *Args) (relay, error) {
	r := relay{stop: a.Tag("stop"), maxLaps: a.Int("max_laps"), skip: a.Bool("skip_origin"), lapTag: a.Tag("lap_tag")}
	r.lap, _ = a.Part("lap").(LapRule)
	r.hook.rule = r.lap
	var err error
	if r.tracks, r.dirs, err = directions(a); err != nil {
		return r, err
	}
	for _, ts := range r.dirs {
		for _, t := range ts {
			if !t.Loop {
				return r, a.Errorf("track %s does not loop; a relay sows around a looping track", t.Name)
			}
		}
	}
	if r.lapTag != 0 && r.lap == nil {
		return r, a.Errorf("lap_tag needs lap (the rule that hears the laps)")
	}
	if r.skip && r.lap != nil {
		return r, a.Errorf("skip_origin cannot go with lap: a lap's hook may sow on from elsewhere")
	}
	return r, nil
}

func (r *relay) Relay(c *kernel.Ctx, p, from int) (int, kernel.How, int, error) {
	return r.relayOn(c, r.tracks[p-1], from)
}

// RelayToward relays along the direction whose track sows first into
// first.
func (r *relay) RelayToward(c *kernel.Ctx, p, from, first int) (int, kernel.How, int, error) {
	t, err := toward(c, r.dirs[p-1], from, first)
	if err != nil {
		return -1, 0, 0, err
	}
	return r.relayOn(c, t, from)
}

// Sow relays from from: the last site, and whether the sowing ended in
// an empty site.
func (r *relay) Sow(c *kernel.Ctx, p, from int) (int, bool, error) {
	last, how, _, err := r.Relay(c, p, from)
	return last, how == kernel.RelayEmpty, err
}

// SowToward is Sow in the direction of first.
func (r *relay) SowToward(c *kernel.Ctx, p, from, first int) (int, bool, error) {
	last, how, _, err := r.RelayToward(c, p, from, first)
	return last, how == kernel.RelayEmpty, err
}

func (r *relay) relayOn(c *kernel.Ctx, t *kernel.Track, from int) (int, kernel.How, int, error) {
	if r.lap != nil {
		return c.RelayWith("relay", t, from, r.stop, r.maxLaps, r.lapTag, &r.hook)
	}
	return c.Relay("relay", t, from, r.stop, r.maxLaps, r.skip)
}

// directions reads the fields track and tracks of a sowing part: the
// track of each player's first direction, and of every direction.
func directions(a *Args) ([]*kernel.Track, [][]*kernel.Track, error) {
	switch {
	case a.Has("track") && a.Has("tracks"):
		return nil, nil, a.Errorf("give track or tracks, not both")
	case a.Has("tracks"):
		dirs := a.TrackLists("tracks")
		first := make([]*kernel.Track, len(dirs))
		for p, ts := range dirs {
			first[p] = ts[0]
		}
		return first, dirs, nil
	case a.Has("track"):
		first := a.Tracks("track")
		dirs := make([][]*kernel.Track, len(first))
		for p, t := range first {
			dirs[p] = []*kernel.Track{t}
		}
		return first, dirs, nil
	}
	return nil, nil, a.Errorf("track is required (the track sown along, or tracks: one per direction)")
}

// toward returns the track of ts that sows from from into first next.
func toward(c *kernel.Ctx, ts []*kernel.Track, from, first int) (*kernel.Track, error) {
	for _, t := range ts {
		if t.On(from) && t.Next(from) == first {
			return t, nil
		}
	}
	return nil, kernel.Failf("no direction sows from %s into %s", c.SiteName(from), c.SiteName(first))
}

type relayEnds struct {
	relay
	drop int32 // counters put into the site first
}

func (r *relayEnds) TestSite(c *kernel.Ctx, p, from int) (bool, error) {
	b := c.BeginBatch()
	defer c.EndBatch()
	r.BeginSites(c, b, p)
	return r.TestInBatch(c, b, p, from)
}

// BeginSites settles every relay of p at once when the bound of
// RelayBounded holds, and shares one sowing's work among the rest.
func (r *relayEnds) BeginSites(c *kernel.Ctx, b *kernel.Batch, p int) {
	b.Settled = r.lap == nil && !r.skip && r.drop == 0 && c.RelayBounded(r.tracks[p-1], r.stop, r.maxLaps)
	b.Work = kernel.SowWork(c.Def.Layout.Sites)
}

func (r *relayEnds) TestInBatch(c *kernel.Ctx, b *kernel.Batch, p, from int) (bool, error) {
	return r.ends(c, r.tracks[p-1], from, b.Settled, &b.Work)
}

// ends tries the relay from `from` along t, the counters of drop put in
// first and taken out again.
func (r *relayEnds) ends(c *kernel.Ctx, t *kernel.Track, from int, bounded bool, work *int) (bool, error) {
	if r.drop == 0 || from < 0 || from >= c.Def.Layout.Sites {
		return c.RelayEnds("relay_ends", t, from, r.stop, r.maxLaps, r.skip, bounded, work)
	}
	cells := c.S.Cells
	if cells[from] > kernel.MaxCount-r.drop {
		return false, kernel.Failf("relay_ends: %s would hold more than %d counters", c.SiteName(from), kernel.MaxCount)
	}
	cells[from] += r.drop
	ok, err := c.RelayEnds("relay_ends", t, from, r.stop, r.maxLaps, r.skip, bounded, work)
	cells[from] -= r.drop
	return ok, err
}

// TestMove reports whether the relay of a move ends: from its first site,
// along the direction the move names by the first site it sows (with
// `tracks`; otherwise p's track).
func (r *relayEnds) TestMove(c *kernel.Ctx, p int, m kernel.Move) (bool, error) {
	from, t := int(m.Sites[0]), r.tracks[p-1]
	if m.N >= 2 {
		var err error
		if t, err = toward(c, r.dirs[p-1], from, int(m.Sites[1])); err != nil {
			return false, err
		}
	}
	bounded := r.lap == nil && !r.skip && r.drop == 0 && c.RelayBounded(t, r.stop, r.maxLaps)
	work := kernel.SowWork(c.Def.Layout.Sites)
	return r.ends(c, t, from, bounded, &work)
}

// ---- relay_choices_rule ----

type relayChoices struct {
	cont, stop int
	ends       SiteTester
}

func (r *relayChoices) EmitAt(c *kernel.Ctx, p, at int) (int, error) {
	n := 0
	if r.ends != nil {
		ok, err := r.ends.TestSite(c, p, at)
		if err != nil {
			return 0, err
		}
		if !ok {
			n = -1
		}
	}
	if n == 0 {
		if err := c.Push(kernel.Move{Kind: uint8(r.cont)}); err != nil {
			return 0, err
		}
	}
	return n + 2, c.Push(kernel.Move{Kind: uint8(r.stop)})
}

// ---- bonus_rule ----

type bonus struct {
	pending int
	from    []*kernel.Filter
}

func (r *bonus) After(c *kernel.Ctx, p, left int) error {
	if left > 0 {
		f := r.from[p-1]
		if err := c.Charge(f.Cost()); err != nil {
			return err
		}
		if f.First(c.S.Cells, &c.Def.Layout, c.Mover) >= 0 {
			if left > kernel.MaxCount {
				return kernel.Failf("%d bonus captures: too many", left)
			}
			c.WaitFor(r.pending, left, p)
			return nil
		}
	}
	c.Done(r.pending)
	return nil
}

// ---- relay_play ----

type relayPlay struct {
	pending               int
	sow, cont, stop, take int // -1: none
	relay                 Relayer
	capture               Capturer
	bonus                 Follower
	other                 Player
	bonusCount            int
	irreversible          bool
}

func (r *relayPlay) Play(c *kernel.Ctx, p int, m kernel.Move) error {
	switch int(m.Kind) {
	case r.sow:
		return r.sowFrom(c, p, int(m.Sites[0]))
	case r.cont:
		w, at := c.Pending(r.pending)
		if w != kernel.WaitingAt || at >= c.Def.Layout.Sites {
			return kernel.Failf("continue, but no sowing waits at a stop")
		}
		c.Done(r.pending)
		return r.sowFrom(c, p, at)
	case r.stop:
		c.Done(r.pending)
		return nil
	case r.take:
		_, k := c.Pending(r.pending)
		left := k - 1
		n, err := c.Capture(int(m.Sites[0]), p, -1)
		if err != nil {
			return err
		}
		r.captured(c, n)
		return r.bonus.After(c, p, left)
	}
	return playOther(c, r.other, p, m)
}

// captured notes a capture of n counters: with irreversible, no earlier
// position can come back.
func (r *relayPlay) captured(c *kernel.Ctx, n int) {
	if n > 0 && r.irreversible {
		c.Irreversible = true
	}
}

// sowFrom relays from from; a relay that ends in an empty site is followed
// by the capture (and the bonus after one), one that ends at a stop waits
// there for the mover's decision.
func (r *relayPlay) sowFrom(c *kernel.Ctx, p, from int) error {
	last, how, _, err := r.relay.Relay(c, p, from)
	if err != nil {
		return err
	}
	switch how {
	case kernel.RelayEmpty:
		if r.capture == nil {
			return nil
		}
		n, err := r.capture.Capture(c, p, last, true)
		r.captured(c, n)
		if err != nil || n <= 0 || r.bonus == nil {
			return err
		}
		return r.bonus.After(c, p, r.bonusCount)
	case kernel.RelayStop:
		c.WaitAt(r.pending, last, p)
		return nil
	case kernel.RelayHook:
		return nil
	}
	return kernel.Failf("the sowing from %s went over the lap limit; legal must not offer it", c.SiteName(from))
}
