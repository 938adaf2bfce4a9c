package server

import (
	"context"
	"errors"
	"time"

	"github.com/matombo/matombo/host"
	"github.com/matombo/matombo/host/store"
)

// worker plays computer moves until the server closes: it takes the next
// game from the scheduler, thinks, and appends the move. The number of
// workers caps the computer moves thought about at once.
func (s *Server) worker() {
	for {
		if s.ctx.Err() != nil {
			return
		}
		if id, client, ok := s.sched.next(); ok {
			s.playComputer(id, client)
			continue
		}
		select {
		case <-s.ctx.Done():
			return
		case <-s.sched.wake:
		}
	}
}

// maxClaims bounds the claims of one round of discovery.
const maxClaims = 256

// discover finds games waiting for a computer move that this process was
// not told of (made due by another process, or before a restart, or
// whose thinker stopped): it claims them from the store, which leases
// them to this process, and queues each as its own client. It keeps at
// most as many such games waiting as there are workers, and also claims
// this process's own queued games, so that other processes leave them.
func (s *Server) discover(owner string) {
	t := time.NewTicker(s.opt.poll)
	defer t.Stop()
	for {
		for range maxClaims {
			if s.sched.discovered() >= s.opt.workers || s.ctx.Err() != nil {
				break
			}
			sg, err := s.store.Claim(s.ctx, owner, s.opt.lease)
			if err != nil {
				if !errors.Is(err, store.ErrNotFound) && s.ctx.Err() == nil {
					s.log.Error("claiming a computer move", "err", err)
				}
				break
			}
			s.sched.push(sg.ID, discoveredClient+sg.ID) // a no-op when queued here already
		}
		select {
		case <-s.ctx.Done():
			return
		case <-s.wake:
		case <-t.C:
		}
	}
}

// playComputer makes the computer's move in a game handed out by the
// scheduler, for client. It thinks without holding the game's lock, so
// that the game can be read meanwhile; the store refuses the move if
// another was made first, and a change of the game meanwhile stops the
// thinking.
func (s *Server) playComputer(id, client string) {
	requeue := false
	var finished <-chan struct{}
	defer func() {
		s.sched.done(id)
		if requeue {
			s.sched.push(id, client) // the computer moves again: its next turn
		}
		// A player abandoned at its deadline may still be running: wait
		// for it before taking more work, so that the workers bound the
		// thinking that runs, not only the thinking waited for.
		if finished != nil {
			select {
			case <-finished:
			case <-s.ctx.Done():
			}
		}
	}()
	sg, err := s.store.Get(s.ctx, id)
	if err != nil {
		if s.ctx.Err() == nil {
			s.log.Error("reading a game for the computer", "id", id, "err", err)
		}
		return
	}
	e := s.cache.get(sg.ID)
	e.mu.Lock()
	err = s.sync(e, sg)
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
	if p := st.ToMove(); st.Over() || !sg.ComputerDue || len(e.record) != len(sg.Record) || p < 1 || p > len(sg.Seats) || sg.Seats[p-1].Player == humanSeat {
		return
	}
	ply := len(sg.Record)
	spec := sg.Seats[st.ToMove()-1].Player
	ctx, cancel := context.WithTimeout(s.ctx, s.opt.think)
	defer cancel()
	stopWatch := s.cancelOnChange(ctx, cancel, id, ply)
	next := st.Clone()
	m, fin, err := s.choose(ctx, st, spec)
	finished = fin
	stopWatch()
	if err == nil {
		err = next.ApplyRecorded(m)
	}
	if ctx.Err() != nil && s.ctx.Err() == nil && ctx.Err() != context.DeadlineExceeded {
		return // the game changed meanwhile: the move would be refused
	}
	if err != nil {
		if s.ctx.Err() != nil {
			return
		}
		s.log.Error("computer move", "id", sg.ID, "player", spec, "err", err)
		next.CopyFrom(st)
		if m, err = randomMove(next); err == nil {
			err = next.ApplyRecorded(m)
		}
		if err != nil {
			s.log.Error("random fallback move", "id", sg.ID, "err", err)
			return
		}
	}
	over, result, due := outcome(next, sg.Seats)
	e.mu.Lock()
	got, err := s.store.Append(s.ctx, sg.ID, ply, g.Token(m), over, result, due)
	if err == nil {
		last := newMoveView(g, m)
		e.game, e.state, e.last, e.record = g, next, &last, append([]string(nil), got.Record...)
		e.mark(ply+1, next)
	}
	e.mu.Unlock()
	if err != nil {
		if !errors.Is(err, store.ErrConflict) && s.ctx.Err() == nil {
			s.log.Error("storing a computer move", "id", sg.ID, "err", err)
		}
		return
	}
	requeue = due
}

// cancelOnChange cancels the thinking about game id at ply when the game
// changes meanwhile (a move from elsewhere, the game's end). The
// returned function stops watching.
func (s *Server) cancelOnChange(ctx context.Context, cancel context.CancelFunc, id string, ply int) func() {
	changed, unsubscribe := s.hub.subscribe(id)
	done := make(chan struct{})
	go func() {
		for {
			select {
			case <-done:
				return
			case <-ctx.Done():
				return
			case <-changed:
				// The change may be the one that made the move due,
				// delivered late: compare the record.
				if sg, err := s.store.Get(ctx, id); err == nil && (len(sg.Record) != ply || sg.Over) {
					cancel()
					return
				}
			}
		}
	}()
	return func() {
		close(done)
		unsubscribe()
	}
}

// choose asks the seat's player for a move in st, on a copy of st. A
// player that does not answer within ctx is abandoned; finished is closed
// when its goroutine ends. A stored spec is data from disk: it is played
// only as the server's computer seats allow now.
func (s *Server) choose(ctx context.Context, st *host.State, spec string) (host.Move, <-chan struct{}, error) {
	finished := make(chan struct{})
	allowed, err := s.seats.allow(spec)
	if err != nil {
		close(finished)
		return host.Move{}, finished, err
	}
	var p Player
	if allowed == perfectSeat {
		p, err = s.solutions.player(ctx, st.Game())
	} else {
		p, err = s.opt.players(st.Game(), allowed)
	}
	if err != nil {
		close(finished)
		return host.Move{}, finished, err
	}
	type answer struct {
		m   host.Move
		err error
	}
	c := make(chan answer, 1)
	view := st.Clone()
	go func() {
		defer close(finished)
		m, err := p.Choose(ctx, view)
		c <- answer{m, err}
	}()
	select {
	case a := <-c:
		return a.m, finished, a.err
	case <-ctx.Done():
		return host.Move{}, finished, ctx.Err()
	}
}
