package server

import (
	"bytes"
	"context"
	"crypto/subtle"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/matombo/matombo/host"
	"github.com/matombo/matombo/host/diag"
	"github.com/matombo/matombo/host/internal/strictjson"
	"github.com/matombo/matombo/host/store"
)

// route is a pattern of the server's mux, such as "GET /api/games/{id}",
// and its handler.
type route struct {
	pattern string
	handler http.HandlerFunc
}

// routes returns the server's mux. A request for a path no route serves
// gets its 404, and one whose method no route of its path serves its 405
// with Allow, whatever the request's content type (see guard).
func (s *Server) routes() *http.ServeMux {
	mux := http.NewServeMux()
	for _, rt := range s.routeList() {
		mux.HandleFunc(rt.pattern, rt.handler)
	}
	return mux
}

// routeList lists the server's routes: the API's, then the page's.
func (s *Server) routeList() []route {
	return append([]route{
		{"GET /api/catalog", s.handleCatalog},
		{"GET /api/catalog/{game}/rules", s.handleRules},
		{"GET /api/catalog/{game}/computers", s.handleComputers},
		{"POST /api/games", s.handleCreate},
		{"GET /api/games/{id}", s.handleGet},
		{"POST /api/games/{id}/moves", s.handleMove},
		{"POST /api/games/{id}/takeback", s.handleTakeback},
		{"POST /api/games/{id}/rematch", s.handleRematch},
		{"POST /api/games/{id}/claim", s.handleClaim},
		{"POST /api/games/{id}/resign", s.handleResign},
		{"POST /api/games/{id}/draw", s.handleDraw},
		{"POST /api/games/{id}/abort", s.handleAbort},
		{"GET /api/games/{id}/events", s.handleEvents},
		{"GET /api/health", s.handleHealth},
	}, s.webRoutes()...)
}

// apiError is the JSON body of every error answer.
type apiError struct {
	Error   string   `json:"error"`
	Code    string   `json:"code"`              // stable, for programs (codes.go)
	Allowed []string `json:"allowed,omitempty"` // allowed values, when the error is a bad choice
	Legal   []string `json:"legal,omitempty"`   // the legal tokens, for an illegal move
	Rule    string   `json:"rule,omitempty"`    // the rule an illegal move breaks, in the game's words
	Reason  string   `json:"reason,omitempty"`  // which part of an illegal move is wrong, what is possible (the host's words)
	Ply     *int     `json:"ply,omitempty"`     // the current ply, for a stale one
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	b := encodeJSON(v)
	if b == nil {
		status = http.StatusInternalServerError
		b = []byte(`{"error":"encoding the answer failed"}` + "\n")
	}
	writeJSONBytes(w, status, b)
}

// writeJSONBytes answers with JSON already encoded.
func writeJSONBytes(w http.ResponseWriter, status int, b []byte) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	w.Write(b)
}

// encodeJSON encodes v as the answers are: one line, & < > kept as they
// are (the answers are JSON, never HTML). It returns nil when v cannot be
// encoded.
func encodeJSON(v any) []byte {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil
	}
	return b.Bytes()
}

// writeError answers an error. Its message keeps its first
// diag.MaxMessageText bytes: a message may quote what the client sent (a
// seat spec, a token, an id), and a client's kilobytes are not sent back.
func writeError(w http.ResponseWriter, status int, e apiError) {
	e.Error = diag.ClipText(e.Error, diag.MaxMessageText)
	writeJSON(w, status, e)
}

// storeError answers a store error.
func (s *Server) storeError(w http.ResponseWriter, err error, id string) {
	if errors.Is(err, context.Canceled) {
		// The request's context stopped the store's call: its client
		// left (see stoppedError). No outage of the store.
		s.log.Info("the client left before its answer", "id", id, "err", err)
		writeError(w, statusClientGone, apiError{Error: "stopped: the client left: " + err.Error(), Code: codeClientGone})
		return
	}
	status := storeStatus(err)
	msg, code := "the game store is unavailable, try again later", codeUnavailable
	switch status {
	case http.StatusNotFound:
		msg, code = fmt.Sprintf("no game with id %q", id), codeNotFound
	case http.StatusConflict:
		msg, code = "another move was made first; reload the game", codeStalePly
	case http.StatusInternalServerError:
		s.log.Error("store", "err", err)
		msg, code = "the game store failed", codeInternal
	case http.StatusServiceUnavailable:
		// The cause (a locked or deleted database file) is the
		// operator's to read, once in a while, not every client's.
		s.outageLog.Do(func() { s.log.Error("the game store does not answer", "err", err) })
		if errors.Is(err, store.ErrGone) {
			msg, code = "the server's database is gone; its operator must restart the server", codeStoreGone
		}
	}
	writeError(w, status, apiError{Error: msg, Code: code})
}

// outageLogEvery is how often a store that does not answer is logged.
const outageLogEvery = 10 * time.Second

