package host

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/matombo/matombo/host/diag"
	"github.com/matombo/matombo/host/internal/watchdog"
	"github.com/matombo/matombo/host/kernel"
)

// Why a token is not legal: the reason of an IllegalMoveError names the
// part of the token that is wrong and what is possible there, e.g. "a7 is
// not possible for a sow now (possible: a1 a2 a4)", "no continue is
// possible now (Sow from one of your holes)", "z9 is not a site of this
// board", or for a token of no form an example of each kind: "it fits
// none of the ways this game writes its moves: a1 (drop), a1-b1 (move)".

// WhyNot explains to the players why tok is not legal in s: the rule it
// breaks, from the why function of the move kind it is written in, then
// IllegalMoveError.Reason (what part is wrong, what is possible), joined
// by "; "; "" for a legal token. A why function that fails or says
// nothing leaves the host's reason alone. Error messages (and scenarios
// matching them) keep the host's reason only.
func (s *State) WhyNot(tok string) string {
	return diag.ClipText(s.whyNotToken(nil, tok), diag.MaxMessageText)
}

// WhyNotContext is WhyNot, its script calls (the why function, a prompt)
// stopped when ctx is done: a stopped call leaves the host's reason, or
// "" when the token's own reading was stopped.
func (s *State) WhyNotContext(ctx context.Context, tok string) string {
	return diag.ClipText(s.whyNotToken(watchdog.NewCancel(ctx), tok), diag.MaxMessageText)
}

// whyNotToken is WhyNot before its text is bounded.
func (s *State) whyNotToken(cancel *watchdog.Cancel, tok string) string {
	_, err := s.parseMove(cancel, tok)
	var ill *IllegalMoveError
	if err == nil || !errors.As(err, &ill) {
		return ""
	}
	if s.k.Result.Over {
		return ill.Reason
	}
	vm, err := s.g.machineWith(cancel)
	if err != nil {
		return ill.Reason
	}
	defer s.g.release(vm)
	why, ok, err := vm.Why(&s.k, tok)
	if err != nil || !ok {
		return ill.Reason
	}
	return why + "; " + ill.Reason
}

// illegalToken explains why tok is not one of the legal tokens of s, in
// at most diag.MaxMessageText bytes: the reason may quote a part of the
// token (a name that is no site), and a token may be a megabyte long.
func (s *State) illegalToken(cancel *watchdog.Cancel, tok string) string {
	return diag.ClipText(s.illegalTokenReason(cancel, tok), diag.MaxMessageText)
}

// illegalTokenReason is illegalToken before its text is bounded.
func (s *State) illegalTokenReason(cancel *watchdog.Cancel, tok string) string {
	if s.k.Result.Over {
		return "the game is over"
	}
	if strings.TrimSpace(tok) != tok {
		return "a token has no spaces around it"
	}
	if tok == "" {
		return "the token is empty"
	}
	if low := strings.ToLower(tok); low != tok && slices.Contains(s.Legal(), low) {
		return "tokens are written in lower case: " + low
	}
	g := s.g
	// A name that is no site, from the form whose literal text explains
	// most of the token ("xz9" is a take of z9 rather than a sow of xz9).
	unknown, fit := "", -1
	for k := range g.def.Kinds {
		names, ok := g.def.Kinds[k].ParseToken(tok)
		if !ok {
			continue
		}
		sites := make([]int, 0, len(names))
		for _, n := range names {
			if g.def.Kinds[k].Numbers() {
				n = g.def.Board.ByNumberName(n)
			}
			i, ok := g.def.Board.Index(n)
			if !ok {
				if lit := g.def.Kinds[k].LiteralLen(); lit > fit {
					unknown, fit = n, lit
				}
				sites = nil
				break
			}
			sites = append(sites, i)
		}
		if sites != nil || len(names) == 0 {
			return s.whyNot(cancel, k, sites)
		}
	}
	if unknown != "" {
		if kernel.NumberLen(unknown) == len(unknown) {
			return fmt.Sprintf("%s is not a site number of this board (%s)", unknown, g.def.Board.NumberRange())
		}
		return fmt.Sprintf("%s is not a site of this board (%s)", unknown, siteRange(g.def.Board))
	}
	forms := "it fits none of the ways this game writes its moves: " + s.moveForms()
	if site, ok := s.siteAlone(tok); ok {
		return fmt.Sprintf("%s alone is not a move: %s; %s", tok, forms, s.movesNaming(site, tok))
	}
	return forms
}

