package host

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// promptGame has two move kinds with prompts; PROMPT is its prompt
// function (or nothing).
const promptGame = `local m = matombo
m.declare { name = "asks", conserve = false }
m.board { rows = { "a", "b" }, columns = 2 }
local SOW = m.move("sow", "{1}", SOWOPTS)
local PASS = m.move("pass", "pass", { prompt = "or pass" })
local V = m.var("v")
return {
  setup = function() m.set_count("a1", 3) end,
  legal = function(p, v) m.emit(SOW, "a1"); if v == 0 then m.emit(PASS) end end,
  play = function(p, kind) m.set(V, 1) end,
  PROMPT
}
`

func loadPrompt(t *testing.T, sowOpts, prompt string) (*Game, error) {
	t.Helper()
	r := strings.NewReplacer("SOWOPTS", sowOpts, "PROMPT", prompt)
	return loadSource(t, "asks", r.Replace(promptGame))
}

func TestPrompt(t *testing.T) {
	for _, c := range []struct {
		name, sowOpts, prompt string
		loadErr               string
		atStart, after        string
		err                   string
	}{
		{name: "kind prompts joined", sowOpts: `{ prompt = "Sow a hole" }`,
			atStart: "Sow a hole; or pass", after: "Sow a hole"},
		{name: "no prompts", sowOpts: `nil`, atStart: "or pass", after: ""},
		{name: "a prompt function, nil falls back", sowOpts: `{ prompt = "Sow a hole" }`,
			prompt:  `prompt = function(p, v) if v == 1 then return "Player " .. p .. ": sow " .. m.name(1) end end`,
			atStart: "Sow a hole; or pass", after: "Player 2: sow a1"},
		{name: "a number", sowOpts: `nil`, prompt: `prompt = function() return 3 end`,
			err: "prompt(1) must return a text or nil, got number 3"},
		{name: "too long", sowOpts: `nil`, prompt: `prompt = function() return string.rep("x", 301) end`,
			err: "the prompt has at most 300 characters, got 301"},
		{name: "control characters", sowOpts: `nil`, prompt: `prompt = function() return "a\027[31m" end`,
			err: "the prompt"},
		{name: "changes the state", sowOpts: `nil`, prompt: `prompt = function() m.set_count("a1", 0) return "x" end`,
			err: "prompt must not change the state"},
		{name: "bad option", sowOpts: `{ hint = "x" }`, loadErr: "unknown field hint"},
		{name: "empty prompt", sowOpts: `{ prompt = "" }`, loadErr: "a prompt is a text of 1 to 300 characters"},
		{name: "not a table", sowOpts: `"x"`, loadErr: "options expected"},
		{name: "a prompt that is not a function", sowOpts: `nil`, prompt: `prompt = "x"`, loadErr: `needs a function "prompt"`},
	} {
		t.Run(c.name, func(t *testing.T) {
			g, err := loadPrompt(t, c.sowOpts, c.prompt)
			if c.loadErr != "" {
				require.ErrorContains(t, err, c.loadErr)
				return
			}
			require.NoError(t, err)
			s := g.Start()
			got, err := s.Prompt()
			if c.err != "" {
				var se *ScriptError
				require.ErrorAs(t, err, &se)
				assert.Equal(t, CallPrompt, se.Func)
				assert.Contains(t, err.Error(), c.err)
				_, err = s.MarshalJSON()
				require.ErrorAs(t, err, &se, "the JSON fails with the prompt")
				require.NoError(t, s.Play("a1"), "the game still plays")
				return
			}
			require.NoError(t, err)
			assert.Equal(t, c.atStart, got)
			assert.Contains(t, stateJSONText(t, s), `"prompt":"`+c.atStart+`"`)
			require.NoError(t, s.Play("a1"))
			got, err = s.Prompt()
			require.NoError(t, err)
			assert.Equal(t, c.after, got)
			back, err := g.StateFromJSON([]byte(stateJSONText(t, s)))
			require.NoError(t, err)
			assert.Equal(t, stateJSONText(t, s), stateJSONText(t, back))
		})
	}
	// The kinds carry their prompts; a finished game asks nothing.
	g, err := loadPrompt(t, `{ prompt = "Sow a hole" }`, `prompt = function() return "always" end`)
	require.NoError(t, err)
	assert.Equal(t, "Sow a hole", g.MoveKinds()[0].Prompt)
	s := g.Start()
	_, err = evalIn(g, s, asSetup, luaPrefix+`m.finish(0)`)
	require.NoError(t, err)
	got, err := s.Prompt()
	require.NoError(t, err)
	assert.Empty(t, got)
}