// decodeBody reads a JSON request body into v; it answers 413 or 400 and
// returns false when the body is too large or not the expected JSON.
func (s *Server) decodeBody(w http.ResponseWriter, r *http.Request, v any) bool {
	if r.ContentLength > s.opt.maxBody { // refused unread: no "100 Continue", no waiting for it
		writeError(w, http.StatusRequestEntityTooLarge, apiError{Error: fmt.Sprintf("request body over %d bytes", s.opt.maxBody), Code: codeBodyTooLarge})
		return false
	}
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, s.opt.maxBody))
	if err != nil {
		var tooLarge *http.MaxBytesError
		if errors.As(err, &tooLarge) {
			writeError(w, http.StatusRequestEntityTooLarge, apiError{Error: fmt.Sprintf("request body over %d bytes", s.opt.maxBody), Code: codeBodyTooLarge})
			return false
		}
		writeError(w, http.StatusBadRequest, apiError{Error: "reading the request body: " + err.Error(), Code: codeBadRequest})
		return false
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.DisallowUnknownFields()
	dec.UseNumber()
	if err := dec.Decode(v); err != nil {
		writeError(w, http.StatusBadRequest, apiError{Error: "the body is not the expected JSON: " + err.Error(), Code: codeBadRequest})
		return false
	}
	if dec.More() {
		writeError(w, http.StatusBadRequest, apiError{Error: "the body holds more than one JSON value", Code: codeBadRequest})
		return false
	}
	if err := unambiguousJSON(body, reflect.TypeOf(v)); err != nil {
		writeError(w, http.StatusBadRequest, apiError{Error: "the body is not the expected JSON: " + err.Error(), Code: codeBadRequest})
		return false
	}
	return true
}

// maxJSONDepth is how deeply a request body's arrays and objects may nest:
// no request needs more than a few levels.
const maxJSONDepth = 32

// unambiguousJSON checks that body, which decodes into a value of type t,
// reads one way only (package strictjson): UTF-8, no key given twice,
// every field named exactly as the API writes it, at most maxJSONDepth
// deep.
func unambiguousJSON(body []byte, t reflect.Type) error {
	return strictjson.Check(body, t, maxJSONDepth)
}

func (s *Server) handleCatalog(w http.ResponseWriter, r *http.Request) {
	writeJSON(w, http.StatusOK, s.catalog)
}

// rulesView is a rules page: its Markdown and the same rendered as HTML.
type rulesView struct {
	Game     string `json:"game"`
	Markdown string `json:"markdown"`
	HTML     string `json:"html"`
}

func (s *Server) handleRules(w http.ResponseWriter, r *http.Request) {
	name := r.PathValue("game")
	page, ok := s.catalog.rules[name]
	if !ok {
		writeError(w, http.StatusNotFound, apiError{Error: fmt.Sprintf("no rules page for game %q", name), Code: codeNotFound})
		return
	}
	writeJSONBytes(w, http.StatusOK, page.answer(name))
}

// storeHasRoom returns a *refusal when the store holds Limits.Games games
// or more, the error of the store when it cannot count them.
func (s *Server) storeHasRoom(ctx context.Context) error {
	most := s.clients.limits.Games
	if most <= 0 {
		return nil
	}
	n, err := s.store.Count(ctx)
	if err != nil {
		return err
	}
	if n >= most {
		return &refusal{http.StatusServiceUnavailable, codeOverCapacity,
			fmt.Sprintf("the server holds %d games, its most: it makes no new game until it holds fewer", n), 0}
	}
	return nil
}

func (s *Server) handleHealth(w http.ResponseWriter, r *http.Request) {
	if err := s.store.Ping(r.Context()); err != nil {
		s.storeError(w, err, "")
		return
	}
	n, err := s.store.Count(r.Context())
	if err != nil {
		s.storeError(w, err, "")
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"ok": true, "games": n, "cached": s.cache.len()})
}

// createRequest is the body of POST /api/games.
type createRequest struct {
	Game     string         `json:"game"`
	Variants []string       `json:"variants"`
	Params   map[string]any `json:"params"`
	Seats    []string       `json:"seats"`
	// Hold lists the seats (1-based) the creator plays; the other
	// persons' seats wait for whoever claims them with their invitation.
	// Default: the first person's seat.
	Hold  []int         `json:"hold"`
	Clock *clockRequest `json:"clock"` // a time control; none when absent
}

