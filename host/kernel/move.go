package kernel

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// MaxMoveSites is the largest number of sites one move can name.
const MaxMoveSites = 4

// Move is one decision in compact form: a move kind the script declared and
// up to MaxMoveSites sites. Moves are comparable values; the text of a move
// (its token) depends on the game, see Game.Token and State.ParseMove.
//
// A move also carries the identity of the game (script, variants and
// parameters) whose state listed it, so a state of another game refuses it.
// Moves are made by states (Moves, ParseMove); the zero Move, NoMove, is
// never legal, so it can mean "no move" in a table.
//
// Kind is the index of the kind in the script's declaration order: it is
// not stable across edits of the script. Tokens (Game.Token) are the stable
// form for storage.
type Move struct {
	Kind  uint8                // index of the kind in the game's declaration order
	N     uint8                // how many of Sites are used
	Sites [MaxMoveSites]uint16 // site indices
	game  uint32               // identity of the game that listed the move; 0 for none
}

// NoMove is the zero Move: no state lists it as legal.
var NoMove Move

// IsZero reports whether m is NoMove, the zero Move.
func (m Move) IsZero() bool { return m == NoMove }

// Site returns the k-th site of the move, or -1 when the move has fewer.
func (m Move) Site(k int) int {
	if k < 0 || k >= int(m.N) {
		return -1
	}
	return int(m.Sites[k])
}

// MoveKind is a kind of move a script declares, with the template of its
// tokens.
type MoveKind struct {
	Name     string
	Template string
	Prompt   string // what a move of this kind does, for the players, e.g. "Capture a hole of your choice"; "" for none
	// Doc names a move of this kind in the players' words, with the
	// template's placeholders for its sites, e.g. "Offer {sites}" or
	// "Sow from {1}"; "" for none.
	Doc string

	parts   []tmplPart
	arity   int  // number of sites; -1 for a list of 1..MaxMoveSites sites
	numbers bool // the template writes sites by number ({#1}, see sitenumbers.go)
}

// NewMoveKind makes a kind of move from its name and token template, such
// as "x{1}", "{from}-{to}" or "offer:{sites}".
func NewMoveKind(name, template, prompt string) (MoveKind, error) {
	parts, arity, err := parseTemplate(template)
	if err != nil {
		return MoveKind{}, err
	}
	k := MoveKind{Name: name, Template: template, Prompt: prompt, parts: parts, arity: arity}
	for _, p := range parts {
		k.numbers = k.numbers || p.num
	}
	return k, nil
}

// Arity is the number of sites a move of the kind names; -1 for a list of
// 1 to MaxMoveSites sites.
func (k *MoveKind) Arity() int { return k.arity }

// WithGame returns m carrying the identity tag of the game that lists it.
func (m Move) WithGame(tag uint32) Move {
	m.game = tag
	return m
}

// Game is the identity tag of the game that listed m, 0 for none.
func (m Move) Game() uint32 { return m.game }

type tmplPart struct {
	lit  string
	site int  // 0 for literal text, 1..4 for a site, -1 for the list of all sites
	num  bool // the site is written by the number of its name ({#1})
}

// parseTemplate splits a token template such as "x{1}", "{from}-{to}",
// "{#from}-{#to}" or "offer:{sites}" into its parts.
func parseTemplate(t string) ([]tmplPart, int, error) {
	if t == "" {
		return nil, 0, fmt.Errorf("empty token template")
	}
	var parts []tmplPart
	arity := 0
	list := false
	rest := t
	for rest != "" {
		i := strings.IndexByte(rest, '{')
		if i < 0 {
			parts = append(parts, tmplPart{lit: rest})
			break
		}
		if i > 0 {
			parts = append(parts, tmplPart{lit: rest[:i]})
		}
		j := strings.IndexByte(rest[i:], '}')
		if j < 0 {
			return nil, 0, fmt.Errorf("template %q: unclosed {", t)
		}
		name := rest[i+1 : i+j]
		rest = rest[i+j+1:]
		num := false
		if len(name) > 1 && name[0] == '#' {
			name, num = name[1:], true
		}
		var k int
		switch name {
		case "from":
			k = 1
		case "to":
			k = 2
		case "sites":
			k = -1
			list = true
		default:
			n, err := strconv.Atoi(name)
			if err != nil || n < 1 || n > MaxMoveSites {
				return nil, 0, fmt.Errorf("template %q: unknown placeholder {%s} (use {1}..{%d}, {from}, {to} or {sites}, or with # for the site's number: {#1}, {#from})", t, name, MaxMoveSites)
			}
			k = n
		}
		if k > arity {
			arity = k
		}
		parts = append(parts, tmplPart{site: k, num: num})
	}
	byNumber, byName := false, false
	for _, p := range parts {
		byNumber = byNumber || p.site != 0 && p.num
		byName = byName || p.site != 0 && !p.num
	}
	if byNumber && byName {
		return nil, 0, fmt.Errorf("template %q: its sites are written all by number ({#1}) or all by name ({1})", t)
	}
	for i, p := range parts {
		if !p.num || i+1 == len(parts) {
			continue
		}
		if next := parts[i+1]; next.site != 0 || next.lit[0] >= '0' && next.lit[0] <= '9' {
			return nil, 0, fmt.Errorf("template %q: a site written by number must be followed by text that is not a digit, or end the token (11-15, not 1115)", t)
		}
	}
	for _, p := range parts {
		if p.site == 0 && strings.ContainsAny(p.lit, " \t\r\n") {
			return nil, 0, fmt.Errorf("template %q: a token contains no spaces", t)
		}
	}
	if list {
		if arity > 0 {
			return nil, 0, fmt.Errorf("template %q: {sites} cannot be mixed with numbered sites", t)
		}
		arity = -1
	}
	for k := 1; k <= arity; k++ {
		used := false
		for _, p := range parts {
			used = used || p.site == k
		}
		if !used {
			return nil, 0, fmt.Errorf("template %q names site {%d} but not site {%d}: tokens must show every site of the move", t, arity, k)
		}
	}
	return parts, arity, nil
}

