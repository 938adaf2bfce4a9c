package kernel

import "fmt"

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

// EffectKindNamed returns the kind named name.
func EffectKindNamed(name string) (EffectKind, bool) {
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
func (e Effect) String() string { return e.Text(nil) }

// Text describes the effect in words with the sites' names of board b:
// "take 4 from a3", "drop 1 on a4", "capture 3 from c5 for player 1",
// "player 2 to move". A nil board names sites by index.
func (e Effect) Text(b *Board) string {
	site := func(i int) string {
		if b == nil {
			return fmt.Sprintf("site %d", i)
		}
		return b.SiteName(i)
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

// MaxEffects is the most effects a ply records one by one. A ply that
// makes more (a relay sowing of thousands of laps) keeps its first
// MaxEffects and ends with EffectSet, EffectOwner, EffectCaptured and
// EffectHand effects for every value that still differs, then the turn:
// the list stays short and still leads from the state before to the state
// after.
const MaxEffects = 4096

// Recorder collects the effects of the ply being applied. A nil
// *Recorder records nothing: its methods cost a nil check.
type Recorder struct {
	list []Effect
	full bool // MaxEffects were recorded: the rest of the ply is summarized
}

// Add appends e, or notes that the list is full.
func (r *Recorder) Add(e Effect) {
	if r == nil || r.full {
		return
	}
	if len(r.list) >= MaxEffects {
		r.full = true
		return
	}
	r.list = append(r.list, e)
}

// Sowing notes the drops of a sowing of n counters along t from the site
// after from, as sowInto makes them: on a looping track, a sowing of q
// full laps or more drops q on every site of the lap in sowing order, then
// the rest one by one. skip leaves out from itself (sow_skip). A track
// that does not loop ends the drops at its end.
func (r *Recorder) Sowing(t *Track, from, n int, skip bool) {
	if r == nil || n <= 0 {
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
				r.Add(Effect{Kind: EffectDrop, Site: pos, To: -1, Count: q})
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
		r.Add(Effect{Kind: EffectDrop, Site: pos, To: -1, Count: 1})
	}
}

// Lap notes one lap of a relay sowing: the pick-up of n counters from
// from, then their drops.
func (r *Recorder) Lap(t *Track, from, n int) {
	if r == nil {
		return
	}
	r.Add(Effect{Kind: EffectTake, Site: from, To: -1, Count: n})
	r.Sowing(t, from, n, false)
}

// startRecording makes the machine record the effects of the ply it

// Site notes an effect on one site (take, drop, set).
func (r *Recorder) Site(k EffectKind, site, count int) {
	if r != nil {
		r.Add(Effect{Kind: k, Site: site, To: -1, Count: count})
	}
}

// Player notes an effect on a player (hand, captured, turn).
func (r *Recorder) Player(k EffectKind, player, count int) {
	if r != nil {
		r.Add(Effect{Kind: k, Site: -1, To: -1, Player: player, Count: count})
	}
}

// AddCount notes a change of n counters on a site: a drop when n > 0, a
// take when n < 0.
func (r *Recorder) AddCount(site, n int) {
	switch {
	case n > 0:
		r.Site(EffectDrop, site, n)
	case n < 0:
		r.Site(EffectTake, site, -n)
	}
}

// Reset empties the recorder for a new ply.
func (r *Recorder) Reset() { r.list, r.full = r.list[:0], false }

// Full reports whether MaxEffects were recorded and the rest of the ply
// was not.
func (r *Recorder) Full() bool { return r.full }

// List returns the effects recorded (the recorder's own slice).
func (r *Recorder) List() []Effect { return r.list }

// SetList replaces the effects recorded (a summary of a full list).
func (r *Recorder) SetList(l []Effect) { r.list = l }

// EffectList is the effects of the ply that made a state, shared by its
// copies and never changed.
type EffectList struct{ list []Effect }

// NewEffectList returns a list holding its own copy of effects.
func NewEffectList(effects []Effect) *EffectList {
	return &EffectList{list: append(make([]Effect, 0, len(effects)), effects...)}
}

// NoEffects is the effects of an opening or a set-up position: none.
var NoEffects = &EffectList{list: []Effect{}}

// List returns the effects (shared: callers must not change them).
func (l *EffectList) List() []Effect { return l.list }
