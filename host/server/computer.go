package server

import (
	"context"
	"errors"
	"time"

	"github.com/matombo/matombo/host"
	"github.com/matombo/matombo/host/store"
)

// worker plays computer moves until the server closes: it claims a game
// whose seat to move is a computer's, thinks, and appends the move. The
// number of workers caps the computer moves thought about at once.
func (s *Server) worker(owner string) {
	for {
		if s.ctx.Err() != nil {
			return
		}
		sg, err := s.store.Claim(s.ctx, owner, s.opt.lease)
		if err == nil {
			s.playComputer(sg, owner)
			continue
		}
		if !errors.Is(err, store.ErrNotFound) && s.ctx.Err() == nil {
			s.log.Error("claiming a computer move", "err", err)
		}
		t := time.NewTimer(s.opt.poll)
		select {
		case <-s.ctx.Done():
			t.Stop()
			return
		case <-s.wake:
		case <-t.C:
		}
		t.Stop()
	}
}

// playComputer makes the computer's move in a claimed game. It thinks
// without holding the game's lock, so that the game can be read meanwhile;
// the store refuses the move if another was made first.
func (s *Server) playComputer(sg *store.Game, owner string) {
	e := s.cache.get(sg.ID)
	e.mu.Lock()
	err := s.sync(e, sg)
	var st *host.State
	if err == nil {
		st = e.state.Clone()
	}
	g := e.game
	e.mu.Unlock()
	if err != nil {
		s.log.Error("rebuilding a game for the computer", "id", sg.ID, "err", err)
		return // the lease runs out; the game stays due for a server that can rebuild it
	}
	if p := st.ToMove(); st.Over() || !sg.ComputerDue || p < 1 || p > len(sg.Seats) || sg.Seats[p-1].Player == humanSeat {
		s.release(sg.ID, owner)
		return
	}
	spec := sg.Seats[st.ToMove()-1].Player
	ctx, cancel := context.WithTimeout(s.ctx, s.opt.think)
	defer cancel()
	next := st.Clone()
	m, err := s.choose(ctx, st, spec)
	if err == nil {
		err = next.ApplyRecorded(m)
	}
	if err != nil {
		s.log.Error("computer move", "id", sg.ID, "player", spec, "err", err)
		next.CopyFrom(st)
		if m, err = randomMove(next); err == nil {
			err = next.ApplyRecorded(m)
		}
		if err != nil {
			s.log.Error("random fallback move", "id", sg.ID, "err", err)
			s.release(sg.ID, owner)
			return
		}
	}
	over, result, due := outcome(next, sg.Seats)
	ply := len(sg.Record)
	e.mu.Lock()
	defer e.mu.Unlock()
	got, err := s.store.Append(s.ctx, sg.ID, ply, g.Token(m), over, result, due)
	if err != nil {
		if !errors.Is(err, store.ErrConflict) && s.ctx.Err() == nil {
			s.log.Error("storing a computer move", "id", sg.ID, "err", err)
		}
		return
	}
	last := newMoveView(g, m)
	e.game, e.state, e.last, e.record = g, next, &last, append([]string(nil), got.Record...)
}

// release gives a claimed game back early when the store can.
func (s *Server) release(id, owner string) {
	if r, ok := s.store.(store.Releaser); ok {
		if err := r.Release(s.ctx, id, owner); err != nil && s.ctx.Err() == nil {
			s.log.Error("releasing a claim", "id", id, "err", err)
		}
	}
}

// choose asks the seat's player for a move in st, on a copy of st. A
// player that does not answer within ctx is abandoned.
func (s *Server) choose(ctx context.Context, st *host.State, spec string) (host.Move, error) {
	p, err := s.opt.players(st.Game(), spec)
	if err != nil {
		return host.Move{}, err
	}
	type answer struct {
		m   host.Move
		err error
	}
	c := make(chan answer, 1)
	view := st.Clone()
	go func() {
		m, err := p.Choose(ctx, view)
		c <- answer{m, err}
	}()
	select {
	case a := <-c:
		return a.m, a.err
	case <-ctx.Done():
		return host.Move{}, ctx.Err()
	}
}
