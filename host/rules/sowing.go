package rules

import (
	"math/bits"

	"github.com/matombo/matombo/host/kernel"
)

// The parts of sowing games: a sowing, an extra turn, captures, the legal
// sowings, and the turns that compose them.

func init() {
	Register(Spec{Name: "sow_rule", Group: "Sowing", Slot: SlotSow, Mutates: true,
		Doc: "takes every counter of `from` and sows them one per site along p's track; with `skip_origin` never into `from` (as `sow_skip`), otherwise laps drop into it too (as `sow`); with `origin_first` the first counter goes back into `from`",
		Fields: []Field{
			{Name: "track", Type: FieldTrack, PerPlayer: true, Required: true, Doc: "the track sown along"},
			{Name: "skip_origin", Type: FieldBool, Doc: "never drop into the site sown from"},
			{Name: "origin_first", Type: FieldBool, Doc: "the first counter goes back into the site sown from and the rest follow it, a lone counter going on to the next site"},
		},
		New: newSow})
	Register(Spec{Name: "extra_turn_rule", Group: "Sowing", Slot: SlotSiteTest, Mutates: true,
		Doc: "when `last` is p's site (a store), p moves again",
		Fields: []Field{
			{Name: "sites", Type: FieldSite, PerPlayer: true, Required: true, Doc: "each player's site"},
		},
		New: func(a *Args) (any, error) { return &extraTurn{sites: a.Sites("sites")}, nil }})
	Register(Spec{Name: "sowings_rule", Group: "Sowing", Slot: SlotEmit,
		Doc: "emits a move of kind `kind` for each site p may sow from: the sites of the filter `from` that match, or those of p's list `sites` that hold counters, in that order. `feeding` keeps only the sowings that reach a site another player owns along the track; `ends` only those for which `ends(p, site)` is true (a `relay_ends_rule`); `none` emits one move of that kind (no sites) when there is no sowing (a pass). With `tracks` a move names its direction by the first site sown, or with `start` by the direction's start site, and a site of `toward` moves only in its direction",
		Fields: []Field{
			{Name: "kind", Type: FieldKind, Required: true, Arity: AnyArity, Doc: "the kind of the sowings: of one site, or of two with `tracks` (the site sown from and the first site sown)"},
			{Name: "from", Type: FieldFilter, PerPlayer: true, Doc: "the sites p may sow from"},
			{Name: "tracks", Type: FieldTracks, PerPlayer: true, Doc: "the tracks of the directions p may sow in: a move for each direction from each site, naming the first site sown"},
			{Name: "sites", Type: FieldSites, PerPlayer: true, Doc: "or: one list of sites per player"},
			{Name: "feeding", Type: FieldTrack, PerPlayer: true, Doc: "only sowings that reach another player's site along this track"},
			{Name: "ends", Type: FieldPart, Slot: SlotSiteTest, Or: SlotMoveTest, Doc: "only sowings for which `ends(p, site)` holds (or, a move test such as an `ends_rule`, `ends(p, kind, sites...)`)"},
			{Name: "none", Type: FieldKind, Arity: 0, Doc: "a move of this kind when there is no sowing"},
			{Name: "start", Type: FieldSiteLists, Doc: "with `tracks`: per player, a site for each direction (a `capture_sow_rule`'s `start`, an end hole where a capture is sown in); a move names its direction by that site instead of the first site sown (`b4xb1`)"},
			{Name: "toward", Type: FieldSiteLists, Doc: "with `tracks`: per direction, the sites that are sown (or sown in from) only in that direction, as a `capture_sow_rule`'s `toward`"},
			{Name: "toward_alone", Type: FieldFilter, PerPlayer: true, Doc: "with `toward`: a site keeps to its direction only while it is the one site of this filter that holds counters (a lone end hole sows towards the centre)"},
			{Name: "else_from", Type: FieldFilter, PerPlayer: true, Doc: "with `from`: the sites p may sow from when no site matches `from` (the back row, when the front row has no site to sow)"},
			{Name: "skip", Type: FieldVar, Doc: "the variable holding a site (from 1; 0 for none) that no move starts from (a site blocked for this move)"},
		},
		New: newSowings})
	Register(Spec{Name: "sowing_play", Group: "Sowing", Slot: SlotPlay, Mutates: true,
		Doc: "a move of kind `kind`: `last, was_empty = sow(p, from)` (a move of two sites sows from the first towards the second, with a `relay_rule` of `tracks`); unless `extra_turn(p, last)` is true, `n = capture(p, last, was_empty)`; if `n > 0`, with `irreversible` every earlier position is forgotten (`m.irreversible`) and `after_capture(p, n)` runs; then `after(p, n)` for each part of `after`, in order, until the game ends. A move of another kind is `other(p, kind, sites...)`. Only `sow` is required",
		Fields: []Field{
			{Name: "kind", Type: FieldKind, Required: true, Arity: AnyArity, Doc: "the kind of the sowings (the site sown from, and the first site sown when the player chooses a direction)"},
			{Name: "sow", Type: FieldPart, Slot: SlotSow, Required: true, Doc: "the sowing"},
			{Name: "extra_turn", Type: FieldPart, Slot: SlotSiteTest, Doc: "whether the mover moves again"},
			{Name: "capture", Type: FieldPart, Slot: SlotCapture, Doc: "the capture"},
			{Name: "irreversible", Type: FieldBool, Doc: "a capture forgets every earlier position"},
			{Name: "after_capture", Type: FieldPart, Slot: SlotAfter, Doc: "after a capture"},
			{Name: "after", Type: FieldParts, Slot: SlotAfter, Max: 8, Doc: "what follows every sowing, n the counters captured: the end of the game; one part, or a list run in order"},
			{Name: "other", Type: FieldPart, Slot: SlotPlay, Doc: "plays moves of other kinds"},
		},
		New: func(a *Args) (any, error) {
			r := &sowingPlay{kind: a.Kind("kind"), sow: a.Part("sow").(Sower), extra: tester(a.Part("extra_turn")),
				capture: capturer(a.Part("capture")), afterCapture: follower(a.Part("after_capture")),
				other: player(a.Part("other")), irreversible: a.Bool("irreversible")}
			for _, x := range a.Parts("after") {
				r.after = append(r.after, x.(Follower))
			}
			r.directed, _ = r.sow.(DirectedSower)
			k := &a.Def.Kinds[r.kind]
			switch {
			case k.Arity() == 2 && r.directed == nil:
				return nil, a.Errorf("kind %s names 2 sites; sow must sow in a direction (a relay_rule with tracks)", k.Name)
			case k.Arity() != 1 && k.Arity() != 2:
				return nil, a.Errorf("kind %s must take 1 site (the site sown from), or 2 with a direction", k.Name)
			}
			return r, nil
		}})
	Register(Spec{Name: "sowing_legal", Group: "Sowing", Slot: SlotEmit,
		Doc: "when the next player's `starving` filter holds no counter, `feeding(p)` (or nothing); otherwise `sowings(p)`",
		Fields: []Field{
			{Name: "sowings", Type: FieldPart, Slot: SlotEmit, Required: true, Doc: "the moves of a player who need not feed"},
			{Name: "starving", Type: FieldFilter, PerPlayer: true, Doc: "the sites that must not all be empty"},
			{Name: "feeding", Type: FieldPart, Slot: SlotEmit, Doc: "the moves when the next player starves"},
		},
		New: func(a *Args) (any, error) {
			r := &sowingLegal{sowings: a.Part("sowings").(Emitter), starving: a.Filters("starving"), feeding: emitter(a.Part("feeding"))}
			if r.starving == nil && r.feeding != nil {
				return nil, a.Errorf("feeding needs starving (whose sites must be fed)")
			}
			return r, nil
		}})
}

