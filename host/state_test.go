package host

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math/bits"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"

	"github.com/matombo/matombo/host/diag"
	"github.com/matombo/matombo/host/kernel"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// States: JSON, copies, history and repetitions, positions, illegal moves,
// tokens.

// jsonKeys returns the keys of the JSON object at the start of data, in
// order, and the keys of its first nested object under key nested.
func jsonKeys(t *testing.T, data []byte) []string {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(data))
	tok, err := dec.Token()
	require.NoError(t, err)
	require.Equal(t, json.Delim('{'), tok)
	var keys []string
	for dec.More() {
		tok, err := dec.Token()
		require.NoError(t, err)
		keys = append(keys, tok.(string))
		var skip json.RawMessage
		require.NoError(t, dec.Decode(&skip))
	}
	return keys
}

// TestJSONFieldOrder checks the fields of docs/state-json.md in their
// order, then reason, vars and history.
func TestJSONFieldOrder(t *testing.T) {
	g := loadTest(t, "probe")
	s := g.Start()
	data, err := json.Marshal(s)
	require.NoError(t, err)
	assert.Equal(t, []string{"game", "variant", "ply", "to_move", "sites", "captured", "hand", "score", "legal", "prompt", "over", "winner", "notes", "reason", "result_sites", "vars", "history", "effects"}, jsonKeys(t, data))

	var j struct {
		Variant json.RawMessage
		Sites   []json.RawMessage
		Vars    json.RawMessage
	}
	require.NoError(t, json.Unmarshal(data, &j))
	assert.Equal(t, []string{"seeds", "fast", "shape", "label", "limit"}, jsonKeys(t, j.Variant), "every parameter, in declaration order")
	assert.Equal(t, []string{"name", "count", "owner"}, jsonKeys(t, j.Sites[0]))
	assert.Equal(t, []string{"phase", "bonus", "memo"}, jsonKeys(t, j.Vars))

	assert.Equal(t, `{"game":"probe","variant":{"seeds":2,"fast":false,"shape":"grid","label":"x","limit":40},"ply":0,"to_move":1,`+
		`"sites":[{"name":"a1","count":2,"owner":1},{"name":"a2","count":2,"owner":1},{"name":"a3","count":2,"owner":1},{"name":"a4","count":2,"owner":1},`+
		`{"name":"b1","count":0,"owner":0},{"name":"b2","count":0,"owner":0},{"name":"b3","count":0,"owner":0},{"name":"b4","count":0,"owner":0},`+
		`{"name":"c1","count":2,"owner":2},{"name":"c2","count":2,"owner":2},{"name":"c3","count":2,"owner":2},{"name":"c4","count":2,"owner":2}],`+
		`"captured":[0,0],"hand":[1,1],"score":null,"legal":["a1","a2","a3","a4"],"prompt":"","over":false,"winner":0,"notes":[],"reason":"","result_sites":[],"vars":{"phase":0,"bonus":0,"memo":0},"history":["0ca622e9cc1ee35b"],"effects":[]}`,
		string(data))

	// A game without parameters or variables; strings are escaped.
	p := loadTest(t, "probepts")
	pd, err := json.Marshal(p.Start())
	require.NoError(t, err)
	assert.Contains(t, string(pd), `"variant":{},`)
	assert.Contains(t, string(pd), `"vars":{},`)
	r := loadTest(t, "probe", WithParam("label", "a \"quoted\" <label>"))
	rd, err := json.Marshal(r.Start())
	require.NoError(t, err)
	assert.True(t, json.Valid(rd))
	assert.Contains(t, string(rd), `"label":"a \"quoted\" \u003clabel\u003e"`)
}

// The end of a game: legal empty, winner and notes, to_move kept.
func TestJSONGameOver(t *testing.T) {
	g := loadTest(t, "probe")
	s := g.Start()
	_, err := evalIn(g, s, asSetup, luaPrefix+`m.finish(2, "the end", "note \"one\"")`)
	require.NoError(t, err)
	s.k.Moves = s.k.Moves[:0]
	text := stateJSONText(t, s)
	assert.Contains(t, text, `"legal":[],"prompt":"","over":true,"winner":2,"notes":["note \"one\""],"reason":"the end"`)
	assert.Contains(t, text, `"to_move":1`)
}

