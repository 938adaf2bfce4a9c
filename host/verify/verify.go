// Package verify plays random games of a loaded game and checks, after
// every move, the invariants every rule script must keep: no negative
// counts, owners that exist, counters conserved when the script says so,
// legal lists without duplicates, every legal token accepted and tokens
// outside the list rejected without changing the state, effects that lead
// from each state to the next (see Effects), copies independent of their
// originals, states that survive a JSON round trip, games that replay
// identically from their records, scores that the script can give at
// every state, and games that end.
//
// It is what `matombo check` runs on a script, and what the project's
// reliability tests run on every shipped game and variant. RunContext and
// CheckContext bound a run by a context: a run stopped by its time limit
// or an interrupt stops the script call in progress and says what it did
// not do, never passing.
package verify

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"hash/fnv"
	"math/rand/v2"
	"strings"

	"github.com/matombo/matombo/host"
	"github.com/matombo/matombo/host/diag"
)

// Options of a verification run. The zero value plays 100 games with the
// cheap checks only.
type Options struct {
	Games    int    // random games to play (default 100)
	Seed     uint64 // game i plays with seed Seed+i
	MaxPlies int    // a game longer than this is a problem; default the game's MaxPlies, else 100000

	// Thorough adds, in the first ThoroughGames games (default all),
	// after each of a game's first 256 moves and after its 512th, 1024th,
	// 2048th and so on (see Checked): every legal token is accepted on a
	// copy, near-miss tokens are rejected without changing the state, a
	// copy played on leaves the original unchanged, and the JSON of the
	// state reads back.
	Thorough      bool
	ThoroughGames int

	// Replay replays every game from its record, on a game from Reload if
	// given (fresh script machines), and compares the JSON after the moves
	// Checked names and after the last.
	Replay bool
	Reload func() (*host.Game, error)

	// MaxProblems stops the run after that many problems (default 20).
	MaxProblems int
}

// Problem is one broken invariant, with what is needed to reproduce it.
type Problem struct {
	Seed   uint64
	Ply    int      // the ply at which it was found
	Record []string // the tokens played before it
	Msg    string

	// For a script that failed: the token being played ("" for none), the
	// script function that failed, and the error without the token, the
	// same for every token that fails the same way.
	Token string
	Call  host.Call
	Cause string
	// OnPath is true when the token is the one the seed's game plays, so
	// that replaying the seed's random game (matombo selfplay) reproduces
	// the failure; false when the thorough checks found it trying another
	// token on a copy.
	OnPath bool
}

func (p Problem) String() string {
	rec := strings.Join(p.Record, " ")
	if len(rec) > 400 {
		rec = "... " + rec[len(rec)-400:]
	}
	return fmt.Sprintf("seed %d, ply %d: %s\n  record: %s", p.Seed, p.Ply, p.Msg, rec)
}

// Stats summarizes the games played.
type Stats struct {
	Games      int
	Plies      int
	Longest    int
	Unfinished int
	Wins       []int // per player, index 0 for Player 1
	Draws      int
	Checked    int // moves checked thoroughly

	// Stopped is why the run's context stopped it (see RunContext), ""
	// when every game was played. The last problem then says where.
	Stopped string
	// Hung is the time budget a call ran into (e.g. "30s"), "" when none
	// did. The run stops at the game where one did, which is counted in
	// neither Games nor Stopped: a script that hangs once hangs again,
	// each call taking the whole budget.
	Hung string
}

// Run plays the games and returns what it saw and the problems it found.
// It is RunContext without a context: nothing but the script's per-call
// budgets bounds it.
func Run(g *host.Game, opt Options) (Stats, []Problem) {
	return RunContext(context.Background(), g, opt)
}

