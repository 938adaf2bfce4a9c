package host

import (
	"fmt"
	"strconv"
	"strings"
)

// EffectKind says what an effect did.
type EffectKind uint8

// The kinds of effects. Each names the fields of Effect it uses.
const (
	EffectTake     EffectKind = iota + 1 // Count counters were picked up from Site
	EffectDrop                           // Count counters were dropped on Site
	EffectCapture                        // Count counters of Site went to Player's captured total
	EffectOwner                          // Site now belongs to Player (0 for nobody)
	EffectPlace                          // Player put a piece from their hand on Site, which they now own
	EffectMove                           // everything on Site (counters and owner) moved to the empty To
	EffectSet                            // Site now holds Count counters
	EffectHand                           // Player now has Count pieces in hand
	EffectCaptured                       // Player's captured total is now Count
	EffectTurn                           // the next decision is Player's
)

var effectNames = [...]string{"", "take", "drop", "capture", "owner", "place", "move", "set", "hand", "captured", "turn"}

// String is the kind's name in the state JSON: "take", "drop", "capture",
// "owner", "place", "move", "set", "hand", "captured" or "turn".
func (k EffectKind) String() string {
	if int(k) < len(effectNames) && k > 0 {
		return effectNames[k]
	}
	return fmt.Sprintf("effect(%d)", k)
}

// effectKind returns the kind named name.
func effectKind(name string) (EffectKind, bool) {
	for k, n := range effectNames {
		if n == name && k > 0 {
			return EffectKind(k), true
		}
	}
	return 0, false
}

// Effect is one thing a ply did to the state, as a primitive of the board,
// sowing and capture families did it: a pick-up, a drop, a capture, a
// change of owner, a placement, a piece moved, a new count, hand or
// captured total, or the turn passing. Sites are indices in board order
// (Board.Site names them) and players count from 1.
//
// Which fields an effect uses depends on its kind (see the EffectKind
// constants); the others are zero, except Site and To, which are -1 when
// the kind has no such site.
type Effect struct {
	Kind   EffectKind
	Site   int // the site touched; for EffectMove the site moved from; -1 for none
	To     int // for EffectMove the site moved to; -1 otherwise
	Player int // capture, owner, place, hand, captured, turn
	Count  int // take, drop, capture: how many counters; set, hand, captured: the new value
}

// String describes the effect with site indices, e.g. "take 3 from site
// 2"; Game.EffectText names the sites.
func (e Effect) String() string { return e.text(nil) }

// EffectText describes an effect of a state of g in words, with the
// sites' names: "take 4 from a3", "drop 1 on a4", "capture 3 from c5 for
// player 1", "player 2 to move".
func (g *Game) EffectText(e Effect) string { return e.text(g.board) }

func (e Effect) text(b *Board) string {
	site := func(i int) string {
		if b == nil {
			return fmt.Sprintf("site %d", i)
		}
		return b.siteName(i)
	}
	switch e.Kind {
	case EffectTake:
		return fmt.Sprintf("take %d from %s", e.Count, site(e.Site))
	case EffectDrop:
		return fmt.Sprintf("drop %d on %s", e.Count, site(e.Site))
	case EffectCapture:
		return fmt.Sprintf("capture %d from %s for player %d", e.Count, site(e.Site), e.Player)
	case EffectOwner:
		return fmt.Sprintf("%s now belongs to player %d", site(e.Site), e.Player)
	case EffectPlace:
		return fmt.Sprintf("player %d places a piece on %s", e.Player, site(e.Site))
	case EffectMove:
		return fmt.Sprintf("move %s to %s", site(e.Site), site(e.To))
	case EffectSet:
		return fmt.Sprintf("%s now holds %d", site(e.Site), e.Count)
	case EffectHand:
		return fmt.Sprintf("player %d has %d in hand", e.Player, e.Count)
	case EffectCaptured:
		return fmt.Sprintf("player %d has captured %d", e.Player, e.Count)
	case EffectTurn:
		return fmt.Sprintf("player %d to move", e.Player)
	}
	return e.Kind.String()
}

