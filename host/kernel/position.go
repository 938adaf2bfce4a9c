package kernel

import "fmt"

// Position is a game position in plain values, to set up a state that is
// not reached from the opening, e.g. in a test scenario.
type Position struct {
	Counts   []int          // per site, in board order
	Owners   []int          // per site, in board order
	Captured []int          // per player
	Hand     []int          // per player
	ToMove   int            // the player whose decision is next
	Vars     map[string]int // script variables; missing ones are 0
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
func (e *EffectError) Code() string { return "bad-effect" }

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
		if e.Count < 0 || e.Count > MaxCount {
			return fail("count %d out of range (0 to %d)", e.Count, MaxCount)
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

// PositionOf returns the counts, owners, captured totals, hands and
// player to move of state cells c laid out by l (not the variables).
func PositionOf(l *Layout, c []int32) Position {
	p := Position{Counts: make([]int, l.Sites), Owners: make([]int, l.Sites),
		Captured: make([]int, l.Players), Hand: make([]int, l.Players), ToMove: int(c[l.ToMove])}
	for i := range p.Counts {
		p.Counts[i], p.Owners[i] = int(c[i]), int(c[l.Owners+i])
	}
	for q := range p.Captured {
		p.Captured[q], p.Hand[q] = int(c[l.Captured+q]), int(c[l.Hand+q])
	}
	return p
}
