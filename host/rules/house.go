package rules

import (
	"github.com/matombo/matombo/host/kernel"
)

// A house: a site of each player's that has a role of its own (a relay
// ending there stops, or waits for the owner's choice) while its owner
// still owns it and it holds enough counters, and that its owner loses
// for good the first time it is emptied (taken up to sow, or captured).

func init() {
	Register(Spec{Name: "house_rule", Group: "Relays and decisions", Slot: SlotCond,
		Doc: "whether p's house plays its part: p still owns it (p's variable of `owns` is 1) and it holds at least `min` counters. The owner loses a house the first time it is emptied: a `house_lap_rule` sets the variable to 0 when a lap takes the house up or a capture takes it, a script when a move starts from it",
		Fields: []Field{
			{Name: "sites", Type: FieldSite, PerPlayer: true, Required: true, Doc: "each player's house"},
			{Name: "owns", Type: FieldVar, PerPlayer: true, Required: true, Doc: "each player's variable: 1 while the player owns their house, 0 once it was emptied"},
			{Name: "min", Type: FieldInt, Min: 1, Max: kernel.MaxCount, Default: 1, Doc: "the counters the house must hold to play its part"},
		},
		New: func(a *Args) (any, error) {
			r := &house{sites: a.Sites("sites"), owns: a.Ints("owns"), min: int32(a.Int("min"))}
			for p, s := range r.sites {
				for q := range p {
					if r.sites[q] == s {
						return nil, a.Errorf("players %d and %d cannot share the house %s", q+1, p+1, a.Def.Board.SiteName(s))
					}
				}
			}
			return r, nil
		}})
	Register(Spec{Name: "house_lap_rule", Group: "Relays and decisions", Slot: SlotLap, Mutates: true,
		Doc: "the end of a lap (a relay's `lap`) where houses are kept (a `house_rule`): a lap that ends in an empty site ends the relay; otherwise `lap` is heard first (a capture) and what it says goes, a house it has the relay take up or capture being lost. Else, with `stops`, a lap ending in p's house while it plays its part (`house(p)`) ends the relay there, and with `pending` that variable becomes the lap's direction (its place in p's `tracks`, from 1), a decision waiting in the house; a lap ending on the site the variable `stop_at` holds (from 1) ends it too. Otherwise the relay goes on from the site, a house taken up so being lost",
		Fields: []Field{
			{Name: "house", Type: FieldPart, Slot: SlotCond, Required: true, Doc: "the houses (a `house_rule`)"},
			{Name: "lap", Type: FieldPart, Slot: SlotLap, Doc: "heard first, at a lap that ended on an occupied site (a `capture_sow_rule`)"},
			{Name: "stops", Type: FieldBool, Doc: "a lap ending in p's house while it plays its part ends the relay there"},
			{Name: "pending", Type: FieldVar, Doc: "with `stops`: the variable that becomes the direction of the lap that stopped in the house (from 1)"},
			{Name: "tracks", Type: FieldTracks, PerPlayer: true, Doc: "with `pending`: the tracks of p's directions, in the order of their numbers"},
			{Name: "stop_at", Type: FieldVar, Doc: "the variable holding a site (from 1; 0 for none) where a lap ending on an occupied site ends the relay"},
		},
		New: newHouseLap})
}

// ---- house_rule ----

type house struct {
	sites []int // per player
	owns  []int // per player: the variable, 1 while owned
	min   int32
}

// Holds reports whether p's house plays its part.
func (r *house) Holds(c *kernel.Ctx, p int) (bool, error) { return r.plays(c, p), nil }

// plays reports whether p owns their house and it holds at least min.
func (r *house) plays(c *kernel.Ctx, p int) bool {
	return c.Var(r.owns[p-1]) == 1 && c.S.Cells[r.sites[p-1]] >= r.min
}

// lose marks the house on site s, if s is one, as lost to its owner.
func (r *house) lose(c *kernel.Ctx, s int) {
	for p, h := range r.sites {
		if h == s {
			c.SetVar(r.owns[p], 0)
		}
	}
}

// loseEmptied marks every empty house as lost.
func (r *house) loseEmptied(c *kernel.Ctx) {
	for p, h := range r.sites {
		if c.S.Cells[h] == 0 {
			c.SetVar(r.owns[p], 0)
		}
	}
}

// ---- house_lap_rule ----

type houseLap struct {
	house   *house
	lap     LapRule
	stops   bool
	pending int               // -1: none
	dirs    [][]*kernel.Track // per player, with pending
	stopAt  int               // -1: none
}

func newHouseLap(a *Args) (any, error) {
	h, ok := a.Part("house").(*house)
	if !ok {
		return nil, a.Errorf("house must be a house_rule")
	}
	r := &houseLap{house: h, stops: a.Bool("stops"), pending: a.Var("pending"), dirs: a.TrackLists("tracks"), stopAt: a.Var("stop_at")}
	r.lap, _ = a.Part("lap").(LapRule)
	if a.Has("lap") && r.lap == nil {
		return nil, a.Errorf("lap must be a part of the lap slot")
	}
	switch {
	case r.pending >= 0 && !r.stops:
		return nil, a.Errorf("pending needs stops (the stop in the house it records)")
	case r.pending >= 0 && r.dirs == nil:
		return nil, a.Errorf("pending needs tracks (the directions it numbers)")
	}
	return r, nil
}

func (r *houseLap) Lap(c *kernel.Ctx, p, last int, t *kernel.Track, laps int) (kernel.LapEnd, error) {
	if c.S.Cells[last] <= 1 { // the lap ended in an empty site
		return kernel.LapEnd{}, nil
	}
	if r.lap != nil {
		end, err := r.lap.Lap(c, p, last, t, laps)
		if err != nil {
			return end, err
		}
		switch end.Act {
		case kernel.LapResow: // the relay takes up From next
			r.house.lose(c, end.From)
			return end, nil
		case kernel.LapRelay:
			r.house.lose(c, last)
			return end, nil
		case kernel.LapEndHere: // a capture, say, took a house
			r.house.loseEmptied(c)
			return end, nil
		}
	}
	if r.stops && last == r.house.sites[p-1] && r.house.plays(c, p) {
		if r.pending >= 0 {
			c.SetVar(r.pending, r.direction(p, t))
		}
		return kernel.LapEnd{Act: kernel.LapEndHere}, nil
	}
	if r.stopAt >= 0 && c.Var(r.stopAt) == last+1 {
		return kernel.LapEnd{Act: kernel.LapEndHere}, nil
	}
	r.house.lose(c, last) // the relay takes it up next
	return kernel.LapEnd{}, nil
}

// direction is the number (from 1) of t among p's tracks, 1 when it is
// none of them.
func (r *houseLap) direction(p int, t *kernel.Track) int {
	for d, x := range r.dirs[p-1] {
		if x == t {
			return d + 1
		}
	}
	return 1
}