// StateFromJSON reads back what MarshalJSON writes, along random games,
// including finished ones.
func TestStateFromJSONRoundTrip(t *testing.T) {
	for _, name := range []string{"probe", "probepts", "kalah"} {
		t.Run(name, func(t *testing.T) {
			g := loadTest(t, name)
			rng := rand.New(rand.NewPCG(11, 12))
			for game := 0; game < 5; game++ {
				s := g.Start()
				for {
					text := stateJSONText(t, s)
					back, err := g.StateFromJSON([]byte(text))
					require.NoError(t, err, text)
					assert.Equal(t, text, stateJSONText(t, back))
					assert.Equal(t, s.Key(), back.Key())
					assert.Equal(t, s.Legal(), back.Legal())
					assert.Equal(t, s.Repetitions(), back.Repetitions(), "the history is carried")
					if ok, err := PlayRandom(s, rng); !ok {
						break
					} else {
						require.NoError(t, err)
					}
				}
				require.True(t, s.Over())
			}
		})
	}
}

func TestStateFromJSONErrors(t *testing.T) {
	g := loadTest(t, "probe")
	good := stateJSONText(t, g.Start())
	for _, c := range []struct{ name, from, to, err string }{
		{"other game", `"game":"probe"`, `"game":"kalah"`, `the state is of game "kalah", not "probe"`},
		{"other parameter value", `"seeds":2`, `"seeds":3`, "parameter seeds is 3, the game is loaded with 2"},
		{"missing parameter", `"seeds":2,`, ``, "variant lacks parameter seeds"},
		{"extra parameter", `"limit":40`, `"limit":40,"more":1`, "variant has 6 parameters, the game has 5"},
		{"unknown field", `"ply":0`, `"ply":0,"colour":1`, `unknown field "colour"`},
		{"bad syntax", `"ply":0`, `"ply":`, "state JSON"},
		{"site names", `"name":"a1"`, `"name":"z1"`, `site 1 is "z1", want "a1"`},
		{"site count", `,{"name":"c4","count":2,"owner":2}`, ``, "want 12 sites, got 11"},
		{"negative ply", `"ply":0`, `"ply":-1`, "negative ply"},
		{"winner while not over", `"winner":0`, `"winner":1`, "winner 1 is not possible here"},
		{"winner 3", `"over":false,"winner":0`, `"over":true,"winner":3`, "winner 3 is not possible here"},
		{"legal differs", `"legal":["a1","a2","a3","a4"]`, `"legal":["a1","a2","a4","a3"]`, `legal token 3 is "a3" here, "a4" in the JSON`},
		{"legal count differs", `"legal":["a1","a2","a3","a4"]`, `"legal":["a1"]`, "the script lists 4 legal tokens here, the JSON 1"},
		{"negative count", `"name":"b1","count":0`, `"name":"b1","count":-3`, "position: b1 has count -3 (0 to 1073741823 allowed)"},
		{"bad owner", `"name":"b1","count":0,"owner":0`, `"name":"b1","count":0,"owner":3`, "position: b1 has owner 3 (0 to 2 allowed)"},
		{"bad to_move", `"to_move":1`, `"to_move":0`, "position: to_move must be a player from 1 to 2, got 0"},
		{"unknown var", `"memo":0`, `"memo":0,"extra":1`, `position: the script declares no variable "extra" (it declares: phase, bonus, memo)`},
		{"captured length", `"captured":[0,0]`, `"captured":[0]`, "want 2 captured totals and hands, got 1 and 2"},
		{"fractional parameter", `"seeds":2`, `"seeds":2.9`, "parameter seeds is 2.9, not a whole number"},
		{"fractional count", `"name":"b1","count":0`, `"name":"b1","count":0.5`, "cannot unmarshal number 0.5"},
		{"count past int32", `"name":"b1","count":0`, `"name":"b1","count":4294967303`, "position: b1 has count 4294967303 (0 to 1073741823 allowed)"},
		{"captured past int32", `"captured":[0,0]`, `"captured":[2147483648,4294967297]`, "position: player 1's captured total is 2147483648 (0 to 1073741823 allowed)"},
		{"var past int32", `"memo":0`, `"memo":4294967296`, "position: variable memo is 4294967296"},
		{"reason with an escape", `"legal":["a1","a2","a3","a4"],"prompt":"","over":false,"winner":0,"notes":[],"reason":""`, `"legal":[],"prompt":"","over":true,"winner":0,"notes":[],"reason":"\u001b]0;owned\u0007"`, "reason: the reason contains the control character U+001B"},
		{"note with a bidi override", `"legal":["a1","a2","a3","a4"],"prompt":"","over":false,"winner":0,"notes":[]`, `"legal":[],"prompt":"","over":true,"winner":0,"notes":["ok","\u202eevil"]`, "notes: note 2 contains the control character U+202E"},
		{"not conserving", `"name":"a1","count":2`, `"name":"a1","count":400`, "the game conserves its counters: the opening has 18 on the board, captured and in hand, this position 416"},
	} {
		t.Run(c.name, func(t *testing.T) {
			bad := strings.Replace(good, c.from, c.to, 1)
			require.NotEqual(t, good, bad, "the case changes the JSON")
			_, err := g.StateFromJSON([]byte(bad))
			assert.ErrorContains(t, err, c.err)
		})
	}
}

