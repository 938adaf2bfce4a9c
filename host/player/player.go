// Package player has computer players for any game the host plays: random,
// greedy (one ply), Monte Carlo tree search, alpha-beta and perfect play
// from a solution. They use only package host's public API and work for
// every rule script: they follow State.ToMove, so turns with several
// decisions by one player are searched correctly, and they judge positions
// through an Evaluator, the script's own, the generic one, or one written
// in Go by the embedder.
//
// Players are values built by typed constructors (NewMCTS with an
// MCTSConfig, NewAlphaBeta, NewGreedy, NewRandom, NewPerfect); New builds
// the same players from text specs such as "mcts:time=1s,seed=3" (see
// docs/players.md).
package player

import (
	"context"
	"errors"
	"fmt"
	"math"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/matombo/matombo/host"
	"github.com/matombo/matombo/host/diag"
)

// Player chooses a move for the player to move in s. It must not modify s.
type Player interface {
	Choose(ctx context.Context, s *host.State) (host.Move, error)
}

// ErrGameOver is returned by Choose for a state whose game has ended. Its
// code is "game-over" (host.ErrorCode), and errors.Is finds host.ErrGameOver
// in it too.
var ErrGameOver error = gameOverError{}

type gameOverError struct{}

func (gameOverError) Error() string { return "the game is over: there is no move to choose" }

// Code returns "game-over" (see host.CodeGameOver).
func (gameOverError) Code() string { return host.CodeGameOver }

// Unwrap returns host.ErrGameOver.
func (gameOverError) Unwrap() error { return host.ErrGameOver }

// Stats describes the last search of a player.
type Stats struct {
	Iterations int           // MCTS: playouts, or visits of solved leaves; alpha-beta: positions searched (every move it applies, quiescence's included)
	Nodes      int           // MCTS: nodes in the tree after the search
	Reused     int           // MCTS: nodes kept from the previous search
	Elapsed    time.Duration // time the search took
	Depth      int           // alpha-beta: the deepest iteration completed
}

// StatsOf returns the figures of p's last search: those of a player with
// a Stats method (MCTS and AlphaBeta have one), zero for any other.
func StatsOf(p Player) Stats {
	if sp, ok := p.(interface{ Stats() Stats }); ok {
		return sp.Stats()
	}
	return Stats{}
}

// canceled reports whether err is a script call stopped because ctx ended:
// the end of a search, not its failure.
func canceled(ctx context.Context, err error) bool {
	var ce *host.CanceledError
	return err != nil && ctx.Err() != nil && errors.As(err, &ce)
}

// Option changes how New builds players.
type Option func(*options)

type options struct {
	solutions Solutions
}

// WithSolutions gives New the solution source of the "perfect" player;
// without one, New refuses "perfect".
func WithSolutions(src Solutions) Option { return func(o *options) { o.solutions = src } }

// kind is one entry of the table of players: a name, what it is, the
// settings it accepts besides seed, and how to build it.
type kind struct {
	name     string
	about    string
	settings []string
	build    func(g *host.Game, st settings, o options) (Player, error)
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
		opts := append(slices.Clone(k.settings), "seed")
		out = append(out, fmt.Sprintf("%s (options %s): %s", k.name, strings.Join(opts, ", "), k.about))
	}
	return out
}

// New builds a player from a spec such as "mcts:time=1s,seed=3" for game
// g: it parses the spec and calls the typed constructor (NewMCTS, ...).
// Unknown names or settings are refused with an error listing the valid
// ones (a *SpecError).
func New(g *host.Game, spec string, opts ...Option) (Player, error) {
	sp, err := ParseSpec(spec)
	if err != nil {
		return nil, err
	}
	var o options
	for _, opt := range opts {
		opt(&o)
	}
	i := slices.IndexFunc(kinds(), func(k kind) bool { return k.name == sp.Name })
	if i < 0 {
		return nil, &SpecError{Spec: spec, Problem: fmt.Sprintf("unknown player %q", sp.Name), Allowed: Names()}
	}
	k := kinds()[i]
	st := settings{given: map[string]bool{}}
	allowed := append(slices.Clone(k.settings), "seed")
	for _, o := range sp.Settings {
		if !slices.Contains(allowed, o.Key) {
			return nil, &SpecError{Spec: spec, Problem: fmt.Sprintf("%s has no option %q", k.name, o.Key), Allowed: allowed}
		}
		if err := st.set(o); err != nil {
			return nil, &SpecError{Spec: spec, Problem: err.Error()}
		}
	}
	p, err := k.build(g, st, o)
	if err != nil {
		return nil, &SpecError{Spec: spec, Problem: err.Error(), Err: err}
	}
	return p, nil
}

// settings are the settings of a spec, zero when not given.
type settings struct {
	seed       uint64
	iterations int           // 0: no iteration budget
	time       time.Duration // 0: no time budget
	depth      int           // 0: no depth budget
	threads    int           // searching goroutines
	nodes      int           // node cap of a search tree
	c          float64       // UCT exploration constant
	playout    int           // plies of an MCTS playout before the evaluation
	minimax    float64       // weight of MCTS's implicit minimax values
	generic    bool          // use the generic evaluation even when the script has one
	quiescence int           // alpha-beta's plies of quiescence: 0 the default, -1 none
	given      map[string]bool
}

