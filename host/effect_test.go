package host

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/matombo/matombo/host/kernel"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// effectsGame is a game whose one move, go, runs BODY: every site of the
// ring a1 a2 a3 a4 b4 b3 b2 b1 starts with 2 counters, a1 is Player 1's
// and b1 Player 2's (with the tag stop), and each player has 2 in hand.
const effectsGame = `local m = matombo
m.declare { name = "fx", conserve = false }
m.board { rows = { "a", "b" }, columns = 4 }
local T = m.track("ring", { "a1", "a2", "a3", "a4", "b4", "b3", "b2", "b1" }, true)
local STOP = m.tag("stop", { "b1" })
local NONE = m.tag("none", {})
local GO = m.move("go", "go")
local V = m.var("v")
return {
  setup = function()
    for s = 1, 8 do m.set_count(s, 2) end
    m.set_owner("a1", 1)
    m.set_owner("b1", 2)
    m.set_hand(1, 2)
    m.set_hand(2, 2)
  end,
  legal = function(p) m.emit(GO) end,
  play = function(p)
    BODY
  end,
}
`

// playEffects plays go in the effects game with body as its play, with
// effects recorded, and returns the state before and after.
func playEffects(t *testing.T, body string) (before, after *State) {
	t.Helper()
	g, err := loadSource(t, "fx", strings.ReplaceAll(effectsGame, "BODY", body))
	require.NoError(t, err)
	before = g.Start()
	after = before.Clone()
	m, err := after.ParseMove("go")
	require.NoError(t, err)
	require.NoError(t, after.ApplyRecorded(m))
	return before, after
}

func effectTexts(g *Game, effects []Effect) []string {
	out := make([]string, len(effects))
	for i, e := range effects {
		out[i] = g.EffectText(e)
	}
	return out
}

// requireEffectsLead checks the invariant: the effects of after, applied
// to before, give after.
func requireEffectsLead(t *testing.T, before, after *State) {
	t.Helper()
	effects, ok := after.Effects()
	require.True(t, ok)
	pos := before.Position()
	require.NoError(t, pos.ApplyEffects(effects))
	want := after.Position()
	pos.Vars, want.Vars = nil, nil
	if after.Over() {
		pos.ToMove = want.ToMove
	}
	require.Equal(t, want, pos)
}