func (s *Server) handleCreate(w http.ResponseWriter, r *http.Request) {
	var req createRequest
	if !s.decodeBody(w, r, &req) {
		return
	}
	if no := s.clients.mayCreate(s.clientKey(r)); no != nil {
		no.write(w)
		return
	}
	params := map[string]any{}
	for k, v := range req.Params {
		if n, ok := v.(json.Number); ok {
			i, err := strconv.Atoi(n.String())
			if err != nil {
				writeError(w, http.StatusUnprocessableEntity, apiError{Error: fmt.Sprintf("parameter %s: %s is not an integer", k, n), Code: codeBadConfig})
				return
			}
			v = i
		}
		params[k] = v
	}
	if req.Variants == nil {
		req.Variants = []string{}
	}
	// Everything that can be checked without loading the game is checked
	// first: a bad request costs no run of its script.
	if err := s.checkConfig(req.Game, req.Variants, params); err != nil {
		s.loadError(w, req.Game, err)
		return
	}
	var seats []store.Seat
	var hold []bool
	var clock *store.Clock
	if shape, ok := s.catalog.shapes[req.Game]; ok {
		var no *apiError
		if seats, hold, clock, no = newSeats(&req, shape.title, shape.players, s.seats); no != nil {
			writeError(w, http.StatusUnprocessableEntity, *no)
			return
		}
	}
	g, err := s.loadGame(req.Game, req.Variants, params)
	if err != nil {
		s.loadError(w, req.Game, err)
		return
	}
	if len(seats) != g.Players() { // a game the catalog does not know, or that has changed since
		var no *apiError
		if seats, hold, clock, no = newSeats(&req, g.Title(), g.Players(), s.seats); no != nil {
			writeError(w, http.StatusUnprocessableEntity, *no)
			return
		}
	}
	for i, seat := range seats {
		if seat.Player == humanSeat {
			continue
		}
		if seat.Player == perfectSeat {
			if no := s.solutions.offer(g); no != nil {
				no.msg = fmt.Sprintf("seat %d: %s", i+1, no.msg)
				no.write(w)
				return
			}
		} else if _, err := s.opt.players(g, seat.Player); err != nil {
			writeError(w, http.StatusUnprocessableEntity, apiError{Error: fmt.Sprintf("seat %d: %v", i+1, err), Code: codeBadSeats, Allowed: s.seats.texts()})
			return
		}
	}
	sg := &store.Game{Game: req.Game, Fingerprint: g.Fingerprint(), Variants: req.Variants, Params: params,
		Seats: seats, Record: []string{}, Clock: clock}
	v, err := s.createGame(r.Context(), s.clientKey(r), g, sg)
	var no *refusal
	if errors.As(err, &no) {
		no.write(w)
		return
	}
	if err != nil {
		s.storeError(w, err, "")
		return
	}
	s.seatLinks(v, sg, hold, true)
	writeJSON(w, http.StatusCreated, v)
}

// newSeats reads the seats, the held seats and the time control of req,
// a request for a new game of players players whose title is title, as
// far as they can be read without the game: the number of seats, the
// seats held, each computer seat allowed by the server's seats (stored as
// it will be played, with its budgets), the clock's bounds. A person's
// seat gets its secret, or its invitation when the creator does not hold
// it. What is wrong is answered with 422.
func newSeats(req *createRequest, title string, players int, allowed computerSeats) ([]store.Seat, []bool, *store.Clock, *apiError) {
	specs := req.Seats
	if len(specs) == 0 {
		specs = slices.Repeat([]string{humanSeat}, players)
	}
	if len(specs) != players {
		return nil, nil, nil, &apiError{Error: fmt.Sprintf("%s has %d players, got %d seats", title, players, len(specs)), Code: codeBadSeats}
	}
	hold, err := heldSeats(req.Hold, specs)
	if err != nil {
		return nil, nil, nil, &apiError{Error: err.Error(), Code: codeBadSeats}
	}
	seats := make([]store.Seat, len(specs))
	for i, spec := range specs {
		spec = strings.TrimSpace(spec)
		if spec == humanSeat {
			seats[i] = store.Seat{Player: humanSeat, Invite: newSecret()}
			if hold[i] {
				seats[i] = store.Seat{Player: humanSeat, Secret: newSecret()}
			}
			continue
		}
		// The operator's computer seats decide what a seat may cost.
		spec, err := allowed.allow(spec)
		if err != nil {
			var se *SeatError
			errors.As(err, &se)
			return nil, nil, nil, &apiError{Error: fmt.Sprintf("seat %d: %v", i+1, err), Code: codeBadSeats, Allowed: se.Allowed}
		}
		seats[i] = store.Seat{Player: spec}
	}
	clock, err := newClock(req.Clock, len(seats))
	if err != nil {
		return nil, nil, nil, &apiError{Error: err.Error(), Code: codeBadClock}
	}
	return seats, hold, clock, nil
}

