package server

import (
	"context"
	"crypto/subtle"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"time"

	"github.com/matombo/matombo/host"
	"github.com/matombo/matombo/host/store"
)

// seatOf returns the seat (1-based) whose secret is secret among seats, or
// 0. It compares every seat's secret in constant time.
func seatOf(seats []store.Seat, secret string) int {
	found := 0
	for i, seat := range seats {
		if seat.Secret != "" && subtle.ConstantTimeCompare([]byte(secret), []byte(seat.Secret)) == 1 {
			found = i + 1
		}
	}
	return found
}

// inviteOf returns the seat (1-based) whose invitation is invite, or 0, in
// constant time.
func inviteOf(seats []store.Seat, invite string) int {
	found := 0
	for i, seat := range seats {
		if seat.Invite != "" && subtle.ConstantTimeCompare([]byte(invite), []byte(seat.Invite)) == 1 {
			found = i + 1
		}
	}
	return found
}

// admit returns the cache entry of game id for a request that changes it
// on the strength of a credential (a seat's secret, an invitation) that
// holds reports some seat of a stored game to hold. A request whose
// credential no seat holds is refused from the stored game alone, before
// the game is loaded or its record replayed: refuse writes the answer,
// which must need nothing the stored game does not say, and admit returns
// nil. A client sending made-up secrets then costs the server a read of
// the game, never its rebuild, and pushes no game out of the cache. Nor
// does a request for an id no game has, which gets the store's error: an
// entry made for it would push a real game out, to be rebuilt from its
// whole record at its next request.
//
// The seats are the cached game's last snapshot's when they hold the
// credential, else the store's (a seat claimed through another server
// since). A store's error is answered too.
func (s *Server) admit(w http.ResponseWriter, r *http.Request, id string,
	holds func(*store.Game) bool, refuse func(*store.Game)) *entry {
	if e, ok := s.cache.lookup(id); ok {
		if p := e.shown.Load(); p != nil && p.stored != nil && holds(p.stored) {
			return e
		}
	}
	sg, err := s.store.Get(r.Context(), id)
	if err != nil {
		s.storeError(w, err, id)
		return nil
	}
	if !holds(sg) {
		refuse(sg)
		return nil
	}
	return s.cache.get(id)
}

// holdsSeat reports whether secret is the secret of a seat of a stored
// game.
func holdsSeat(secret string) func(*store.Game) bool {
	return func(sg *store.Game) bool { return seatOf(sg.Seats, secret) != 0 }
}

// onlyComputersBesides reports whether no person but seat's holder plays:
// every other seat is a computer, or a person's seat nobody has claimed
// yet (no one to ask).
func onlyComputersBesides(seats []store.Seat, seat int) bool {
	for i, s := range seats {
		if i+1 != seat && s.Player == humanSeat && s.Secret != "" {
			return false
		}
	}
	return true
}

// seatRequest is the body of what a seat's holder asks besides moves (a
// takeback, a draw, a resignation, an abort): the seat's secret and the
// ply it saw; Accept answers another seat's proposal (true or false),
// absent to propose.
type seatRequest struct {
	Seat   string `json:"seat"`
	Ply    *int   `json:"ply"`
	Accept *bool  `json:"accept"`
}

// decided is how a seat's request changes a game: the update to store,
// or, when no is set, the refusal already written.
type decided struct {
	u  store.Update
	no bool
}

// refuse writes an error answer and returns the decision to stop.
func refuse(w http.ResponseWriter, status int, code, msg string, ply *int) decided {
	writeError(w, status, apiError{Error: msg, Code: code, Ply: ply})
	return decided{no: true}
}

