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
	if err := s.list(nil); err != nil {
		return err
	}
	if !s.isLegal(m) {
		return s.illegal(nil, m)
	}
	vm, err := s.g.machine()
	if err != nil {
		return err
	}
	vm.StartRecording()
	err = vm.Apply(&s.k, m)
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