func TestEffectsOfEachPrimitive(t *testing.T) {
	tests := []struct {
		name, body string
		want       []string
	}{
		{"take", `m.take("a1"); m.take("b1"); m.take("b1")`,
			[]string{"take 2 from a1", "take 2 from b1", "player 2 to move"}},
		{"sow", `m.sow(T, "a1", m.take("a1"))`,
			[]string{"take 2 from a1", "drop 1 on a2", "drop 1 on a3", "player 2 to move"}},
		{"sow laps", `m.set_count("a1", 17); m.sow(T, "a1", m.take("a1"))`,
			[]string{"a1 now holds 17", "take 17 from a1", "drop 2 on a2", "drop 2 on a3", "drop 2 on a4", "drop 2 on b4",
				"drop 2 on b3", "drop 2 on b2", "drop 2 on b1", "drop 2 on a1", "drop 1 on a2", "player 2 to move"}},
		{"sow_skip laps", `m.set_count("a1", 15); m.sow_skip(T, "a1", m.take("a1"))`,
			[]string{"a1 now holds 15", "take 15 from a1", "drop 2 on a2", "drop 2 on a3", "drop 2 on a4", "drop 2 on b4",
				"drop 2 on b3", "drop 2 on b2", "drop 2 on b1", "drop 1 on a2", "player 2 to move"}},
		{"relay", `m.relay(T, "a1", STOP, 100)`,
			[]string{"take 2 from a1", "drop 1 on a2", "drop 1 on a3", "take 3 from a3", "drop 1 on a4", "drop 1 on b4", "drop 1 on b3",
				"take 3 from b3", "drop 1 on b2", "drop 1 on b1", "drop 1 on a1", "player 2 to move"}},
		{"capture", `m.capture("b2", 1); m.capture("b3", 2, 1); m.capture("b1", 1, 0)`,
			[]string{"capture 2 from b2 for player 1", "capture 1 from b3 for player 2", "player 2 to move"}},
		{"capture_run", `m.set_count("a4", 3); m.capture_run(1, T, "a1", 1, 2)`,
			[]string{"a4 now holds 3", "capture 2 from a2 for player 1", "capture 2 from a3 for player 1", "player 2 to move"}},
		{"sweep", `m.sweep()`,
			[]string{"capture 2 from a1 for player 1", "capture 2 from b1 for player 2", "player 2 to move"}},
		{"pay", `m.capture("b2", 1); m.pay(1, "a4", 1)`,
			[]string{"capture 2 from b2 for player 1", "player 1 has captured 1", "drop 1 on a4", "player 2 to move"}},
		{"place", `m.take("a2"); m.place(1, "a2")`,
			[]string{"take 2 from a2", "player 1 places a piece on a2", "player 2 to move"}},
		{"move_piece", `m.take("a2"); m.move_piece("a1", "a2")`,
			[]string{"take 2 from a2", "move a1 to a2", "player 2 to move"}},
		{"set_hand", `m.set_hand(1, 2); m.set_hand(2, 5)`,
			[]string{"player 2 has 5 in hand", "player 2 to move"}},
		{"set_owner", `m.set_owner("a1", 1); m.set_owner("a2", 2); m.set_owner("b1", 0)`,
			[]string{"a2 now belongs to player 2", "b1 now belongs to player 0", "player 2 to move"}},
		{"set_count and add", `m.set_count("a1", 2); m.set_count("a2", 0); m.add("a3", 3); m.add("a4", -1); m.add("b4", 0)`,
			[]string{"a2 now holds 0", "drop 3 on a3", "take 1 from a4", "player 2 to move"}},
		{"extra turn", `m.set_to_move(p)`, []string{"player 1 to move"}},
		{"variables are not effects", `m.set(V, 7)`, []string{"player 2 to move"}},
		{"a try records nothing", `m.take("a2"); m.try(function() m.sow(T, "a1", m.take("a1")) m.set_to_move(1) end); m.take("a3")`,
			[]string{"take 2 from a2", "take 2 from a3", "player 2 to move"}},
		{"finish", `m.sweep(); m.finish(1, "done")`,
			[]string{"capture 2 from a1 for player 1", "capture 2 from b1 for player 2"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			before, after := playEffects(t, tt.body)
			effects, ok := after.Effects()
			require.True(t, ok)
			assert.Equal(t, tt.want, effectTexts(after.Game(), effects))
			requireEffectsLead(t, before, after)
		})
	}
}

func TestEffectsBounded(t *testing.T) {
	// 5,000 drops on one site: the first MaxEffects are kept, the rest
	// summarized as the site's new count; the turn comes last.
	before, after := playEffects(t, `for i = 1, 5000 do m.add("a1", 1) end`)
	effects, ok := after.Effects()
	require.True(t, ok)
	require.Len(t, effects, MaxEffects+2)
	assert.Equal(t, Effect{Kind: EffectDrop, Site: 0, To: -1, Count: 1}, effects[MaxEffects-1])
	assert.Equal(t, []string{"a1 now holds 5002", "player 2 to move"}, effectTexts(after.Game(), effects[MaxEffects:]))
	requireEffectsLead(t, before, after)

	// A sowing of a billion counters is a lap of drops and a few more.
	before, after = playEffects(t, `m.set_count("a1", 1000000000); m.sow(T, "a1", m.take("a1"))`)
	effects, _ = after.Effects()
	assert.Len(t, effects, 2+8+0+1)
	requireEffectsLead(t, before, after)

	// A relay of many laps records at most MaxEffects, then the summary.
	before, after = playEffects(t, `for s = 1, 8 do m.set_count(s, 50000) end
    m.relay(T, "a1", NONE, 1000)`)
	effects, _ = after.Effects()
	assert.Greater(t, len(effects), MaxEffects, "the relay overflows")
	assert.LessOrEqual(t, len(effects), MaxEffects+2*8+2*2+1)
	requireEffectsLead(t, before, after)
}