// The optional parts of a slot, nil when absent.
func tester(x any) SiteTester {
	t, _ := x.(SiteTester)
	return t
}

func capturer(x any) Capturer {
	t, _ := x.(Capturer)
	return t
}

func follower(x any) Follower {
	t, _ := x.(Follower)
	return t
}

func player(x any) Player {
	t, _ := x.(Player)
	return t
}

func emitter(x any) Emitter {
	t, _ := x.(Emitter)
	return t
}

func resulter(x any) Resulter {
	t, _ := x.(Resulter)
	return t
}

// ---- sow_rule ----

type sow struct {
	tracks []*kernel.Track // per player
	origin kernel.Origin
}

func newSow(a *Args) (any, error) {
	r := &sow{tracks: a.Tracks("track")}
	switch {
	case a.Bool("skip_origin") && a.Bool("origin_first"):
		return nil, a.Errorf("give skip_origin (never sow into the site sown from) or origin_first (sow into it first), not both")
	case a.Bool("skip_origin"):
		r.origin = kernel.OriginSkip
	case a.Bool("origin_first"):
		r.origin = kernel.OriginFirst
	}
	for _, t := range r.tracks {
		if r.origin == kernel.OriginSkip && t.Loop && len(t.Sites) < 2 {
			return nil, a.Errorf("track %s has no site to sow into but the origin", t.Name)
		}
	}
	return r, nil
}

