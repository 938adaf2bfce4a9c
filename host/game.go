package host

import (
	"cmp"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"io"
	"sync"
	"sync/atomic"

	"github.com/matombo/matombo/host/internal/watchdog"
	"github.com/matombo/matombo/host/kernel"
	lua "github.com/yuin/gopher-lua"
	"gopkg.in/yaml.v3"
)

// Game is a loaded game: a compiled script with resolved parameters and
// its board. A Game is safe for concurrent use; its states are not.
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
	parts       []*partRef  // the rule parts, made by the first machine and shared
	fingerprint string      // the declarations, to compare machines of one game
	sources     []byte      // hash of the script and variants files, set by Load
	identity    string      // Fingerprint: sources, variants chosen, parameters, declarations
	hasEvaluate bool
	hasPrompt   bool
	scoreLabel  string       // "" when the script has no score function
	rules       string       // the rules page, when the game folder has one
	bases       []baseScript // the games it extends, nearest first
	rulePoints  []string
	replaced    []string

	proto     *lua.FunctionProto
	data      *yaml.Node
	dataFiles map[*yaml.Node]string
	limits    Limits
	log       io.Writer
	extra     map[string]lua.LGFunction // primitives added by internal tests

	opening *State
	wd      *watchdog.Watchdog
	held    atomic.Int64                // memory the machines' scripts held when last measured
	failed  atomic.Pointer[BudgetError] // set when the scripts went over the memory budget

	mu   sync.Mutex
	free []*machine
}

// fail stops the game after its scripts went over the memory budget:
// every later call returns the first such error. The memory a script
// keeps is the game's state, so the game fails once, for good, rather
// than whenever a machine happens to be measured.
func (g *Game) fail(e *BudgetError) *BudgetError {
	g.failed.CompareAndSwap(nil, e)
	return g.failed.Load()
}

// install adopts the first machine's declarations.
func (g *Game) install(d *decl, def *kernel.Def) {
	g.title, g.description = d.title, d.description
	g.players, g.conserve, g.maxPlies, g.repetition = d.players, d.conserve, d.maxPlies, d.repetition
	g.specs, g.params = d.specs, d.params
	g.rulePoints, g.replaced = d.rulePoints, d.replaced
	posVars, memoVars := 0, 0
	for _, v := range def.Vars {
		if v.Position {
			posVars++
		} else {
			memoVars++
		}
	}
	def.Players = d.players
	def.Layout = kernel.NewLayout(def.Board.NumSites(), d.players, posVars, memoVars)
	pi, mi := def.Layout.Vars, def.Layout.Memo
	for i := range def.Vars {
		if def.Vars[i].Position {
			def.Vars[i].Cell = pi
			pi++
		} else {
			def.Vars[i].Cell = mi
			mi++
		}
	}
	g.fingerprint = d.fingerprint(def)
	g.hasEvaluate = d.hasEvaluate
	g.hasPrompt = d.hasPrompt
	if d.hasScore {
		g.scoreLabel = cmp.Or(d.scoreLabel, "score")
	}
	h := sha256.New()
	h.Write(g.sources)
	fmt.Fprintf(h, "|%q|%v|%s", g.chosen, g.overrides, g.fingerprint)
	sum := h.Sum(nil)
	g.identity = hex.EncodeToString(sum)
	def.Tag = binary.LittleEndian.Uint32(sum) | 1 // never 0: the zero Move is no game's
	g.def = def
}

// Fingerprint identifies the game's rules: a hash of the script, the
// variants files, the variants chosen, the parameters and what the script
// declared. Two loads with the same fingerprint play identically, so stored
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

// machine takes a machine from the pool, or makes one.
func (g *Game) machine() (*machine, error) { return g.machineWith(nil) }

// machineWith takes a machine from the pool, or makes one, whose calls
// stop when cancel is done (nil for never) until it is released.
func (g *Game) machineWith(cancel *watchdog.Cancel) (*machine, error) {
	if cancel.Done() {
		return nil, canceled(cancel.Context(), Pos{}, "")
	}
	g.mu.Lock()
	if n := len(g.free); n > 0 {
		vm := g.free[n-1]
		g.free = g.free[:n-1]
		g.mu.Unlock()
		vm.cancel = cancel
		return vm, nil
	}
	g.mu.Unlock()
	return newMachine(g, cancel)
}

// maxIdle is how many idle machines a game keeps.
const maxIdle = 16

// release returns a machine to the pool; a machine whose call failed is
// discarded, because a script's own variables may be in any state after an
// error.
func (g *Game) release(vm *machine) {
	vm.cancel = nil
	if vm.broken {
		vm.close()
		return
	}
	g.mu.Lock()
	if len(g.free) < maxIdle {
		g.free = append(g.free, vm)
		g.mu.Unlock()
		return
	}
	g.mu.Unlock()
	vm.close()
}

// dataFile returns the variants file a data node came from.
func (g *Game) dataFile(n *yaml.Node) string {
	if f, ok := g.dataFiles[n]; ok {
		return f
	}
	return g.file
}
