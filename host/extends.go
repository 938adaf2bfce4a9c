package host

import (
	"fmt"
	"io"

	"github.com/matombo/matombo/host/diag"
	"github.com/matombo/matombo/host/luavm"
	"github.com/matombo/matombo/host/params"
)

// A script may extend another game: it calls
//
//	matombo.extends("BASE", { title = ..., description = ..., replace = { RULE = function(base, ...) ... end } })
//
// which runs BASE's script in the same machine, with the named rule points
// of BASE replaced, and returns what BASE's script returned. A script
// offers a rule point by writing a rule function as
//
//	local t8_capture = matombo.rule("t8_capture", function(p, last, was_empty) ... end)
//
// matombo.rule returns the function itself, or the replacement an
// extending script gave, called with the replaced function first. The
// library finds BASE before the script runs (the name is a literal
// string), so BASE's variants files and rules page count for the game too.

// Extension tells how a game extends another one (see docs/extending.md).
type Extension struct {
	Base     string   // the name of the game extended
	File     string   // the base game's script
	Source   string   // where the base game was found, as Game.Source
	Rules    string   // the base game's rules page from its folder, if it has one
	Replaced []string // the rule points the game replaces, sorted
}

// Extends reports which game g extends and which of its rules g replaces;
// ok is false for a game that extends none.
func (g *Game) Extends() (ext Extension, ok bool) {
	if len(g.prog.Bases) == 0 {
		return Extension{}, false
	}
	b := g.prog.Bases[0]
	return Extension{Base: b.Name, File: b.File, Source: b.Source, Rules: b.Rules,
		Replaced: append([]string(nil), g.replaced...)}, true
}

// RulePoints lists the named rules of the game's script that an extending
// script may replace (matombo.rule), in the order the script declares them.
func (g *Game) RulePoints() []string { return append([]string(nil), g.rulePoints...) }

// resolveBases follows the chain of games a script extends. idx is the
// layer the script comes from: a script extending a game of its own name
// extends the one of a lower layer. Variants files of each base (of the
// layers it is looked up in) come first in the returned list, deepest base
// first, so the extending game's own variants override them. The sources
// of the bases are written to sources, for the game's fingerprint.
func (l *Library) resolveBases(layers []layer, idx int, name, file string, src []byte, sources io.Writer) ([]luavm.Base, []*params.File, error) {
	var chain []luavm.Base
	var vfiles []*params.File
	seen := map[string]bool{file: true}
	for depth := 0; ; depth++ {
		base, line, ok, err := luavm.ExtendsCall(file, src)
		if err != nil {
			return nil, nil, err
		}
		if !ok {
			return chain, vfiles, nil
		}
		if depth == luavm.MaxExtendsDepth {
			return nil, nil, &ConfigError{Pos: Pos{File: file, Line: line}, Msg: fmt.Sprintf("games extend games more than %d deep", luavm.MaxExtendsDepth)}
		}
		limit := len(layers)
		if base == name {
			limit = idx
		}
		bi, rel := -1, ""
		for i := limit - 1; i >= 0 && bi < 0; i-- {
			if r, ok := layers[i].script(base); ok {
				bi, rel = i, r
			}
		}
		if bi < 0 {
			msg := fmt.Sprintf("the script extends the unknown game %q", base)
			if base == name {
				msg = fmt.Sprintf("the script extends %q, its own name, but no folder before it has a game %q", base, base)
			}
			return nil, nil, &ConfigError{Pos: Pos{File: file, Line: line}, Msg: msg, Allowed: extendable(layers[:limit], name)}
		}
		ly := &layers[bi]
		bfile := ly.path(rel)
		if seen[bfile] {
			return nil, nil, &ConfigError{Pos: Pos{File: file, Line: line}, Msg: fmt.Sprintf("the script extends %q, which extends it again (%s)", base, bfile)}
		}
		seen[bfile] = true
		bsrc, err := readLimited(ly, rel)
		if err != nil {
			return nil, nil, err
		}
		fmt.Fprintf(sources, "base script %d\n", len(bsrc))
		sources.Write(bsrc)
		proto, err := l.compile(bfile, bsrc)
		if err != nil {
			return nil, nil, err
		}
		b := luavm.Base{Name: base, File: bfile, Source: ly.root, Proto: proto}
		var own []*params.File
		for i := 0; i < limit; i++ {
			if r, ok := layers[i].gameFile(base, "variants.yaml"); ok && base != name {
				vsrc, err := readLimited(&layers[i], r)
				if err != nil {
					return nil, nil, err
				}
				vf, err := params.Parse(layers[i].path(r), vsrc)
				if err != nil {
					return nil, nil, err
				}
				fp := vf.Fingerprinted()
				fmt.Fprintf(sources, "base variants %d\n", len(fp))
				sources.Write(fp)
				own = append(own, vf)
			}
			if r, ok := layers[i].gameFile(base, "rules.md"); ok {
				page, err := readLimited(&layers[i], r)
				if err != nil {
					return nil, nil, err
				}
				// Shown by the extending game (matombo rules): checked
				// as the base's own load checks it.
				if err := diag.CheckPage(layers[i].path(r), string(page)); err != nil {
					return nil, nil, err
				}
				b.Rules = string(page)
			}
		}
		chain = append(chain, b)
		vfiles = append(own, vfiles...)
		name, idx, file, src = base, bi, bfile, bsrc
	}
}

// extendable lists the games of layers that the script of game name may
// extend: those the layers hold (the bases library's included), but name.
func extendable(layers []layer, name string) []string {
	var out []string
	for _, g := range gamesIn(layers) {
		if g != name {
			out = append(out, g)
		}
	}
	return out
}

// SetBases makes the games of b available to scripts of l that extend a
// game (matombo.extends), below l's own folders; l's games stay l's own.
// A checker uses it to check a folder on its own while its scripts extend
// shipped games.
func (l *Library) SetBases(b *Library) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.bases = b
}

// baseLayers returns the layers extended games are looked up in: those of
// the bases library, then l's own (the given copy).
func (l *Library) baseLayers(own []layer) []layer {
	l.mu.Lock()
	b := l.bases
	l.mu.Unlock()
	if b == nil {
		return own
	}
	b.mu.Lock()
	below := append([]layer(nil), b.layers...)
	b.mu.Unlock()
	return append(below, own...)
}
