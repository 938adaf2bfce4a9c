// Package player has computer players for any game the host plays: random,
// greedy (one ply), Monte Carlo tree search and alpha-beta. They use only
// package host's public API and work for every rule script: they follow
// State.ToMove, so turns with several decisions by one player are searched
// correctly, and they judge positions through an Evaluator.
//
// Players are built from text specs such as "mcts:time=1s,seed=3"; see New
// and docs/players.md.
package player

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/matombo/matombo/host"
)

// Player chooses a move for the player to move in s. It must not modify s.
type Player interface {
	Choose(ctx context.Context, s *host.State) (host.Move, error)
}

// ErrGameOver is returned by Choose for a state whose game has ended.
var ErrGameOver = errors.New("the game is over: there is no move to choose")

// kind is one entry of the table of players: a name, what it is, the
// options it accepts besides seed, and how to build it.
type kind struct {
	name    string
	about   string
	options []string
	build   func(g *host.Game, st settings) (Player, error)
}

// kinds is the table of players, in the order Names lists them. A new
// player is one more entry.
func kinds() []kind {
	return []kind{randomKind, greedyKind, mctsKind, alphabetaKind, perfectKind}
}

// Names lists the valid player names.
func Names() []string {
	var out []string
	for _, k := range kinds() {
		out = append(out, k.name)
	}
	return out
}

// Describe returns one line per player: its name, its options and what it
// does, for help texts.
func Describe() []string {
	var out []string
	for _, k := range kinds() {
		opts := append(slices.Clone(k.options), "seed")
		out = append(out, fmt.Sprintf("%s (options %s): %s", k.name, strings.Join(opts, ", "), k.about))
	}
	return out
}

// New builds a player from a spec such as "mcts:time=1s,seed=3" for game g.
// Unknown names or options are refused with an error listing the valid ones
// (a *SpecError).
func New(g *host.Game, spec string) (Player, error) {
	sp, err := ParseSpec(spec)
	if err != nil {
		return nil, err
	}
	i := slices.IndexFunc(kinds(), func(k kind) bool { return k.name == sp.Name })
	if i < 0 {
		return nil, &SpecError{Spec: spec, Problem: fmt.Sprintf("unknown player %q", sp.Name), Allowed: Names()}
	}
	k := kinds()[i]
	st := defaults()
	allowed := append(slices.Clone(k.options), "seed")
	for _, o := range sp.Options {
		if !slices.Contains(allowed, o.Key) {
			return nil, &SpecError{Spec: spec, Problem: fmt.Sprintf("%s has no option %q", k.name, o.Key), Allowed: allowed}
		}
		if err := st.set(o); err != nil {
			return nil, &SpecError{Spec: spec, Problem: err.Error()}
		}
	}
	p, err := k.build(g, st)
	if err != nil {
		return nil, &SpecError{Spec: spec, Problem: err.Error()}
	}
	return p, nil
}

// settings are the options of a spec, with their defaults.
type settings struct {
	seed       uint64
	iterations int           // 0: no iteration budget
	time       time.Duration // 0: no time budget
	depth      int           // 0: no depth budget
	threads    int           // searching goroutines
	nodes      int           // node cap of a search tree
	c          float64       // UCT exploration constant
	generic    bool          // use the generic evaluation even when the script has one
	given      map[string]bool
}

// defaults are the settings before a spec's options.
func defaults() settings {
	return settings{threads: 1, nodes: 500_000, c: 1.0, given: map[string]bool{}}
}

// set applies one option.
func (st *settings) set(o Option) error {
	st.given[o.Key] = true
	switch o.Key {
	case "seed":
		n, err := strconv.ParseUint(o.Value, 10, 64)
		if err != nil {
			return fmt.Errorf("seed=%s: want a whole number >= 0", o.Value)
		}
		st.seed = n
	case "time":
		d, err := time.ParseDuration(o.Value)
		if err != nil || d <= 0 {
			return fmt.Errorf("time=%s: want a positive duration such as 500ms or 2s", o.Value)
		}
		st.time = d
	case "iterations":
		return positive(o, &st.iterations, 1<<40)
	case "depth":
		return positive(o, &st.depth, 64)
	case "threads":
		if o.Value == "all" {
			st.threads = runtime.GOMAXPROCS(0)
			return nil
		}
		return positive(o, &st.threads, 1024)
	case "nodes":
		return positive(o, &st.nodes, 1<<30)
	case "eval":
		switch o.Value {
		case "script":
			st.generic = false
		case "generic":
			st.generic = true
		default:
			return fmt.Errorf("eval=%s: want script (the script's evaluate when it has one, the default) or generic", o.Value)
		}
	case "c":
		f, err := strconv.ParseFloat(o.Value, 64)
		if err != nil || !(f >= 0 && f <= 100) {
			return fmt.Errorf("c=%s: want a number from 0 to 100", o.Value)
		}
		st.c = f
	default:
		return fmt.Errorf("unknown option %q", o.Key)
	}
	return nil
}

// positive parses a whole number from 1 to limit.
func positive(o Option, dst *int, limit int) error {
	n, err := strconv.Atoi(o.Value)
	if err != nil || n < 1 || n > limit {
		return fmt.Errorf("%s=%s: want a whole number from 1 to %d", o.Key, o.Value, limit)
	}
	*dst = n
	return nil
}
