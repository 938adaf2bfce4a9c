// Package solve computes the exact value of every position of a small game
// reachable from its opening, by retrograde analysis through the host API:
// the rule script is the only rules.
//
// Semantics. A position is what the repetition rules compare (see State.Key):
// the ply count and the history are not part of it. A position where the
// game is over is terminal and has the script's result (terminal positions
// are told apart by their result, which may depend on the move that reached
// them). From the others,
// a player wins when they can force a terminal win, loses when the opponent
// can force one, and every other position is a draw: from it either side
// can keep the game going for ever or reach a drawn end. Under a
// third-repetition rule endless play ends in a draw by repetition, so these
// are the values of the game under perfect play from the opening (a winner
// never repeats a position, since every winning move brings the end
// nearer). The game's ply cap is not applied. Under perfect play the winner
// hurries and the loser delays: Plies is the number of plies to the end when
// both do.
//
// Only games of two players are solved. A player may move several times in
// a row: values follow ToMove.
package solve

import (
	"context"
	"fmt"

	"github.com/matombo/matombo/host"
)

// Value is the result of a position under perfect play for the player to
// move.
type Value int8

// The values of a position for the player to move.
const (
	Loss Value = -1
	Draw Value = 0
	Win  Value = 1
)

// String returns "win", "draw" or "loss".
func (v Value) String() string {
	switch v {
	case Win:
		return "win"
	case Loss:
		return "loss"
	default:
		return "draw"
	}
}

// For returns the value for player p of a value for player mover.
func (v Value) For(p, mover int) Value {
	if p == mover {
		return v
	}
	return -v
}

// Entry is what the solution knows of one position.
type Entry struct {
	Value    Value // for the player to move
	Plies    int   // plies to the end under perfect play; -1 for a draw
	ToMove   int   // the player to move
	Terminal bool  // the game is over in this position
}

// Counts are how many positions are won, drawn and lost for the player to
// move.
type Counts struct {
	Won   int `json:"won"`
	Drawn int `json:"drawn"`
	Lost  int `json:"lost"`
}

// Solution holds the value of every position reachable from a game's
// opening. It is safe for concurrent reads.
type Solution struct {
	game        string
	fingerprint string
	codec       codec
	index       map[string]int32 // encoding -> position number
	value       []Value
	plies       []int32
	toMove      []uint8
	terminal    []bool
	terminals   int
}

// DefaultMaxPositions is how many positions Solve explores at most unless
// told otherwise.
const DefaultMaxPositions = 2_000_000

// Option changes how Solve works.
type Option func(*config)

type config struct {
	maxPositions int
	progress     func(explored int)
}

// WithMaxPositions sets how many positions Solve explores before it gives
// up with a *TooLargeError.
func WithMaxPositions(n int) Option { return func(c *config) { c.maxPositions = n } }

// WithProgress has Solve report how many positions it has explored, now and
// then.
func WithProgress(f func(explored int)) Option { return func(c *config) { c.progress = f } }

// TooLargeError is returned when a game has more positions than allowed.
type TooLargeError struct {
	Game          string
	MaxPositions  int
	BytesPerPos   int   // the estimate per position
	EstimateBytes int64 // memory the allowed positions would take
}

func (e *TooLargeError) Error() string {
	return fmt.Sprintf("%s has more than %d positions reachable from the opening; solving it needs more than %s (about %d bytes a position): raise --max-positions to try anyway",
		e.Game, e.MaxPositions, FormatBytes(e.EstimateBytes), e.BytesPerPos)
}

// UnsupportedError is returned for games the solver cannot treat.
type UnsupportedError struct {
	Game   string
	Reason string
}

func (e *UnsupportedError) Error() string {
	return fmt.Sprintf("cannot solve %s: %s", e.Game, e.Reason)
}

// BytesPerPosition estimates the memory one position of g takes while it
// is solved: its encoding, its entry in the index, its value and its moves.
func BytesPerPosition(g *host.Game) int {
	s := g.Start()
	enc := newCodec(g).encode(nil, s)
	// map entry (string header, value, bucket overhead) + encoding + value,
	// plies, player, terminal flag + the edges out (4 bytes each) and in.
	return 64 + len(enc) + 8 + 8*max(len(s.Moves()), 1)
}