// RunContext is Run, stopped when ctx is done: the script call in
// progress stops between two instructions (see host.Runner.SetContext),
// the game it was in is not counted, and the last problem is the stop:
// "stopped: " and the reason (diag.StopReason: the text of ctx's cause,
// e.g. "interrupted"), with the seed and ply of the game it stopped and
// how many games were not played. Stats.Stopped holds the reason. A
// Reload given in opt runs without ctx: make it load with ctx
// (host.Library.LoadContext).
func RunContext(ctx context.Context, g *host.Game, opt Options) (Stats, []Problem) {
	if opt.Games <= 0 {
		opt.Games = 100
	}
	if opt.MaxPlies <= 0 {
		opt.MaxPlies = g.MaxPlies()
		if opt.MaxPlies <= 0 {
			opt.MaxPlies = 100000
		}
	}
	if opt.MaxProblems <= 0 {
		opt.MaxProblems = 20
	}
	if opt.ThoroughGames <= 0 {
		opt.ThoroughGames = opt.Games
	}
	st := Stats{Wins: make([]int, g.Players())}
	var probs []Problem
	var stop *Problem
	for i := 0; i < opt.Games && len(probs) < opt.MaxProblems; i++ {
		seed := opt.Seed + uint64(i)
		if reason := diag.StopReason(ctx); reason != "" {
			st.Stopped = reason
			stop = &Problem{Seed: seed, Msg: fmt.Sprintf("stopped: %s, before this game; %s not played", reason, plural(opt.Games-i, "game"))}
			break
		}
		c := &checker{ctx: ctx, g: g, opt: opt, seed: seed, thorough: opt.Thorough && i < opt.ThoroughGames}
		c.game()
		if c.hung != nil {
			st.Hung = c.hung.Limit
			probs = append(probs, c.probs...)
			if left := opt.Games - i - 1; left > 0 {
				stop = &Problem{Seed: seed, Ply: len(c.record), Record: c.record,
					Msg: fmt.Sprintf("%s not played: a call of this game ran into the time budget (%s), and a script that hangs once hangs again, each call taking the whole budget", plural(left, "more game"), c.hung.Limit)}
			}
			break
		}
		if c.stopped {
			probs = append(probs, c.probs...) // found before the stop
			st.Stopped = diag.StopReason(ctx)
			stop = &Problem{Seed: seed, Ply: len(c.record), Record: c.record,
				Msg: fmt.Sprintf("stopped: %s, in this game; %s not played", st.Stopped, plural(opt.Games-i, "game"))}
			break
		}
		st.Games++
		st.Plies += len(c.record)
		st.Checked += c.checked
		st.Longest = max(st.Longest, len(c.record))
		if c.final != nil {
			if out := c.final.Outcome(); !out.Over {
				st.Unfinished++
			} else if out.Winner == 0 {
				st.Draws++
			} else if out.Winner <= len(st.Wins) {
				st.Wins[out.Winner-1]++
			}
		}
		probs = append(probs, c.probs...)
	}
	if len(probs) > opt.MaxProblems {
		probs = probs[:opt.MaxProblems]
	}
	if stop != nil {
		probs = append(probs, *stop)
	}
	return st, probs
}

// Checked reports whether the state after ply moves of a game is among
// those the thorough checks and the replay compare: every one of the
// first 256, then those after a power of 2 moves. The JSON of a state
// holds its history, so checking every state of a long game would cost
// the square of its length (a game that never ends, played to a cap of
// 100,000 plies, for hours); so the checks of a game cost about twice its
// length's.
func Checked(ply int) bool { return ply <= 256 || ply&(ply-1) == 0 }

// plyHash is the hash of a state's JSON after ply moves.
type plyHash struct {
	ply  int
	hash uint64
}

type checker struct {
	ctx      context.Context
	stopped  bool              // ctx stopped the game
	hung     *host.BudgetError // a call ran into the time budget: the game stopped there
	pending  []Problem         // script failures found on copies, see scriptFailure
	g        *host.Game
	r        *host.Runner
	opt      Options
	seed     uint64
	thorough bool
	record   []string
	hashes   []plyHash // JSON hashes of the states Checked names and the last, for replay
	probs    []Problem
	final    *host.State
	checked  int
	total    int
}

func (c *checker) fail(format string, args ...any) {
	c.probs = append(c.probs, Problem{Seed: c.seed, Ply: len(c.record), Record: append([]string(nil), c.record...), Msg: fmt.Sprintf(format, args...)})
}

func jsonHash(s *host.State) uint64 {
	b, _ := s.MarshalJSON()
	h := fnv.New64a()
	h.Write(b)
	return h.Sum64()
}