func (r *sow) Sow(c *kernel.Ctx, p, from int) (int, bool, error) {
	return c.SowAll(r.tracks[p-1], from, r.origin)
}

// ---- extra_turn_rule ----

type extraTurn struct{ sites []int }

func (r *extraTurn) TestSite(c *kernel.Ctx, p, last int) (bool, error) {
	if last != r.sites[p-1] {
		return false, nil
	}
	c.SetToMove(p)
	return true, nil
}

// ---- sowings_rule ----

type sowings struct {
	kind     int
	dirs     [][]*kernel.Track // per player, with moves of two sites; nil for one
	start    [][]int           // per player, per direction: the site a move names; nil: the first site sown
	toward   []int             // per site: the only direction it moves in, -1 for any; nil for none
	alone    []*kernel.Filter  // per player, with toward: toward applies when its site is the filter's one occupied site
	from     []*kernel.Filter
	elseFrom []*kernel.Filter // per player: from, when from matches no site
	skip     int              // the variable of a site no move starts from; -1: none
	sites    [][]int32
	feeding  []*kernel.Track
	ends     SiteTester
	endsMove MoveTester // ends, when it tests the move
	none     int
}

func newSowings(a *Args) (any, error) {
	r := &sowings{kind: a.Kind("kind"), none: a.Kind("none"), feeding: a.Tracks("feeding"), dirs: a.TrackLists("tracks"),
		skip: a.Var("skip"), elseFrom: a.Filters("else_from"), alone: a.Filters("toward_alone")}
	switch x := a.Part("ends").(type) {
	case Hook: // a script function, called as a site test
		r.ends = x
	case MoveTester:
		// A part that tests both a site and a move is asked of the
		// move when the moves have directions.
		if st, ok := x.(SiteTester); ok && r.dirs == nil {
			r.ends = st
		} else {
			r.endsMove = x
		}
	case SiteTester:
		r.ends = x
	}
	switch {
	case r.alone != nil && !a.Has("toward"):
		return nil, a.Errorf("toward_alone needs toward (the directions it keeps sites to)")
	case r.elseFrom != nil && !a.Has("from"):
		return nil, a.Errorf("else_from needs from (the sites it stands in for)")
	}
	want := 1
	if r.dirs != nil {
		want = 2
	}
	if err := r.directionSites(a); err != nil {
		return nil, err
	}
	if k := &a.Def.Kinds[r.kind]; k.Arity() != want {
		return nil, a.Errorf("kind %s must take %s", k.Name, ArityText(want))
	}
	switch {
	case a.Has("from") && !a.Has("sites"):
		r.from = a.Filters("from")
	case a.Has("sites") && !a.Has("from"):
		for _, l := range a.SiteLists("sites") {
			var list []int32
			for _, i := range l {
				list = append(list, int32(i))
			}
			r.sites = append(r.sites, list)
		}
	default:
		return nil, a.Errorf("give either from (filters) or sites (lists of sites)")
	}
	return r, nil
}

// directionSites reads start and toward, which name and restrict the
// directions of tracks.
func (r *sowings) directionSites(a *Args) error {
	if (a.Has("start") || a.Has("toward")) && r.dirs == nil {
		return a.Errorf("start and toward need tracks (the directions they name)")
	}
	if a.Has("start") {
		var err error
		if r.start, err = directionStarts(a, r.dirs); err != nil {
			return err
		}
	}
	if a.Has("toward") {
		r.toward = towardTable(a)
	}
	return nil
}