// EffectError reports an effect that cannot be applied to a position: a
// site or player out of range, or a count that would become negative or
// too large. Index counts from 0 in the list applied.
type EffectError struct {
	Index  int
	Effect Effect
	Msg    string
}

// Code returns "bad-effect" (see CodeBadEffect).
func (e *EffectError) Code() string { return CodeBadEffect }

func (e *EffectError) Error() string {
	return fmt.Sprintf("effect %d (%s): %s", e.Index+1, e.Effect, e.Msg)
}

// ApplyEffects applies effects, in order, to the position p, as the ply
// that recorded them changed its state: applied to the position before a
// ply, the ply's effects give the position after it (its counts, owners,
// captured totals, hands and, unless the ply ended the game, whose
// decision is next). Script variables are not effects: p.Vars is left as
// it is. An effect that names a site or player p does not have, or that
// would make a count negative, stops with an *EffectError; the effects
// before it stay applied.
func (p *Position) ApplyEffects(effects []Effect) error {
	players := len(p.Captured)
	for i, e := range effects {
		fail := func(format string, args ...any) error {
			return &EffectError{Index: i, Effect: e, Msg: fmt.Sprintf(format, args...)}
		}
		site := func(s int) bool { return s >= 0 && s < len(p.Counts) && s < len(p.Owners) }
		player := func(q int, nobody bool) bool { return q >= 1 && q <= players || nobody && q == 0 }
		switch e.Kind {
		case EffectTake, EffectDrop, EffectSet, EffectCapture, EffectOwner, EffectPlace:
			if !site(e.Site) {
				return fail("no site %d (the position has %d)", e.Site, len(p.Counts))
			}
		case EffectMove:
			if !site(e.Site) || !site(e.To) {
				return fail("no sites %d and %d (the position has %d)", e.Site, e.To, len(p.Counts))
			}
		}
		switch e.Kind {
		case EffectCapture, EffectPlace, EffectHand, EffectCaptured, EffectTurn:
			if !player(e.Player, false) || len(p.Hand) < players {
				return fail("no player %d (the position has %d)", e.Player, players)
			}
		case EffectOwner:
			if !player(e.Player, true) {
				return fail("no player %d (0 for nobody, players 1 to %d)", e.Player, players)
			}
		}
		if e.Count < 0 || e.Count > maxCount {
			return fail("count %d out of range (0 to %d)", e.Count, maxCount)
		}
		switch e.Kind {
		case EffectTake:
			if p.Counts[e.Site] < e.Count {
				return fail("the site holds only %d", p.Counts[e.Site])
			}
			p.Counts[e.Site] -= e.Count
		case EffectDrop:
			p.Counts[e.Site] += e.Count
		case EffectCapture:
			if p.Counts[e.Site] < e.Count {
				return fail("the site holds only %d", p.Counts[e.Site])
			}
			p.Counts[e.Site] -= e.Count
			p.Captured[e.Player-1] += e.Count
		case EffectOwner:
			p.Owners[e.Site] = e.Player
		case EffectPlace:
			if p.Hand[e.Player-1] < 1 {
				return fail("player %d has nothing in hand", e.Player)
			}
			p.Hand[e.Player-1]--
			p.Counts[e.Site]++
			p.Owners[e.Site] = e.Player
		case EffectMove:
			p.Counts[e.To], p.Counts[e.Site] = p.Counts[e.Site], 0
			p.Owners[e.To], p.Owners[e.Site] = p.Owners[e.Site], 0
		case EffectSet:
			p.Counts[e.Site] = e.Count
		case EffectHand:
			p.Hand[e.Player-1] = e.Count
		case EffectCaptured:
			p.Captured[e.Player-1] = e.Count
		case EffectTurn:
			p.ToMove = e.Player
		default:
			return fail("unknown kind")
		}
	}
	return nil
}

// MaxEffects is the most effects a ply records one by one. A ply that
// makes more (a relay sowing of thousands of laps) keeps its first
// MaxEffects and ends with EffectSet, EffectOwner, EffectCaptured and
// EffectHand effects for every value that still differs, then the turn:
// the list stays short and still leads from the state before to the state
// after.
const MaxEffects = 4096