func (c *checker) game() {
	// Moves are chosen with rng alone, so a seed replays the same game
	// whether or not the thorough checks ran; they draw from probe.
	rng := rand.New(rand.NewPCG(c.seed, 0x6d61746f6d626f))
	probe := rand.New(rand.NewPCG(c.seed, 0x70726f6265))
	defer c.flushPending()
	r := c.g.NewRunner()
	defer r.Close()
	r.SetContext(c.ctx)
	r.Record(true)
	c.r = r
	s := c.g.Start()
	before := s.Clone()
	c.total = total(s)
	if !c.state(s) {
		return
	}
	if c.opt.Replay {
		c.hashes = append(c.hashes, plyHash{0, jsonHash(s)})
	}
	for !s.Over() {
		if err := c.ctx.Err(); err != nil {
			c.halt(err)
			return
		}
		if len(c.record) >= c.opt.MaxPlies {
			c.fail("the game did not end within %d plies", c.opt.MaxPlies)
			break
		}
		if c.thorough && Checked(len(c.record)) && !c.deep(s, probe) {
			return
		}
		moves := s.Moves()
		m := moves[rng.IntN(len(moves))]
		tok := c.g.Token(m)
		before.CopyFrom(s)
		if err := r.Apply(s, m); err != nil {
			if c.halt(err) {
				return
			}
			if !c.scriptFailure(tok, err, true) {
				c.fail("the legal token %q failed: %v", tok, err)
			}
			return
		}
		c.record = append(c.record, tok)
		if c.opt.Replay && (Checked(len(c.record)) || s.Over() || len(c.record) >= c.opt.MaxPlies) {
			c.hashes = append(c.hashes, plyHash{len(c.record), jsonHash(s)})
		}
		if err := Effects(before, s); err != nil {
			c.fail("%v", err)
		}
		if !c.state(s) {
			return
		}
	}
	c.final = s
	if c.opt.Replay {
		c.replay()
	}
}

// hangs reports whether a call of the game ran into the time budget: err,
// which it notes, or one before. The time budget stops what the step
// count cannot see (a hang); a script that hangs once hangs again, each
// call taking the whole budget (30 s by default), so the game and the run
// stop there rather than try every other token and game.
func (c *checker) hangs(err error) bool {
	if c.hung == nil {
		c.hung = diag.Hang(err)
	}
	return c.hung != nil
}

// halt reports whether err is the run's context stopping a call (a
// *host.CanceledError, or the context's own error), and marks the game
// stopped when it is.
func (c *checker) halt(err error) bool {
	if diag.StoppedBy(c.ctx, err) {
		c.stopped = true
	}
	return c.stopped
}

func total(s *host.State) int {
	g := s.Game()
	n := 0
	for i := 0; i < g.Board().NumSites(); i++ {
		n += s.Count(i)
	}
	for p := 1; p <= g.Players(); p++ {
		n += s.Captured(p) + s.Hand(p)
	}
	return n
}

// state checks the cheap invariants of one state.
func (c *checker) state(s *host.State) bool {
	g := c.g
	before := len(c.probs)
	for i := 0; i < g.Board().NumSites(); i++ {
		if s.Count(i) < 0 {
			c.fail("%s holds %d counters", g.Board().Site(i).Name, s.Count(i))
		}
		if o := s.Owner(i); o < 0 || o > g.Players() {
			c.fail("%s has owner %d", g.Board().Site(i).Name, o)
		}
	}
	for p := 1; p <= g.Players(); p++ {
		if s.Captured(p) < 0 || s.Hand(p) < 0 {
			c.fail("player %d has captured %d and hand %d", p, s.Captured(p), s.Hand(p))
		}
	}
	if g.Conserves() {
		if t := total(s); t != c.total {
			c.fail("counters not conserved: board + captured + hand = %d, the opening had %d", t, c.total)
		}
	}
	legal := s.Legal()
	seen := map[string]bool{}
	for _, t := range legal {
		if seen[t] {
			c.fail("the legal list names %q twice: %s", t, strings.Join(legal, " "))
		}
		seen[t] = true
		if t == "" || strings.ContainsAny(t, " \t\n") {
			c.fail("legal token %q is empty or has spaces", t)
		}
	}
	out := s.Outcome()
	switch {
	case out.Over && len(legal) > 0:
		c.fail("the game is over but lists legal tokens %s", strings.Join(legal, " "))
	case !out.Over && len(legal) == 0:
		c.fail("the game goes on but no token is legal")
	case out.Winner < 0 || out.Winner > g.Players():
		c.fail("winner %d does not exist", out.Winner)
	case !out.Over && out.Winner != 0:
		c.fail("winner %d while the game goes on", out.Winner)
	}
	if s.ToMove() < 1 || s.ToMove() > g.Players() {
		c.fail("to_move is %d", s.ToMove())
	}
	if _, err := c.r.Score(s, nil); err != nil && !c.halt(err) {
		c.fail("the score of the position fails: %v", err)
		c.hangs(err)
	}
	return len(c.probs) == before && !c.stopped
}

