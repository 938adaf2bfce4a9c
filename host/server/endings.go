package server

import (
	"fmt"
	"net/http"
	"time"

	"github.com/matombo/matombo/host"
	"github.com/matombo/matombo/host/store"
)

// Ends the players decide, beside the moves: a seat's holder resigns,
// offers a draw that another person accepts, or aborts a game before every
// player has moved. Each is stored as the game's result, with its method
// (the host's names for a resignation and an agreement, the state's
// "method" too; "aborted" for an abort, which no state shows).
const (
	methodResignation = "resignation" // host.MethodResignation
	methodAgreement   = "agreement"   // host.MethodAgreement
	methodAborted     = "aborted"
	// methodFailed ends a game whose script failed as the computer was
	// to move (see endFailed): no player decided it, but no rule either.
	methodFailed = "failed"
)

// The kinds of proposal a seat makes to the others.
const (
	requestTakeback = "takeback"
	requestDraw     = "draw"
)

// methodWords says how a game ended by a method, for messages.
func methodWords(method string) string {
	switch method {
	case "time":
		return "a loss on time"
	case methodResignation:
		return "a resignation"
	case methodAgreement:
		return "a draw agreed"
	case methodAborted:
		return "an abort"
	case methodFailed:
		return "the game's script failing"
	}
	return method
}

// requestWords names a proposal's kind, for messages.
func requestWords(kind string) string {
	if kind == requestDraw {
		return "draw"
	}
	return "takeback"
}

// endedBy is the result of st ended as the players decided, on a copy;
// the clock stops at now, the time of the seat to move charged.
func endedBy(sg *store.Game, st *host.State, end func(*host.State) error, ply int, now time.Time) (store.Update, error) {
	c := st.Clone()
	if err := end(c); err != nil {
		return store.Update{}, err
	}
	result, _ := outcome(c, sg.Seats)
	return store.Update{Ply: ply, To: ply, Result: result, Clock: restarted(sg.Clock, 0, now)}, nil
}

// handleResign ends the game: the seat's holder resigns, and the other of
// two players wins ("method": "resignation").
func (s *Server) handleResign(w http.ResponseWriter, r *http.Request) {
	s.seatChange(w, r, "resignation", func(e *entry, sg *store.Game, seat, ply int, req seatRequest, now time.Time) decided {
		if sg.Over() || e.state.Over() {
			return refuse(w, http.StatusConflict, codeGameOver, "the game is over", &ply)
		}
		if len(sg.Seats) != 2 {
			return refuse(w, http.StatusUnprocessableEntity, codeTwoPlayers, fmt.Sprintf("resigning ends a game of two players; this one has %d", len(sg.Seats)), nil)
		}
		u, err := endedBy(sg, e.state, func(c *host.State) error { return c.Resign(seat) }, ply, now)
		if err != nil {
			return refuse(w, http.StatusConflict, codeGameOver, err.Error(), &ply)
		}
		if u.Result != nil {
			u.Result.Seat = seat
		}
		return decided{u: u}
	})
}

// handleDraw offers a draw, or answers one: without "accept", the seat's
// holder offers it to the other persons (it waits in the game's request,
// and a move withdraws it); "accept": true from another seat's holder ends
// the game drawn by agreement ("method": "agreement"); "accept": false
// declines it (or withdraws it, from the seat that offered it).
func (s *Server) handleDraw(w http.ResponseWriter, r *http.Request) {
	s.seatChange(w, r, "draw", func(e *entry, sg *store.Game, seat, ply int, req seatRequest, now time.Time) decided {
		if sg.Over() || e.state.Over() {
			return refuse(w, http.StatusConflict, codeGameOver, "the game is over", &ply)
		}
		u := unchanged(sg, ply)
		if req.Accept == nil {
			switch {
			case onlyComputersBesides(sg.Seats, seat):
				return refuse(w, http.StatusUnprocessableEntity, codeNoOpponent, "a draw is agreed between persons, and no other person holds a seat of this game (the computer plays on; a seat waiting for its person has nobody to answer)", nil)
			case sg.Request != nil:
				return refuse(w, http.StatusConflict, codeRequestOpen, fmt.Sprintf("player %d has proposed a %s already", sg.Request.Seat, requestWords(sg.Request.Kind)), &ply)
			}
			u.Request = &store.Request{Kind: requestDraw, Seat: seat, To: ply}
			return decided{u: u}
		}
		q := sg.Request
		switch {
		case q == nil || q.Kind != requestDraw:
			return refuse(w, http.StatusConflict, codeNoRequest, "no draw is offered", &ply)
		case *req.Accept && q.Seat == seat:
			return refuse(w, http.StatusForbidden, codeNoRequest, "a draw is accepted by another player than the one who offered it", nil)
		case !*req.Accept:
			u.Request = nil
			return decided{u: u}
		}
		u, err := endedBy(sg, e.state, (*host.State).AgreeDraw, ply, now)
		if err != nil {
			return refuse(w, http.StatusConflict, codeGameOver, err.Error(), &ply)
		}
		return decided{u: u}
	})
}

// handleAbort ends a game that has barely begun, with no result for
// anyone: a seat's holder may abort it until every player has made a move
// ("method": "aborted", no winner, every score 0).
func (s *Server) handleAbort(w http.ResponseWriter, r *http.Request) {
	s.seatChange(w, r, "abort", func(e *entry, sg *store.Game, seat, ply int, req seatRequest, now time.Time) decided {
		if sg.Over() || e.state.Over() {
			return refuse(w, http.StatusConflict, codeGameOver, "the game is over", &ply)
		}
		moved := map[int]bool{}
		for _, p := range e.movers {
			moved[p] = true
		}
		if len(moved) >= len(sg.Seats) {
			return refuse(w, http.StatusConflict, codeAbortTooLate, "every player has moved: a game is aborted only before that (resign, or offer a draw)", &ply)
		}
		result := &store.Result{Method: methodAborted, Reason: fmt.Sprintf("player %d aborted the game", seat), Seat: seat,
			Notes: []string{}, Scores: make([]float64, len(sg.Seats))}
		return decided{u: store.Update{Ply: ply, To: ply, Result: result, Clock: restarted(sg.Clock, 0, now)}}
	})
}
