package server

import (
	"fmt"
	"net/http"
	"strings"

	"github.com/matombo/matombo/host"
)

// computerView is a computer seat the server offers for a game
// configuration, as the new-game form shows it.
type computerView struct {
	Player  string `json:"player"`            // the spec to ask for, e.g. "mcts"
	Name    string `json:"name"`              // in a player's words: "Computer (strong, 2 s a move)"
	Spec    string `json:"spec"`              // how it is played on this server: "mcts:time=2s,..."
	Offered bool   `json:"offered"`           // a game may have it now
	Pending bool   `json:"pending,omitempty"` // not decided yet (perfect play being prepared): ask again
	Why     string `json:"why,omitempty"`     // why it is not offered, or why it is pending
}

// computersView is the answer of GET /api/catalog/{game}/computers.
type computersView struct {
	Game       string         `json:"game"`
	Computers  []computerView `json:"computers"`
	RetryAfter int            `json:"retry_after,omitempty"` // seconds before asking again, when one is pending
}

// handleComputers lists the computer seats offered for a configuration of
// a game (?variant=NAME, repeatable, in order; ?param=KEY=VALUE,
// repeatable): every computer player the server allows, and perfect play
// only where it works, decided before it is offered. Perfect play for a
// configuration not decided yet is pending while the server prepares it
// in the background (its solution loaded from the cache or solved within
// the server's budget): the form asks again after retry_after seconds.
func (s *Server) handleComputers(w http.ResponseWriter, r *http.Request) {
	name := r.PathValue("game")
	q, ok := readQuery(w, r)
	if !ok {
		return
	}
	variants := q["variant"]
	if variants == nil {
		variants = []string{}
	}
	params := map[string]any{}
	for _, kv := range q["param"] {
		k, v, ok := strings.Cut(kv, "=")
		if !ok || k == "" {
			writeError(w, http.StatusBadRequest, apiError{Error: fmt.Sprintf("param %q: want KEY=VALUE", kv), Code: codeBadRequest})
			return
		}
		if _, twice := params[k]; twice {
			writeError(w, http.StatusBadRequest, apiError{Error: fmt.Sprintf("param %q is given twice: give it once", k), Code: codeBadRequest})
			return
		}
		params[k] = v
	}
	err := s.checkConfig(name, variants, params) // before the load: see checkConfig
	var g *host.Game
	if err == nil {
		g, err = s.loadGame(name, variants, params)
	}
	if err != nil {
		s.loadError(w, name, err)
		return
	}
	out := computersView{Game: name, Computers: []computerView{}}
	for _, cs := range s.seats {
		spec, err := s.seats.allow(cs.Name)
		v := computerView{Player: cs.Name, Name: seatName(spec), Spec: spec, Offered: err == nil}
		if err == nil && cs.Name == perfectSeat {
			v.Offered, v.Pending, v.Why = s.solutions.status(g)
			if v.Pending {
				out.RetryAfter = perfectRetry / 2
			}
		} else if err == nil {
			if _, err := s.opt.players(g, spec); err != nil {
				v.Offered, v.Why = false, err.Error()
			}
		}
		out.Computers = append(out.Computers, v)
	}
	writeJSON(w, http.StatusOK, out)
}