// Clone and CopyFrom make independent states: playing on one never changes
// the other, including their histories, which share their older chunks.
func TestCloneIndependence(t *testing.T) {
	g := loadTest(t, "kalah")
	rng := rand.New(rand.NewPCG(5, 6))
	s := g.Start()
	for i := 0; i < 10; i++ {
		_, err := PlayRandom(s, rng)
		require.NoError(t, err)
	}
	before := stateJSONText(t, s)
	c := s.Clone()
	assert.Equal(t, before, stateJSONText(t, c))
	_, err := Playout(c, rng, 0)
	require.NoError(t, err)
	assert.Equal(t, before, stateJSONText(t, s), "playing on the clone leaves the original")

	c2 := s.Clone()
	_, err = Playout(s, rng, 0)
	require.NoError(t, err)
	assert.Equal(t, before, stateJSONText(t, c2), "playing on the original leaves the clone")

	var d State
	d.CopyFrom(c2)
	assert.Equal(t, before, stateJSONText(t, &d))
	d.CopyFrom(g.Start())
	assert.Equal(t, 0, d.Ply())
	assert.Equal(t, before, stateJSONText(t, c2))

	// A state can become a copy of a state of another game.
	p := loadTest(t, "probe")
	d.CopyFrom(p.Start())
	assert.Equal(t, stateJSONText(t, p.Start()), stateJSONText(t, &d))
	d.CopyFrom(c2)
	assert.Equal(t, before, stateJSONText(t, &d))
	assert.Same(t, g, d.Game())
}

// CopyFrom does not allocate once the destination has been a copy of a
// state of the same game.
func TestCopyFromDoesNotAllocate(t *testing.T) {
	g := loadTest(t, "kalah")
	s := g.Start()
	_, err := Playout(s, rand.New(rand.NewPCG(1, 1)), 30)
	require.NoError(t, err)
	var d State
	d.CopyFrom(s)
	assert.Zero(t, testing.AllocsPerRun(100, func() { d.CopyFrom(s) }))
}

// The histories of a state and its copies: each counts repetitions of its
// own game only, before and after the copy, across the 64-key chunks.
func TestHistoryOfCopies(t *testing.T) {
	g := loadTest(t, "probepts")
	// One piece each, hands empty: the pieces can shuttle forever.
	pos := Position{Counts: []int{0, 0, 0, 0, 1, 0, 1}, Owners: []int{0, 0, 0, 0, 1, 0, 2}, Captured: []int{2, 2}, Hand: []int{0, 0}, ToMove: 1}
	s, err := g.NewState(pos)
	require.NoError(t, err)
	cycle := []string{"c1-b1", "c3-b3", "b1-c1", "b3-c3"}
	for _, tok := range cycle {
		require.NoError(t, s.Play(tok))
	}
	assert.Equal(t, 2, s.Repetitions())
	assert.Equal(t, 5, historyLen(s))
	c := s.Clone()
	for _, tok := range cycle[:2] {
		require.NoError(t, c.Play(tok))
	}
	assert.Equal(t, 2, s.Repetitions(), "the clone's moves are not in the original's history")
	assert.Equal(t, 5, historyLen(s))
	assert.Equal(t, 7, historyLen(c))
	for _, tok := range cycle[2:] {
		require.NoError(t, c.Play(tok))
	}
	assert.True(t, c.Over(), "the third occurrence draws")
	assert.Equal(t, Outcome{Over: true, Method: MethodRule, Players: 2, Reason: "third repetition"}, c.Outcome())
	assert.Equal(t, 3, c.Repetitions())
	assert.Equal(t, 2, s.Repetitions())
	assert.False(t, s.Over())

	// The original plays on a different way; the clone is unaffected.
	require.NoError(t, s.Play("c1-c2"))
	assert.Equal(t, 1, s.Repetitions())
	assert.Equal(t, 3, c.Repetitions())
	assert.Equal(t, 9, historyLen(c))
}