// heldSeats reads the seats a game's creator holds (1-based numbers among
// the persons' seats of specs) as a flag per seat; none given is the first
// person's seat.
func heldSeats(hold []int, specs []string) ([]bool, error) {
	out := make([]bool, len(specs))
	person := func(i int) bool { return strings.TrimSpace(specs[i]) == humanSeat }
	if hold == nil {
		for i := range specs {
			if person(i) {
				out[i] = true
				break
			}
		}
		return out, nil
	}
	for _, n := range hold {
		switch {
		case n < 1 || n > len(specs):
			return nil, fmt.Errorf("hold: there is no seat %d (seats 1 to %d)", n, len(specs))
		case !person(n - 1):
			return nil, fmt.Errorf("hold: seat %d is the computer's, not a person's", n)
		case out[n-1]:
			return nil, fmt.Errorf("hold: seat %d is named twice", n)
		}
		out[n-1] = true
	}
	return out, nil
}

// createGame stores the new game sg of g for client and returns its view,
// with the board and without seat links. A client over its quota of new
// games, or of games waiting for the computer, or a store holding the
// server's most games, gets a *refusal.
func (s *Server) createGame(ctx context.Context, client string, g *host.Game, sg *store.Game) (*gameView, error) {
	st := g.Start()
	sg.Result, sg.ComputerDue = outcome(st, sg.Seats)
	if sg.ComputerDue {
		if no := s.thinkingQuota(client); no != nil {
			return nil, no
		}
	}
	if err := s.storeHasRoom(ctx); err != nil {
		return nil, err
	}
	if no := s.clients.createGame(client); no != nil {
		return nil, no
	}
	if err := s.store.Create(ctx, sg); err != nil {
		return nil, err
	}
	if sg.ComputerDue {
		defer s.sched.push(sg.ID, client)
	}
	e := s.cache.get(sg.ID)
	if err := e.lock(ctx); err != nil {
		return nil, err // the game is stored; its entry is filled from the store when it is next asked for
	}
	e.game, e.seats, e.state, e.record, e.movers, e.last, e.updated, e.stored = g, sg.Seats, st, []string{}, nil, nil, sg.Updated, sg
	e.resetMarks()
	e.publish()
	v, err := e.shown.Load().at(ctx, sg, 0)
	e.unlock()
	if err != nil {
		return nil, err
	}
	v.Board = newBoardView(g)
	return v, nil
}

// thinkingQuota refuses one more game of client waiting for the computer
// when it has its quota of them already.
func (s *Server) thinkingQuota(client string) *refusal {
	limit := s.opt.limits.ClientThinking
	if limit <= 0 || s.sched.count(client) < limit {
		return nil
	}
	return &refusal{http.StatusTooManyRequests, codeOverQuota,
		fmt.Sprintf("you have %d games waiting for the computer's move, the most at once; wait for one to move", limit),
		retrySeconds(s.opt.think)}
}

// seatLinks sets the links of v, the view of sg: the seat link of each
// held seat for which links says true, and, with invites, the invitation
// link of each person's seat nobody holds yet.
func (s *Server) seatLinks(v *gameView, sg *store.Game, links []bool, invites bool) {
	for i, seat := range sg.Seats {
		if seat.Secret != "" && i < len(links) && links[i] {
			v.Seats[i].URL = fmt.Sprintf("%s/g/%s#player=%d&seat=%s", s.opt.base, sg.ID, i+1, seat.Secret)
		}
		if invites && seat.Secret == "" && seat.Invite != "" {
			v.Seats[i].Invite = fmt.Sprintf("%s/g/%s#player=%d&invite=%s", s.opt.base, sg.ID, i+1, seat.Invite)
		}
	}
}

// loadError answers an error loading a game with 422: an unknown game,
// variant or parameter (with what is allowed), or a script that does not
// load.
func (s *Server) loadError(w http.ResponseWriter, name string, err error) {
	var ce *host.ConfigError
	if errors.As(err, &ce) {
		allowed, code := ce.Allowed, codeBadConfig
		if !slices.Contains(s.lib.Games(), name) {
			allowed, code = s.lib.Games(), codeUnknownGame
		}
		writeError(w, http.StatusUnprocessableEntity, apiError{Error: err.Error(), Code: code, Allowed: allowed})
		return
	}
	if !slices.Contains(s.lib.Games(), name) {
		writeError(w, http.StatusUnprocessableEntity, apiError{Error: fmt.Sprintf("unknown game %q", name), Code: codeUnknownGame, Allowed: s.lib.Games()})
		return
	}
	// The game exists but its script does not load (a broken script in a
	// games folder): the game cannot be played.
	s.log.Warn("loading game", "game", name, "err", err)
	writeError(w, http.StatusUnprocessableEntity, apiError{Error: fmt.Sprintf("game %s does not load: %v", name, err), Code: errorCode(err, codeScriptError)})
}

// outcome returns the result of st (nil while the game goes on), and
// whether the seat to move is a computer's.
func outcome(st *host.State, seats []store.Seat) (result *store.Result, computerDue bool) {
	if st.Over() {
		o := st.Outcome()
		notes := o.Notes
		if notes == nil {
			notes = []string{}
		}
		scores := make([]float64, st.Game().Players())
		for p := range scores {
			scores[p] = o.Score(p + 1)
		}
		return &store.Result{Winner: o.Winner, Method: o.Method.String(), Reason: o.Reason, Notes: notes, Scores: scores}, false
	}
	p := st.ToMove()
	return nil, p >= 1 && p <= len(seats) && seats[p-1].Player != humanSeat
}

