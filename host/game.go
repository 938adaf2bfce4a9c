package host

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"io"
	"math"
	"strings"
	"sync"

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
	board       *Board
	kinds       []MoveKind
	vars        []varSpec
	lay         layout
	fingerprint string // the declarations, to compare machines of one game
	sources     []byte // hash of the script and variants files, set by Load
	identity    string // Fingerprint: sources, variants chosen, parameters, declarations
	tag         uint32 // carried by the game's moves
	hasEvaluate bool
	rules       string // the rules page, when the game folder has one

	proto     *lua.FunctionProto
	data      *yaml.Node
	dataFiles map[*yaml.Node]string
	limits    Limits
	log       io.Writer
	extra     map[string]lua.LGFunction // primitives added by internal tests

	opening *State
	wd      *watchdog

	mu   sync.Mutex
	free []*machine
}

// install adopts the first machine's declarations.
func (g *Game) install(d *decl) {
	g.title, g.description = d.title, d.description
	g.players, g.conserve, g.maxPlies, g.repetition = d.players, d.conserve, d.maxPlies, d.repetition
	g.specs, g.params = d.specs, d.params
	g.board, g.kinds = d.board, d.kinds
	g.vars = append([]varSpec(nil), d.vars...)
	posVars, memoVars := 0, 0
	for _, v := range g.vars {
		if v.position {
			posVars++
		} else {
			memoVars++
		}
	}
	g.lay = newLayout(len(g.board.sites), g.players, posVars, memoVars)
	pi, mi := g.lay.vars, g.lay.memo
	for i := range g.vars {
		if g.vars[i].position {
			g.vars[i].cell = pi
			pi++
		} else {
			g.vars[i].cell = mi
			mi++
		}
	}
	g.fingerprint = d.fingerprint()
	g.hasEvaluate = d.hasEvaluate
	h := sha256.New()
	h.Write(g.sources)
	fmt.Fprintf(h, "|%q|%v|%s", g.chosen, g.overrides, g.fingerprint)
	sum := h.Sum(nil)
	g.identity = hex.EncodeToString(sum)
	g.tag = binary.LittleEndian.Uint32(sum) | 1 // never 0: the zero Move is no game's
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
func (g *Game) Board() *Board { return g.board }

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
func (g *Game) MoveKinds() []MoveKind { return append([]MoveKind(nil), g.kinds...) }

// Rules returns the game's rules page when its folder has one (rules.md).
func (g *Game) Rules() string { return g.rules }

// Token returns the text of a move, e.g. "a7" or "offer:a1,a3".
func (g *Game) Token(m Move) string {
	if int(m.Kind) >= len(g.kinds) {
		return fmt.Sprintf("<move kind %d>", m.Kind)
	}
	return g.kinds[m.Kind].format(g.board, m)
}

// Start returns a new state at the opening position.
func (g *Game) Start() *State { return g.opening.Clone() }

func (g *Game) nextPlayer(p int) int { return p%g.players + 1 }

// blank returns a state with every cell zero and Player 1 to move.
func (g *Game) blank() *State {
	s := &State{g: g, cells: make([]int32, g.lay.size)}
	s.cells[g.lay.toMove] = 1
	return s
}

// machine takes a machine from the pool, or makes one.
func (g *Game) machine() (*machine, error) {
	g.mu.Lock()
	if n := len(g.free); n > 0 {
		vm := g.free[n-1]
		g.free = g.free[:n-1]
		g.mu.Unlock()
		return vm, nil
	}
	g.mu.Unlock()
	return newMachine(g)
}

// maxIdle is how many idle machines a game keeps.
const maxIdle = 16

// release returns a machine to the pool; a machine whose call failed is
// discarded, because a script's own variables may be in any state after an
// error.
func (g *Game) release(vm *machine) {
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

// Position is a game position in plain values, to set up a state that is
// not reached from the opening, e.g. in a test scenario.
type Position struct {
	Counts   []int          // per site, in board order
	Owners   []int          // per site, in board order
	Captured []int          // per player
	Hand     []int          // per player
	ToMove   int            // the player whose decision is next
	Vars     map[string]int // script variables; missing ones are 0
}

// Position returns the state's position.
func (s *State) Position() Position {
	g := s.g
	p := Position{ToMove: s.ToMove(), Vars: map[string]int{}}
	for i := 0; i < g.lay.sites; i++ {
		p.Counts = append(p.Counts, s.Count(i))
		p.Owners = append(p.Owners, s.Owner(i))
	}
	for pl := 1; pl <= g.players; pl++ {
		p.Captured = append(p.Captured, s.Captured(pl))
		p.Hand = append(p.Hand, s.Hand(pl))
	}
	for _, v := range g.vars {
		p.Vars[v.name] = int(s.cells[v.cell])
	}
	return p
}

// StateOption configures NewState.
type StateOption func(*stateConfig)

type stateConfig struct {
	anyTotal bool
}

// AnyTotal lets NewState accept a position whose total of counters (board,
// captured and hands) differs from the opening's in a game that declares
// that it conserves its counters. Such a position cannot arise in play; a
// test of a rule may set one up on purpose (e.g. a sowing of 1000 laps
// needs far more counters than the opening has).
func AnyTotal() StateOption { return func(c *stateConfig) { c.anyTotal = true } }

// NewState returns a state at the given position, with the position as the
// first of its history. The script lists the legal moves and, when there
// are none, decides the result. Counts, captured totals and hands are 0 to
// 1073741823; in a game that conserves its counters the position must hold
// the opening's total (unless AnyTotal is given).
func (g *Game) NewState(pos Position, opts ...StateOption) (*State, error) {
	var cfg stateConfig
	for _, o := range opts {
		o(&cfg)
	}
	s, err := g.positionState(pos, !cfg.anyTotal)
	if err != nil {
		return nil, err
	}
	vm, err := g.machine()
	if err != nil {
		return nil, err
	}
	defer g.release(vm)
	if err := vm.start(s); err != nil {
		return nil, err
	}
	return s, nil
}

// positionState checks a position and builds a state of it, without
// running the script; with conserve, a conserving game's position must
// hold the opening's total.
func (g *Game) positionState(pos Position, conserve bool) (*State, error) {
	s := g.blank()
	lay := g.lay
	if len(pos.Counts) != lay.sites || len(pos.Owners) != lay.sites {
		return nil, &PositionError{Source: "position", Msg: fmt.Sprintf("want %d counts and owners, got %d and %d", lay.sites, len(pos.Counts), len(pos.Owners))}
	}
	if len(pos.Captured) != g.players || len(pos.Hand) != g.players {
		return nil, &PositionError{Source: "position", Msg: fmt.Sprintf("want %d captured totals and hands, got %d and %d", g.players, len(pos.Captured), len(pos.Hand))}
	}
	for i := 0; i < lay.sites; i++ {
		name := g.board.sites[i].Name
		if pos.Counts[i] < 0 || pos.Counts[i] > maxCount {
			return nil, &PositionError{Source: "position", Msg: fmt.Sprintf("%s has count %d (0 to %d allowed)", name, pos.Counts[i], maxCount)}
		}
		if pos.Owners[i] < 0 || pos.Owners[i] > g.players {
			return nil, &PositionError{Source: "position", Msg: fmt.Sprintf("%s has owner %d (0 to %d allowed)", name, pos.Owners[i], g.players)}
		}
		s.cells[i] = int32(pos.Counts[i])
		s.cells[lay.owners+i] = int32(pos.Owners[i])
	}
	for p := 0; p < g.players; p++ {
		if pos.Captured[p] < 0 || pos.Captured[p] > maxCount {
			return nil, &PositionError{Source: "position", Msg: fmt.Sprintf("player %d's captured total is %d (0 to %d allowed)", p+1, pos.Captured[p], maxCount)}
		}
		if pos.Hand[p] < 0 || pos.Hand[p] > maxCount {
			return nil, &PositionError{Source: "position", Msg: fmt.Sprintf("player %d's hand is %d (0 to %d allowed)", p+1, pos.Hand[p], maxCount)}
		}
		s.cells[lay.captured+p] = int32(pos.Captured[p])
		s.cells[lay.hand+p] = int32(pos.Hand[p])
	}
	if pos.ToMove < 1 || pos.ToMove > g.players {
		return nil, &PositionError{Source: "position", Msg: fmt.Sprintf("to_move must be a player from 1 to %d, got %d", g.players, pos.ToMove)}
	}
	s.cells[lay.toMove] = int32(pos.ToMove)
	for name, v := range pos.Vars {
		found := false
		for _, vs := range g.vars {
			if vs.name == name {
				if v < math.MinInt32 || v > math.MaxInt32 {
					return nil, &PositionError{Source: "position", Msg: fmt.Sprintf("variable %s is %d (a 32-bit integer, %d to %d, allowed)", name, v, math.MinInt32, math.MaxInt32)}
				}
				s.cells[vs.cell] = int32(v)
				found = true
			}
		}
		if !found {
			var known []string
			for _, vs := range g.vars {
				known = append(known, vs.name)
			}
			return nil, &PositionError{Source: "position", Msg: fmt.Sprintf("the script declares no variable %q (it declares: %s)", name, strings.Join(known, ", "))}
		}
	}
	if conserve && g.conserve && g.opening != nil {
		if want, got := g.opening.total(), s.total(); got != want {
			return nil, &PositionError{Source: "position", Msg: fmt.Sprintf("the game conserves its counters: the opening has %d on the board, captured and in hand, this position %d", want, got)}
		}
	}
	return s, nil
}

// total is the number of counters on the board, captured and in hand.
func (s *State) total() int { return s.g.lay.total(s.cells) }

// total is the number of counters on the board, captured and in hand, of
// state cells c.
func (lay *layout) total(c []int32) int {
	n := 0
	for _, x := range c[:lay.sites] {
		n += int(x)
	}
	for _, x := range c[lay.captured:lay.vars] { // captured totals and hands
		n += int(x)
	}
	return n
}

// Apply plays a legal move. An illegal move or a failing script returns an
// error and leaves the state unchanged.
func (s *State) Apply(m Move) error {
	if !s.isLegal(m) {
		return s.illegal(m)
	}
	vm, err := s.g.machine()
	if err != nil {
		return err
	}
	err = vm.apply(s, m)
	s.g.release(vm)
	return err
}

func (s *State) isLegal(m Move) bool {
	for _, x := range s.moves {
		if x == m {
			return true
		}
	}
	return false
}

// illegal describes why m is not legal in s.
func (s *State) illegal(m Move) error {
	tok, reason := s.g.Token(m), s.illegalReason()
	switch {
	case m.IsZero():
		tok, reason = "", "no move (the zero Move)"
	case m.game != s.g.tag && reason == "":
		reason = "the move belongs to another game, or another variant or parameters of this one"
	}
	return &IllegalMoveError{Token: tok, Legal: s.Legal(), Reason: reason}
}

func (s *State) illegalReason() string {
	if s.over {
		return "the game is over"
	}
	return ""
}

// ParseMove returns the legal move whose token is tok.
func (s *State) ParseMove(tok string) (Move, error) {
	var buf [64]byte
	for _, m := range s.moves {
		if int(m.Kind) < len(s.g.kinds) && string(s.g.kinds[m.Kind].appendToken(buf[:0], s.g.board, m)) == tok {
			return m, nil
		}
	}
	reason := s.illegalReason()
	if reason == "" && strings.TrimSpace(tok) != tok {
		reason = "a token has no spaces around it"
	}
	return Move{}, &IllegalMoveError{Token: tok, Legal: s.Legal(), Reason: reason}
}

// Play plays the legal move whose token is tok.
func (s *State) Play(tok string) error {
	m, err := s.ParseMove(tok)
	if err != nil {
		return err
	}
	return s.Apply(m)
}
