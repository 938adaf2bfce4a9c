// Package shard splits the exact solve of a game into independent jobs
// whose results merge into the value of the opening and of each of its
// moves, exactly as one solve (package solve's search engine) finds them.
//
// A Plan plays every line of Depth plies from the opening through the
// host's public API: the positions it reaches that are not over are the
// jobs (a position reached by several lines is one job), and those over
// are valued by the script's result. Each job is solved on its own with a
// full window (solve.SolvePosition), so its value is exact, not a bound;
// Merge then takes, in every position of the plan, the best of its moves
// for the player the rules say is to move there (a player who moves
// again after a move, as in sowing games with extra turns, is maximized
// for again, not negated). Jobs share nothing but the game: any batch
// scheduler can run them on any machines, in any order.
package shard

import (
	"context"
	"fmt"
	"slices"

	"github.com/matombo/matombo/host"
	"github.com/matombo/matombo/host/solve"
)

// MaxDepth is the deepest plan.
const MaxDepth = 12

// MaxPositions bounds the positions a plan plays (its tree's nodes).
const MaxPositions = 1 << 18

// Plan is a solve split into jobs: the positions Depth plies from the
// opening (or where the game ends sooner).
type Plan struct {
	Game        string // the game's name
	Fingerprint string // its script, variants and parameters (host.Game.Fingerprint)
	Depth       int
	Jobs        []Job

	g     *host.Game
	start *host.State // the opening
	root  *node
}

// Job is one position to solve: the one the tokens reach from the opening.
type Job struct {
	Index  int      `json:"job"`     // from 0
	Tokens []string `json:"tokens"`  // the line that reaches it from the opening (the first in the script's order of moves)
	ToMove int      `json:"to_move"` // the player to move there
	Lines  int      `json:"lines"`   // the plan's lines that reach it
}

// node is a position of the plan: who is to move, and its job, its moves
// or, when the game is over in it, the script's result.
type node struct {
	token    string // of the move from its parent's position
	mover    int
	children []*node
	job      int   // its job when it is a leaf not over; -1 otherwise
	over     bool  // the game is over in it
	final    score // then, the result for Player 1
}

// DepthError is returned for a depth out of range or one whose plan is
// too large.
type DepthError struct {
	Game      string
	Depth     int
	Positions int // the positions the plan reached before it stopped (too large)
}

func (e *DepthError) Error() string {
	if e.Positions > 0 {
		return fmt.Sprintf("%s: a plan of depth %d plays more than %d positions (shard.MaxPositions): choose a smaller depth", e.Game, e.Depth, MaxPositions)
	}
	return fmt.Sprintf("%s: depth %d: want 1 to %d (shard.MaxDepth)", e.Game, e.Depth, MaxDepth)
}

// NewPlan plays every line of depth plies from g's opening and returns the
// jobs, in the order the script lists the moves; the lines on which the
// game ends sooner are scored by the script. ctx stops it.
func NewPlan(ctx context.Context, g *host.Game, depth int) (*Plan, error) {
	if depth < 1 || depth > MaxDepth {
		return nil, &DepthError{Game: g.Name(), Depth: depth}
	}
	p := &Plan{Game: g.Name(), Fingerprint: g.Fingerprint(), Depth: depth, g: g}
	jobs := map[string]int{} // position encoding -> job
	count := 0
	var grow func(s *host.State, line []string, left int) (*node, error)
	grow = func(s *host.State, line []string, left int) (*node, error) {
		count++
		if count > MaxPositions {
			return nil, &DepthError{Game: g.Name(), Depth: depth, Positions: count}
		}
		if count%1024 == 0 && ctx.Err() != nil {
			return nil, ctx.Err()
		}
		n := &node{mover: s.ToMove(), job: -1}
		if s.Over() {
			pr, err := solve.SolvePosition(ctx, s)
			if err != nil {
				return nil, err
			}
			v, m := forPlayer1(pr.Entry)
			n.over, n.final = true, score{v, m}
			return n, nil
		}
		if left == 0 {
			key := string(s.AppendPosition(nil))
			k, ok := jobs[key]
			if !ok {
				k = len(p.Jobs)
				jobs[key] = k
				p.Jobs = append(p.Jobs, Job{Index: k, Tokens: slices.Clone(line), ToMove: s.ToMove()})
			}
			p.Jobs[k].Lines++
			n.job = k
			return n, nil
		}
		for _, m := range s.Moves() {
			c := s.Clone()
			if err := c.Apply(m); err != nil {
				return nil, fmt.Errorf("%s: playing %s after %v: %w", g.Name(), g.Token(m), line, err)
			}
			tok := g.Token(m)
			child, err := grow(c, append(line, tok), left-1)
			if err != nil {
				return nil, err
			}
			child.token = tok
			n.children = append(n.children, child)
		}
		return n, nil
	}
	p.start = g.Start()
	root, err := grow(p.start.Clone(), nil, depth)
	if err != nil {
		return nil, err
	}
	p.root = root
	return p, nil
}

// Position returns the state of job k, replayed from the opening.
func (p *Plan) Position(k int) (*host.State, error) {
	if k < 0 || k >= len(p.Jobs) {
		return nil, &JobError{Game: p.Game, Job: k, Jobs: len(p.Jobs), Depth: p.Depth}
	}
	return p.g.Replay(p.Jobs[k].Tokens)
}

// JobError is returned for a job number out of the plan's range.
type JobError struct {
	Game  string
	Job   int
	Jobs  int
	Depth int
}

func (e *JobError) Error() string {
	if e.Jobs == 0 {
		return fmt.Sprintf("%s: job %d: the plan of depth %d has no jobs (the game ends sooner)", e.Game, e.Job, e.Depth)
	}
	return fmt.Sprintf("%s: job %d: the plan of depth %d has jobs 0 to %d", e.Game, e.Job, e.Depth, e.Jobs-1)
}
