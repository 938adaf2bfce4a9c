package main

import (
	"fmt"
	"strings"

	"github.com/matombo/matombo/host"
)

// What the terminal says in words for the players: what a ply did (from
// its effects), how moves are typed, and what the board's marks mean.

// plyText says what a ply did that its token does not say, from its
// effects: the sowing (how many from where, where a relay picked up again,
// where it ended), the captures (how many from where), the pieces
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
	for i, e := range effects {
		switch e.Kind {
		case host.EffectTake:
			if sowFrom < 0 {
				sowFrom, sowN = e.Site, e.Count
			} else {
				relays = append(relays, name(e.Site))
			}
		case host.EffectDrop:
			lastDrop = e.Site
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
			text += ", picking up again at " + listWords(relays)
		}
		if lastDrop >= 0 {
			text += ", ending in " + name(lastDrop)
		}
		parts = append([]string{text}, parts...)
	}
	if len(captured) > 0 {
		if pieces {
			parts = append(parts, "removed the piece on "+listWords(captured))
		} else {
			if len(captured) == 1 {
				parts = append(parts, "captured "+captured[0])
			} else {
				parts = append(parts, fmt.Sprintf("captured %d (%s)", capturedN, strings.Join(captured, ", ")))
			}
		}
	}
	if len(owned) > 0 {
		parts = append(parts, fmt.Sprintf("%s now Player %d's", listWords(owned)+map[bool]string{true: " are", false: " is"}[len(owned) > 1], owner))
	}
	return strings.Join(parts, "; ")
}

// listWords writes names as "a1", "a1 and a2", "a1, a2 and a3".
func listWords(names []string) string {
	if len(names) <= 1 {
		return strings.Join(names, "")
	}
	return strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
}

// moveForms says how the game's moves are typed, with what each kind does
// in the script's words where it says it: "d8 (sow from d8), continue
// (continue sowing)". The sites of the examples are the board's first.
func moveForms(g *host.Game) string {
	b := g.Board()
	example := func(k int) string {
		if k < b.NumSites() {
			return b.Site(k).Name
		}
		return b.Site(0).Name
	}
	// number is the number of the k-th site written by number ({#1}).
	number := func(k int) string {
		for i := range b.NumSites() {
			if n := b.SiteNumber(i); n != "" && n != b.Site(i).Name {
				if k == 0 {
					return n
				}
				k--
			}
		}
		return example(k)
	}
	fill := func(t string) string {
		r := strings.NewReplacer("{1}", example(0), "{from}", example(0), "{2}", example(1), "{to}", example(1),
			"{3}", example(2), "{4}", example(3), "{sites}", example(0)+","+example(1),
			"{#1}", number(0), "{#from}", number(0), "{#2}", number(1), "{#to}", number(1))
		return r.Replace(t)
	}
	var forms []string
	for _, k := range g.MoveKinds() {
		f := fill(k.Template)
		if k.Doc != "" {
			doc := fill(strings.ReplaceAll(k.Doc, "{sites}", "{1}, {2}"))
			f += " (" + strings.ToLower(doc[:1]) + doc[1:] + ")"
		}
		forms = append(forms, f)
	}
	return strings.Join(forms, ", ")
}

// markWords says what the diagram's marks mean, in the script's words: a
// tag's mark and its doc ("* a head: ..."), and the ends drawn in
// brackets ("[n] a store: ..."); "" when the script says nothing.
func markWords(g *host.Game) string {
	b := g.Board()
	var out []string
	seen := map[string]bool{}
	for i := range b.NumSites() {
		for _, t := range b.Tags(i) {
			if seen[t] || b.TagDoc(t) == "" {
				continue
			}
			seen[t] = true
			mark := ""
			if b.Site(i).End != "" {
				mark = "[n] "
			} else if m := b.TagMark(t); m != "" {
				mark = m + " "
			}
			out = append(out, mark+b.TagDoc(t))
		}
	}
	return strings.Join(out, "; ")
}