func (r *sowings) Emit(c *kernel.Ctx, p int) (int, error) {
	s, l := c.S, &c.Def.Layout
	cells := s.Cells
	var cand []int32
	var f *kernel.Filter
	if r.from != nil {
		f = r.from[p-1]
		if r.elseFrom != nil && f.First(cells, &c.Def.Layout, c.Mover) < 0 {
			f = r.elseFrom[p-1]
		}
		cand = f.Cand()
	} else {
		cand = r.sites[p-1]
	}
	if err := c.Charge(len(cand)/4 + 1); err != nil {
		return 0, err
	}
	if len(s.Moves)+len(cand)+1 > kernel.MaxLegal {
		return 0, kernel.Failf("more than %d legal moves in one decision", kernel.MaxLegal)
	}
	if r.dirs != nil {
		return r.emitDirected(c, p, cand, f)
	}
	// A test that shares work across the sites (a relay's bound) is
	// prepared once for them all.
	batch, batched := r.ends.(SiteBatcher)
	var b *kernel.Batch
	if batched {
		b = c.BeginBatch()
		defer c.EndBatch()
		batch.BeginSites(c, b, p)
	}
	moves := s.Moves
	before := len(moves)
	m := kernel.Move{Kind: uint8(r.kind), N: 1}.WithGame(c.Def.Tag)
	t, owners := kernel.AnySite(), l.OwnersOf(cells) // any site with counters
	if f != nil {
		t = f.Tester(c.Mover)
	}
	// The candidates go by blocks of 64: a tight loop finds those passing
	// the filter's quick tests, then each is looked at. A script's test
	// may see the state between candidates, so with one each is tested
	// in its turn.
	_, script := r.ends.(Hook)
	skip := r.skipped(c)
	for len(cand) > 0 {
		block := cand[:min(len(cand), 64)]
		cand = cand[len(block):]
		hits := ^uint64(0) >> (64 - len(block))
		if !script {
			hits = t.Hits(cells, owners, block)
		}
		for ; hits != 0; hits &= hits - 1 {
			i := block[bits.TrailingZeros64(hits)]
			if script && !t.OK(cells, owners, i) || t.Rare && !f.MatchesOwner(cells, l, c.Mover, i) || int(i) == skip {
				continue
			}
			if r.feeding != nil && !c.Feeds(r.feeding[p-1], p, int(i)) {
				continue
			}
			if r.ends != nil {
				var ok bool
				var err error
				if batched {
					ok, err = batch.TestInBatch(c, b, p, int(i))
				} else {
					s.Moves = moves // a script's test sees the list so far
					ok, err = r.ends.TestSite(c, p, int(i))
					moves = s.Moves
				}
				if err != nil {
					return 0, err
				}
				if !ok {
					continue
				}
			}
			m.Sites[0] = uint16(i)
			moves = append(moves, m)
		}
	}
	if len(moves) == before && r.none >= 0 {
		moves = append(moves, kernel.Move{Kind: uint8(r.none)}.WithGame(c.Def.Tag))
	}
	s.Moves = moves
	return len(moves) - before, nil
}

// emitDirected emits a move (from, first site sown) for each site p may
// sow from and each direction.
func (r *sowings) emitDirected(c *kernel.Ctx, p int, cand []int32, f *kernel.Filter) (int, error) {
	s, l := c.S, &c.Def.Layout
	cells, owners := s.Cells, l.OwnersOf(s.Cells)
	t := kernel.AnySite()
	if f != nil {
		t = f.Tester(c.Mover)
	}
	before := len(s.Moves)
	m := kernel.Move{Kind: uint8(r.kind), N: 2}
	skip := r.skipped(c)
	for _, i := range cand {
		if !t.OK(cells, owners, i) || t.Rare && !f.MatchesOwner(cells, l, c.Mover, i) || int(i) == skip {
			continue
		}
		keep := r.toward != nil && r.toward[i] >= 0 && (r.alone == nil || r.onlyOccupied(c, p, i))
		if r.feeding != nil && !c.Feeds(r.feeding[p-1], p, int(i)) {
			continue
		}
		for d, dir := range r.dirs[p-1] {
			if keep && r.toward[i] != d {
				continue
			}
			next := dir.Next(int(i))
			if next < 0 {
				continue
			}
			if r.start != nil {
				next = r.start[p-1][d]
			}
			m.Sites[0], m.Sites[1] = uint16(i), uint16(next)
			ok := true
			var err error
			switch {
			case r.endsMove != nil:
				ok, err = r.endsMove.TestMove(c, p, m)
			case r.ends != nil:
				ok, err = r.ends.TestSite(c, p, int(i))
			}
			if err != nil {
				return 0, err
			}
			if ok {
				if err := c.Push(m); err != nil {
					return 0, err
				}
			}
		}
	}
	if len(s.Moves) == before && r.none >= 0 {
		if err := c.Push(kernel.Move{Kind: uint8(r.none)}); err != nil {
			return 0, err
		}
	}
	return len(s.Moves) - before, nil
}

// skipped returns the site the variable skip blocks, -1 for none.
func (r *sowings) skipped(c *kernel.Ctx) int {
	if r.skip < 0 {
		return -1
	}
	return c.Var(r.skip) - 1
}