// deep runs the thorough checks on s without changing it.
func (c *checker) deep(s *host.State, rng *rand.Rand) bool {
	before := len(c.probs)
	c.checked++
	orig, _ := s.MarshalJSON()
	legal := s.Legal()
	for _, t := range legal {
		cp := s.Clone()
		err := cp.PlayContext(c.ctx, t)
		if err != nil && c.halt(err) {
			return false
		}
		if err != nil && !c.scriptFailure(t, err, false) {
			c.fail("legal token %q is refused: %v", t, err)
		}
		if c.hung != nil {
			return false
		}
	}
	if now, _ := s.MarshalJSON(); !bytes.Equal(now, orig) {
		c.fail("playing on copies changed the original")
	}
	for _, t := range nearMisses(c.g, legal, rng) {
		err := s.PlayContext(c.ctx, t)
		var ill *host.IllegalMoveError
		switch {
		case err != nil && c.halt(err):
			return false
		case err == nil:
			c.fail("token %q is not in the legal list (%s) but was accepted", t, strings.Join(legal, " "))
			return false
		case !errors.As(err, &ill):
			c.fail("token %q: want an illegal-token error, got %v", t, err)
			if c.hangs(err) {
				return false
			}
		case !strings.Contains(err.Error(), fmt.Sprintf("%q", t)):
			c.fail("the error for %q does not name it: %v", t, err)
		}
		if now, _ := s.MarshalJSON(); !bytes.Equal(now, orig) {
			c.fail("rejecting %q changed the state", t)
			return false
		}
	}
	back, err := c.g.StateFromJSON(orig)
	if err != nil {
		c.fail("the state's JSON does not read back: %v", err)
	} else if again, _ := back.MarshalJSON(); !bytes.Equal(again, orig) {
		c.fail("the state's JSON changes on a round trip:\n  %s\n  %s", orig, again)
	}
	return len(c.probs) == before
}

// scriptFailure records a script that failed while tok was played, and
// reports whether err was such a failure. One found on the game's own path
// is a problem at once; one found on a copy waits in pending, once per
// cause, until the game is over: when the game's own path runs into the
// same failure only that one is reported, as it is the one a replay of the
// seed reproduces.
func (c *checker) scriptFailure(tok string, err error, onPath bool) bool {
	var se *host.ScriptError
	var be *host.BudgetError
	var call host.Call
	var cause string
	switch {
	case errors.As(err, &se):
		call, cause = se.Func, se.Pos.String()+": "+se.Msg
		if se.Pos.String() == "" {
			cause = se.Msg
		}
	case errors.As(err, &be):
		call, cause = be.Func, be.Error()
		c.hangs(err)
	default:
		return false
	}
	msg := fmt.Sprintf("after token %q the script failed in %s: %s", tok, call, cause)
	if call == host.CallPlay {
		msg = fmt.Sprintf("the script failed in play, playing token %q: %s", tok, cause)
	}
	p := Problem{Seed: c.seed, Ply: len(c.record) + 1, Record: append([]string(nil), c.record...), Msg: msg,
		Token: tok, Call: call, Cause: cause, OnPath: onPath}
	if onPath {
		kept := c.pending[:0]
		for _, q := range c.pending {
			if q.Cause != cause {
				kept = append(kept, q)
			}
		}
		c.pending = kept
		c.probs = append(c.probs, p)
		return true
	}
	for _, q := range c.pending {
		if q.Cause == cause {
			return true
		}
	}
	c.pending = append(c.pending, p)
	return true
}