func TestEffectsRecordedOnlyWhenAsked(t *testing.T) {
	g := loadTest(t, "kalah")
	s := g.Start()
	effects, ok := s.Effects()
	assert.True(t, ok, "the opening has its (empty) effects")
	assert.Empty(t, effects)
	assert.NotNil(t, effects)

	require.NoError(t, s.Play("a1"))
	effects, ok = s.Effects()
	assert.False(t, ok, "Apply records nothing")
	assert.Nil(t, effects)
	assert.Contains(t, stateJSONText(t, s), `"effects":null`)

	r := g.NewRunner()
	defer r.Close()
	r.Record(true)
	require.NoError(t, r.Play(s, "b1"))
	effects, ok = s.Effects()
	require.True(t, ok)
	assert.Equal(t, "take 4 from b1", g.EffectText(effects[0]))
	c := s.Clone()
	r.Record(false)
	require.NoError(t, r.Play(s, "a2"))
	_, ok = s.Effects()
	assert.False(t, ok)
	_, ok = c.Effects()
	assert.True(t, ok, "a copy keeps its own effects")
}

func TestEffectsOfAFailedMoveLeaveTheState(t *testing.T) {
	g, err := loadSource(t, "fx", strings.ReplaceAll(effectsGame, "BODY", `m.take("a1"); error("no")`))
	require.NoError(t, err)
	s := g.Start()
	before := stateJSONText(t, s)
	m, err := s.ParseMove("go")
	require.NoError(t, err)
	var se *ScriptError
	require.True(t, errors.As(s.ApplyRecorded(m), &se))
	assert.Equal(t, before, stateJSONText(t, s))
	effects, ok := s.Effects()
	assert.True(t, ok)
	assert.Empty(t, effects)
}

func TestEffectsJSONRoundTrip(t *testing.T) {
	before, after := playEffects(t, `m.take("a2"); m.place(1, "a2"); m.take("b2"); m.move_piece("a2", "b2") `+
		`; m.set_owner("a3", 2); m.capture("a4", 1); m.pay(1, "a4", 1); m.set_hand(2, 4); m.set_count("b3", 9)`)
	_ = before
	data := stateJSONText(t, after)
	assert.Contains(t, data, `"effects":[{"kind":"take","site":"a2","count":2},{"kind":"place","site":"a2","player":1},`+
		`{"kind":"take","site":"b2","count":2},{"kind":"move","from":"a2","to":"b2"},{"kind":"owner","site":"a3","player":2},{"kind":"capture","site":"a4","count":2,"player":1},`+
		`{"kind":"captured","count":1,"player":1},{"kind":"drop","site":"a4","count":1},{"kind":"hand","count":4,"player":2},`+
		`{"kind":"set","site":"b3","count":9},{"kind":"turn","player":2}]`)
	back, err := after.Game().StateFromJSON([]byte(data))
	require.NoError(t, err)
	assert.Equal(t, data, stateJSONText(t, back))
	requireEffectsLead(t, before, back)
}