// onlyOccupied reports whether site i holds every counter of p's filter
// toward_alone (and some): it is the one site of the filter with counters.
func (r *sowings) onlyOccupied(c *kernel.Ctx, p int, i int32) bool {
	n := c.S.Cells[i]
	return n > 0 && int(n) == r.alone[p-1].Sum(c.S.Cells, &c.Def.Layout, c.Mover)
}

// SiteBatcher is a SiteTester that tests many sites of one player more
// cheaply together than one by one, sharing its work (a bound, a budget)
// across them: BeginSites prepares a batch (from c.BeginBatch),
// TestInBatch tests one site of it.
type SiteBatcher interface {
	SiteTester
	BeginSites(c *kernel.Ctx, b *kernel.Batch, p int)
	TestInBatch(c *kernel.Ctx, b *kernel.Batch, p, site int) (bool, error)
}

// ---- sowing_play ----

type sowingPlay struct {
	kind         int
	sow          Sower
	directed     DirectedSower // sow, when it sows in a direction
	extra        SiteTester
	capture      Capturer
	afterCapture Follower
	after        []Follower
	other        Player
	irreversible bool
}

func (r *sowingPlay) Play(c *kernel.Ctx, p int, m kernel.Move) error {
	if int(m.Kind) != r.kind {
		return playOther(c, r.other, p, m)
	}
	var last int
	var empty bool
	var err error
	if m.N == 2 {
		last, empty, err = r.directed.SowToward(c, p, int(m.Sites[0]), int(m.Sites[1]))
	} else {
		last, empty, err = r.sow.Sow(c, p, int(m.Sites[0]))
	}
	if err != nil {
		return err
	}
	n := 0
	again := false
	if r.extra != nil {
		if again, err = r.extra.TestSite(c, p, last); err != nil {
			return err
		}
	}
	if !again && r.capture != nil {
		if n, err = r.capture.Capture(c, p, last, empty); err != nil {
			return err
		}
	}
	if n > 0 && r.irreversible {
		c.Irreversible = true
	}
	if n > 0 && r.afterCapture != nil {
		if err := r.afterCapture.After(c, p, n); err != nil {
			return err
		}
	}
	return followAll(c, r.after, p, n)
}

// playOther plays a move of a kind a turn does not know with other.
func playOther(c *kernel.Ctx, other Player, p int, m kernel.Move) error {
	if other == nil {
		return kernel.Failf("a move of kind %s, but no other function to play it", c.Def.Kinds[m.Kind].Name)
	}
	return other.Play(c, p, m)
}

// ---- sowing_legal ----

type sowingLegal struct {
	sowings, feeding Emitter
	starving         []*kernel.Filter
}

func (r *sowingLegal) Emit(c *kernel.Ctx, p int) (int, error) {
	if r.starving != nil {
		f := r.starving[c.Def.NextPlayer(p)-1]
		if err := c.Charge(len(f.Cand())/4 + 1); err != nil {
			return 0, err
		}
		if f.Empty(c.S.Cells, &c.Def.Layout, c.Mover) {
			if r.feeding != nil {
				return r.feeding.Emit(c, p)
			}
			return 0, nil
		}
	}
	return r.sowings.Emit(c, p)
}

// directionStarts reads start: per player, the site each of the player's
// directions (dirs) starts from, each on its direction's track.
func directionStarts(a *Args, dirs [][]*kernel.Track) ([][]int, error) {
	start := a.SiteLists("start")
	if len(start) != a.Def.Players {
		return nil, a.Errorf("start must list one list of sites per player (%d)", a.Def.Players)
	}
	for p, starts := range start {
		if len(starts) != len(dirs[p]) {
			return nil, a.Errorf("start[%d] must name a site for each of player %d's %d directions", p+1, p+1, len(dirs[p]))
		}
		for d, s := range starts {
			if !dirs[p][d].On(s) {
				return nil, a.Errorf("start[%d][%d]: %s is not on track %s", p+1, d+1, a.Def.Board.SiteName(s), dirs[p][d].Name)
			}
		}
	}
	return start, nil
}

// towardTable reads toward, per direction the sites held to it, as a
// table by site of that direction, -1 for a site free to go either way.
func towardTable(a *Args) []int {
	toward := make([]int, a.Def.Board.NumSites())
	for i := range toward {
		toward[i] = -1
	}
	for d, sites := range a.SiteLists("toward") {
		for _, s := range sites {
			toward[s] = d
		}
	}
	return toward
}