// newGameView is the API's JSON of stored game sg of g at ply, showing
// the state whose JSON and legal moves are state and moves, reached by
// the move last; movers are the players who made the moves of sg's
// record (a prefix of them when not known).
func newGameView(sg *store.Game, g *host.Game, state json.RawMessage, moves []moveView, last *moveView, movers []int, ply int) *gameView {
	seats := make([]seatView, len(sg.Seats))
	for i, seat := range sg.Seats {
		seats[i] = seatView{Player: seat.Player, Name: seatName(seat.Player), Waiting: seat.Player == humanSeat && seat.Secret == ""}
	}
	variants, params := sg.Variants, sg.Params
	if variants == nil {
		variants = []string{}
	}
	if params == nil {
		params = map[string]any{}
	}
	return &gameView{ID: sg.ID, Game: sg.Game, Title: g.Title(), Variants: variants, VariantTitles: variantTitles(g, variants), Params: params, Seats: seats,
		Record: append([]string{}, sg.Record...), Movers: append([]int{}, movers...), Ply: ply, State: state, Moves: moves, Last: last,
		Result: sg.Result, Clock: newClockView(sg.Clock, time.Now()), Request: sg.Request,
		Rematch: sg.Rematch, RematchOf: sg.RematchOf, Updated: sg.Updated.UnixMicro(),
		RulesChanged: sg.Fingerprint != "" && sg.Fingerprint != g.Fingerprint()}
}

// gameAt returns the view of a stored game at ply (its current ply when
// ply is negative), with the board when withBoard is set. It never waits
// for the game's lock (see shown).
func (s *Server) gameAt(ctx context.Context, sg *store.Game, ply int, withBoard bool) (*gameView, error) {
	p, err := s.shown(ctx, sg)
	if err != nil {
		return nil, err
	}
	if ply < 0 {
		ply = len(sg.Record)
	}
	v, err := p.at(ctx, sg, ply)
	if err != nil {
		return nil, err
	}
	if withBoard {
		v.Board = newBoardView(p.game)
	}
	return v, nil
}

// shown returns a snapshot that holds the record of the stored game sg,
// without waiting for the lock of its cache entry: the entry's own when
// it shows sg or a later change; else, when the lock is free, the
// entry's once brought up to sg; else (a request holds the game, perhaps
// in a long script call) one this read makes for itself, from the
// entry's last snapshot or from the opening, which it keeps to itself.
func (s *Server) shown(ctx context.Context, sg *store.Game) (*snapshot, error) {
	e := s.cache.get(sg.ID)
	p := e.shown.Load()
	if p.shows(sg) {
		return p, nil
	}
	if e.tryLock() {
		defer e.unlock()
		if err := s.sync(ctx, e, sg); err != nil {
			return nil, err
		}
		if p = e.shown.Load(); p.shows(sg) {
			return p, nil
		}
	}
	return s.ownSnapshot(ctx, p, sg)
}

// ownSnapshot is a snapshot of the stored game sg made by a read for
// itself: from p's state when p's record begins sg's, else from the
// opening. It is nobody else's and is not kept.
func (s *Server) ownSnapshot(ctx context.Context, p *snapshot, sg *store.Game) (*snapshot, error) {
	if p != nil && isPrefix(sg.Record, p.record) {
		return p, nil // the same record, changed otherwise (a result, a seat): p's state is sg's
	}
	own := &snapshot{stored: sg, updated: sg.Updated, record: slices.Clone(sg.Record), spacing: markSpacing}
	var tokens []string
	if p != nil && isPrefix(p.record, sg.Record) {
		own.game, own.state, own.movers, own.marks, own.spacing = p.game, p.state.Clone(), p.movers, p.marks, p.spacing
		tokens = sg.Record[len(p.record):]
	} else {
		g, err := s.openStored(sg)
		if err != nil {
			return nil, err
		}
		own.game, own.state, own.marks = g, g.Start(), []*host.State{g.Start()}
		tokens = sg.Record
	}
	last, movers, err := replay(ctx, own.state, tokens, nil, 0)
	if err != nil {
		return nil, storedGameError(sg, err)
	}
	own.last = last
	own.movers = append(slices.Clip(own.movers), movers...)
	own.endedBy = endedKey(sg.Result)
	own.stateJSON, own.moves = stateView(ended(own.state, sg.Result))
	return own, nil
}

// getGame reads game id from the store, ending it on time first when its
// running clock has run out.
func (s *Server) getGame(ctx context.Context, id string) (*store.Game, error) {
	sg, err := s.store.Get(ctx, id)
	if err != nil {
		return nil, err
	}
	return s.flag(ctx, sg)
}