// Format writes the token of move m.
func (k *MoveKind) Format(b *Board, m Move) string {
	return string(k.AppendToken(make([]byte, 0, 16), b, m))
}

// AppendToken appends the token of move m to dst.
func (k *MoveKind) AppendToken(dst []byte, b *Board, m Move) []byte {
	for _, p := range k.parts {
		switch {
		case p.site == 0:
			dst = append(dst, p.lit...)
		case p.site < 0:
			for i := 0; i < int(m.N); i++ {
				if i > 0 {
					dst = append(dst, ',')
				}
				dst = append(dst, siteToken(b, int(m.Sites[i]), p.num)...)
			}
		default:
			dst = append(dst, siteToken(b, m.Site(p.site-1), p.num)...)
		}
	}
	return dst
}

// Form writes the kind's tokens for people without naming a move: its
// template with each site as what it stands for (Abstract): "<site>",
// "<from>x<to>", "offer:<sites>". It stands for a kind where no move of
// it can be shown.
func (k *MoveKind) Form() string { return k.Abstract(k.Template) }

// Abstract writes text (the kind's template or its Doc) with each site
// placeholder, {1} or {#1} alike, as what it stands for, in angle
// brackets: <site> for a kind of one site, <from> and <to> for a kind of
// two, <site1> to <site4> for more, <sites> for a list.
func (k *MoveKind) Abstract(text string) string {
	var pairs []string
	for n := 1; n <= MaxMoveSites; n++ {
		word := fmt.Sprintf("<site%d>", n)
		switch {
		case k.arity == 1 && n == 1:
			word = "<site>"
		case k.arity == 2 && n <= 2:
			word = []string{"<from>", "<to>"}[n-1]
		}
		pairs = append(pairs, fmt.Sprintf("{%d}", n), word, fmt.Sprintf("{#%d}", n), word)
		if n <= 2 {
			name := []string{"from", "to"}[n-1]
			pairs = append(pairs, "{"+name+"}", word, "{#"+name+"}", word)
		}
	}
	pairs = append(pairs, "{sites}", "<sites>", "{#sites}", "<sites>")
	return strings.NewReplacer(pairs...).Replace(text)
}

// ParseToken reads tok with the template of kind k: the site names it
// puts where the template has sites, or ok false when the literal text
// does not fit.
func (k *MoveKind) ParseToken(tok string) (names []string, ok bool) {
	byPlace := map[int]string{}
	var list []string
	rest := tok
	for i, p := range k.parts {
		switch {
		case p.site == 0:
			if !strings.HasPrefix(rest, p.lit) {
				return nil, false
			}
			rest = rest[len(p.lit):]
		case p.site < 0:
			end := len(rest)
			if i+1 < len(k.parts) {
				end = strings.Index(rest, k.parts[i+1].lit)
				if end < 0 {
					return nil, false
				}
			}
			if end == 0 {
				return nil, false
			}
			list = strings.Split(rest[:end], ",")
			rest = rest[end:]
		default:
			n := SiteNameLen(rest)
			if p.num {
				n = NumberLen(rest)
			}
			if n == 0 {
				return nil, false
			}
			if prev, seen := byPlace[p.site]; seen && prev != rest[:n] {
				return nil, false
			}
			byPlace[p.site] = rest[:n]
			rest = rest[n:]
		}
	}
	if rest != "" {
		return nil, false
	}
	if k.arity < 0 {
		return list, true
	}
	for s := 1; s <= k.arity; s++ {
		names = append(names, byPlace[s])
	}
	return names, true
}

// LiteralLen is the length of the template's literal text.
func (k *MoveKind) LiteralLen() int {
	n := 0
	for _, p := range k.parts {
		n += len(p.lit)
	}
	return n
}

// SiteNameLen is the length of the site name (letters, then digits) at
// the start of s, 0 when there is none.
func SiteNameLen(s string) int {
	i := 0
	for i < len(s) && (s[i] >= 'a' && s[i] <= 'z' || s[i] >= 'A' && s[i] <= 'Z') {
		i++
	}
	j := i
	for j < len(s) && s[j] >= '0' && s[j] <= '9' {
		j++
	}
	if i == 0 || j == i || j-i > maxSiteName {
		return 0
	}
	return j
}

// SiteOrder returns the places of a move's sites (from 0) in the order
// its token writes them: the placeholders in the template's order of
// first appearance.
func (k *MoveKind) SiteOrder() []int {
	var order []int
	for _, p := range k.parts {
		if p.site > 0 && !slices.Contains(order, p.site-1) {
			order = append(order, p.site-1)
		}
	}
	return order
}
