package main

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strings"
	"time"

	"github.com/matombo/matombo/host"
	"github.com/matombo/matombo/host/diag"
)

// What the terminal says in words for the players: what a ply did (from
// its effects), how moves are typed, and what the board's marks mean.

// plyText says what a ply did that its token does not say, from its
// effects: the sowing (how many from where, where a relay picked up again,
// where it ended), the captures (how many from where, and into which
// store when they went to one rather than to a captured total), the pieces
// removed, the holes that changed hands; "" when there is none of it (a
// piece placed or moved, a decision such as stop).
func plyText(g *host.Game, effects []host.Effect) string {
	b := g.Board()
	// A site as the game's tokens write it: by number when a move kind
	// does (draughts' 18), else by name.
	name := func(i int) string { return b.Site(i).Name }
	for _, k := range g.MoveKinds() {
		if k.Numbers() {
			name = b.SiteNumber
			break
		}
	}
	pieces := b.Style() == host.Pieces
	var parts []string
	var sowFrom, sowN, lastDrop = -1, 0, -1
	var relays []string
	var captured []string
	capturedN := 0
	var owned []string
	owner := 0
	var taken []host.Effect // takes not (yet) known to be a relay's pick-up
	into := -1              // the site (a store) captured counters went to
	for i, e := range effects {
		switch e.Kind {
		case host.EffectTake:
			switch {
			case sowFrom < 0:
				sowFrom, sowN = e.Site, e.Count
			case len(taken) > 0 || e.Site != lastDrop:
				taken = append(taken, e)
			default:
				relays = append(relays, name(e.Site))
			}
		case host.EffectDrop:
			if n := takenCount(taken); n >= 2 && e.Count == n {
				// Counters taken elsewhere than where the sowing
				// ended, all dropped on one site: a capture into a
				// store (a capture_rule's into), not a relay.
				for _, t := range taken {
					capturedN += t.Count
					captured = append(captured, fmt.Sprintf("%d from %s", t.Count, name(t.Site)))
				}
				taken, into = nil, e.Site
				continue
			}
			for _, t := range taken {
				relays = append(relays, name(t.Site))
			}
			taken, lastDrop = nil, e.Site
		case host.EffectCapture:
			capturedN += e.Count
			switch {
			case pieces:
				captured = append(captured, name(e.Site))
			default:
				captured = append(captured, fmt.Sprintf("%d from %s", e.Count, name(e.Site)))
			}
		case host.EffectOwner:
			// A change of hands, not the owner a placement or a move sets.
			if e.Player > 0 && (i == 0 || effects[i-1].Kind != host.EffectPlace) {
				owned = append(owned, name(e.Site))
				owner = e.Player
			}
		}
	}
	if sowFrom >= 0 {
		text := fmt.Sprintf("sowed %d from %s", sowN, name(sowFrom))
		if len(relays) > 0 {
			text += ", picking up again at " + diag.AndList(relays)
		}
		if lastDrop >= 0 {
			text += ", ending in " + name(lastDrop)
		}
		parts = append([]string{text}, parts...)
	}
	if len(captured) > 0 {
		if pieces {
			what := "captured the piece on "
			if len(captured) > 1 {
				what = "captured the pieces on "
			}
			parts = append(parts, what+diag.AndList(captured))
		} else {
			if len(captured) == 1 {
				parts = append(parts, "captured "+captured[0])
			} else {
				parts = append(parts, fmt.Sprintf("captured %d (%s)", capturedN, strings.Join(captured, ", ")))
			}
			if into >= 0 {
				parts[len(parts)-1] += " into " + name(into)
			}
		}
	}
	if len(owned) > 0 {
		parts = append(parts, fmt.Sprintf("%s now Player %d's", diag.AndList(owned)+map[bool]string{true: " are", false: " is"}[len(owned) > 1], owner))
	}
	return strings.Join(parts, "; ")
}

// moveWords says what the move that led to s did, in the words play and
// trace print after its token: plyText of the effects recorded when it
// was played, "" when there are none to tell.
func moveWords(s *host.State) string {
	effects, _ := s.Effects()
	return plyText(s.Game(), effects)
}

