package server

import (
	"context"
	"encoding/json"
	"slices"
	"strconv"
	"time"

	"github.com/matombo/matombo/host"
	"github.com/matombo/matombo/host/store"
)

// snapshot is what a game's cache entry showed after a change the store
// had committed: made by the holder of the entry's lock, never changed
// after. The reads of the game answer from it without the lock (see
// Server.shown), so that a read never waits for a move whose script call
// runs long, and never sees a move the store has not taken.
type snapshot struct {
	game    *host.Game
	stored  *store.Game // the stored game the entry showed; read only
	updated time.Time   // the entry's updated
	record  []string
	movers  []int
	state   *host.State // the state after record: a copy nobody changes
	last    *moveView
	// marks and spacing are the entry's checkpoints (see entry.mark): a
	// copy of the list; the states it holds are never changed.
	marks   []*host.State
	spacing int
	// The view of state as the stored game's result shows it (see
	// ended): its JSON and legal moves, made once for every read.
	endedBy   string // endedKey of the result they were made for
	stateJSON json.RawMessage
	moves     []moveView
	source    *host.State // the entry's state they were made from
}

// publish makes e's snapshot show what e shows now, reusing the view of
// the state of the last one when the state and its ending are the same.
// The caller holds e's lock and has just changed e to a stored game the
// store committed.
func (e *entry) publish() {
	prev := e.shown.Load()
	p := &snapshot{game: e.game, stored: e.stored, updated: e.updated, record: e.record, movers: e.movers,
		last: e.last, marks: slices.Clone(e.marks), spacing: e.spacing, source: e.state}
	var result *store.Result
	if e.stored != nil {
		result = e.stored.Result
	}
	p.endedBy = endedKey(result)
	if prev != nil && prev.source == e.state && prev.endedBy == p.endedBy {
		p.state, p.stateJSON, p.moves = prev.state, prev.stateJSON, prev.moves
	} else {
		p.state = e.state.Clone()
		p.stateJSON, p.moves = stateView(ended(e.state, result))
	}
	e.shown.Store(p)
}

// stateView is the JSON and the legal moves of st, as a game's view
// shows them; the JSON is null when the script's score or prompt fails.
func stateView(st *host.State) (json.RawMessage, []moveView) {
	b, _ := json.Marshal(st)
	return b, movesView(st)
}

// endedKey names how a result ends a state the rules have not ended (see
// ended): "" for none.
func endedKey(r *store.Result) string {
	if r == nil || (r.Method != methodResignation && r.Method != methodAgreement) {
		return ""
	}
	return r.Method + "/" + strconv.Itoa(r.Winner)
}

// shows reports whether p shows the stored game sg, or a change made
// after it: its record holds sg's, and when sg's is shorter, sg was read
// before the change that made it longer.
func (p *snapshot) shows(sg *store.Game) bool {
	if p == nil || !isPrefix(sg.Record, p.record) {
		return false
	}
	if len(sg.Record) == len(p.record) {
		return p.stored == nil || !sg.Updated.After(p.stored.Updated)
	}
	return !sg.Updated.After(p.updated)
}

// stateAt returns a state after ply moves of p's record and the move
// that led to it, from the checkpoint before it, on a copy; ctx stops the
// replay. 0 <= ply <= len(p.record).
func (p *snapshot) stateAt(ctx context.Context, ply int) (*host.State, *moveView, error) {
	if ply == len(p.record) {
		return p.state.Clone(), p.last, nil
	}
	return replayFrom(ctx, p.game, p.marks, p.spacing, p.record, ply)
}

// replayFrom returns the state after ply moves of record, and the move
// that led to it, on a copy of the checkpoint before it among marks (the
// states after 0, spacing, 2*spacing ... moves; from g's opening when
// there are none); ctx stops the replay.
func replayFrom(ctx context.Context, g *host.Game, marks []*host.State, spacing int, record []string, ply int) (*host.State, *moveView, error) {
	var st *host.State
	from := 0
	if len(marks) == 0 {
		st = g.Start()
	} else {
		k := min(ply/spacing, len(marks)-1)
		if k*spacing == ply && ply > 0 {
			k-- // the move that led here: replay it from the checkpoint before
		}
		st, from = marks[k].Clone(), k*spacing
	}
	last, _, err := replay(ctx, st, record[from:ply], nil, 0)
	if err != nil {
		return nil, nil, err
	}
	return st, last, nil
}

// at is the API's JSON of stored game sg at ply, whose record p holds
// (p.shows(sg)); a ply before p's current one is replayed from a
// checkpoint, and ctx stops that.
func (p *snapshot) at(ctx context.Context, sg *store.Game, ply int) (*gameView, error) {
	now := ply == len(sg.Record)
	var state json.RawMessage
	var moves []moveView
	last := p.last
	switch {
	case ply == len(p.record) && endedKey(sg.Result) == p.endedBy:
		state, moves = p.stateJSON, p.moves
	default:
		st, l, err := p.stateAt(ctx, ply)
		if err != nil {
			return nil, err
		}
		if now {
			st = ended(st, sg.Result) // a resignation or a draw agreed, as the state says it
		}
		state, moves = stateView(st)
		last = l
	}
	movers := p.movers[:min(len(sg.Record), len(p.movers))]
	return newGameView(sg, p.game, state, moves, last, movers, ply), nil
}
