package server

import (
	"crypto/subtle"
	"errors"
	"fmt"
	"net/http"
	"time"

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

// onlyComputersBesides reports whether every seat but seat is a computer.
func onlyComputersBesides(seats []store.Seat, seat int) bool {
	for i, s := range seats {
		if i+1 != seat && s.Player == humanSeat {
			return false
		}
	}
	return true
}

// takebackRequest is the body of POST /api/games/{id}/takeback: a seat's
// secret and the ply it saw; Accept answers the other seat's proposal
// (true or false), absent to propose.
type takebackRequest struct {
	Seat   string `json:"seat"`
	Ply    *int   `json:"ply"`
	Accept *bool  `json:"accept"`
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

// handleTakeback takes moves back. A seat's holder proposes to take back
// its last turn and everything after it; against computers only, it is
// done at once (an undo); otherwise the proposal waits for another
// person's answer ("accept": true or false; the proposer may withdraw it
// with false). A move clears a pending proposal.
func (s *Server) handleTakeback(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	var req takebackRequest
	if !s.decodeBody(w, r, &req) {
		return
	}
	if req.Ply == nil {
		writeError(w, http.StatusBadRequest, apiError{Error: `the body needs "ply": the ply of the position the takeback is asked in`})
		return
	}
	e := s.cache.get(id)
	e.mu.Lock()
	defer e.mu.Unlock()
	sg := s.readSynced(w, r, e, id, s.getGame)
	if sg == nil {
		return
	}
	ply := len(sg.Record)
	if *req.Ply != ply || !equalRecords(e.record, sg.Record) {
		writeError(w, http.StatusConflict, apiError{Error: fmt.Sprintf("the game is at ply %d, not %d: it changed first", ply, *req.Ply), Ply: &ply})
		return
	}
	seat := seatOf(sg.Seats, req.Seat)
	if seat == 0 {
		writeError(w, http.StatusForbidden, apiError{Error: "only the holder of a seat's link may take moves back"})
		return
	}
	if sg.Over() && sg.Result.Method == "time" {
		writeError(w, http.StatusConflict, apiError{Error: "the game was lost on time: nothing can be taken back", Ply: &ply})
		return
	}
	now := time.Now()
	u := store.Update{Ply: ply, To: ply, Result: sg.Result, ComputerDue: sg.ComputerDue, Clock: sg.Clock, Request: nil}
	switch {
	case req.Accept != nil:
		q := sg.Request
		if q == nil || q.Kind != "takeback" {
			writeError(w, http.StatusConflict, apiError{Error: "no takeback is proposed", Ply: &ply})
			return
		}
		if *req.Accept && q.Seat == seat {
			writeError(w, http.StatusForbidden, apiError{Error: "a takeback is accepted by another player than the one who proposed it"})
			return
		}
		if *req.Accept {
			u = s.takeBack(sg, e, q.To, now)
		}
	default:
		to := lastTurn(e.movers, seat)
		if to < 0 {
			writeError(w, http.StatusUnprocessableEntity, apiError{Error: fmt.Sprintf("player %d has made no move to take back", seat)})
			return
		}
		if onlyComputersBesides(sg.Seats, seat) {
			u = s.takeBack(sg, e, to, now)
		} else {
			if sg.Request != nil {
				writeError(w, http.StatusConflict, apiError{Error: fmt.Sprintf("player %d has proposed a takeback already", sg.Request.Seat), Ply: &ply})
				return
			}
			u.Request = &store.Request{Kind: "takeback", Seat: seat, To: to}
		}
	}
	got, err := s.store.Update(r.Context(), id, u)
	if err != nil {
		if errors.Is(err, store.ErrConflict) {
			writeError(w, http.StatusConflict, apiError{Error: "the game changed first; reload it", Ply: &ply})
			return
		}
		s.storeError(w, err, id)
		return
	}
	if err := s.sync(e, got); err != nil {
		s.log.Error("rebuilding a game", "id", id, "err", err)
		writeError(w, http.StatusInternalServerError, apiError{Error: err.Error()})
		return
	}
	if got.ComputerDue {
		s.wakeWorkers()
	}
	writeJSON(w, http.StatusOK, s.view(got, e, e.state, e.last, len(got.Record)))
}

// takeBack is the update that takes sg back to its first to moves, with
// the clock of the seat to move then running from now. The caller holds
// e.mu, and e shows sg.
func (s *Server) takeBack(sg *store.Game, e *entry, to int, now time.Time) store.Update {
	st, _, _, err := rebuild(e.game, sg.Record[:to])
	seat := 0
	if err == nil {
		seat = toMove(st)
	}
	var result *store.Result
	due := false
	if err == nil {
		result, due = outcome(st, sg.Seats)
	}
	running := seat
	if to == 0 {
		running = 0 // the clocks start with the first move
	}
	return store.Update{Ply: len(sg.Record), To: to, Result: result, ComputerDue: due, Clock: restarted(sg.Clock, running, now)}
}

func equalRecords(a, b []string) bool { return len(a) == len(b) && isPrefix(a, b) }

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
// exists, the holders of the other old seats get 200 and their links.
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
		writeError(w, http.StatusForbidden, apiError{Error: "only the holder of a seat's link may start a rematch"})
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
		v, err := s.gameAt(sg, -1, true)
		if err != nil {
			s.log.Error("rebuilding a game", "id", sg.ID, "err", err)
			writeError(w, http.StatusInternalServerError, apiError{Error: err.Error()})
			return
		}
		s.seatLinks(v, sg, links)
		writeJSON(w, status, rematchView{gameView: v, From: from})
	}
	if old.Rematch == "" {
		if !old.Over() {
			writeError(w, http.StatusConflict, apiError{Error: "the game is not over: a rematch starts from a finished game"})
			return
		}
		g, err := loadGame(s.lib, old.Game, old.Variants, old.Params)
		if err != nil {
			s.loadError(w, old.Game, err)
			return
		}
		seats := make([]store.Seat, n)
		for i := range seats {
			seats[i] = store.Seat{Player: old.Seats[from[i]-1].Player}
			if seats[i].Player == humanSeat {
				seats[i].Secret = newSecret()
			}
		}
		sg := &store.Game{Game: old.Game, Fingerprint: g.Fingerprint(), Variants: old.Variants, Params: old.Params,
			Seats: seats, Record: []string{}, Clock: freshClock(old.Clock), RematchOf: old.ID}
		v, err := s.createGame(r.Context(), g, sg)
		if err == nil {
			s.seatLinks(v, sg, links)
			writeJSON(w, http.StatusCreated, rematchView{gameView: v, From: from})
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