// Repetitions during a real game: the probepts script ends the game on the
// third occurrence of a position.
func TestRepetitionsInPlay(t *testing.T) {
	g := loadTest(t, "probepts")
	pos := Position{Counts: []int{0, 0, 0, 0, 1, 0, 1}, Owners: []int{0, 0, 0, 0, 1, 0, 2}, Captured: []int{2, 2}, Hand: []int{0, 0}, ToMove: 1}
	s, err := g.NewState(pos)
	require.NoError(t, err)
	assert.Equal(t, 1, s.Repetitions())
	var reps []int
	for i := 0; i < 2; i++ {
		for _, tok := range []string{"c1-b1", "c3-b3", "b1-c1", "b3-c3"} {
			require.False(t, s.Over())
			require.NoError(t, s.Play(tok))
			reps = append(reps, s.Repetitions())
		}
	}
	assert.Equal(t, []int{1, 1, 1, 2, 2, 2, 2, 3}, reps)
	assert.Equal(t, Outcome{Over: true, Method: MethodRule, Players: 2, Reason: "third repetition"}, s.Outcome())
	assert.Empty(t, s.Legal())
	assert.Equal(t, 8, s.Ply())
}

// Keys are the same in every run and on every machine: these values are
// part of the project's reproducibility (they would change only with the
// hash or the cell layout, which should be a deliberate decision).
func TestKeyStability(t *testing.T) {
	k := loadTest(t, "kalah")
	p := loadTest(t, "probe")
	keys := map[string]string{
		"kalah": fmt.Sprintf("%016x", k.Start().Key()),
		"probe": fmt.Sprintf("%016x", p.Start().Key()),
	}
	t.Logf("opening keys: %v", keys)
	assert.Equal(t, map[string]string{"kalah": kalahOpeningKey, "probe": probeOpeningKey}, keys)

	// Equal positions reached differently have equal keys; the ply and
	// the history do not count.
	s := k.Start()
	require.NoError(t, s.Play("a3")) // ends in the store: Player 1 again
	pos := s.Position()
	again, err := k.NewState(pos)
	require.NoError(t, err)
	assert.Equal(t, s.Key(), again.Key())
	assert.NotEqual(t, s.Ply(), again.Ply())
	// A fresh load computes the same keys.
	assert.Equal(t, s.Key(), func() uint64 {
		s2 := loadTest(t, "kalah").Start()
		require.NoError(t, s2.Play("a3"))
		return s2.Key()
	}())
	// Every part of the position changes the key.
	base := p.Start().Position()
	variants := []func(*Position){
		// (the game conserves its counters: each change keeps the total)
		func(q *Position) { q.Counts[4] = 1; q.Counts[0]-- },
		func(q *Position) { q.Owners[4] = 1 },
		func(q *Position) { q.Captured[1] = 1; q.Counts[8]-- },
		func(q *Position) { q.Hand[0] = 0; q.Counts[0]++ },
		func(q *Position) { q.ToMove = 2 },
		func(q *Position) { q.Vars["bonus"] = 1 },
	}
	seen := map[uint64]int{}
	for i, change := range variants {
		q := p.Start().Position()
		change(&q)
		st, err := p.NewState(q)
		require.NoError(t, err)
		assert.NotEqual(t, p.Start().Key(), st.Key(), "change %d", i)
		if j, dup := seen[st.Key()]; dup {
			t.Errorf("changes %d and %d give the same key", j, i)
		}
		seen[st.Key()] = i
	}
	q := base
	q.Vars = map[string]int{"memo": 5}
	st, err := p.NewState(q)
	require.NoError(t, err)
	assert.Equal(t, p.Start().Key(), st.Key(), "a variable outside the position does not change the key")
}

const (
	kalahOpeningKey = "e75896c20ec1c65f"
	probeOpeningKey = "0ca622e9cc1ee35b"
)

// wide is n as an int, for values past int32 that a constant could not
// give on a 32-bit machine (where the cases using it are skipped).
func wide(n int64) int { return int(n) }