// seatChange answers a seat's request on game id: it reads the body,
// checks the ply and the seat's secret, lets decide make the update (with
// the entry locked and in step with the stored game), stores it, and
// answers the game after it. what names the request in the refusal of a
// request without a seat's secret.
func (s *Server) seatChange(w http.ResponseWriter, r *http.Request, what string,
	decide func(e *entry, sg *store.Game, seat, ply int, req seatRequest, now time.Time) decided) {
	id := r.PathValue("id")
	var req seatRequest
	if !s.decodeBody(w, r, &req) {
		return
	}
	if req.Ply == nil {
		writeError(w, http.StatusBadRequest, apiError{Error: fmt.Sprintf(`the body needs "ply": the ply of the position the %s is asked in`, what), Code: codeBadRequest})
		return
	}
	e := s.admit(w, r, id, holdsSeat(req.Seat), func(sg *store.Game) {
		if !refuseStale(w, sg, *req.Ply) {
			refuseNoSeat(w, what)
		}
	})
	if e == nil {
		return
	}
	if !s.lockGame(w, r, e, id) {
		return
	}
	defer e.unlock()
	sg := s.readSynced(w, r, e, id, s.getGame)
	if sg == nil {
		return
	}
	if refuseStale(w, sg, *req.Ply) {
		return
	}
	ply := len(sg.Record)
	if !equalRecords(e.record, sg.Record) {
		refuse(w, http.StatusConflict, codeStalePly, fmt.Sprintf("the game is at ply %d, not %d: it changed first", ply, *req.Ply), &ply)
		return
	}
	seat := seatOf(sg.Seats, req.Seat)
	if seat == 0 {
		refuseNoSeat(w, what)
		return
	}
	d := decide(e, sg, seat, ply, req, time.Now())
	if d.no {
		return
	}
	got, err := s.store.Update(r.Context(), id, d.u)
	if err != nil {
		if errors.Is(err, store.ErrConflict) {
			refuse(w, http.StatusConflict, codeStalePly, "the game changed first; reload it", &ply)
			return
		}
		s.storeError(w, err, id)
		return
	}
	if err := s.sync(r.Context(), e, got); err != nil {
		s.rebuildError(w, r, id, err)
		return
	}
	if got.ComputerDue {
		s.sched.push(id, s.clientKey(r))
	}
	s.answerShown(w, r, e, got)
}

// refuseStale answers 409 when a seat's request was asked at another ply
// than stored game sg's, and reports whether it did.
func refuseStale(w http.ResponseWriter, sg *store.Game, asked int) bool {
	ply := len(sg.Record)
	if asked == ply {
		return false
	}
	refuse(w, http.StatusConflict, codeStalePly, fmt.Sprintf("the game is at ply %d, not %d: it changed first", ply, asked), &ply)
	return true
}

// refuseNoSeat answers 403 to a request, named by what, whose secret is
// no seat's.
func refuseNoSeat(w http.ResponseWriter, what string) {
	refuse(w, http.StatusForbidden, codeNotYourSeat, fmt.Sprintf("only the holder of a seat may ask for a %s", what), nil)
}

// unchanged is the update that leaves sg as it is (at ply) but for what
// the caller changes.
func unchanged(sg *store.Game, ply int) store.Update {
	return store.Update{Ply: ply, To: ply, Result: sg.Result, ComputerDue: sg.ComputerDue, Clock: sg.Clock, Request: sg.Request}
}

// lastTurn is where seat's last turn began in a record whose moves were
// made by movers: the record's length after taking that turn back, with
// everything after it; -1 when seat has not moved.
func lastTurn(movers []int, seat int) int {
	i := len(movers) - 1
	for i >= 0 && movers[i] != seat {
		i--
	}
	if i < 0 {
		return -1
	}
	for i > 0 && movers[i-1] == seat {
		i--
	}
	return i
}

// playersEnded reports whether a result is the players' decision or the
// clock's (a resignation, a draw agreed, an abort, a loss on time), which
// no takeback undoes.
func playersEnded(r *store.Result) bool {
	return r != nil && slices.Contains([]string{"time", methodResignation, methodAgreement, methodAborted}, r.Method)
}

// handleTakeback takes moves back. A seat's holder proposes to take back
// its last turn and everything after it; against computers only, it is
// done at once (an undo); otherwise the proposal waits for another
// person's answer ("accept": true or false; the proposer may withdraw it
// with false). A move clears a pending proposal.
func (s *Server) handleTakeback(w http.ResponseWriter, r *http.Request) {
	s.seatChange(w, r, "takeback", func(e *entry, sg *store.Game, seat, ply int, req seatRequest, now time.Time) decided {
		if playersEnded(sg.Result) {
			return refuse(w, http.StatusConflict, codeGameOver, fmt.Sprintf("the game ended by %s: nothing can be taken back", methodWords(sg.Result.Method)), &ply)
		}
		u := unchanged(sg, ply)
		u.Request = nil
		var err error
		switch {
		case req.Accept != nil:
			q := sg.Request
			if q == nil || q.Kind != requestTakeback {
				return refuse(w, http.StatusConflict, codeNoRequest, "no takeback is proposed", &ply)
			}
			if *req.Accept && q.Seat == seat {
				return refuse(w, http.StatusForbidden, codeNoRequest, "a takeback is accepted by another player than the one who proposed it", nil)
			}
			if *req.Accept {
				if u, err = s.takeBack(r.Context(), sg, e, q.To, now); err != nil {
					s.rebuildError(w, r, sg.ID, err)
					return decided{no: true}
				}
			}
		default:
			to := lastTurn(e.movers, seat)
			if to < 0 {
				return refuse(w, http.StatusUnprocessableEntity, codeNothingToTake, fmt.Sprintf("player %d has made no move to take back", seat), nil)
			}
			if onlyComputersBesides(sg.Seats, seat) {
				if u, err = s.takeBack(r.Context(), sg, e, to, now); err != nil {
					s.rebuildError(w, r, sg.ID, err)
					return decided{no: true}
				}
			} else {
				if sg.Request != nil {
					return refuse(w, http.StatusConflict, codeRequestOpen, fmt.Sprintf("player %d has proposed a %s already", sg.Request.Seat, requestWords(sg.Request.Kind)), &ply)
				}
				u.Request = &store.Request{Kind: requestTakeback, Seat: seat, To: to}
			}
		}
		return decided{u: u}
	})
}