// siteAlone reports whether tok is only the name of a site of the board,
// or its number when some move kind writes numbers, as a player who means
// "the move from there" types it.
func (s *State) siteAlone(tok string) (int, bool) {
	b := s.g.def.Board
	if i, ok := b.Index(tok); ok {
		return i, true
	}
	for k := range s.g.def.Kinds {
		if s.g.def.Kinds[k].Numbers() {
			if name := b.ByNumberName(tok); name != tok {
				return b.Index(name)
			}
		}
	}
	return 0, false
}

// movesNaming lists the legal moves of s that name site (written as tok).
func (s *State) movesNaming(site int, tok string) string {
	var toks []string
	for _, m := range s.moves() {
		for i := range int(m.N) {
			if m.Site(i) == site {
				toks = append(toks, s.g.Token(m))
				break
			}
		}
	}
	if len(toks) == 0 {
		return "no legal move uses " + tok + " now"
	}
	return "the legal moves that use " + tok + ": " + strings.Join(toks, " ")
}

// whyNot explains why the move of kind k naming sites is not legal in s;
// the script asked (a prompt) stops when cancel is done.
func (s *State) whyNot(cancel *watchdog.Cancel, k int, sites []int) string {
	g := s.g
	kind := &g.def.Kinds[k]
	var same []Move
	for _, m := range s.moves() {
		if int(m.Kind) == k {
			same = append(same, m)
		}
	}
	if len(same) == 0 {
		why := ""
		if p, err := s.prompt(cancel); err == nil && p != "" {
			why = " (" + p + ")"
		} else if legal := s.legalKinds(); legal != "" {
			why = " (the moves now: " + legal + ")"
		}
		return fmt.Sprintf("no %s is possible now%s", kind.Name, why)
	}
	if kind.Arity() < 0 {
		return s.whyNotList(kind, same, sites)
	}
	// The sites in the order the token writes them: placeholder numbers
	// in the template's order of first appearance.
	order := kind.SiteOrder()
	for w, j := range order {
		var possible []int
		for _, m := range same {
			if agreeAt(m, sites, order[:w]) {
				possible = append(possible, int(m.Sites[j]))
			}
		}
		if slices.Contains(possible, sites[j]) {
			continue
		}
		what := kind.SiteList(g.def.Board, possible)
		name := kind.SiteText(g.def.Board, sites[j])
		switch {
		case kind.Arity() == 1:
			return fmt.Sprintf("%s is not possible for %s now (possible: %s)", name, withArticle(kind.Name), what)
		case w == 0:
			return fmt.Sprintf("%s is not possible as the first site of %s now (possible: %s)", name, withArticle(kind.Name), what)
		default:
			before := make([]string, w)
			for i, x := range order[:w] {
				before[i] = kind.SiteText(g.def.Board, sites[x])
			}
			return fmt.Sprintf("after %s, %s is not possible for %s now (possible: %s)", strings.Join(before, " "), name, withArticle(kind.Name), what)
		}
	}
	return fmt.Sprintf("this %s is not possible now", kind.Name)
}

// whyNotList explains why a move of a kind that names a list of sites is
// not legal: a site no legal move names, sites in another order, or a
// number of sites no legal move has.
func (s *State) whyNotList(kind *MoveKind, same []Move, sites []int) string {
	b := s.g.def.Board
	seen := map[int]bool{}
	var all []int
	lo, hi := MaxMoveSites, 0
	for _, m := range same {
		lo, hi = min(lo, int(m.N)), max(hi, int(m.N))
		for i := 0; i < int(m.N); i++ {
			if x := int(m.Sites[i]); !seen[x] {
				seen[x] = true
				all = append(all, x)
			}
		}
	}
	for _, x := range sites {
		if !seen[x] {
			return fmt.Sprintf("%s is not possible in %s now (possible sites: %s)", kind.SiteText(b, x), withArticle(kind.Name), kind.SiteList(b, all))
		}
	}
	sorted := slices.Sorted(slices.Values(sites))
	for _, m := range same {
		ms := make([]int, m.N)
		for i := range ms {
			ms[i] = int(m.Sites[i])
		}
		if slices.Equal(slices.Sorted(slices.Values(ms)), sorted) {
			return fmt.Sprintf("the sites are written in this order: %s", kind.Format(b, m))
		}
	}
	if n := len(sites); n < lo || n > hi {
		count := fmt.Sprintf("%d to %d sites", lo, hi)
		if lo == hi {
			count = fmt.Sprintf("%d site", lo)
			if lo > 1 {
				count += "s"
			}
		}
		return fmt.Sprintf("%s names %s now, this one %d", withArticle(kind.Name), count, n)
	}
	return fmt.Sprintf("these sites together are not possible in %s now", withArticle(kind.Name))
}