func TestEffectsJSONRejects(t *testing.T) {
	_, after := playEffects(t, `m.take("a2")`)
	g := after.Game()
	data := stateJSONText(t, after)
	tests := []struct{ effects, msg string }{
		{`[{"kind":"jump","site":"a1"}]`, `unknown kind "jump"`},
		{`[{"kind":"take","site":"a1"}]`, "a take effect has exactly the fields kind, site, count"},
		{`[{"kind":"take","site":"a1","count":1,"player":1}]`, "exactly the fields"},
		{`[{"kind":"take","site":"z9","count":1}]`, `no site "z9"`},
		{`[{"kind":"turn","player":3}]`, "no player 3"},
		{`[{"kind":"capture","site":"a1","count":1,"player":0}]`, "no player 0"},
		{`[{"kind":"drop","site":"a1","count":-1}]`, "count -1 out of range"},
		{`[{"kind":"drop","site":"a1","count":1,"extra":1}]`, "unknown field"},
		{`{"kind":"drop"}`, "cannot unmarshal"},
		{`[` + strings.Repeat(`{"kind":"turn","player":1},`, g.maxEffectsJSON()) + `{"kind":"turn","player":1}]`, "a ply records at most"},
	}
	i := strings.Index(data, `"effects":`)
	require.Positive(t, i)
	for _, tt := range tests {
		t.Run(tt.msg, func(t *testing.T) {
			bad := data[:i] + `"effects":` + tt.effects + "}"
			_, err := g.StateFromJSON([]byte(bad))
			var pe *PositionError
			require.True(t, errors.As(err, &pe), "%v", err)
			assert.Contains(t, err.Error(), tt.msg)
		})
	}
	// Without effects (an older state JSON) the state has none recorded.
	var j map[string]json.RawMessage
	require.NoError(t, json.Unmarshal([]byte(data), &j))
	delete(j, "effects")
	old, _ := json.Marshal(j)
	s, err := g.StateFromJSON(old)
	require.NoError(t, err)
	_, ok := s.Effects()
	assert.False(t, ok)
}

func TestApplyEffectsErrors(t *testing.T) {
	g := loadTest(t, "kalah")
	tests := []struct {
		e   Effect
		msg string
	}{
		{Effect{Kind: EffectTake, Site: 0, To: -1, Count: 9}, "the site holds only 4"},
		{Effect{Kind: EffectCapture, Site: 0, To: -1, Count: 9, Player: 1}, "the site holds only 4"},
		{Effect{Kind: EffectDrop, Site: 99, To: -1, Count: 1}, "no site 99"},
		{Effect{Kind: EffectMove, Site: 0, To: 99}, "no sites 0 and 99"},
		{Effect{Kind: EffectTurn, Site: -1, To: -1, Player: 3}, "no player 3"},
		{Effect{Kind: EffectOwner, Site: 0, To: -1, Player: -1}, "no player -1"},
		{Effect{Kind: EffectPlace, Site: 0, To: -1, Player: 1}, "player 1 has nothing in hand"},
		{Effect{Kind: EffectSet, Site: 0, To: -1, Count: -2}, "count -2 out of range"},
		{Effect{Kind: 0, Site: 0, To: -1}, "unknown kind"},
	}
	for _, tt := range tests {
		t.Run(tt.msg, func(t *testing.T) {
			pos := g.Start().Position()
			err := pos.ApplyEffects([]Effect{{Kind: EffectTurn, Site: -1, To: -1, Player: 2}, tt.e})
			var ee *EffectError
			require.True(t, errors.As(err, &ee), "%v", err)
			assert.Equal(t, 1, ee.Index)
			assert.Contains(t, err.Error(), "effect 2 ("+tt.e.String()+"): "+tt.msg)
			assert.Equal(t, 2, pos.ToMove, "the effects before the bad one stay applied")
		})
	}
}

func TestEffectKindNames(t *testing.T) {
	for k := EffectTake; k <= EffectTurn; k++ {
		back, ok := kernel.EffectKindNamed(k.String())
		assert.True(t, ok)
		assert.Equal(t, k, back)
	}
	assert.Equal(t, "effect(99)", EffectKind(99).String())
	assert.Equal(t, fmt.Sprint(EffectKind(0)), "effect(0)")
}