// takeBack is the update that takes sg back to its first to moves, with
// the clock of the seat to move then running from now; the state there is
// rebuilt from the checkpoint before it, and ctx stops that. The caller
// holds e's lock, and e shows sg.
func (s *Server) takeBack(ctx context.Context, sg *store.Game, e *entry, to int, now time.Time) (store.Update, error) {
	st, _, err := e.stateAt(ctx, to)
	if err != nil {
		return store.Update{}, err
	}
	seat := toMove(st)
	result, due := outcome(st, sg.Seats)
	running := seat
	if to == 0 {
		running = 0 // the clocks start with the first move
	}
	return store.Update{Ply: len(sg.Record), To: to, Result: result, ComputerDue: due, Clock: restarted(sg.Clock, running, now)}, nil
}

func equalRecords(a, b []string) bool { return len(a) == len(b) && isPrefix(a, b) }

// claimRequest is the body of POST /api/games/{id}/claim.
type claimRequest struct {
	Invite string `json:"invite"` // the secret of a seat's invitation link
}

// maxClaimTries bounds how often a claim is tried again when a move
// changes the game between its read and its store.
const maxClaimTries = 5

// handleClaim gives the person's seat whose invitation the request names
// to the request's sender, once: the answer is the game with the seat's
// link (its secret), which only that answer shows; from then on only its
// holder plays the seat. The invitation is used up: a second claim gets
// 409, an unknown invitation 403.
func (s *Server) handleClaim(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	var req claimRequest
	if !s.decodeBody(w, r, &req) {
		return
	}
	e := s.admit(w, r, id, func(sg *store.Game) bool { return claimRefusal(sg, req.Invite) == nil },
		func(sg *store.Game) { claimRefusal(sg, req.Invite).write(w) })
	if e == nil {
		return
	}
	if !s.lockGame(w, r, e, id) {
		return
	}
	defer e.unlock()
	for try := 0; ; try++ {
		sg := s.readSynced(w, r, e, id, s.getGame)
		if sg == nil {
			return
		}
		if no := claimRefusal(sg, req.Invite); no != nil {
			no.write(w)
			return
		}
		seat := inviteOf(sg.Seats, req.Invite)
		seats := slices.Clone(sg.Seats)
		seats[seat-1].Secret = newSecret()
		u := unchanged(sg, len(sg.Record))
		u.Seats = seats
		got, err := s.store.Update(r.Context(), id, u)
		if errors.Is(err, store.ErrConflict) && try < maxClaimTries {
			continue // a move came first: read the game again
		}
		if err != nil {
			s.storeError(w, err, id)
			return
		}
		if err := s.sync(r.Context(), e, got); err != nil {
			s.rebuildError(w, r, id, err)
			return
		}
		v, err := e.shown.Load().at(r.Context(), got, len(got.Record))
		if err != nil {
			s.rebuildError(w, r, id, err)
			return
		}
		links := make([]bool, len(seats))
		links[seat-1] = true
		s.seatLinks(v, got, links, false)
		writeJSON(w, http.StatusOK, v)
		return
	}
}

// claimRefusal is why a claim with invite of a seat of stored game sg is
// refused (nil when it is not): no seat has that invitation (403), its
// seat was claimed already (409), or the game is over (409). It needs the
// stored game only (see admit).
func claimRefusal(sg *store.Game, invite string) *claimRefused {
	seat := inviteOf(sg.Seats, invite)
	switch {
	case seat == 0:
		return &claimRefused{http.StatusForbidden, apiError{Error: "no seat of this game has that invitation", Code: codeUnknownInvite}}
	case sg.Seats[seat-1].Secret != "":
		return &claimRefused{http.StatusConflict, apiError{Error: fmt.Sprintf("player %d's seat was claimed with this invitation already, by another browser; open the game's link to watch it", seat), Code: codeSeatTaken}}
	case sg.Over():
		return &claimRefused{http.StatusConflict, apiError{Error: "the game is over: its seats can no longer be claimed; open the game's link to watch it", Code: codeGameOver}}
	}
	return nil
}