func TestNewStateErrors(t *testing.T) {
	g := loadTest(t, "probe")
	ok := g.Start().Position()
	for _, c := range []struct {
		name   string
		change func(p *Position)
		err    string
	}{
		{"too few counts", func(p *Position) { p.Counts = p.Counts[:11] }, "position: want 12 counts and owners, got 11 and 12"},
		{"too many owners", func(p *Position) { p.Owners = append(p.Owners, 0) }, "position: want 12 counts and owners, got 12 and 13"},
		{"captured", func(p *Position) { p.Captured = []int{0} }, "position: want 2 captured totals and hands, got 1 and 2"},
		{"hand", func(p *Position) { p.Hand = nil }, "position: want 2 captured totals and hands, got 2 and 0"},
		{"negative count", func(p *Position) { p.Counts[5] = -1 }, "position: b2 has count -1 (0 to 1073741823 allowed)"},
		{"count past int32", func(p *Position) { p.Counts[5] = wide(1<<32 + 7) }, "position: b2 has count 4294967303 (0 to 1073741823 allowed)"},
		{"count past maxCount", func(p *Position) { p.Counts[5] = 1 << 30 }, "position: b2 has count 1073741824 (0 to 1073741823 allowed)"},
		{"captured past int32", func(p *Position) { p.Captured[0] = wide(2147483648) }, "position: player 1's captured total is 2147483648 (0 to 1073741823 allowed)"},
		{"var past int32", func(p *Position) { p.Vars = map[string]int{"phase": wide(1 << 32)} }, "position: variable phase is 4294967296 (a 32-bit integer, -2147483648 to 2147483647, allowed)"},
		{"not conserving", func(p *Position) { p.Counts[0] += 382 }, "position: the game conserves its counters: the opening has 18 on the board, captured and in hand, this position 400"},
		{"owner 3", func(p *Position) { p.Owners[0] = 3 }, "position: a1 has owner 3 (0 to 2 allowed)"},
		{"owner -1", func(p *Position) { p.Owners[0] = -1 }, "position: a1 has owner -1 (0 to 2 allowed)"},
		{"negative captured", func(p *Position) { p.Captured[1] = -1 }, "position: player 2's captured total is -1 (0 to 1073741823 allowed)"},
		{"negative hand", func(p *Position) { p.Hand[0] = -1 }, "position: player 1's hand is -1 (0 to 1073741823 allowed)"},
		{"to_move 0", func(p *Position) { p.ToMove = 0 }, "position: to_move must be a player from 1 to 2, got 0"},
		{"to_move 3", func(p *Position) { p.ToMove = 3 }, "position: to_move must be a player from 1 to 2, got 3"},
		{"unknown var", func(p *Position) { p.Vars = map[string]int{"speed": 1} }, `position: the script declares no variable "speed" (it declares: phase, bonus, memo)`},
	} {
		t.Run(c.name, func(t *testing.T) {
			if strings.Contains(c.name, "past int32") && strconv.IntSize < 64 {
				t.Skip("an int holds no value past int32 on this machine")
			}
			p := ok
			p.Counts = append([]int(nil), ok.Counts...)
			p.Owners = append([]int(nil), ok.Owners...)
			p.Captured = append([]int(nil), ok.Captured...)
			p.Hand = append([]int(nil), ok.Hand...)
			p.Vars = map[string]int{}
			c.change(&p)
			_, err := g.NewState(p)
			assert.EqualError(t, err, c.err)
		})
	}
	// A position without legal tokens is settled by the script's blocked.
	empty := Position{Counts: make([]int, 12), Owners: make([]int, 12), Captured: []int{17, 1}, Hand: []int{0, 0}, ToMove: 1}
	s, err := g.NewState(empty)
	require.NoError(t, err)
	assert.Equal(t, Outcome{Over: true, Winner: 1, Method: MethodNoMoves, Players: 2, Reason: "more captured"}, s.Outcome())
	assert.Empty(t, s.Legal())
	// Variables reach the script: phase 1 lists one move of every kind.
	p1 := ok
	p1.Vars = map[string]int{"phase": 1}
	s, err = g.NewState(p1)
	require.NoError(t, err)
	assert.Equal(t, []string{"pass", "xc2", "b2-b3", "offer:a4", "offer:c1", "offer:a4,c1", "a1>b2>c3", "a4/a3/a2/a1"}, s.Legal())
}