// recorder collects the effects of the ply being applied (see
// machine.record).
type recorder struct {
	list []Effect
	full bool // MaxEffects were recorded: the rest of the ply is summarized
}

// add appends e, or notes that the list is full.
func (r *recorder) add(e Effect) {
	if r.full {
		return
	}
	if len(r.list) >= MaxEffects {
		r.full = true
		return
	}
	r.list = append(r.list, e)
}

// record notes an effect of the ply being played, when the ply is
// recorded; it costs a nil check when it is not. Every primitive that
// changes the state records what it did with it, in the order it did it
// (see docs/lua-api.md, "Effects").
func (vm *machine) record(e Effect) {
	if vm.rec != nil {
		vm.rec.add(e)
	}
}

// recordSite notes an effect on one site (take, drop, set).
func (vm *machine) recordSite(k EffectKind, site, count int) {
	if vm.rec != nil {
		vm.rec.add(Effect{Kind: k, Site: site, To: -1, Count: count})
	}
}

// recordAdd notes a change of n counters on a site: a drop when n > 0, a
// take when n < 0.
func (vm *machine) recordAdd(site, n int) {
	switch {
	case n > 0:
		vm.recordSite(EffectDrop, site, n)
	case n < 0:
		vm.recordSite(EffectTake, site, -n)
	}
}

// recordPlayer notes an effect on a player (hand, captured, turn).
func (vm *machine) recordPlayer(k EffectKind, player, count int) {
	if vm.rec != nil {
		vm.rec.add(Effect{Kind: k, Site: -1, To: -1, Player: player, Count: count})
	}
}

// recordSowing notes the drops of a sowing of n counters along t from the
// site after from (see recorder.sowing).
func (vm *machine) recordSowing(t *Track, from, n int, skip bool) {
	if vm.rec != nil {
		vm.rec.sowing(t, from, n, skip)
	}
}

// sowing notes the drops of a sowing of n counters along t from the site
// after from, as sowInto makes them: on a looping track, a sowing of q
// full laps or more drops q on every site of the lap in sowing order, then
// the rest one by one. skip leaves out from itself (sow_skip). A track
// that does not loop ends the drops at its end.
func (r *recorder) sowing(t *Track, from, n int, skip bool) {
	if n <= 0 {
		return
	}
	lap := len(t.Sites)
	if skip && t.Loop {
		lap--
	}
	if t.Loop && lap > 0 && n >= lap {
		q := n / lap
		pos := from
		for k := 0; k < len(t.Sites) && !r.full; k++ {
			pos = int(t.next[pos])
			if pos != from || !skip {
				r.add(Effect{Kind: EffectDrop, Site: pos, To: -1, Count: q})
			}
		}
		n -= q * lap
	}
	pos := from
	for ; n > 0 && !r.full; n-- {
		pos = int(t.next[pos])
		if pos < 0 {
			return
		}
		if skip && pos == from {
			pos = int(t.next[pos])
		}
		r.add(Effect{Kind: EffectDrop, Site: pos, To: -1, Count: 1})
	}
}

// lap notes one lap of a relay sowing: the pick-up of n counters from
// from, then their drops.
func (r *recorder) lap(t *Track, from, n int) {
	r.add(Effect{Kind: EffectTake, Site: from, To: -1, Count: n})
	r.sowing(t, from, n, false)
}

// startRecording makes the machine record the effects of the ply it
// applies next into its own buffer.
func (vm *machine) startRecording() {
	vm.recBuf.list, vm.recBuf.full = vm.recBuf.list[:0], false
	vm.rec = &vm.recBuf
}

// finishRecording ends the recording of a ply that succeeded on s: a
// list that overflowed is completed with the values that still differ
// from the state before the ply (vm.saved), the turn is added, and s gets
// its own copy of the list.
func (vm *machine) finishRecording(s *State) {
	r := vm.rec
	vm.rec = nil
	if r == nil {
		return
	}
	if r.full {
		vm.summarize(s, r)
	}
	if !s.over {
		r.list = append(r.list, Effect{Kind: EffectTurn, Site: -1, To: -1, Player: s.ToMove()})
	}
	s.effects = &effectList{list: append(make([]Effect, 0, len(r.list)), r.list...)}
}