// eval is the Evaluator of a config: the generic evaluation when the spec
// asks for it, else nil (the script's when it has one).
func (st settings) eval(g *host.Game) Evaluator {
	if st.generic {
		return NewGeneric(g)
	}
	return nil
}

// set applies one setting.
func (st *settings) set(o Setting) error {
	st.given[o.Key] = true
	switch o.Key {
	case "seed":
		n, err := strconv.ParseUint(o.Value, 10, 64)
		if errors.Is(err, strconv.ErrRange) {
			return fmt.Errorf("seed=%s: %w", o.Value, diag.TooLarge(uint64(math.MaxUint64)))
		}
		if err != nil {
			return fmt.Errorf("seed=%s: want a whole number from 0 to %d", o.Value, uint64(math.MaxUint64))
		}
		st.seed = n
	case "time":
		d, err := time.ParseDuration(o.Value)
		if err != nil && durationSyntax.MatchString(o.Value) || err == nil && d > MaxTime {
			// A well-formed duration past time.Duration, or past a day.
			return fmt.Errorf("time=%s: %w", o.Value, diag.TooLarge(MaxTime))
		}
		if err != nil || d <= 0 {
			return fmt.Errorf("time=%s: want a positive duration such as 500ms or 2s", o.Value)
		}
		st.time = d
	case "iterations":
		return positive(o, &st.iterations, maxIterations)
	case "depth":
		return positive(o, &st.depth, maxDepth)
	case "threads":
		if o.Value == "all" {
			st.threads = runtime.GOMAXPROCS(0)
			return nil
		}
		return positive(o, &st.threads, MaxThreads)
	case "nodes":
		return positive(o, &st.nodes, 1<<30)
	case "playout":
		if o.Value == "end" {
			st.playout = -1
			return nil
		}
		n, err := bounded(o, 1, maxPlayout, fmt.Sprintf("end (play to the end) or a whole number of plies from 1 to %d", maxPlayout))
		if err != nil {
			return err
		}
		st.playout = n
	case "eval":
		switch o.Value {
		case "script":
			st.generic = false
		case "generic":
			st.generic = true
		default:
			return fmt.Errorf("eval=%s: want script (the script's evaluate when it has one, the default) or generic", o.Value)
		}
	case "minimax":
		f, err := boundedFloat(o, 1, "a weight from 0 (none) to 1")
		if err != nil {
			return err
		}
		st.minimax = f
		if f == 0 {
			st.minimax = -1
		}
	case "quiescence":
		n, err := bounded(o, 0, maxDepth, fmt.Sprintf("a whole number of plies from 0 (none) to %d", maxDepth))
		if err != nil {
			return err
		}
		st.quiescence = n
		if n == 0 {
			st.quiescence = -1
		}
	case "c":
		f, err := boundedFloat(o, maxC, fmt.Sprintf("a number from 0 to %d", maxC))
		if err != nil {
			return err
		}
		st.c = f
		if f == 0 {
			st.c = noExploration
		}
	default:
		return fmt.Errorf("unknown option %q", o.Key)
	}
	return nil
}

// maxPlayout is the most plies playout= takes; maxC the largest
// exploration constant c= takes.
const (
	maxPlayout = 100000
	maxC       = 100
)

// maxIterations is the most iterations a player setting takes: 2^40, or
// the largest int on a 32-bit machine.
const maxIterations = int(min(1<<40, math.MaxInt))

// MaxTime is the longest time= a player takes to think about one
// decision: a day (a larger one would make a command that asks for a move
// hang for as long).
const MaxTime = 24 * time.Hour

// durationSyntax is what time.ParseDuration accepts, for positive values.
var durationSyntax = regexp.MustCompile(`^\+?([0-9]*(\.[0-9]*)?(ns|us|µs|μs|ms|s|m|h))+$`)

// positive parses a whole number from 1 to limit, refused in the words of
// the command line's flags (diag.ParseBounded).
// bounded parses option o as a whole number from lo to hi: past hi its
// error names the limit, as the flags' do; otherwise it says what the
// option takes (want).
func bounded(o Setting, lo, hi int64, want string) (int, error) {
	n, err := diag.ParseBounded(o.Value, lo, hi)
	if errors.Is(err, diag.ErrTooLarge) {
		return 0, fmt.Errorf("%s=%s: %w", o.Key, o.Value, err)
	}
	if err != nil {
		return 0, fmt.Errorf("%s=%s: want %s", o.Key, o.Value, want)
	}
	return int(n), nil
}

// boundedFloat parses option o as a number from 0 to hi, as bounded does.
func boundedFloat(o Setting, hi float64, want string) (float64, error) {
	f, err := diag.ParseDecimal(o.Value)
	if math.IsInf(f, 1) || err == nil && f > hi {
		return 0, fmt.Errorf("%s=%s: %w", o.Key, o.Value, diag.TooLarge(hi))
	}
	if err != nil || !(f >= 0) {
		return 0, fmt.Errorf("%s=%s: want %s", o.Key, o.Value, want)
	}
	return f, nil
}

func positive(o Setting, dst *int, limit int) error {
	n, err := diag.ParseBounded(o.Value, 1, int64(limit))
	if err != nil {
		return fmt.Errorf("%s=%s: %w", o.Key, o.Value, err)
	}
	*dst = int(n)
	return nil
}
