package server

import (
	"context"
	"errors"
	"fmt"
	"runtime/debug"
	"time"

	"github.com/matombo/matombo/host"
	"github.com/matombo/matombo/host/diag"
	"github.com/matombo/matombo/host/store"
)

// worker plays computer moves and ends games on time until the server
// closes: it takes the next game from the scheduler and does what is due.
// The number of workers caps the computer moves thought about at once.
func (s *Server) worker() {
	for {
		if s.ctx.Err() != nil {
			return
		}
		if id, client, ok := s.sched.next(); ok {
			s.playRecovering(id, client)
			continue
		}
		select {
		case <-s.ctx.Done():
			return
		case <-s.sched.wake:
		}
	}
}

// playRecovering is play, with a panic (a defect in the host or a
// player) logged with its stack instead of ending the server: the game's
// lease runs out and it stays due.
func (s *Server) playRecovering(id, client string) {
	defer func() {
		if v := recover(); v != nil {
			s.log.Error("a computer move panicked", "id", id, "panic", v, "stack", string(debug.Stack()))
		}
	}()
	s.play(id, client)
}

// maxClaims bounds the claims of one round of discovery.
const maxClaims = 256

// discover finds games due that this process was not told of: a computer
// move made due by another process, or before a restart, or whose thinker
// stopped, and running clocks that have run out. It claims them from the
// store, which leases them to this process, and queues each as its own
// client. It keeps at most as many such games waiting as there are
// workers, and also claims this process's own queued games, so that other
// processes leave them.
func (s *Server) discover() {
	t := time.NewTicker(s.opt.poll)
	defer t.Stop()
	for {
		for range maxClaims {
			if s.sched.discovered() >= s.opt.workers || s.ctx.Err() != nil {
				break
			}
			sg, err := s.store.Claim(s.ctx, s.claimer(), s.opt.lease)
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

// lockForWorker takes the lock of game id's entry e for a computer
// worker, waiting at most as long as a request does (WithLockWait), and
// reports whether it did. A worker that waited for as long as a game was
// held would keep every other game's computer waiting behind it; one that
// gives up leaves the game to the store's lease, which runs out and makes
// the game due again. Giving up is logged, except when the server is
// closing. doing says what the worker was about to do.
func (s *Server) lockForWorker(e *entry, id, doing string) bool {
	err := s.waitLock(s.ctx, e)
	if err == nil {
		return true
	}
	if s.ctx.Err() == nil {
		s.log.Warn("a computer worker left a game another request held too long", "id", id, "doing", doing, "waited", s.opt.lockWait, "err", err)
	}
	return false
}

// claimer is the lease owner of this process's claims.
func (s *Server) claimer() string { return s.owner + "/discover" }

// play does what game id, handed out by the scheduler for client, is due:
// ends it on time when its clock has run out (by this server's clock:
// when the store's clock is a little ahead, it waits for the deadline),
// else makes the computer's move.
func (s *Server) play(id, client string) {
	again := false
	defer func() {
		client := s.sched.done(id)
		if again && client != "" {
			// The computer moves again (computer against computer): its
			// next turn, for the same client, behind the others.
			s.sched.push(id, client)
		}
	}()
	sg, err := s.store.Get(s.ctx, id)
	if err != nil {
		if s.ctx.Err() == nil {
			s.log.Error("reading a game due", "id", id, "err", err)
		}
		return
	}
	if d := sg.Clock.Deadline(); !sg.Over() && !d.IsZero() && (!sg.ComputerDue || !d.After(time.Now())) {
		if wait := time.Until(d); wait > 0 {
			if wait > s.opt.lease/2 {
				// The store's clock is well ahead of this server's: keep
				// the lease (so that no worker claims the game again at
				// once) and look again when it has run out.
				return
			}
			select {
			case <-s.ctx.Done():
				return
			case <-time.After(wait):
			}
		}
		got, err := s.flag(s.ctx, sg)
		if err != nil {
			if s.ctx.Err() == nil {
				s.log.Error("ending a game on time", "id", sg.ID, "err", err)
			}
			return
		}
		if got != sg {
			s.syncCache(got)
		}
		return
	}
	again = s.playComputer(sg)
}

// syncCache brings the cached state of a game to sg, when it is cached.
func (s *Server) syncCache(sg *store.Game) {
	e := s.cache.get(sg.ID)
	if !s.lockForWorker(e, sg.ID, "bringing its cache up to date") {
		return // a request brings it up to date when it next changes the game
	}
	defer e.unlock()
	if e.game != nil {
		if err := s.sync(s.ctx, e, sg); err != nil {
			s.log.Error("rebuilding a game", "id", sg.ID, "err", err)
		}
	}
}

// playComputer makes the computer's move in game sg and reports whether
// the computer is to move again. It thinks without holding the game's
// lock, so that the game can be read meanwhile; the store refuses the
// move if another was made first, and a change of the game meanwhile
// stops the thinking.
func (s *Server) playComputer(sg *store.Game) (again bool) {
	e := s.cache.get(sg.ID)
	if !s.lockForWorker(e, sg.ID, "reading it for the computer's move") {
		return false // the lease runs out; the game stays due
	}
	err := s.sync(s.ctx, e, sg)
	var st *host.State
	if err == nil {
		st = e.state.Clone()
	}
	g := e.game
	e.unlock()
	if err != nil {
		var changed *changedError
		if errors.As(err, &changed) {
			s.log.Warn("a stored game the server's games can no longer open", "id", sg.ID, "err", err)
		} else {
			s.log.Error("rebuilding a game for the computer", "id", sg.ID, "err", err)
		}
		return false // the lease runs out; the game stays due for a server that can rebuild it
	}
	p := st.ToMove()
	if st.Over() || sg.Over() || !sg.ComputerDue || p < 1 || p > len(sg.Seats) || sg.Seats[p-1].Player == humanSeat {
		s.release(sg.ID)
		return false
	}
	ply := len(sg.Record)
	spec := sg.Seats[p-1].Player
	think := s.opt.think
	if sg.Clock != nil && sg.Clock.Running == p {
		// A timed computer thinks for at most a tenth of its time left.
		think = min(think, max(sg.Clock.Left(p, time.Now())/10, time.Millisecond))
	}
	ctx, cancel := context.WithTimeout(s.ctx, think)
	defer cancel()
	stopWatch := s.cancelOnChange(ctx, cancel, sg.ID, ply)
	next := st.Clone()
	m, finished, err := s.choose(ctx, st, spec)
	stopWatch()
	// A player abandoned at its deadline may still be running: wait for it
	// before taking more work, so that the workers bound the thinking that
	// runs, not only the thinking waited for.
	defer func() {
		select {
		case <-finished:
		case <-s.ctx.Done():
		}
	}()
	if s.ctx.Err() != nil || errors.Is(ctx.Err(), context.Canceled) {
		return false // the server stops, or the game changed: the move would be refused
	}
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
			if diag.ScriptFailed(err) {
				// The game's script cannot play on from here: a computer
				// due was otherwise claimed again every poll, for ever,
				// while its players waited.
				s.endFailed(e, sg, p, err)
			}
			s.release(sg.ID)
			return false
		}
	}
	result, due := outcome(next, sg.Seats)
	clock, late := afterMove(sg.Clock, p, toMove(next), time.Now(), showTime(next))
	if late {
		if got, err := s.flag(s.ctx, sg); err == nil {
			s.syncCache(got)
		}
		return false
	}
	if !s.lockForWorker(e, sg.ID, "storing the computer's move") {
		return false // the lease runs out; the game stays due
	}
	defer e.unlock()
	got, err := s.store.Append(s.ctx, sg.ID, store.Move{Ply: ply, Token: g.Token(m), Result: result, ComputerDue: due, Clock: clock})
	if err != nil {
		if !errors.Is(err, store.ErrConflict) && s.ctx.Err() == nil {
			s.log.Error("storing a computer move", "id", sg.ID, "err", err)
		}
		return false
	}
	if e.game == nil || !isPrefix(e.record, sg.Record) || len(e.record) != ply {
		if err := s.sync(s.ctx, e, got); err != nil {
			s.log.Error("rebuilding a game", "id", sg.ID, "err", err)
		}
		return due
	}
	last := newMoveView(g, m)
	e.set(got, next, &last, p)
	return due
}

// cancelOnChange cancels the thinking about game id at ply when the game
// changes meanwhile (a move from elsewhere, a takeback, the game's end).
// The returned function stops watching.
func (s *Server) cancelOnChange(ctx context.Context, cancel context.CancelFunc, id string, ply int) func() {
	_, changed, unsubscribe := s.hub.subscribe(id)
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
				if sg, err := s.store.Get(ctx, id); err == nil && (len(sg.Record) != ply || sg.Over()) {
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

// release gives a claim of this process on game id back early.
func (s *Server) release(id string) {
	if err := s.store.Release(s.ctx, id, s.claimer()); err != nil && s.ctx.Err() == nil {
		s.log.Error("releasing a claim", "id", id, "err", err)
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
		var a answer
		defer func() {
			// A player that panics fails this move (the game goes on
			// with a random one), not the server and its other games.
			if v := recover(); v != nil {
				s.log.Error("a computer player panicked", "player", spec, "panic", v, "stack", string(debug.Stack()))
				a = answer{err: fmt.Errorf("the computer player %s failed (panic: %v)", spec, v)}
			}
			c <- a
		}()
		a.m, a.err = p.Choose(ctx, view)
	}()
	select {
	case a := <-c:
		return a.m, finished, a.err
	case <-ctx.Done():
		return host.Move{}, finished, ctx.Err()
	}
}

// endFailed ends game sg, at its ply, when its script failed as the
// computer of seat p was to move and no move of it could be played: with
// no winner and no score for anyone ("method": "failed", the seat that
// could not move, the script's error as the reason). A game that changed
// meanwhile is left as it is.
func (s *Server) endFailed(e *entry, sg *store.Game, p int, failure error) {
	if !s.lockForWorker(e, sg.ID, "ending it as failed") {
		return // the lease runs out; the game stays due
	}
	defer e.unlock()
	ply := len(sg.Record)
	result := &store.Result{Method: methodFailed, Seat: p, Notes: []string{}, Scores: make([]float64, len(sg.Seats)),
		Reason: diag.ClipText(fmt.Sprintf("the game's script failed when player %d was to move: %v", p, failure), diag.MaxMessageText)}
	got, err := s.store.Update(s.ctx, sg.ID, store.Update{Ply: ply, To: ply, Result: result, Clock: restarted(sg.Clock, 0, time.Now())})
	if err != nil {
		if !errors.Is(err, store.ErrConflict) && s.ctx.Err() == nil {
			s.log.Error("ending a game whose script failed", "id", sg.ID, "err", err)
		}
		return
	}
	if err := s.sync(s.ctx, e, got); err != nil {
		s.log.Error("rebuilding a game", "id", sg.ID, "err", err)
	}
}