// takenCount is the counters of the takes.
func takenCount(taken []host.Effect) int {
	n := 0
	for _, t := range taken {
		n += t.Count
	}
	return n
}

// moveForms says how the game's moves are typed, with what each kind does
// in the script's words where it says it: "d8 (sow from d8), continue
// (continue sowing)". Each example is a move the game can make, found by
// playing from the opening (exampleMoves); a kind not met there is shown
// by its form, so that no example is a move the game may never make:
// "<from>x<to> (jump from <from> to <to>)".
func moveForms(g *host.Game, opening *host.State) string {
	b := g.Board()
	seen := exampleMoves(opening)
	var forms []string
	for k, kind := range g.MoveKinds() {
		m, met := seen[k]
		if !met {
			forms = append(forms, withDoc(kind.Form(), kind.Abstract(kind.Doc)))
			continue
		}
		forms = append(forms, withDoc(g.Token(m), kind.Abstract(exampleDoc(b, kind.Doc, m))))
	}
	return strings.Join(forms, ", ")
}

// exampleDoc is a kind's doc with its placeholders filled with the sites
// of the example m, by name or by number as the placeholder says, and
// {sites} ({#sites}) with all of them: "Move {from} to {to}" is "Move d3
// to d2". A placeholder of no site of m is left for Abstract.
func exampleDoc(b *host.Board, doc string, m host.Move) string {
	var pairs, names, numbers []string
	for i := range int(m.N) {
		name, number := b.Site(m.Site(i)).Name, b.SiteNumber(m.Site(i))
		if number == "" {
			number = name
		}
		names, numbers = append(names, name), append(numbers, number)
		pairs = append(pairs, fmt.Sprintf("{%d}", i+1), name, fmt.Sprintf("{#%d}", i+1), number)
		if i < 2 {
			word := []string{"from", "to"}[i]
			pairs = append(pairs, "{"+word+"}", name, "{#"+word+"}", number)
		}
	}
	pairs = append(pairs, "{sites}", strings.Join(names, ", "), "{#sites}", strings.Join(numbers, ", "))
	return strings.NewReplacer(pairs...).Replace(doc)
}

// withDoc writes a move form with what the move does, when the script
// says it: "d8 (sow from d8)".
func withDoc(form, doc string) string {
	if doc == "" {
		return form
	}
	return form + " (" + strings.ToLower(doc[:1]) + doc[1:] + ")"
}

// exampleMoves returns a move of each kind met when the game is played
// from s: first by the first legal move each turn, then by moves drawn at
// random with a fixed seed, for at most exampleDecisions decisions in all;
// of each kind, the first move listed. The examples only dress the
// session's opening words, so their search is bounded as a whole: it stops
// at the first call of the script that fails (a script that fails once
// fails again: a slow or runaway one would otherwise be tried a thousand
// times, each call up to its whole budget, before the first prompt), and
// after exampleTime in all. The examples found by then are used.
func exampleMoves(s *host.State) map[int]host.Move {
	seen := map[int]host.Move{}
	if s == nil {
		return seen
	}
	ctx, cancel := context.WithTimeout(context.Background(), exampleTime)
	defer cancel()
	r := s.Game().NewRunner()
	defer r.Close()
	r.SetContext(ctx)
	kinds := len(s.Game().MoveKinds())
	rng := rand.New(rand.NewPCG(1, 2))
	c := s.Clone()
	first := true // this game is played by the first legal moves
	for range exampleDecisions {
		if len(seen) == kinds {
			break
		}
		if r.List(c) != nil {
			break
		}
		moves := c.Moves()
		for _, m := range moves {
			if _, ok := seen[int(m.Kind)]; !ok {
				seen[int(m.Kind)] = m
			}
		}
		if c.Over() || len(moves) == 0 {
			c.CopyFrom(s) // another game, at random
			first = false
			continue
		}
		m := moves[0]
		if !first {
			m = moves[rng.IntN(len(moves))]
		}
		if r.Apply(c, m) != nil {
			break
		}
	}
	return seen
}