func (s *Server) handleGet(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	sg, err := s.getGame(r.Context(), id)
	if err != nil {
		s.storeError(w, err, id)
		return
	}
	query, ok := readQuery(w, r, "ply", "board", "since", "prefix")
	if !ok {
		return
	}
	since, prefix, ok := readSince(w, query)
	if !ok {
		return
	}
	ply := -1
	if q := query.Get("ply"); q != "" {
		ply, err = strconv.Atoi(q)
		if err != nil || ply < 0 || ply > len(sg.Record) {
			writeError(w, http.StatusBadRequest, apiError{Error: fmt.Sprintf("ply %q: want a whole number from 0 to %d", q, len(sg.Record)), Code: codeBadRequest})
			return
		}
	}
	v, err := s.gameAt(r.Context(), sg, ply, query.Get("board") != "0")
	if err != nil {
		s.rebuildError(w, r, id, err)
		return
	}
	sinceHeld(v, sg.Record, since, prefix)
	writeJSON(w, http.StatusOK, v)
}

// readQuery returns the query of r, or answers 400 and returns false when
// it reads two ways: a pair that is not well formed (which url.Values
// would drop), or one of the parameters taken once given twice.
func readQuery(w http.ResponseWriter, r *http.Request, once ...string) (url.Values, bool) {
	q, err := url.ParseQuery(r.URL.RawQuery)
	if err != nil {
		writeError(w, http.StatusBadRequest, apiError{Error: diag.ClipText(fmt.Sprintf("the query is not well formed: %v", err), diag.MaxMessageText), Code: codeBadRequest})
		return nil, false
	}
	for _, name := range once {
		if len(q[name]) > 1 {
			writeError(w, http.StatusBadRequest, apiError{Error: fmt.Sprintf("the query gives %s %d times: give it once", name, len(q[name])), Code: codeBadRequest})
			return nil, false
		}
	}
	return q, true
}

// readSynced reads game id with read and brings its cache entry e up to
// it; it answers the error and returns nil when it cannot. The caller
// holds e's lock.
func (s *Server) readSynced(w http.ResponseWriter, r *http.Request, e *entry, id string,
	read func(context.Context, string) (*store.Game, error)) *store.Game {
	sg, err := read(r.Context(), id)
	if err != nil {
		s.storeError(w, err, id)
		return nil
	}
	if err := s.sync(r.Context(), e, sg); err != nil {
		s.rebuildError(w, r, id, err)
		return nil
	}
	return sg
}

// lockGame takes the lock of game id's entry e for request r (see
// waitLock), or answers why it could not (see stoppedError) and returns
// false.
func (s *Server) lockGame(w http.ResponseWriter, r *http.Request, e *entry, id string) bool {
	if err := s.waitLock(r.Context(), e); err != nil {
		s.rebuildError(w, r, id, err)
		return false
	}
	return true
}

// DefaultLockWait is how long a request that changes a game waits, by
// default, for the request changing it before (see WithLockWait). A
// holder's store calls are bounded (store.Config.OpTimeout, 10s by
// default), but requests that queue behind a slow one would each wait for
// all those before them.
const DefaultLockWait = 10 * time.Second

// Why a request's wait for a game's lock stopped, besides its client
// leaving (see stoppedError).
var (
	errGameBusy = errors.New("another request held the game too long")
	errStopping = errors.New("the server is stopping")
)

// waitLock takes e's lock for a request whose context is ctx, waiting at
// most s.opt.lockWait, and not once the server is closing. Its error
// wraps why the wait stopped: errGameBusy, errStopping, or ctx's error
// when the client left.
func (s *Server) waitLock(ctx context.Context, e *entry) error {
	run, stop := context.WithCancelCause(ctx)
	defer stop(nil)
	closing := context.AfterFunc(s.ctx, func() { stop(errStopping) })
	defer closing()
	wait, cancel := context.WithTimeoutCause(run, s.opt.lockWait, errGameBusy)
	defer cancel()
	return e.lock(wait)
}