func TestIllegalMoves(t *testing.T) {
	g := loadTest(t, "probe")
	s := g.Start()
	before := stateJSONText(t, s)
	for _, c := range []struct {
		tok, reason string
	}{
		{"z9", "z9 is not a site of this board (its sites: a1 to a4, b1 to b4, c1 to c4)"},
		{"b1", "b1 is not possible for a sow now (possible: a1 a2 a3 a4)"},
		{"c1", "c1 is not possible for a sow now (possible: a1 a2 a3 a4)"},
		{"", "the token is empty"}, {"A1", "tokens are written in lower case: a1"},
		{"a1 ", "a token has no spaces around it"}, {" a1", "a token has no spaces around it"},
		// The forms by example: a legal move of the kind, else the kind's
		// form, naming no move, and that it has none now.
		{"a1 a2", "it fits none of the ways this game writes its moves: a1 (sow), x<site> (take, none now), <from>-<to> (step, none now), " +
			"offer:<sites> (offer, 1 to 4 sites separated by commas, none now), pass (none now), <site1>><site2>><site3> (tri, none now), " +
			"<site4>/<site3>/<site2>/<site1> (quad, none now)"},
		{"xa1", "no take is possible now (the moves now: sow)"},
		{strings.Repeat("a", 10000), "it fits none of the ways"},
	} {
		err := s.Play(c.tok)
		var ie *IllegalMoveError
		require.ErrorAs(t, err, &ie, "%q", c.tok)
		assert.Equal(t, c.tok, ie.Token)
		assert.Equal(t, []string{"a1", "a2", "a3", "a4"}, ie.Legal)
		assert.True(t, strings.HasPrefix(ie.Reason, c.reason), "%q: %s", c.tok, ie.Reason)
		assert.Equal(t, before, stateJSONText(t, s), "the state is unchanged")
		assert.Equal(t, CodeIllegalToken, ie.Code())
		if len(c.tok) <= diag.MaxTokenText {
			assert.Equal(t, fmt.Sprintf("illegal token %q: %s; legal tokens: a1 a2 a3 a4; %q is not a legal token here", c.tok, ie.Reason, c.tok), err.Error())
		} else {
			// A long token is quoted in part, saying how much is left out.
			assert.Contains(t, err.Error(), `illegal token "aaaa`)
			assert.Contains(t, err.Error(), "more bytes cut")
			assert.Less(t, len(err.Error()), 3000)
			assert.Contains(t, err.Error(), "the token is not a legal token here")
		}
	}
	// A move that is not in the list, applied directly.
	for _, m := range []Move{{Kind: 0, N: 1, Sites: [4]uint16{4}}, {Kind: 1, N: 1}, {Kind: 0, N: 0}, {Kind: 200, N: 1}} {
		err := s.Apply(m)
		var ie *IllegalMoveError
		require.ErrorAs(t, err, &ie, "%+v", m)
		if m.IsZero() {
			assert.Equal(t, "", ie.Token)
			assert.Contains(t, ie.Reason, "zero Move")
		} else {
			assert.Equal(t, g.Token(m), ie.Token)
			assert.Contains(t, ie.Reason, "another game", "a move made outside the game carries no game identity")
		}
		assert.Equal(t, before, stateJSONText(t, s))
	}
	assert.Equal(t, "<move kind 200>", g.Token(Move{Kind: 200}))
	// After the end: no legal tokens.
	_, err := evalIn(g, s, asSetup, luaPrefix+`m.finish(0)`)
	require.NoError(t, err)
	s.k.Moves = s.k.Moves[:0]
	err = s.Play("a1")
	var ie *IllegalMoveError
	require.ErrorAs(t, err, &ie)
	assert.Equal(t, "the game is over", ie.Reason)
	assert.Empty(t, ie.Legal)
	assert.Equal(t, `illegal token "a1": the game is over; there are no legal tokens; "a1" is not a legal token here`, err.Error())
	assert.Equal(t, CodeGameOver, ie.Code())
	assert.Equal(t, CodeGameOver, ErrorCode(fmt.Errorf("wrapped: %w", err)))
}

// An illegal token of a known form says which part is wrong and what is
// possible there, in the order the token writes its sites.
func TestIllegalReasons(t *testing.T) {
	g := loadTest(t, "probe")
	pos := g.Start().Position()
	pos.Vars = map[string]int{"phase": 1}
	s, err := g.NewState(pos)
	require.NoError(t, err)
	require.Equal(t, []string{"pass", "xc2", "b2-b3", "offer:a4", "offer:c1", "offer:a4,c1", "a1>b2>c3", "a4/a3/a2/a1"}, s.Legal())
	for _, c := range []struct{ tok, reason string }{
		{"xc3", "c3 is not possible for a take now (possible: c2)"},
		{"b2-c3", "after b2, c3 is not possible for a step now (possible: b3)"},
		{"b3-b2", "b3 is not possible as the first site of a step now (possible: b2)"},
		{"offer:c1,a4", "the sites are written in this order: offer:a4,c1"},
		{"offer:a1", "a1 is not possible in an offer now (possible sites: a4 c1)"},
		{"offer:a4,c1,c2", "c2 is not possible in an offer now (possible sites: a4 c1)"},
		{"a1>b2>c1", "after a1 b2, c1 is not possible for a tri now (possible: c3)"},
		{"a4/a3/a2/a2", "after a4 a3 a2, a2 is not possible for a quad now (possible: a1)"},
		{"a1", "no sow is possible now (the moves now: take, step, offer, pass, tri, quad)"},
		// The examples are legal moves where the position has some of the
		// kind, for a list one of several sites.
		{"offer:", "it fits none of the ways this game writes its moves: <site> (sow, none now), xc2 (take), b2-b3 (step), offer:a4,c1 (offer, 1 to 4 sites separated by commas), pass, " +
			"a1>b2>c3 (tri), a4/a3/a2/a1 (quad)"},
		{"xz9", "z9 is not a site of this board"},
	} {
		t.Run(c.tok, func(t *testing.T) {
			_, err := s.ParseMove(c.tok)
			var ie *IllegalMoveError
			require.ErrorAs(t, err, &ie)
			assert.True(t, strings.HasPrefix(ie.Reason, c.reason), "%s", ie.Reason)
		})
	}
	// A move of this game that is not legal now, applied directly.
	other := g.Start().Moves()[0]
	err = s.Apply(other)
	var ie *IllegalMoveError
	require.ErrorAs(t, err, &ie)
	assert.Equal(t, "no sow is possible now (the moves now: take, step, offer, pass, tri, quad)", ie.Reason)
}