// The bounds of exampleMoves' search: the decisions it plays, and its
// time in all (the shipped games find every kind in milliseconds).
const (
	exampleDecisions = 1000
	exampleTime      = 2 * time.Second
)

// markWords says what the diagram's marks mean, in the script's words: a
// tag's mark and its doc ("* a head: ..."), the ends drawn in brackets
// ("[n] a store: ..."), which the diagram does not name, with their
// names, sides and owners in the opening ("[n] a store (a7 on the right,
// Player 1's; b7 on the left, Player 2's): ..."), and a tag the diagram
// does not mark with its sites ("a front row (rows b and c): ..."); ""
// when the script says nothing.
func markWords(g *host.Game, opening *host.State) string {
	b := g.Board()
	var out []string
	seen := map[string]bool{}
	for i := range b.NumSites() {
		for _, t := range b.Tags(i) {
			if seen[t] || b.TagDoc(t) == "" {
				continue
			}
			seen[t] = true
			switch {
			case b.Site(i).End != "":
				out = append(out, "[n] "+placed(b.TagDoc(t), endWords(b, opening)))
			case b.TagMark(t) != "":
				out = append(out, b.TagMark(t)+" "+b.TagDoc(t))
			default: // no mark on the board: where it is, in words
				out = append(out, placed(b.TagDoc(t), tagPlaces(b, t)))
			}
		}
	}
	return strings.Join(out, "; ")
}

// placed is a tag's doc with where its sites are, in brackets after what
// it names: "a store (a7 on the right): the seeds a player has banked".
func placed(doc, where string) string {
	if name, rest, ok := strings.Cut(doc, ": "); ok {
		return name + " (" + where + "): " + rest
	}
	return doc + " (" + where + ")"
}

// tagPlaces names the sites that carry tag, a whole row by its label:
// "rows b and c", "row a, b4 and c4".
func tagPlaces(b *host.Board, tag string) string {
	var rows, sites []string
	for r := range b.NumRows() {
		var tagged []string
		all := true
		for _, i := range b.RowSites(r) {
			if b.HasTag(i, tag) {
				tagged = append(tagged, b.Site(i).Name)
			} else {
				all = false
			}
		}
		if all && len(tagged) > 0 {
			rows = append(rows, b.RowLabel(r))
		} else {
			sites = append(sites, tagged...)
		}
	}
	var parts []string
	switch len(rows) {
	case 0:
	case 1:
		parts = append(parts, "row "+rows[0])
	default:
		parts = append(parts, "rows "+diag.AndList(rows))
	}
	return diag.AndList(append(parts, sites...))
}

// endWords names the sites drawn at the ends of the board, each with its
// side and its owner in s: "a7 on the right, Player 1's; b7 on the left,
// Player 2's".
func endWords(b *host.Board, s *host.State) string {
	var ends []string
	for i := range b.NumSites() {
		side := map[string]string{"west": "left", "east": "right"}[b.Site(i).End]
		if side == "" {
			continue
		}
		text := b.Site(i).Name + " on the " + side
		if p := s.Owner(i); p > 0 {
			text += fmt.Sprintf(", Player %d's", p)
		}
		ends = append(ends, text)
	}
	return strings.Join(ends, "; ")
}

// ownerWords says what the diagram's @ marks mean where it writes them:
// on a board of counts, "@2" after a count marks a hole whose owner is no
// longer its owner in the opening (Goré's holes after a trade); "" when
// no hole of s has changed hands.
func ownerWords(s, opening *host.State) string {
	b := s.Game().Board()
	if b.Style() == host.Pieces {
		return ""
	}
	changed := map[int]bool{}
	for i := range b.NumSites() {
		if o := s.Owner(i); o != opening.Owner(i) {
			changed[o] = true
		}
	}
	var out []string
	for p := range s.Game().Players() + 1 {
		if !changed[p] {
			continue
		}
		whose := fmt.Sprintf("Player %d's", p)
		if p == 0 {
			whose = "nobody's"
		}
		out = append(out, fmt.Sprintf("@%d after a count: the hole is now %s", p, whose))
	}
	return strings.Join(out, "; ")
}
