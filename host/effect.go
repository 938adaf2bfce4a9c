package host

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/matombo/matombo/host/kernel"
)

// EffectText describes an effect of a state of g in words, with the
// sites' names: "take 4 from a3", "drop 1 on a4", "capture 3 from c5 for
// player 1", "player 2 to move".
func (g *Game) EffectText(e Effect) string { return e.Text(g.def.Board) }

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

// startRecording makes the machine record the effects of the ply it
// applies next into its own buffer.
func (vm *machine) startRecording() {
	vm.recBuf.Reset()
	vm.ctx.Rec = &vm.recBuf
}

// finishRecording ends the recording of a ply that succeeded on s: a
// list that overflowed is completed with the values that still differ
// from the state before the ply (vm.saved), the turn is added, and s gets
// its own copy of the list.
func (vm *machine) finishRecording(s *State) {
	r := vm.ctx.Rec
	vm.ctx.Rec = nil
	if r == nil {
		return
	}
	list := r.List()
	if r.Full() {
		list = vm.summarize(s, list)
	}
	if !s.k.Result.Over {
		list = append(list, Effect{Kind: EffectTurn, Site: -1, To: -1, Player: s.ToMove()})
	}
	r.SetList(list)
	s.k.Effects = kernel.NewEffectList(list)
}

// summarize appends to a full list the effects that lead from the state
// before the ply with the list applied to s: a new count, owner, captured
// total or hand wherever one still differs.
func (vm *machine) summarize(s *State, list []Effect) []Effect {
	lay := &vm.def.Layout
	pos := positionOfCells(lay, vm.saved.cells)
	if err := pos.ApplyEffects(list); err != nil {
		// The recorded effects are what the primitives did, so they
		// apply; should one not, the summary starts from scratch.
		pos = positionOfCells(lay, vm.saved.cells)
		list = list[:0]
	}
	for i := 0; i < lay.Sites; i++ {
		if o := int(s.k.Cells[lay.Owners+i]); pos.Owners[i] != o {
			list = append(list, Effect{Kind: EffectOwner, Site: i, To: -1, Player: o})
		}
		if c := int(s.k.Cells[i]); pos.Counts[i] != c {
			list = append(list, Effect{Kind: EffectSet, Site: i, To: -1, Count: c})
		}
	}
	for p := 0; p < lay.Players; p++ {
		if c := int(s.k.Cells[lay.Captured+p]); pos.Captured[p] != c {
			list = append(list, Effect{Kind: EffectCaptured, Site: -1, To: -1, Player: p + 1, Count: c})
		}
		if h := int(s.k.Cells[lay.Hand+p]); pos.Hand[p] != h {
			list = append(list, Effect{Kind: EffectHand, Site: -1, To: -1, Player: p + 1, Count: h})
		}
	}
	return list
}

// positionOfCells returns the counts, owners, captured totals, hands and
// player to move of state cells c.
func positionOfCells(lay *kernel.Layout, c []int32) Position {
	p := Position{Counts: make([]int, lay.Sites), Owners: make([]int, lay.Sites),
		Captured: make([]int, lay.Players), Hand: make([]int, lay.Players), ToMove: int(c[lay.ToMove])}
	for i := range p.Counts {
		p.Counts[i], p.Owners[i] = int(c[i]), int(c[lay.Owners+i])
	}
	for q := range p.Captured {
		p.Captured[q], p.Hand[q] = int(c[lay.Captured+q]), int(c[lay.Hand+q])
	}
	return p
}

// Effects returns the effects of the ply that made s, in the order the
// primitives made them, and whether they were recorded: the moves a
// Runner applies with Record(true), and ApplyRecorded, record them; the
// opening and a set-up position have none (an empty list, recorded);
// a state made by a move applied without recording returns nil, false.
// The slice is the caller's.
func (s *State) Effects() (effects []Effect, recorded bool) {
	if s.k.Effects == nil {
		return nil, false
	}
	return append([]Effect{}, s.k.Effects.List()...), true
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
		b = strconv.AppendQuote(b, g.def.Board.SiteName(e.Site))
	}
	if fromTo {
		b = append(b, `,"from":`...)
		b = strconv.AppendQuote(b, g.def.Board.SiteName(e.Site))
		b = append(b, `,"to":`...)
		b = strconv.AppendQuote(b, g.def.Board.SiteName(e.To))
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
func (g *Game) maxEffectsJSON() int { return MaxEffects + 2*g.def.Layout.Sites + 2*g.players + 1 }

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
		k, ok := kernel.EffectKindNamed(j.Kind)
		if !ok {
			return nil, fail("unknown kind %q", j.Kind)
		}
		site, fromTo, player, count := effectFields(k)
		if (j.Site != nil) != site || (j.From != nil) != fromTo || (j.To != nil) != fromTo || (j.Player != nil) != player || (j.Count != nil) != count {
			return nil, fail("a %s effect has exactly the fields %s", k, strings.Join(effectFieldNames(k), ", "))
		}
		e := Effect{Kind: k, Site: -1, To: -1}
		name := func(p *string) (int, error) {
			i, ok := g.def.Board.Index(*p)
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