// flushPending reports the failures found on copies that the game's own
// path did not run into.
func (c *checker) flushPending() {
	c.probs = append(c.probs, c.pending...)
	c.pending = nil
}

// nearMisses returns tokens close to legal ones that are not legal.
func nearMisses(g *host.Game, legal []string, rng *rand.Rand) []string {
	in := map[string]bool{}
	for _, t := range legal {
		in[t] = true
	}
	var out []string
	add := func(t string) {
		if !in[t] {
			in[t] = true
			out = append(out, t)
		}
	}
	b := g.Board()
	for k := 0; k < 4; k++ {
		name := b.Site(rng.IntN(b.NumSites())).Name
		add(name)
		add("x" + name)
		add(name + "-" + b.Site(rng.IntN(b.NumSites())).Name)
	}
	for _, t := range []string{"", " ", "pass", "continue", "stop", "accept", "decline", "a0", "z9", "a1 ", " a1", "A1", "a01", "a-1", "x", "offer:", "offer:a1,a1", "é", strings.Repeat("a", 300)} {
		add(t)
	}
	if len(legal) > 0 {
		t := legal[rng.IntN(len(legal))]
		add(t + "x")
		add(strings.ToUpper(t))
		add(t[:len(t)-1])
	}
	return out
}

// replay replays the record on a fresh game and compares the states
// hashed in the first play.
func (c *checker) replay() {
	g := c.g
	if c.opt.Reload != nil {
		fresh, err := c.opt.Reload()
		if err != nil {
			if c.halt(err) {
				return
			}
			c.fail("reloading the game for the replay: %v", err)
			return
		}
		defer fresh.Close()
		g = fresh
	}
	s := g.Start()
	if jsonHash(s) != c.hashes[0].hash {
		c.fail("replay: the opening differs")
		return
	}
	next := 1 // the hash the replay compares next
	r := g.NewRunner()
	defer r.Close()
	r.SetContext(c.ctx)
	r.Record(true)
	for i, t := range c.record {
		if err := r.Play(s, t); err != nil {
			if c.halt(err) {
				return
			}
			c.fail("replay: token %d %q failed: %v", i+1, t, err)
			return
		}
		if next == len(c.hashes) || c.hashes[next].ply != i+1 {
			continue
		}
		if jsonHash(s) != c.hashes[next].hash {
			c.fail("replay: the state after token %d (%q) differs from the first play", i+1, t)
			return
		}
		next++
	}
}

// Effects checks that the effects recorded in after (State.Effects: the
// state was made with recording on) lead from before, the state its move
// was played on, to after: applied to before's position they give after's
// counts, owners, captured totals, hands and, unless the game ended,
// whose decision is next. It is how `matombo check` verifies that a
// script's primitives say what they do.
func Effects(before, after *host.State) error {
	effects, ok := after.Effects()
	if !ok {
		return fmt.Errorf("effects: the state after ply %d was made without recording its effects", after.Ply())
	}
	pos := before.Position()
	if err := pos.ApplyEffects(effects); err != nil {
		return fmt.Errorf("effects of ply %d do not apply to the state before it: %w", after.Ply(), err)
	}
	want := after.Position()
	g := after.Game()
	b := g.Board()
	for i := range want.Counts {
		if pos.Counts[i] != want.Counts[i] || pos.Owners[i] != want.Owners[i] {
			return fmt.Errorf("effects of ply %d give %s count %d owner %d, the state has count %d owner %d",
				after.Ply(), b.Site(i).Name, pos.Counts[i], pos.Owners[i], want.Counts[i], want.Owners[i])
		}
	}
	for p := range want.Captured {
		if pos.Captured[p] != want.Captured[p] || pos.Hand[p] != want.Hand[p] {
			return fmt.Errorf("effects of ply %d give player %d captured %d and hand %d, the state has %d and %d",
				after.Ply(), p+1, pos.Captured[p], pos.Hand[p], want.Captured[p], want.Hand[p])
		}
	}
	if !after.Over() && pos.ToMove != want.ToMove {
		return fmt.Errorf("effects of ply %d give player %d to move, the state has player %d", after.Ply(), pos.ToMove, want.ToMove)
	}
	return nil
}