// stoppedError answers a request whose work stopped before its answer
// was made, and reports whether err was such a stop:
//   - it waited too long for a game another request held (errGameBusy):
//     503 game-busy, with Retry-After;
//   - the server is closing: 503 server-stopping, with Retry-After, and
//     the connection closed;
//   - its client left: 499 client-gone (nginx's status for it), which
//     nobody reads; logged at Info level, as no failure of the server;
//   - its context's own deadline passed (one an embedder set): 503
//     unavailable.
func (s *Server) stoppedError(w http.ResponseWriter, r *http.Request, id string, err error) bool {
	switch {
	case errors.Is(err, errGameBusy):
		w.Header().Set("Retry-After", strconv.Itoa(lockRetrySeconds))
		writeError(w, http.StatusServiceUnavailable, apiError{Error: fmt.Sprintf("another request has held the game for more than %v; try again", s.opt.lockWait), Code: codeGameBusy})
	case errors.Is(err, errStopping) || s.ctx.Err() != nil:
		w.Header().Set("Retry-After", strconv.Itoa(lockRetrySeconds))
		w.Header().Set("Connection", "close")
		writeError(w, http.StatusServiceUnavailable, apiError{Error: "the server is stopping; try again in a moment", Code: codeStopping})
	case errors.Is(r.Context().Err(), context.Canceled):
		s.log.Info("the client left before its answer", "method", r.Method, "path", r.URL.Path, "id", id, "err", err)
		writeError(w, statusClientGone, apiError{Error: "stopped: the client left: " + err.Error(), Code: codeClientGone})
	case r.Context().Err() != nil:
		writeError(w, http.StatusServiceUnavailable, apiError{Error: "stopped: " + err.Error(), Code: codeUnavailable})
	default:
		return false
	}
	return true
}

// statusClientGone is the status of an answer to a client that left:
// nginx's 499, "client closed request", which no client reads.
const statusClientGone = 499

// lockRetrySeconds is the Retry-After of a request that waited too long
// for its game, or came as the server stopped.
const lockRetrySeconds = 3

// rebuildError answers a game that could not be rebuilt: a 500 that says
// why, or what stopped the request (see stoppedError).
func (s *Server) rebuildError(w http.ResponseWriter, r *http.Request, id string, err error) {
	if s.stoppedError(w, r, id, err) {
		return
	}
	var changed *changedError
	if errors.As(err, &changed) {
		s.log.Warn("a stored game the server's games can no longer open", "id", id, "err", err)
		writeError(w, http.StatusConflict, apiError{Error: changed.Error(), Code: codeGameChanged})
		return
	}
	s.log.Error("rebuilding a game", "id", id, "err", err)
	writeError(w, http.StatusInternalServerError, apiError{Error: err.Error(), Code: errorCode(err, codeInternal)})
}

// moveRequest is the body of POST /api/games/{id}/moves.
type moveRequest struct {
	Token string `json:"token"`
	Ply   *int   `json:"ply"`
	Seat  string `json:"seat"`
}

func (s *Server) handleMove(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	var req moveRequest
	if !s.decodeBody(w, r, &req) {
		return
	}
	if req.Ply == nil {
		writeError(w, http.StatusBadRequest, apiError{Error: `the body needs "ply": the ply of the position the move is made in`, Code: codeBadRequest})
		return
	}
	e := s.admit(w, r, id, holdsSeat(req.Seat), func(sg *store.Game) { refuseStranger(w, sg, *req.Ply) })
	if e == nil {
		return
	}
	if !s.lockGame(w, r, e, id) {
		return
	}
	defer e.unlock()
	// A cached game at the client's ply needs no read of the store: if
	// another process moved meanwhile, the store refuses the append.
	sg := e.stored
	if e.game == nil || sg == nil || *req.Ply != len(e.record) {
		if sg = s.readSynced(w, r, e, id, s.store.Get); sg == nil {
			return
		}
	}
	ply := len(sg.Record)
	if *req.Ply != ply && madeBy(e, sg, req) {
		s.answerShown(w, r, e, sg) // the move sent again: see madeBy
		return
	}
	if refuseMoveNow(w, sg, *req.Ply, e.state.Over()) {
		return
	}
	p := e.state.ToMove()
	if p < 1 || p > len(sg.Seats) {
		writeError(w, http.StatusInternalServerError, apiError{Error: fmt.Sprintf("the game says player %d is to move, but it has %d seats", p, len(sg.Seats)), Code: codeInternal})
		return
	}
	seat := sg.Seats[p-1]
	switch {
	case seat.Player != humanSeat:
		writeError(w, http.StatusForbidden, apiError{Error: fmt.Sprintf("player %d is the computer (%s); wait for its move", p, seatName(seat.Player)), Code: codeComputerSeat})
		return
	case seat.Secret == "":
		writeError(w, http.StatusForbidden, apiError{Error: fmt.Sprintf("it is player %d's turn, whose seat waits for its person: whoever opens its invitation link plays it", p), Code: codeSeatWaiting})
		return
	case subtle.ConstantTimeCompare([]byte(req.Seat), []byte(seat.Secret)) != 1:
		writeError(w, http.StatusForbidden, apiError{Error: fmt.Sprintf("it is player %d's turn: only the holder of that seat may move", p), Code: codeNotYourSeat})
		return
	}
	next := e.state.Clone()
	m, err := next.ParseMove(req.Token)
	if err == nil {
		err = next.ApplyRecorded(m)
	}
	if err != nil {
		var ill *host.IllegalMoveError
		if errors.As(err, &ill) || req.Token == "" {
			// The rule it breaks, in the script's words, then which part
			// of the token is wrong and what is possible.
			why := e.state.WhyNotContext(r.Context(), req.Token)
			var rule, reason string
			if ill != nil {
				reason = ill.Reason
				if why == "" {
					why = reason
				}
				rule, _ = strings.CutSuffix(why, "; "+reason)
				if rule == why {
					rule = "" // the script's why function said nothing
				}
			}
			msg := diag.NotLegalHere(req.Token, why)
			writeError(w, http.StatusUnprocessableEntity, apiError{Error: msg, Code: errorCode(err, codeIllegalToken), Legal: e.state.Legal(), Rule: rule, Reason: reason})
			return
		}
		s.log.Error("playing a move", "id", id, "token", req.Token, "err", err)
		writeError(w, http.StatusInternalServerError, apiError{Error: err.Error(), Code: errorCode(err, codeInternal)})
		return
	}
	result, due := outcome(next, sg.Seats)
	clock, late := afterMove(sg.Clock, p, toMove(next), time.Now(), showTime(next))
	if late {
		if _, err := s.flag(r.Context(), sg); err != nil {
			s.storeError(w, err, id)
			return
		}
		writeError(w, http.StatusConflict, apiError{Error: fmt.Sprintf("player %d ran out of time: the game is over", p), Code: codeGameOver, Ply: &ply})
		return
	}
	client := s.clientKey(r)
	if due {
		if no := s.thinkingQuota(client); no != nil {
			no.write(w)
			return
		}
	}
	sg, err = s.store.Append(r.Context(), id, store.Move{Ply: ply, Token: req.Token, Result: result, ComputerDue: due, Clock: clock})
	if errors.Is(err, store.ErrConflict) {
		// Another change came first, or this very move did: an
		// earlier try whose answer was lost (a store that did not
		// answer in time may still have stored it).
		if now, rerr := s.store.Get(r.Context(), id); rerr == nil && s.sync(r.Context(), e, now) == nil && madeBy(e, now, req) {
			s.answerShown(w, r, e, now)
			return
		}
	}
	if err != nil {
		s.storeError(w, err, id)
		return
	}
	last := newMoveView(e.game, m)
	e.set(sg, next, &last, p)
	if due {
		s.sched.push(id, client)
	}
	s.answerShown(w, r, e, sg)
}

