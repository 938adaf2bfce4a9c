package rules

import (
	"slices"

	"github.com/matombo/matombo/host/kernel"
)

// steps_rule: pieces stepping along the board's lines in the way each
// may go, a man only forward and a king both ways, one site or (flying)
// any distance. What it
// shares with jumps_rule (jumps.go) is here too.

var headingWords = []string{"ahead", "back", "both", "ahead_across", "back_across", "none"}

func headingFields() []Field {
	return []Field{
		{Name: "from", Type: FieldFilter, PerPlayer: true, Required: true, Doc: "the pieces that move"},
		{Name: "toward", Type: FieldWord, PerPlayer: true, Words: headingWords, Doc: "the way along the board's lines they move: `ahead` (in the order each line lists its sites), `back` (against it), `both` (the default), or `ahead_across` and `back_across`: as `ahead` and `back`, and either way across, along a row (a hop whose sites, the one it leaves, those it passes and the one it lands on, are all in one row), for men that move forward or sideways, never back; or `none`: the player's pieces have none of these moves, not even those of `both`; per player, e.g. `{\"ahead\", \"back\"}` for men that move forward, `{\"both\", \"none\"}` for moves of Player 1's alone"},
		{Name: "both", Type: FieldFilter, PerPlayer: true, Doc: "the pieces of `from` that move both ways whatever `toward` says (the kings)"},
		{Name: "fly", Type: FieldFilter, PerPlayer: true, Doc: "the pieces of `from` that move any distance along a line over empty sites (flying kings), along every line through their site, two that leave it through one neighbour and part further on too; one site without it"},
	}
}

// markFields are the fields of the pieces a capture has jumped so far.
func markFields() []Field {
	return []Field{
		{Name: "taken", Type: FieldVars, Max: 64, Doc: "the variables holding the sites (from 1, 0 for none) of the pieces jumped so far in this move, which stay on the board until it ends (a `hop_play` with `taken` fills them): they are not jumped again, and they block the way"},
	}
}

// marks returns the sites the variables vs hold (from 1), appended to dst.
func marks(c *kernel.Ctx, vs []int, dst []int32) []int32 {
	for _, v := range vs {
		if x := c.Var(v); x > 0 {
			dst = append(dst, int32(x-1))
		}
	}
	return dst
}

func init() {
	Register(Spec{Name: "steps_rule", Group: "Placing and moving", Slot: SlotEmit,
		Doc: "a move (from, to) of kind `kind` for each piece of `from` and each empty neighbour (any empty site up to the first occupied one, for a piece of `fly`) along the board's lines in the way the piece moves (`toward`, or both ways for a piece of `both`), piece by piece in board order, each piece's moves by the site moved to. As a site test, `(p, s)`: whether the piece on `s` can step",
		Fields: append([]Field{
			{Name: "kind", Type: FieldKind, Arity: 2, Required: true, Doc: "the kind of the moves (from, to)"},
		}, headingFields()...),
		New: func(a *Args) (any, error) {
			h, err := newHops(a, false)
			if err != nil {
				return nil, err
			}
			return &steps{hops: h}, nil
		}})
}

// hops is what steps_rule and jumps_rule share: the kind and each
// player's pieces and ways.
type hops struct {
	kind int
	per  []kernel.Hops // per player
	none []bool        // per player: toward "none", the player has none of these moves
}

// of returns player p's hops, nil when p has none (toward "none").
func (r *hops) of(p int) *kernel.Hops {
	if r.none[p-1] {
		return nil
	}
	return &r.per[p-1]
}

func newHops(a *Args, jumping bool) (hops, error) {
	what := "no piece can step"
	if jumping {
		what = "no piece can jump"
	}
	if err := needLines(a, "from", what); err != nil {
		return hops{}, err
	}
	from, both, over, fly, toward := a.Filters("from"), a.Filters("both"), a.Filters("over"), a.Filters("fly"), a.Words("toward")
	r := hops{kind: a.Kind("kind"), per: make([]kernel.Hops, len(from)), none: make([]bool, len(from))}
	for p := range r.per {
		h := &r.per[p]
		h.From = from[p]
		if both != nil {
			h.Both = both[p]
		}
		if fly != nil {
			h.Fly = fly[p]
		}
		if jumping {
			h.Over = over[p]
		}
		if toward != nil {
			switch toward[p] {
			case "ahead":
				h.Heading = kernel.Ahead
			case "back":
				h.Heading = kernel.Back
			case "ahead_across":
				h.Heading = kernel.AheadAcross
			case "back_across":
				h.Heading = kernel.BackAcross
			case "none":
				r.none[p] = true
			}
		}
	}
	if !slices.Contains(r.none, false) {
		return hops{}, a.Errorf("toward is \"none\" for every player, so %s: give another way for at least one player", what)
	}
	return r, nil
}

type steps struct{ hops }

func (r *steps) Emit(c *kernel.Ctx, p int) (int, error) {
	h := r.of(p)
	if h == nil {
		return 0, nil
	}
	return c.EmitHops(r.kind, h, -1, false, nil)
}

func (r *steps) TestSite(c *kernel.Ctx, p, site int) (bool, error) {
	h := r.of(p)
	if site < 0 || h == nil {
		return false, nil
	}
	return c.CanHop(h, site, nil)
}