// FormatBytes writes a number of bytes for people: "12.3 MB".
func FormatBytes(n int64) string {
	switch {
	case n >= 1<<30:
		return fmt.Sprintf("%.1f GB", float64(n)/(1<<30))
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d B", n)
}

// Solve explores every position reachable from g's opening and computes its
// value by retrograde analysis.
func Solve(ctx context.Context, g *host.Game, opts ...Option) (*Solution, error) {
	cfg := config{maxPositions: DefaultMaxPositions}
	for _, o := range opts {
		o(&cfg)
	}
	if g.Players() != 2 {
		return nil, &UnsupportedError{Game: g.Name(), Reason: fmt.Sprintf("it has %d players; the solver treats two", g.Players())}
	}
	sol := &Solution{game: g.Name(), fingerprint: g.Fingerprint(), codec: newCodec(g), index: map[string]int32{}}
	children, err := sol.explore(ctx, g, cfg)
	if err != nil {
		return nil, err
	}
	sol.retrograde(children)
	return sol, nil
}

// graph holds the moves between positions: the children of position i are
// edges[start[i]:start[i+1]].
type graph struct {
	start []int32
	edges []int32
}

// add records position id's children, in order of exploration.
func (gr *graph) add(kids []int32) {
	gr.edges = append(gr.edges, kids...)
	gr.start = append(gr.start, int32(len(gr.edges)))
}

// explore walks every position reachable from the opening, breadth first,
// recording terminal positions and the moves between positions.
func (sol *Solution) explore(ctx context.Context, g *host.Game, cfg config) (graph, error) {
	gr := graph{start: []int32{0}}
	var encs [][]byte // encoding of each position, until it is expanded
	add := func(enc []byte, s *host.State) (int32, error) {
		if id, ok := sol.index[string(enc)]; ok {
			return id, nil
		}
		if len(sol.value) >= cfg.maxPositions {
			bpp := BytesPerPosition(g)
			return 0, &TooLargeError{Game: g.Name(), MaxPositions: cfg.maxPositions, BytesPerPos: bpp, EstimateBytes: int64(bpp) * int64(cfg.maxPositions)}
		}
		id := int32(len(sol.value))
		key := string(enc)
		sol.index[key] = id
		encs = append(encs, []byte(key))
		sol.toMove = append(sol.toMove, uint8(s.ToMove()))
		sol.terminal = append(sol.terminal, s.Over())
		v := Draw
		if s.Over() {
			sol.terminals++
			switch w := s.Outcome().Winner; {
			case w == 0:
			case w == s.ToMove():
				v = Win
			default:
				v = Loss
			}
		}
		sol.value = append(sol.value, v)
		return id, nil
	}
	opening := g.Start()
	if _, err := add(sol.key(nil, opening), opening); err != nil {
		return gr, err
	}
	r := g.NewRunner()
	defer r.Close()
	child, cur := g.Start(), g.Start()
	var buf []byte
	var moves []host.Move
	var kids []int32
	for id := 0; id < len(sol.value); id++ {
		if id%1024 == 0 {
			if err := ctx.Err(); err != nil {
				return gr, err
			}
			if cfg.progress != nil {
				cfg.progress(len(sol.value))
			}
		}
		kids = kids[:0]
		enc := encs[id]
		encs[id] = nil
		if sol.terminal[id] {
			gr.add(nil)
			continue
		}
		s := opening
		if id > 0 {
			if err := sol.codec.decodeInto(r, cur, enc); err != nil {
				return gr, fmt.Errorf("solve %s: %w", g.Name(), err)
			}
			s = cur
			if s.Over() { // the script ends the game when there is no legal move
				sol.markTerminal(int32(id), s)
				gr.add(nil)
				continue
			}
		}
		moves = append(moves[:0], s.Moves()...)
		for _, m := range moves {
			child.CopyFrom(s)
			if err := r.Apply(child, m); err != nil {
				return gr, fmt.Errorf("solve %s: move %s: %w", g.Name(), g.Token(m), err)
			}
			buf = sol.key(buf[:0], child)
			kid, err := add(buf, child)
			if err != nil {
				return gr, err
			}
			kids = append(kids, kid)
		}
		gr.add(kids)
	}
	return gr, nil
}

// markTerminal records that position id is over, as s says.
func (sol *Solution) markTerminal(id int32, s *host.State) {
	sol.terminal[id] = true
	sol.terminals++
	switch w := s.Outcome().Winner; {
	case w == 0:
		sol.value[id] = Draw
	case w == s.ToMove():
		sol.value[id] = Win
	default:
		sol.value[id] = Loss
	}
}

// retrograde computes the values and distances from the terminal positions
// backwards. A position is won as soon as one move reaches a position lost
// for its mover (or won, when the same player moves again), and lost when
// every move reaches a position won for the opponent. Positions are decided
// in order of distance, so a won position gets its shortest win and a lost
// one its longest loss. What stays undecided is a draw.
func (sol *Solution) retrograde(gr graph) {
	n := len(sol.value)
	sol.plies = make([]int32, n)
	// Parents of each position, one per move (a position reached by two
	// moves of the same parent has that parent twice).
	pstart := make([]int32, n+1)
	for _, k := range gr.edges {
		pstart[k+1]++
	}
	for i := 0; i < n; i++ {
		pstart[i+1] += pstart[i]
	}
	parents := make([]int32, len(gr.edges))
	fill := append([]int32(nil), pstart[:n]...)
	for p := 0; p < n; p++ {
		for _, k := range gr.edges[gr.start[p]:gr.start[p+1]] {
			parents[fill[k]] = int32(p)
			fill[k]++
		}
	}
	// left[p]: moves of p not yet known to lose for p's mover.
	left := make([]int32, n)
	decided := make([]bool, n)
	queue := make([]int32, 0, n)
	for i := 0; i < n; i++ {
		left[i] = gr.start[i+1] - gr.start[i]
		sol.plies[i] = -1
		if sol.terminal[i] {
			decided[i] = true
			if sol.value[i] != Draw {
				sol.plies[i] = 0
				queue = append(queue, int32(i))
			}
		}
	}
	for head := 0; head < len(queue); head++ {
		c := queue[head]
		cv, cm, d := sol.value[c], int(sol.toMove[c]), sol.plies[c]
		for _, p := range parents[pstart[c]:pstart[c+1]] {
			if decided[p] {
				continue
			}
			switch cv.For(int(sol.toMove[p]), cm) {
			case Win:
				sol.value[p], sol.plies[p], decided[p] = Win, d+1, true
				queue = append(queue, p)
			case Loss:
				left[p]--
				if left[p] == 0 {
					sol.value[p], sol.plies[p], decided[p] = Loss, d+1, true
					queue = append(queue, p)
				}
			}
		}
	}
	for i := range decided {
		if !decided[i] {
			sol.value[i] = Draw
		}
	}
}

// Game is the name of the solved game.
func (sol *Solution) Game() string { return sol.game }

// Fingerprint identifies the game, variant and parameters solved.
func (sol *Solution) Fingerprint() string { return sol.fingerprint }

// Positions is how many positions are reachable from the opening, terminal
// ones included.
func (sol *Solution) Positions() int { return len(sol.value) }

// Terminals is how many of the positions are over.
func (sol *Solution) Terminals() int { return sol.terminals }

// Counts are how many positions are won, drawn and lost for the player to
// move, terminal ones included.
func (sol *Solution) Counts() Counts {
	var c Counts
	for _, v := range sol.value {
		switch v {
		case Win:
			c.Won++
		case Loss:
			c.Lost++
		default:
			c.Drawn++
		}
	}
	return c
}

// Opening is the entry of the opening position (position 0).
func (sol *Solution) Opening() Entry { return sol.entry(0) }

func (sol *Solution) entry(id int32) Entry {
	return Entry{Value: sol.value[id], Plies: int(sol.plies[id]), ToMove: int(sol.toMove[id]), Terminal: sol.terminal[id]}
}

// key appends the key of s in the index to dst: its position and, when
// the game is over, the winner, since the same position may end the game
// with different results depending on the move that reached it (a player
// who takes the last stone may win or lose by the way they took it).
func (sol *Solution) key(dst []byte, s *host.State) []byte {
	dst = sol.codec.encode(dst, s)
	if s.Over() {
		dst = append(dst, 0xff, byte(s.Outcome().Winner))
	}
	return dst
}

// Lookup returns the entry of s's position; ok is false when the position
// is not reachable from the opening.
func (sol *Solution) Lookup(s *host.State) (e Entry, ok bool) {
	id, ok := sol.index[string(sol.key(nil, s))]
	if !ok {
		return Entry{}, false
	}
	return sol.entry(id), true
}