// claimRefused is a claim's refusal: its status and error.
type claimRefused struct {
	status int
	err    apiError
}

func (c *claimRefused) write(w http.ResponseWriter) { writeError(w, c.status, c.err) }

// rematchRequest is the body of POST /api/games/{id}/rematch.
type rematchRequest struct {
	Seat string `json:"seat"` // the secret of a seat of the finished game
}

// rematchView is the answer to a rematch: the new game, with the seat
// links of the seats its caller held in the old game, and for each new
// seat the old seat it was (From[i] is new seat i+1's old seat).
type rematchView struct {
	*gameView
	From []int `json:"from"`
}

// handleRematch starts a rematch of a finished game: the same game,
// variants, parameters and time control, the seats turned one place (two
// players swap). The holder of an old seat's secret gets 201 and the new
// game with the link of the seat their old seat became; once the rematch
// exists, the holders of the other old seats get 200 and their links. A
// person's seat nobody held in the old game waits for its person again,
// with a new invitation the answer shows.
func (s *Server) handleRematch(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	var req rematchRequest
	if !s.decodeBody(w, r, &req) {
		return
	}
	old, err := s.getGame(r.Context(), id)
	if err != nil {
		s.storeError(w, err, id)
		return
	}
	seat := seatOf(old.Seats, req.Seat)
	if seat == 0 {
		writeError(w, http.StatusForbidden, apiError{Error: "only the holder of a seat may start a rematch", Code: codeNotYourSeat})
		return
	}
	n := len(old.Seats)
	from := make([]int, n)
	links := make([]bool, n)
	for i := range from {
		from[i] = (i+1)%n + 1 // new seat i+1 was old seat from[i]
		links[i] = from[i] == seat
	}
	answer := func(status int, sg *store.Game) {
		v, err := s.gameAt(r.Context(), sg, -1, true)
		if err != nil {
			s.rebuildError(w, r, sg.ID, err)
			return
		}
		s.seatLinks(v, sg, links, true)
		writeJSON(w, status, rematchView{gameView: v, From: from})
	}
	if old.Rematch == "" {
		if !old.Over() {
			writeError(w, http.StatusConflict, apiError{Error: "the game is not over: a rematch starts from a finished game", Code: codeGameNotOver})
			return
		}
		g, err := s.loadGame(old.Game, old.Variants, old.Params)
		if err != nil {
			s.loadError(w, old.Game, err)
			return
		}
		seats := make([]store.Seat, n)
		for i := range seats {
			was := old.Seats[from[i]-1]
			seats[i] = store.Seat{Player: was.Player}
			switch {
			case was.Player != humanSeat:
			case was.Secret != "":
				seats[i].Secret = newSecret()
			default:
				seats[i].Invite = newSecret()
			}
		}
		sg := &store.Game{Game: old.Game, Fingerprint: g.Fingerprint(), Variants: old.Variants, Params: old.Params,
			Seats: seats, Record: []string{}, Clock: freshClock(old.Clock), RematchOf: old.ID}
		v, err := s.createGame(r.Context(), s.clientKey(r), g, sg)
		if err == nil {
			s.seatLinks(v, sg, links, true)
			writeJSON(w, http.StatusCreated, rematchView{gameView: v, From: from})
			return
		}
		var no *refusal
		if errors.As(err, &no) {
			no.write(w) // over a quota
			return
		}
		if !errors.Is(err, store.ErrConflict) {
			s.storeError(w, err, id)
			return
		}
		// Another seat's holder made it first.
		if old, err = s.store.Get(r.Context(), id); err != nil {
			s.storeError(w, err, id)
			return
		}
	}
	sg, err := s.store.Get(r.Context(), old.Rematch)
	if err != nil {
		s.storeError(w, err, old.Rematch)
		return
	}
	answer(http.StatusOK, sg)
}

// ended returns st as the game's result shows it: a state the players
// ended (a resignation, a draw agreed) is ended the same way, on a copy,
// so that its JSON says how ("method"); any other is st.
func ended(st *host.State, r *store.Result) *host.State {
	if r == nil || st.Over() {
		return st
	}
	var err error
	c := st.Clone()
	switch r.Method {
	case methodResignation:
		err = c.Resign(3 - r.Winner)
	case methodAgreement:
		err = c.AgreeDraw()
	default:
		return st
	}
	if err != nil {
		return st
	}
	return c
}