// summarize appends to a full list the effects that lead from the state
// before the ply with the list applied to s: a new count, owner, captured
// total or hand wherever one still differs.
func (vm *machine) summarize(s *State, r *recorder) {
	lay := &vm.g.lay
	pos := positionOfCells(lay, vm.saved.cells)
	if err := pos.ApplyEffects(r.list); err != nil {
		// The recorded effects are what the primitives did, so they
		// apply; should one not, the summary starts from scratch.
		pos = positionOfCells(lay, vm.saved.cells)
		r.list = r.list[:0]
	}
	for i := 0; i < lay.sites; i++ {
		if o := int(s.cells[lay.owners+i]); pos.Owners[i] != o {
			r.list = append(r.list, Effect{Kind: EffectOwner, Site: i, To: -1, Player: o})
		}
		if c := int(s.cells[i]); pos.Counts[i] != c {
			r.list = append(r.list, Effect{Kind: EffectSet, Site: i, To: -1, Count: c})
		}
	}
	for p := 0; p < lay.players; p++ {
		if c := int(s.cells[lay.captured+p]); pos.Captured[p] != c {
			r.list = append(r.list, Effect{Kind: EffectCaptured, Site: -1, To: -1, Player: p + 1, Count: c})
		}
		if h := int(s.cells[lay.hand+p]); pos.Hand[p] != h {
			r.list = append(r.list, Effect{Kind: EffectHand, Site: -1, To: -1, Player: p + 1, Count: h})
		}
	}
}

// positionOfCells returns the counts, owners, captured totals, hands and
// player to move of state cells c.
func positionOfCells(lay *layout, c []int32) Position {
	p := Position{Counts: make([]int, lay.sites), Owners: make([]int, lay.sites),
		Captured: make([]int, lay.players), Hand: make([]int, lay.players), ToMove: int(c[lay.toMove])}
	for i := range p.Counts {
		p.Counts[i], p.Owners[i] = int(c[i]), int(c[lay.owners+i])
	}
	for q := range p.Captured {
		p.Captured[q], p.Hand[q] = int(c[lay.captured+q]), int(c[lay.hand+q])
	}
	return p
}

// effectList is the effects of the ply that made a state, shared by its
// copies and never changed.
type effectList struct{ list []Effect }

// noEffects is the effects of an opening or a set-up position: none.
var noEffects = &effectList{list: []Effect{}}

// Effects returns the effects of the ply that made s, in the order the
// primitives made them, and whether they were recorded: the moves a
// Runner applies with Record(true), and ApplyRecorded, record them; the
// opening and a set-up position have none (an empty list, recorded);
// a state made by a move applied without recording returns nil, false.
// The slice is the caller's.
func (s *State) Effects() (effects []Effect, recorded bool) {
	if s.effects == nil {
		return nil, false
	}
	return append([]Effect{}, s.effects.list...), true
}

// ApplyRecorded plays a legal move as Apply does and records its effects
// in the state it makes (see Effects). It costs a little more than Apply;
// playouts and searches use Apply, which records nothing.
func (s *State) ApplyRecorded(m Move) error {
	if !s.isLegal(m) {
		return s.illegal(m)
	}
	vm, err := s.g.machine()
	if err != nil {
		return err
	}
	vm.startRecording()
	err = vm.apply(s, m)
	s.g.release(vm)
	return err
}

// effectFields says which JSON fields an effect of kind k has.
func effectFields(k EffectKind) (site, fromTo, player, count bool) {
	switch k {
	case EffectTake, EffectDrop, EffectSet:
		return true, false, false, true
	case EffectCapture:
		return true, false, true, true
	case EffectOwner, EffectPlace:
		return true, false, true, false
	case EffectMove:
		return false, true, false, false
	case EffectHand, EffectCaptured:
		return false, false, true, true
	case EffectTurn:
		return false, false, true, false
	}
	return false, false, false, false
}