// Tokens and moves: every template form formats and parses back.
func TestTokensAndParseMove(t *testing.T) {
	g := loadTest(t, "probe")
	pos := g.Start().Position()
	pos.Vars = map[string]int{"phase": 1}
	s, err := g.NewState(pos)
	require.NoError(t, err)
	want := []string{"pass", "xc2", "b2-b3", "offer:a4", "offer:c1", "offer:a4,c1", "a1>b2>c3", "a4/a3/a2/a1"}
	require.Equal(t, want, s.Legal())
	for i, m := range s.Moves() {
		assert.Equal(t, want[i], g.Token(m))
		back, err := s.ParseMove(want[i])
		require.NoError(t, err)
		assert.Equal(t, m, back)
	}
	m, err := s.ParseMove("offer:a4,c1")
	require.NoError(t, err)
	assert.Equal(t, Move{Kind: 3, N: 2, Sites: [4]uint16{3, 8}}.WithGame(g.def.Tag), m)
	assert.Equal(t, 3, m.Site(0))
	assert.Equal(t, 8, m.Site(1))
	assert.Equal(t, -1, m.Site(2))
	assert.Equal(t, -1, m.Site(-1))
	m, err = s.ParseMove("a4/a3/a2/a1")
	require.NoError(t, err)
	assert.Equal(t, Move{Kind: 6, N: 4, Sites: [4]uint16{0, 1, 2, 3}}.WithGame(g.def.Tag), m)
	_, err = s.ParseMove("offer:c1,a4")
	var ie *IllegalMoveError
	require.ErrorAs(t, err, &ie)
	assert.Equal(t, want, ie.Legal)

	kinds := g.MoveKinds()
	require.Len(t, kinds, 7)
	assert.Equal(t, MoveKind{Name: "offer", Template: "offer:{sites}"}, MoveKind{Name: kinds[3].Name, Template: kinds[3].Template})

	// Playing each kind: the script's play sees the kind and sites.
	for _, tok := range want {
		c := s.Clone()
		require.NoError(t, c.Play(tok), tok)
		v, _ := c.Var("phase")
		assert.Equal(t, 0, v, tok)
	}
	c := s.Clone()
	require.NoError(t, c.Play("offer:a4,c1"))
	v, _ := c.Var("bonus")
	assert.Equal(t, 2, v)
	c = s.Clone()
	require.NoError(t, c.Play("xc2"))
	assert.Equal(t, 2, c.Captured(1))
}

func TestParseTemplate(t *testing.T) {
	for _, c := range []struct {
		tmpl  string
		arity int
		err   string
	}{
		{"{1}", 1, ""}, {"x{1}", 1, ""}, {"{from}-{to}", 2, ""}, {"offer:{sites}", -1, ""}, {"pass", 0, ""},
		{"{1}>{2}>{3}", 3, ""}, {"{4}/{3}/{2}/{1}", 4, ""}, {"{1}{1}", 1, ""},
		{"{to}", 0, "names site {2} but not site {1}"},
		{"", 0, "empty token template"},
		{"{1", 0, `template "{1": unclosed {`},
		{"{0}", 0, "unknown placeholder {0}"},
		{"{5}", 0, "unknown placeholder {5}"},
		{"{}", 0, "unknown placeholder {}"},
		{"{site}", 0, "unknown placeholder {site}"},
		{"a b{1}", 0, "a token contains no spaces"},
		{"a\t{1}", 0, "a token contains no spaces"},
		{"{sites}:{1}", 0, "{sites} cannot be mixed with numbered sites"},
	} {
		k, err := kernel.NewMoveKind("k", c.tmpl, "")
		if c.err != "" {
			assert.ErrorContains(t, err, c.err, "%q", c.tmpl)
			continue
		}
		require.NoError(t, err, "%q", c.tmpl)
		assert.Equal(t, c.arity, k.Arity(), "%q", c.tmpl)
	}
}

