package host

import (
	"cmp"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"fmt"

	"github.com/matombo/matombo/host/internal/watchdog"
	"github.com/matombo/matombo/host/kernel"
	"github.com/matombo/matombo/host/luavm"
)

// Game is a loaded game: a compiled script with resolved parameters and
// its board. A Game is safe for concurrent use; its states are not.
//
// A game keeps up to 16 idle script machines (Lua states) for its calls,
// and, while calls are made and for a second after, a watchdog goroutine.
// Both go when the game is garbage; a program that loads many games (a
// server taking uploaded scripts) calls Close to release them at once.
type Game struct {
	name        string
	title       string
	description string
	file        string // the script's path, for messages
	source      string // where the game was found, for listings
	players     int
	conserve    bool
	maxPlies    int
	repetition  int
	specs       []ParamSpec
	params      []Param
	variants    []Variant
	chosen      []string
	overrides   []Override
	def         *kernel.Def // the board, layout, move kinds and variables, shared by every machine
	sources     []byte      // hash of the script and variants files, set by Load
	identity    string      // Fingerprint: sources, variants chosen, parameters, declarations
	hasEvaluate bool
	hasPrompt   bool
	scoreLabel  string // "" when the script has no score function
	handLabel   string // "" when the hands are not shown to players
	rules       string // the rules page, when the game folder has one
	rulePoints  []string
	replaced    []string

	prog    *luavm.Program // the compiled script and its machines
	opening *State
	total   int // the opening's counters on the board, captured and in hand
}

// install adopts the first machine's declarations and fixes the game's
// identity, which its moves carry.
func (g *Game) install(d *luavm.Decl, def *kernel.Def) {
	g.title, g.description = d.Title, d.Description
	g.players, g.conserve, g.maxPlies, g.repetition = d.Players, d.Conserve, d.MaxPlies, d.Repetition
	g.specs, g.params = d.Specs, d.Params
	g.rulePoints, g.replaced = d.RulePoints, d.Replaced
	g.hasEvaluate = d.HasEvaluate
	g.hasPrompt = d.HasPrompt
	if d.HasScore {
		g.scoreLabel = cmp.Or(d.ScoreLabel, "score")
	}
	if !d.HandHidden {
		g.handLabel = cmp.Or(d.HandLabel, "in hand")
	}
	h := sha256.New()
	h.Write(g.sources)
	fmt.Fprintf(h, "|%q|%v|%s", g.chosen, g.overrides, g.prog.Fingerprint())
	sum := h.Sum(nil)
	g.identity = hex.EncodeToString(sum)
	def.Tag = binary.LittleEndian.Uint32(sum) | 1 // never 0: the zero Move is no game's
	g.def = def
}

// Fingerprint identifies the game's rules: a hash of the script, the
// variants files (but for the lines that hold only a variant's title,
// words for players: params.File.Fingerprinted), the variants chosen, the
// parameters and what the script declared. Two loads with the same fingerprint play identically, so stored
// games, transposition tables, solutions and analysis shards can refuse to
// mix with a changed rule script by comparing fingerprints.
func (g *Game) Fingerprint() string { return g.identity }

// Repetition is how many occurrences of a position end the game under the
// script's repetition rule (the script's repeated function decides how),
// or 0 when the game has no repetition rule. State.Repetitions counts the
// occurrences of the current position; State.Key and State.AppendPosition
// cover exactly what the rule compares.
func (g *Game) Repetition() int { return g.repetition }

// Name is the game's name, as in commands and file names, e.g. "mygame".
func (g *Game) Name() string { return g.name }

// Title is the game's display name, e.g. "My Game".
func (g *Game) Title() string { return g.title }

// Description is the script's one-paragraph description of the game.
func (g *Game) Description() string { return g.description }

// Source is where the game's script was found.
func (g *Game) Source() string { return g.source }

// File is the path of the game's script, as used in error messages.
func (g *Game) File() string { return g.file }

// Players is the number of players.
func (g *Game) Players() int { return g.players }

// Conserves reports whether the script declares that counters are
// conserved: board plus captured plus hands stays equal to the opening's.
func (g *Game) Conserves() bool { return g.conserve }

// MaxPlies is the number of plies by which the script declares every game
// ends, or 0 when it declares none.
func (g *Game) MaxPlies() int { return g.maxPlies }

// Board returns the game's board.
func (g *Game) Board() *Board { return g.def.Board }

// Params returns the game's parameter values in declaration order.
func (g *Game) Params() []Param { return append([]Param(nil), g.params...) }

// Param returns the value of a parameter.
func (g *Game) Param(name string) (any, bool) {
	for _, p := range g.params {
		if p.Name == name {
			return p.Value, true
		}
	}
	return nil, false
}

// ChosenVariants returns the names of the variants the game was loaded with.
func (g *Game) ChosenVariants() []string { return append([]string(nil), g.chosen...) }

// ParamSpecs returns the parameters the script declares.
func (g *Game) ParamSpecs() []ParamSpec { return append([]ParamSpec(nil), g.specs...) }

// Variants returns the named variants of the game's variants files.
func (g *Game) Variants() []Variant { return append([]Variant(nil), g.variants...) }

// MoveKinds returns the move kinds the script declares.
func (g *Game) MoveKinds() []MoveKind { return append([]MoveKind(nil), g.def.Kinds...) }

// Rules returns the game's rules page when its folder has one (rules.md).
func (g *Game) Rules() string { return g.rules }

// Token returns the text of a move, e.g. "a7" or "offer:a1,a3".
func (g *Game) Token(m Move) string {
	if int(m.Kind) >= len(g.def.Kinds) {
		return fmt.Sprintf("<move kind %d>", m.Kind)
	}
	return g.def.Kinds[m.Kind].Format(g.def.Board, m)
}

// Start returns a new state at the opening position.
func (g *Game) Start() *State { return g.opening.Clone() }

func (g *Game) nextPlayer(p int) int { return g.def.NextPlayer(p) }

// blank returns a state with every cell zero and Player 1 to move.
func (g *Game) blank() *State {
	s := &State{g: g, k: kernel.State{Cells: make([]int32, g.def.Layout.Size), Effects: kernel.NoEffects}}
	s.k.Cells[g.def.Layout.ToMove] = 1
	return s
}

// Close releases the game's script machines and ends its watchdog
// goroutine, at once when no call is in progress (else as soon as the
// calls in progress end). After Close every call into the script (Apply,
// Play, Score, Prompt, a runner's calls, NewState) returns ErrClosed; what
// needs no script still works (Start, a state's Legal, Diagram, JSON).
// Close may be called more than once and concurrently with other calls.
func (g *Game) Close() { g.prog.Close() }

// machine takes a machine from the pool, or makes one.
func (g *Game) machine() (*luavm.Machine, error) { return g.prog.Machine(nil) }

// machineWith takes a machine from the pool, or makes one, whose calls
// stop when cancel is done (nil for never) until it is released.
func (g *Game) machineWith(cancel *watchdog.Cancel) (*luavm.Machine, error) {
	return g.prog.Machine(cancel)
}

// release returns a machine to the pool.
func (g *Game) release(vm *luavm.Machine) { g.prog.Release(vm) }