// agreeAt reports whether m names the same sites as sites at the
// placeholder indices at.
func agreeAt(m Move, sites []int, at []int) bool {
	for _, j := range at {
		if int(m.Sites[j]) != sites[j] {
			return false
		}
	}
	return true
}

// withArticle puts "a" or "an" before a kind's name: "a sow", "an offer".
func withArticle(name string) string {
	if name != "" && strings.ContainsRune("aeiou", rune(name[0])) {
		return "an " + name
	}
	return "a " + name
}

// legalKinds names the kinds of the legal moves, in declaration order.
func (s *State) legalKinds() string {
	var used [256]bool
	for _, m := range s.moves() {
		used[m.Kind] = true
	}
	var names []string
	for k, kind := range s.g.def.Kinds {
		if used[k] {
			names = append(names, kind.Name)
		}
	}
	return strings.Join(names, ", ")
}

// moveForms describes how the game writes its moves, by an example of
// each kind with its name when the example does not say it: "a1 (drop),
// a1-b1 (move), pass"; a kind with no legal move now by its form, which
// names no move that cannot be made: "<from>x<to> (jump, none now)". Where
// a kind writes sites by number, it says which site one number is: "12-16
// (move), where 12 is the number of the site c12".
func (s *State) moveForms() string {
	b := s.g.def.Board
	forms := make([]string, len(s.g.def.Kinds))
	numbered := -1
	for k := range forms {
		kind := &s.g.def.Kinds[k]
		m, ok := s.exampleMove(k)
		forms[k] = moveForm(kind, b, m, ok)
		if ok && numbered < 0 && kind.Numbers() && m.N > 0 {
			numbered = m.Site(0)
		}
	}
	text := strings.Join(forms, ", ")
	if numbered >= 0 {
		text += fmt.Sprintf(", where %s is the number of the site %s", b.SiteNumber(numbered), b.SiteName(numbered))
	}
	return text
}

// moveForm writes kind's example m with the kind's name, and for a kind
// that names a list of sites how many it may name: "offer:a4,c1 (offer, 1
// to 4 sites separated by commas)". Without an example (ok false) it
// writes the kind's form and that it has no move now: "x<site> (take, none
// now)", "continue (none now)".
func moveForm(kind *MoveKind, b *Board, m Move, ok bool) string {
	example := kind.Form()
	if ok {
		example = kind.Format(b, m)
	}
	var notes []string
	if example != kind.Name {
		notes = append(notes, kind.Name)
	}
	if kind.Arity() < 0 {
		notes = append(notes, fmt.Sprintf("1 to %d sites separated by commas", MaxMoveSites))
	}
	if !ok {
		notes = append(notes, "none now")
	}
	if len(notes) == 0 {
		return example
	}
	return example + " (" + strings.Join(notes, ", ") + ")"
}

// exampleMove returns a legal move of s of kind k (for a kind of lists,
// one naming several sites where s has one); false when s has none.
func (s *State) exampleMove(k int) (Move, bool) {
	first := -1 // the first legal move of the kind
	for i, m := range s.moves() {
		if int(m.Kind) != k {
			continue
		}
		if m.N > 1 {
			return m, true
		}
		if first < 0 {
			first = i
		}
	}
	if first < 0 {
		return Move{}, false
	}
	return s.moves()[first], true
}

// siteList writes site names in board order, without repeats.
func siteNames(b *Board, sites []int) string {
	sorted := slices.Compact(slices.Sorted(slices.Values(sites)))
	names := make([]string, len(sorted))
	for i, x := range sorted {
		names[i] = b.SiteName(x)
	}
	return strings.Join(names, " ")
}

// siteRange describes the board's sites: "sites a1 to d8", or all of
// them on a small board that is not a grid.
func siteRange(b *Board) string {
	if !b.Grid() && b.NumSites() <= 24 {
		names := make([]string, b.NumSites())
		for i := range names {
			s := b.Site(i)
			names[i] = s.Name
		}
		return "its sites: " + strings.Join(names, " ")
	}
	var rows []string
	for r := range b.NumRows() {
		row := b.Row(r)
		rows = append(rows, fmt.Sprintf("%s to %s", b.SiteName(int(row[0])), b.SiteName(int(row[len(row)-1]))))
	}
	return "its sites: " + strings.Join(rows, ", ")
}