// refuseMoveNow answers 409 to a move asked at another ply than stored
// game sg's, or made in a game that is over (sg's, or its state when
// stateOver), and reports whether it did.
func refuseMoveNow(w http.ResponseWriter, sg *store.Game, asked int, stateOver bool) bool {
	ply := len(sg.Record)
	switch {
	case asked != ply:
		writeError(w, http.StatusConflict, apiError{Error: fmt.Sprintf("the game is at ply %d, not %d: another move was made first", ply, asked), Code: codeStalePly, Ply: &ply})
	case sg.Over() || stateOver:
		writeError(w, http.StatusConflict, apiError{Error: "the game is over", Code: codeGameOver, Ply: &ply})
	default:
		return false
	}
	return true
}

// refuseStranger answers a move whose secret is no seat of stored game
// sg's, from sg alone (see admit): 409 as refuseMoveNow, else 403. Which
// seat is to move is the game's state's to say, which is not rebuilt for
// a stranger: the 403 does not name it.
func refuseStranger(w http.ResponseWriter, sg *store.Game, asked int) {
	if !refuseMoveNow(w, sg, asked, false) {
		writeError(w, http.StatusForbidden, apiError{Error: "no seat of this game has the secret sent: only the holder of the seat to move may move", Code: codeNotYourSeat})
	}
}

// madeBy reports whether the move req sends is the last move of stored
// game sg (which e is brought up to), made by the seat whose secret req
// holds: a move sent again (its first answer lost, or a store that did not
// answer in time having stored it all the same) is answered as the move
// made, not as another's.
func madeBy(e *entry, sg *store.Game, req moveRequest) bool {
	last := len(sg.Record) - 1
	if last < 0 || *req.Ply != last || sg.Record[last] != req.Token || last >= len(e.movers) || len(e.record) != len(sg.Record) {
		return false
	}
	p := e.movers[last]
	return p >= 1 && p <= len(sg.Seats) && sg.Seats[p-1].Player == humanSeat && seatOf(sg.Seats, req.Seat) == p
}

// answerShown answers the view of stored game sg at its current ply,
// which its entry e shows (the caller holds e's lock and has just brought
// e up to sg).
func (s *Server) answerShown(w http.ResponseWriter, r *http.Request, e *entry, sg *store.Game) {
	v, err := e.shown.Load().at(r.Context(), sg, len(sg.Record))
	if err != nil {
		s.rebuildError(w, r, sg.ID, err)
		return
	}
	writeJSON(w, http.StatusOK, v)
}

// toMove is the seat to move in st, 0 when the game is over.
func toMove(st *host.State) int {
	if st.Over() {
		return 0
	}
	return st.ToMove()
}