func TestErrorTexts(t *testing.T) {
	assert.Equal(t, "f.lua:3:4: x", (&ConfigError{Pos: Pos{File: "f.lua", Line: 3, Col: 4}, Msg: "x"}).Error())
	assert.Equal(t, "f.lua:3: parameter p: x (allowed: 1, 2)", (&ConfigError{Pos: Pos{File: "f.lua", Line: 3}, Param: "p", Msg: "x", Allowed: []string{"1", "2"}}).Error())
	assert.Equal(t, "f.lua: the p is bad", (&ConfigError{Pos: Pos{File: "f.lua"}, Param: "p", Msg: "the p is bad"}).Error())
	assert.Equal(t, "x", (&ConfigError{Msg: "x"}).Error())
	assert.Equal(t, "f.lua:7: boom (in play)", (&ScriptError{Pos: Pos{File: "f.lua", Line: 7}, Func: "play", Msg: "boom"}).Error())
	assert.Equal(t, "f.lua:7: time budget exceeded (limit 1s): loop (in legal)",
		(&BudgetError{Pos: Pos{File: "f.lua", Line: 7}, Func: "legal", Budget: "time", Limit: "1s", Detail: "loop"}).Error())
	assert.Equal(t, "memory budget exceeded", (&BudgetError{Budget: "memory"}).Error())
	assert.Equal(t, "", Pos{}.String())
	assert.Equal(t, "diagram: x", (&DiagramError{Msg: "x"}).Error())
	var err error = &ScriptError{Msg: "m"}
	var se *ScriptError
	assert.True(t, errors.As(fmt.Errorf("wrapped: %w", err), &se))
}

// State accessors refuse an index out of range, as a slice does, with a
// message naming the index and the valid range: they never read another
// field of the state (Count(NumSites()) would read the first owner).
func TestStateAccessorsOutOfRange(t *testing.T) {
	g := loadTest(t, "probe")
	s := g.Start()
	n := g.Board().NumSites()
	for name, c := range map[string]struct {
		call func()
		msg  string
	}{
		"Count(NumSites())": {func() { s.Count(n) }, fmt.Sprintf("host: State.Count: site index %d out of range [0, %d)", n, n)},
		"Count(-1)":         {func() { s.Count(-1) }, fmt.Sprintf("host: State.Count: site index -1 out of range [0, %d)", n)},
		"Owner(NumSites())": {func() { s.Owner(n) }, fmt.Sprintf("host: State.Owner: site index %d out of range [0, %d)", n, n)},
		"Captured(0)":       {func() { s.Captured(0) }, "host: State.Captured: player 0 out of range [1, 2]"},
		"Captured(3)":       {func() { s.Captured(3) }, "host: State.Captured: player 3 out of range [1, 2]"},
		"Hand(0)":           {func() { s.Hand(0) }, "host: State.Hand: player 0 out of range [1, 2]"},
	} {
		assert.PanicsWithValue(t, c.msg, c.call, name)
	}
	assert.NotPanics(t, func() { s.Count(n - 1); s.Owner(0); s.Captured(2); s.Hand(1) })
}

// hashCellsReference is the position hash as first written, one index
// at a time: keys are stored (state JSON histories), so every faster
// version must give the same values.
func hashCellsReference(c []int32) uint64 {
	const (
		k1 = 0x9E3779B97F4A7C15
		k2 = 0xC2B2AE3D27D4EB4F
		k3 = 0x165667B19E3779F9
	)
	h1, h2 := uint64(len(c))*k3, uint64(0x27D4EB2F165667C5)
	i := 0
	for ; i+4 <= len(c); i += 4 {
		a := uint64(uint32(c[i])) | uint64(uint32(c[i+1]))<<32
		b := uint64(uint32(c[i+2])) | uint64(uint32(c[i+3]))<<32
		h1 = bits.RotateLeft64(h1^(a*k2), 31) * k1
		h2 = bits.RotateLeft64(h2^(b*k1), 29) * k2
	}
	for ; i < len(c); i++ {
		h1 = bits.RotateLeft64(h1^(uint64(uint32(c[i]))*k2), 31) * k1
	}
	h := h1 ^ bits.RotateLeft64(h2, 17)
	h ^= h >> 33
	h *= k2
	h ^= h >> 29
	h *= k3
	h ^= h >> 32
	return h
}

func TestHashCellsKeepsItsValues(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for n := 0; n < 300; n++ {
		c := make([]int32, n)
		for i := range c {
			c[i] = int32(rng.Uint32())
			if i%3 == 0 {
				c[i] = int32(rng.IntN(8))
			}
		}
		require.Equal(t, hashCellsReference(c), kernel.HashCells(c), "%d cells", n)
	}
}