// appendEffectJSON appends the JSON object of effect e of a state of g.
func (g *Game) appendEffectJSON(b []byte, e Effect) []byte {
	site, fromTo, player, count := effectFields(e.Kind)
	b = append(b, `{"kind":"`...)
	b = append(b, e.Kind.String()...)
	b = append(b, '"')
	if site {
		b = append(b, `,"site":`...)
		b = strconv.AppendQuote(b, g.board.siteName(e.Site))
	}
	if fromTo {
		b = append(b, `,"from":`...)
		b = strconv.AppendQuote(b, g.board.siteName(e.Site))
		b = append(b, `,"to":`...)
		b = strconv.AppendQuote(b, g.board.siteName(e.To))
	}
	if count {
		b = append(b, `,"count":`...)
		b = strconv.AppendInt(b, int64(e.Count), 10)
	}
	if player {
		b = append(b, `,"player":`...)
		b = strconv.AppendInt(b, int64(e.Player), 10)
	}
	return append(b, '}')
}

// effectJSON is an effect as the state JSON writes it.
type effectJSON struct {
	Kind   string  `json:"kind"`
	Site   *string `json:"site"`
	From   *string `json:"from"`
	To     *string `json:"to"`
	Player *int    `json:"player"`
	Count  *int    `json:"count"`
}

// maxEffectsJSON bounds the effects a state JSON may list: a ply records
// at most MaxEffects, then a summary of at most two values per site and
// per player, and the turn.
func (g *Game) maxEffectsJSON() int { return MaxEffects + 2*g.lay.sites + 2*g.players + 1 }

// readEffects checks and converts the effects of a state JSON.
func (g *Game) readEffects(list []effectJSON) ([]Effect, error) {
	if len(list) > g.maxEffectsJSON() {
		return nil, &PositionError{Source: "state JSON", Field: "effects", Msg: fmt.Sprintf("%d effects; a ply records at most %d", len(list), g.maxEffectsJSON())}
	}
	out := make([]Effect, 0, len(list))
	for i, j := range list {
		fail := func(format string, args ...any) error {
			return &PositionError{Source: "state JSON", Field: fmt.Sprintf("effect %d", i+1), Msg: fmt.Sprintf(format, args...)}
		}
		k, ok := effectKind(j.Kind)
		if !ok {
			return nil, fail("unknown kind %q", j.Kind)
		}
		site, fromTo, player, count := effectFields(k)
		if (j.Site != nil) != site || (j.From != nil) != fromTo || (j.To != nil) != fromTo || (j.Player != nil) != player || (j.Count != nil) != count {
			return nil, fail("a %s effect has exactly the fields %s", k, strings.Join(effectFieldNames(k), ", "))
		}
		e := Effect{Kind: k, Site: -1, To: -1}
		name := func(p *string) (int, error) {
			i, ok := g.board.byName[*p]
			if !ok {
				return 0, fail("no site %q on the board", *p)
			}
			return i, nil
		}
		var err error
		switch {
		case site:
			e.Site, err = name(j.Site)
		case fromTo:
			if e.Site, err = name(j.From); err == nil {
				e.To, err = name(j.To)
			}
		}
		if err != nil {
			return nil, err
		}
		if player {
			e.Player = *j.Player
			if e.Player < 0 || e.Player > g.players || e.Player == 0 && k != EffectOwner {
				return nil, fail("no player %d", e.Player)
			}
		}
		if count {
			e.Count = *j.Count
			if e.Count < 0 || e.Count > maxCount {
				return nil, fail("count %d out of range (0 to %d)", e.Count, maxCount)
			}
		}
		out = append(out, e)
	}
	return out, nil
}

// effectFieldNames lists the JSON fields of an effect of kind k.
func effectFieldNames(k EffectKind) []string {
	site, fromTo, player, count := effectFields(k)
	names := []string{"kind"}
	if site {
		names = append(names, "site")
	}
	if fromTo {
		names = append(names, "from", "to")
	}
	if count {
		names = append(names, "count")
	}
	if player {
		names = append(names, "player")
	}
	return names
}
