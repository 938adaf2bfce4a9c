package luavm

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/matombo/matombo/host/diag"
	"github.com/matombo/matombo/host/internal/memwalk"
	"github.com/matombo/matombo/host/internal/watchdog"
	"github.com/matombo/matombo/host/kernel"
	"github.com/matombo/matombo/host/params"
	"github.com/matombo/matombo/host/rules"
	lua "github.com/yuin/gopher-lua"
	"gopkg.in/yaml.v3"
)

// machine is one Lua state running a game's script, with the script's rule
// functions and the state it is working on. A machine is used by one
// goroutine at a time; a Game keeps a pool of them.
type Machine struct {
	g    *Program
	L    *lua.LState
	trip *tripwire
	// cancel stops the calls of the operation in progress when its
	// caller's context is done; nil for none.
	cancel *watchdog.Cancel
	dcl    *Decl       // what the script declared while loading
	def    *kernel.Def // the game's definition (while loading, the one being declared)
	ext    *extending
	ctx    kernel.Ctx // what the kernel's mechanics work with: the state bound, the mover, the meter, the recorder
	// calls counts the calls from Go into the script's Lua functions
	// (ScriptCalls): none for a ply whose rules are all native parts.
	calls uint64

	fnSetup, fnLegal, fnPlay, fnBlocked, fnRepeated lua.LValue
	fnResult, fnEvaluate, fnScore, fnPrompt         lua.LValue // optional
	phase                                           diag.Call  // the script function running
	// whys are the move kinds' why functions, nil for none (why.go).
	whys []lua.LValue

	st        *kernel.State // the state being worked on, nil between calls
	loading   bool          // the chunk is running: declarations are allowed
	emitting  bool          // legal is running: moves may be emitted
	playing   bool          // play is running
	key       uint64        // the position key repetitions computed during play
	keyValid  bool          // key is the key of the state as it is now
	budgetHit *diag.BudgetError
	problems  []error  // the problems of declarations while loading (recover.go)
	declPos   diag.Pos // the script line of the declaration running (recover.go)
	broken    bool     // a call failed; the machine is discarded
	held      uint64   // what the script held when last measured between calls (see checkHeld)

	protected map[*lua.LTable]bool
	dataPos   map[*lua.LTable]diag.Pos
	filters   []*kernel.Filter

	recBuf kernel.Recorder // the buffer ctx.Rec points to while a ply is recorded
	spare  []kernel.Move   // a buffer for the next legal list (see save)
	posBuf []int32         // a buffer for a position being decoded (see setPosition)
	lap    luaLap          // the hook of the matombo.relay running (see apiRelay)

	saved     saved          // copy of a state taken before play, restored on error
	noUndo    bool           // the move being played keeps no copy (applyFrom)
	unlisted  bool           // the move being played leaves the next legal list to list (ApplyFromUnlisted)
	bare      bool           // a bare call runs: a script function stops it (see bare.go)
	stopped   bool           // a bare call was stopped before a script function
	savedHist kernel.History // history of a state whose position is being set
	irrev     irreversible   // see lua_irreversible.go
	strs      strCache

	trampoline *lua.LFunction // calls a function under protect (lua_pcall.go)

	parts    map[*lua.LFunction]*partRef // the rule parts the script declared (lua_parts.go)
	partSeq  []*partRef                  // the parts in the order the script declared them
	hooks    []lua.LValue                // the script functions parts call, by number
	natPlay  rules.Player                // play, when it is a part
	natLegal rules.Emitter               // legal, when it is a part
	natScore rules.Scorer                // score, when it is a part
	scores   []int                       // the native score's answer
	luaDepth int                         // parts called from Lua running
	native   bool                        // a native turn is running (runTurn)
	watched  bool                        // the watchdog watches that turn: it called a script function
}

// saved holds what apply needs to undo a failed play.
type saved struct {
	cells   []int32
	moves   []kernel.Move // the state's legal moves before the move, kept, not copied
	ply     int
	result  kernel.Result
	key     uint64
	effects *kernel.EffectList
}

type strCache struct {
	empty, stop, laps, hook lua.LValue
	names                   []lua.LValue
}

// smallInts holds ready-made Lua values for the integers minSmall to
// maxSmall-1, so pushing a count, a site index or a small negative marker
// to Lua does not allocate (converting a float64 to an interface does). It
// is filled once and never changed.
var smallInts = func() []lua.LValue {
	v := make([]lua.LValue, maxSmall-minSmall)
	for i := range v {
		v[i] = lua.LNumber(i + minSmall)
	}
	return v
}()

const (
	minSmall = -1024
	maxSmall = 4096
)

func luaInt(v int) lua.LValue {
	if v >= minSmall && v < maxSmall {
		return smallInts[v-minSmall]
	}
	return lua.LNumber(v)
}

// newMachine creates a Lua state for g and runs the script's chunk in it.
// The first machine of a game records the script's declarations in dcl;
// later ones check that the script declared the same again.
// The chunk runs under cancel (nil for none).
func newMachine(g *Program, cancel *watchdog.Cancel) (*Machine, error) {
	vm := &Machine{g: g, dcl: &Decl{}, def: &kernel.Def{}, ext: newExtending(), cancel: cancel}
	vm.trip = watchdog.NewTripwire(g.Limits.Steps, g.Limits.Memory, vm.gameMemory)
	vm.L = vm.newSandbox(g.Limits)
	vm.L.SetContext(vm.trip)
	vm.trip.WatchUpvalues(vm.openUpvalues) // closures.go
	vm.strs.empty = lua.LString("empty")
	vm.strs.stop = lua.LString("stop")
	vm.strs.laps = lua.LString("laps")
	vm.strs.hook = lua.LString("hook")
	if err := vm.installAPI(); err != nil {
		vm.L.Close()
		return nil, err
	}
	g.wd.Add(vm.trip)
	vm.loading = true
	fn := vm.L.NewFunctionFromProto(g.Proto)
	err := vm.call(fn, "load", 1)
	vm.loading = false
	if err := vm.loadProblems(err); err != nil {
		vm.close()
		return nil, err
	}
	vm.dcl.RulePoints = vm.ext.points
	rules := vm.L.Get(-1)
	vm.L.Pop(1)
	if err := vm.takeRules(rules); err != nil {
		vm.close()
		return nil, err
	}
	first := g.Def == nil // set by the first machine, before the game is shared
	if err := vm.dcl.finish(g, vm.def); err != nil {
		vm.close()
		return nil, err
	}
	if first {
		g.parts = vm.partSeq
	} else if len(vm.partSeq) != len(g.parts) {
		vm.close()
		return nil, &diag.ScriptError{Pos: diag.Pos{File: g.File}, Func: "load", Msg: "the script declared different rules when loaded a second time: a script must declare the same things every time it runs"}
	}
	vm.def = g.Def
	vm.ctx.Def = g.Def
	vm.ctx.Meter = vm.trip
	vm.ctx.Steps = vm.trip.Counter() // charged directly, with no call through Meter
	vm.ctx.Hooks = vm
	vm.strs.names = make([]lua.LValue, vm.def.Board.NumSites())
	for i := range vm.strs.names {
		vm.strs.names[i] = lua.LString(vm.def.Board.Site(i).Name)
	}
	return vm, nil
}

// heldMemory estimates the memory the machine's script holds, stopping
// early once it is over limit. It must run on the machine's goroutine.
func (vm *Machine) heldMemory(limit uint64) uint64 {
	return memwalk.Held(vm.L, limit, vm.fnSetup, vm.fnLegal, vm.fnPlay, vm.fnBlocked, vm.fnRepeated, vm.fnResult, vm.fnEvaluate)
}

// gameMemory is what the game's scripts hold while this machine's call
// runs: what its script holds now, measured, and what the game's other
// machines held when last measured.
func (vm *Machine) gameMemory() uint64 {
	others := max(vm.g.held.Load()-int64(vm.held), 0)
	return vm.heldMemory(vm.g.Limits.Memory) + uint64(others)
}

// gameFailed returns the error that stopped the game (see Game.fail),
// breaking the machine, or nil.
func (vm *Machine) gameFailed() error {
	if e := vm.g.failed.Load(); e != nil {
		vm.broken = true
		return e
	}
	if vm.g.closed.Load() {
		vm.broken = true
		return diag.ErrClosed
	}
	return nil
}

// checkHeld measures, when the process has allocated enough since the
// machine last did for the script to be over its budget (see
// watchdog.Tripwire.MemoryDue), the memory its script keeps between calls,
// and stops the game when its machines together hold more than the memory
// budget. Measuring walks what the script holds, so it is done only after
// such allocation.
func (vm *Machine) checkHeld(fn diag.Call) error {
	if !vm.trip.MemoryDue() {
		return nil
	}
	limit := vm.g.Limits.Memory
	held := vm.heldMemory(limit)
	total := vm.g.held.Add(int64(held) - int64(vm.held))
	vm.held = held
	vm.trip.Measured(uint64(max(total, 0)))
	if uint64(total) <= limit {
		return nil
	}
	vm.broken = true
	return vm.g.fail(&diag.BudgetError{Pos: diag.Pos{File: vm.g.File}, Func: fn, Budget: diag.BudgetMemory, Limit: memSize(limit),
		Detail: fmt.Sprintf("the script keeps %s between calls (in upvalues or tables it holds on to)", memSize(uint64(total)))})
}

func (vm *Machine) close() {
	vm.g.held.Add(-int64(vm.held))
	vm.held = 0
	vm.g.wd.Remove(vm.trip)
	vm.L.Close()
}

// takeRules reads the table of rule functions the chunk returned.
func (vm *Machine) takeRules(v lua.LValue) error {
	t, ok := v.(*lua.LTable)
	pos := vm.rulesPos()
	if !ok {
		return &diag.ScriptError{Pos: pos, Func: "load", Msg: fmt.Sprintf("the script must end with \"return { setup = ..., legal = ..., play = ... }\", but it returned %s", v.Type())}
	}
	get := func(name string, required bool) (lua.LValue, error) {
		f := t.RawGetString(name)
		if f == lua.LNil && !required {
			return nil, nil
		}
		if _, ok := f.(*lua.LFunction); !ok {
			return nil, &diag.ScriptError{Pos: pos, Func: "load", Msg: fmt.Sprintf("the returned rules table needs a function %q, got %s", name, f.Type())}
		}
		return f, nil
	}
	var err error
	if vm.fnSetup, err = get("setup", true); err != nil {
		return err
	}
	if vm.fnLegal, err = get("legal", true); err != nil {
		return err
	}
	if vm.fnPlay, err = get("play", true); err != nil {
		return err
	}
	if vm.fnBlocked, err = get("blocked", false); err != nil {
		return err
	}
	if vm.fnRepeated, err = get("repeated", false); err != nil {
		return err
	}
	if vm.fnResult, err = get("result", false); err != nil {
		return err
	}
	if vm.fnEvaluate, err = get("evaluate", false); err != nil {
		return err
	}
	vm.dcl.HasEvaluate = vm.fnEvaluate != nil
	if err := vm.checkRulesParts(t, pos); err != nil {
		return err
	}
	if ref := vm.parts[vm.fnPlay.(*lua.LFunction)]; ref != nil {
		vm.natPlay, _ = ref.part.(rules.Player)
	}
	if ref := vm.parts[vm.fnLegal.(*lua.LFunction)]; ref != nil {
		vm.natLegal, _ = ref.part.(rules.Emitter)
	}
	if vm.fnScore, err = get("score", false); err != nil {
		return err
	}
	vm.dcl.HasScore = vm.fnScore != nil
	if f, ok := vm.fnScore.(*lua.LFunction); ok && vm.parts[f] != nil {
		vm.natScore, _ = vm.parts[f].part.(rules.Scorer)
	}
	if vm.fnPrompt, err = get("prompt", false); err != nil {
		return err
	}
	vm.dcl.HasPrompt = vm.fnPrompt != nil
	if vm.dcl.ScoreLabel != "" && !vm.dcl.HasScore {
		return &diag.ScriptError{Pos: pos, Func: "load", Msg: "declare has a score_label but the returned rules table has no score function"}
	}
	var unknown []string
	t.ForEach(func(k, _ lua.LValue) {
		switch k.String() {
		case "setup", "legal", "play", "blocked", "repeated", "result", "evaluate", "score", "prompt":
		default:
			unknown = append(unknown, k.String())
		}
	})
	if len(unknown) > 0 {
		return &diag.ScriptError{Pos: pos, Func: "load", Msg: fmt.Sprintf("the returned rules table has unknown fields %s (known: setup, legal, play, blocked, repeated, result, evaluate, score, prompt)", strings.Join(unknown, ", "))}
	}
	if (vm.fnRepeated != nil) != (vm.dcl.Repetition > 0) {
		return &diag.ScriptError{Pos: pos, Func: "load", Msg: "declare repetition = N and return a repeated function together, or neither"}
	}
	if !vm.dcl.declared {
		return &diag.ScriptError{Pos: pos, Func: "load", Msg: "the script never called matombo.declare"}
	}
	if vm.def.Board == nil {
		return &diag.ScriptError{Pos: pos, Func: "load", Msg: "the script never declared its board with matombo.board"}
	}
	return nil
}

// rulesFieldSlots are the fields of the rules table that take a part of
// one slot, with what the field takes, in the words of an error.
var rulesFieldSlots = []struct {
	field string
	slot  rules.Slot
	takes string
}{
	{"legal", rules.SlotEmit, "legal takes a function (p) that emits the moves, or a part of the emit slot"},
	{"play", rules.SlotPlay, "play takes a function play(p, kind, ...), or a part of the play slot"},
	{"score", rules.SlotScore, "score takes a function (over), or a part of the score slot, such as matombo.score_rule"},
}

// checkRulesParts refuses a rule part given as a field of the rules table
// t that the field cannot call (an emit part as play, a condition as
// legal), at pos, the line that returns the table: such a part would fail
// at its first call, or quietly do nothing. The fields without a slot of
// their own (setup, blocked, ...) refuse only a part that emits moves,
// which nothing but legal may do.
func (vm *Machine) checkRulesParts(t *lua.LTable, pos diag.Pos) error {
	wrong := func(field string, ref *partRef, takes string) error {
		made := fmt.Sprintf("line %d", ref.pos.Line)
		if ref.pos.File != pos.File {
			made = ref.pos.String()
		}
		return &diag.ScriptError{Pos: pos, Func: "load", Msg: fmt.Sprintf("the returned rules table's %s is %s, a part of the %s slot (made at %s); %s", field, ref.spec.Name, ref.spec.Slot, made, takes)}
	}
	for _, f := range rulesFieldSlots {
		ref := vm.partOf(t.RawGetString(f.field))
		if ref != nil && !rules.Fits(ref.part, f.slot) {
			return wrong(f.field, ref, f.takes)
		}
	}
	for _, field := range []string{"setup", "blocked", "repeated", "result", "evaluate", "prompt"} {
		ref := vm.partOf(t.RawGetString(field))
		if ref != nil && emitsMoves(ref.spec.Slot) {
			return wrong(field, ref, "only legal emits moves")
		}
	}
	return nil
}

// partOf is the part v stands for, or nil for anything else (a script's
// function, a part whose declaration was refused).
func (vm *Machine) partOf(v lua.LValue) *partRef {
	fn, ok := v.(*lua.LFunction)
	if !ok {
		return nil
	}
	ref := vm.parts[fn]
	if ref == nil {
		return nil
	}
	if _, broken := ref.part.(brokenPart); broken {
		return nil
	}
	return ref
}

// emitsMoves tells whether a part of slot s emits moves when called.
func emitsMoves(s rules.Slot) bool {
	return s == rules.SlotEmit || s == rules.SlotChoices || s == rules.SlotCount
}

// call runs a Lua function under the budget and turns failures into errors.
func (vm *Machine) call(fn lua.LValue, name diag.Call, nret int, args ...lua.LValue) error {
	L := vm.L
	L.Push(fn)
	for _, a := range args {
		L.Push(a)
	}
	return vm.invoke(name, len(args), nret)
}

// invoke calls the function pushed below its nargs pushed arguments, under
// the budget; a failure marks the machine broken and becomes an error
// naming the script function.
func (vm *Machine) invoke(name diag.Call, nargs, nret int) error {
	if err := vm.gameFailed(); err != nil {
		return err
	}
	seq := vm.begin()
	vm.calls++
	outer, ending := vm.phase, vm.ctx.Ending
	vm.phase = name
	vm.ctx.Ending = vm.finishMethod()
	err := vm.L.PCall(nargs, nret, nil)
	vm.phase, vm.ctx.Ending = outer, ending
	vm.g.wd.End(vm.trip)
	if err == nil {
		return vm.checkHeld(name)
	}
	vm.broken = true
	return vm.convertError(err, name, seq)
}

// begin starts a call into the script under the watchdog. A size-budget
// error a script caught with pcall in an earlier call is forgotten.
func (vm *Machine) begin() uint64 {
	vm.budgetHit = nil
	vm.ctx.NewCall()
	return vm.g.wd.Begin(vm.trip, vm.cancel)
}

// convertError turns a gopher-lua error into a diag.ScriptError or diag.BudgetError.
func (vm *Machine) convertError(err error, fn diag.Call, seq uint64) error {
	var msg, trace string
	var apiErr *lua.ApiError
	if errors.As(err, &apiErr) {
		msg = luaErrorText(apiErr.Object)
		trace = apiErr.StackTrace
	} else {
		msg = err.Error()
	}
	pos, text := vm.splitPos(msg)
	if pos.Line == 0 {
		pos = vm.posFromTrace(trace, pos)
	}
	// A size budget the failing call hit itself is the certain cause,
	// even when the watchdog tripped meanwhile.
	if be := vm.budgetHit; be != nil && strings.Contains(text, string(be.Budget)+" budget exceeded") {
		vm.budgetHit = nil
		out := *be
		out.Pos, out.Func, out.Err = pos, fn, err
		return &out
	}
	switch why := vm.trip.FiredFor(seq); why {
	case watchdog.Steps:
		vm.budgetHit = nil
		return &diag.BudgetError{Pos: pos, Func: fn, Budget: diag.BudgetSteps, Limit: fmt.Sprintf("%d steps", vm.g.Limits.Steps), Detail: "the call ran too many steps (an endless loop?)", Err: err}
	case watchdog.Time:
		vm.budgetHit = nil
		return &diag.BudgetError{Pos: pos, Func: fn, Budget: diag.BudgetTime, Limit: vm.g.Limits.Time.String(), Detail: "the call ran too long (an endless loop or a hang)", Err: err}
	case watchdog.Memory:
		vm.budgetHit = nil
		return vm.g.fail(&diag.BudgetError{Pos: pos, Func: fn, Budget: diag.BudgetMemory, Limit: memSize(vm.g.Limits.Memory), Detail: "the script holds too much memory", Err: err})
	case watchdog.Canceled:
		vm.budgetHit = nil
		return diag.Canceled(vm.cancel.Context(), pos, fn)
	}
	if be := vm.budgetHit; be != nil {
		vm.budgetHit = nil
		out := *be
		out.Pos, out.Func, out.Err = pos, fn, err
		return &out
	}
	switch {
	case strings.Contains(text, "stack overflow"):
		return &diag.BudgetError{Pos: pos, Func: fn, Budget: diag.BudgetCallStack, Limit: strconv.Itoa(vm.g.Limits.CallStack) + " frames", Detail: "recursion too deep", Err: err}
	case strings.Contains(text, "registry overflow"):
		return &diag.BudgetError{Pos: pos, Func: fn, Budget: diag.BudgetDataStack, Limit: strconv.Itoa(vm.g.Limits.DataStack) + " values", Detail: "too many values on the Lua stack", Err: err}
	}
	if cfgErr := vm.dcl.cfgErr; cfgErr != nil {
		var all diag.Diagnostics // every bad variant, say
		var cfg *diag.ConfigError
		switch {
		case errors.As(cfgErr, &all):
			vm.dcl.cfgErr = nil
			return all
		case errors.As(cfgErr, &cfg):
			vm.dcl.cfgErr = nil
			return cfg
		}
	}
	return &diag.ScriptError{Pos: pos, Func: fn, Msg: diag.ClipText(text, diag.MaxMessageText), Traceback: diag.ClipText(trace, diag.MaxTraceText), Err: err}
}

// luaErrorText describes an error value without running metamethods: an
// error object with a __tostring that fails must not fail again here.
func luaErrorText(v lua.LValue) string {
	switch x := v.(type) {
	case lua.LString:
		return string(x)
	case lua.LNumber:
		return x.String()
	case *lua.LNilType:
		return "error(nil)"
	default:
		return fmt.Sprintf("error object of type %s", v.Type())
	}
}

// splitPos separates the "file:line:" prefix Lua puts on messages.
func (vm *Machine) splitPos(msg string) (diag.Pos, string) {
	file := vm.g.File
	for _, b := range vm.g.Bases {
		if strings.HasPrefix(msg, b.File+":") {
			file = b.File
		}
	}
	if strings.HasPrefix(msg, file+":") {
		rest := msg[len(file)+1:]
		if i := strings.IndexByte(rest, ':'); i > 0 {
			if n, err := strconv.Atoi(rest[:i]); err == nil {
				return diag.Pos{File: file, Line: n}, strings.TrimSpace(rest[i+1:])
			}
		}
	}
	return diag.Pos{File: file}, msg
}

// posFromTrace finds the innermost script line in a traceback.
func (vm *Machine) posFromTrace(trace string, def diag.Pos) diag.Pos {
	for _, line := range strings.Split(trace, "\n") {
		line = strings.TrimSpace(line)
		if p, _ := vm.splitPos(line); p.Line > 0 {
			return p
		}
	}
	return def
}

// toMove is the player whose decision is next in s.
func (vm *Machine) toMove(s *kernel.State) int { return int(s.Cells[vm.def.Layout.ToMove]) }

// bind makes s the state the primitives work on.
func (vm *Machine) bind(s *kernel.State) {
	vm.st = s
	if s == nil {
		vm.ctx.S = nil
		return
	}
	vm.ctx.S = s
}

// setup runs the script's setup on a blank state and settles it.
func (vm *Machine) setup(s *kernel.State) error {
	vm.bind(s)
	vm.ctx.Mover = vm.toMove(s)
	defer vm.bind(nil)
	if err := vm.call(vm.fnSetup, "setup", 0); err != nil {
		return err
	}
	s.Hist.Reset()
	s.KeyStale = false
	s.Hist.Push(s.ComputeKey(&vm.def.Layout))
	err := vm.settle(s)
	s.Key = s.ComputeKey(&vm.def.Layout)
	return err
}

// start settles a state built from a position: the script's result
// function, when it has one, says whether the position is already decided;
// otherwise the script lists the legal moves.
func (vm *Machine) start(s *kernel.State) error {
	vm.bind(s)
	defer vm.bind(nil)
	s.Hist.Reset()
	s.Key, s.KeyStale = s.ComputeKey(&vm.def.Layout), false
	s.Hist.Push(s.Key)
	if vm.fnResult != nil {
		vm.ctx.Mover = vm.toMove(s)
		if err := vm.call(vm.fnResult, diag.CallResult, 0, luaInt(vm.toMove(s))); err != nil {
			return err
		}
		if s.Result.Over {
			s.Moves = s.Moves[:0]
			return nil
		}
	}
	err := vm.settle(s)
	if err != nil || s.Result.Over {
		// Listing the moves changes the board only when the blocked
		// function ends the game (sweeps); otherwise the key holds.
		s.Key = s.ComputeKey(&vm.def.Layout)
	}
	return err
}

// evaluate runs the script's evaluate function on s for player p.
func (vm *Machine) evaluate(s *kernel.State, p int) (float64, error) {
	vm.bind(s)
	defer vm.bind(nil)
	vm.ctx.Mover = p
	if err := vm.call(vm.fnEvaluate, diag.CallEvaluate, 1, luaInt(p)); err != nil {
		return 0, err
	}
	v := vm.L.Get(-1)
	vm.L.Pop(1)
	f, ok := v.(lua.LNumber)
	if !ok || f != f {
		vm.broken = true
		return 0, &diag.ScriptError{Pos: vm.funcPos(vm.fnEvaluate), Func: diag.CallEvaluate, Msg: fmt.Sprintf("evaluate(%d) must return a number, got %s", p, vm.describe(v, plainSlot))}
	}
	return float64(f), nil
}

// score runs the script's score function on s and appends one whole
// number per player to dst.
func (vm *Machine) score(s *kernel.State, dst []int) ([]int, error) {
	vm.bind(s)
	defer vm.bind(nil)
	vm.ctx.Mover = vm.toMove(s)
	if vm.natScore != nil {
		vm.scores = dst
		err := vm.runTurn(diag.CallScore, vm.ctx.Mover, kernel.Move{})
		dst, vm.scores = vm.scores, nil
		return dst, err
	}
	n := vm.g.Def.Players
	if err := vm.call(vm.fnScore, diag.CallScore, n, lua.LBool(s.Result.Over)); err != nil {
		return dst, err
	}
	L := vm.L
	base := L.GetTop() - n
	for i := 1; i <= n; i++ {
		v := L.Get(base + i)
		f, ok := v.(lua.LNumber)
		if !ok || float64(f) != math.Trunc(float64(f)) || f < -kernel.MaxCount || f > kernel.MaxCount {
			L.Pop(n)
			vm.broken = true
			return dst, &diag.ScriptError{Pos: vm.funcPos(vm.fnScore), Func: diag.CallScore,
				Msg: fmt.Sprintf("score must return %d whole numbers (one per player, at most %d), got %s for player %d", n, kernel.MaxCount, vm.describe(v, plainSlot), i)}
		}
		dst = append(dst, int(f))
	}
	L.Pop(n)
	return dst, nil
}

// settle lists the legal moves of the decision that is next, and asks the
// script what happens when there are none.
func (vm *Machine) settle(s *kernel.State) error {
	s.Moves, s.Unlisted = s.Moves[:0], false
	if s.Result.Over {
		return nil
	}
	p := vm.toMove(s)
	vm.ctx.Mover = p
	vm.emitting = true
	var err error
	if vm.natLegal != nil {
		err = vm.runTurn("legal", p, kernel.Move{})
	} else {
		L := vm.L
		L.Push(vm.fnLegal)
		L.Push(luaInt(p))
		for _, v := range vm.def.Vars {
			L.Push(luaNumber(float64(s.Cells[v.Cell])))
		}
		err = vm.invoke("legal", 1+len(vm.def.Vars), 0)
	}
	vm.emitting = false
	if err != nil {
		return err
	}
	if len(s.Moves) > 0 {
		return nil
	}
	if vm.bare {
		return ErrScriptNeeded // the blocked function decides
	}
	if vm.fnBlocked == nil {
		vm.broken = true
		return &diag.ScriptError{Pos: vm.funcPos(vm.fnLegal), Func: "legal", Msg: fmt.Sprintf("player %d has no legal token and the game is not over; the script should end the game or return a blocked function", p)}
	}
	if err := vm.call(vm.fnBlocked, "blocked", 0, luaInt(p)); err != nil {
		return err
	}
	if !s.Result.Over {
		vm.broken = true
		return &diag.ScriptError{Pos: vm.funcPos(vm.fnBlocked), Func: "blocked", Msg: fmt.Sprintf("blocked(%d) returned without ending the game (call matombo.finish)", p)}
	}
	return nil
}

// apply plays move m on s. On any error s is restored as it was. The
// effects of the move are recorded when startRecording was called before.
func (vm *Machine) apply(s *kernel.State, m kernel.Move) error {
	vm.save(s)
	vm.beginMove()
	vm.bind(s)
	err := vm.applyBound(s, m)
	vm.bind(nil) // not deferred: a deferred call costs a tenth of a native ply
	return err
}

// applyFrom makes dst the state src becomes after legal move m, src
// unchanged, keeping nothing to undo the move (src is that copy): on
// error dst is made a copy of src again. The legal list of src is not
// copied; dst's own buffer takes the new one. Recording needs the copy
// (see finishRecording), so a caller recording uses apply.
func (vm *Machine) applyFrom(dst, src *kernel.State, m kernel.Move) error {
	dst.Cells = append(dst.Cells[:0], src.Cells...)
	dst.Ply, dst.Key, dst.KeyStale = src.Ply, src.Key, false // src is listed, so its key is set
	if !src.Result.IsZero() || !dst.Result.IsZero() {
		dst.Result = src.Result
	}
	dst.Hist.CopyFrom(&src.Hist)
	dst.Moves = dst.Moves[:0]
	vm.saved.moves = vm.spare // done keeps the spare buffer as it is
	vm.noUndo = true
	vm.beginMove()
	vm.bind(dst)
	err := vm.applyBound(dst, m)
	vm.bind(nil)
	vm.noUndo = false
	if err != nil {
		dst.CopyFrom(src)
	}
	return err
}

// list lists the legal moves of s, a state a move played by applyFrom
// with unlisted set left without them, as applyBound would have: the
// script's blocked function ends the game when there are none. On error s
// is as it was.
func (vm *Machine) list(s *kernel.State) error {
	if !s.Unlisted {
		return nil
	}
	// The key first: the script may count repetitions while it lists.
	// It stays set on error, the position's key all the same.
	s.SettleKey(&vm.def.Layout)
	vm.save(s)
	vm.bind(s)
	err := vm.settle(s)
	vm.bind(nil)
	if err != nil {
		vm.restore(s)
		s.Unlisted = true
		return err
	}
	if s.Result.Over {
		s.Key = s.ComputeKey(&vm.def.Layout) // the end of a game may change the board (sweeps)
	}
	vm.done()
	return nil
}

// applyBound is apply on the state bound.
func (vm *Machine) applyBound(s *kernel.State, m kernel.Move) error {
	if s.Ply >= kernel.MaxPly {
		vm.restore(s)
		return &diag.IllegalMoveError{Token: vm.def.Kinds[m.Kind].Format(vm.def.Board, m),
			Reason: fmt.Sprintf("the game has counted %d plies, the most a state may count: no move can follow", s.Ply)}
	}
	p := vm.beginPly(s)
	var err error
	if vm.natPlay != nil {
		err = vm.runTurn("play", p, m)
	} else {
		L := vm.L
		L.Push(vm.fnPlay)
		L.Push(luaInt(p))
		L.Push(luaInt(int(m.Kind) + 1))
		for i := 0; i < int(m.N); i++ {
			L.Push(luaInt(int(m.Sites[i]) + 1))
		}
		err = vm.invoke("play", 2+int(m.N), 0)
	}
	vm.playing = false
	if err != nil {
		vm.ctx.Rec = nil
		vm.restore(s)
		return err
	}
	vm.forgetBefore(s)
	if vm.unlisted && !s.Result.Over && vm.ctx.Rec == nil && vm.fnRepeated == nil {
		// Listing the moves and computing the key are left to list (a
		// search reads many positions and goes on from few): nothing
		// but the blocked function (an empty list) can end the game
		// there, and no repetition function needs the key now.
		if vm.keyValid {
			s.Hist.Push(vm.key)
			s.Key = vm.key
		} else {
			s.KeyStale = true
		}
		s.Moves, s.Unlisted = s.Moves[:0], true
		vm.done()
		return nil
	}
	key := vm.key
	if !vm.keyValid {
		key = s.ComputeKey(&vm.def.Layout)
	}
	s.Hist.Push(key)
	if vm.unlisted && !s.Result.Over && vm.ctx.Rec == nil && s.Hist.Count(key) < vm.g.Decl.Repetition {
		// Listing the moves is left to list: the position has not
		// occurred often enough for the repetition function.
		s.Moves, s.Unlisted, s.Key = s.Moves[:0], true, key
		vm.done()
		return nil
	}
	err = vm.settle(s)
	if err == nil && !s.Result.Over && vm.fnRepeated != nil && s.Hist.Count(key) >= vm.g.Decl.Repetition {
		err = vm.repeated(s, p)
	}
	if err != nil {
		vm.ctx.Rec = nil
		s.Hist.Pop()
		vm.rememberBefore(s)
		vm.restore(s)
		return err
	}
	s.Key = key
	if s.Result.Over {
		s.Key = s.ComputeKey(&vm.def.Layout) // the end of a game may change the board (sweeps)
	}
	if vm.ctx.Rec != nil {
		vm.finishRecording(s)
	}
	vm.done()
	return nil
}

// beginPly starts a ply on s, the state bound: it counts it, passes the
// turn (the rules may take it back) and returns the player who moves.
func (vm *Machine) beginPly(s *kernel.State) int {
	s.Effects = nil
	p := vm.toMove(s)
	s.Ply++
	s.Cells[vm.def.Layout.ToMove] = int32(vm.g.Def.NextPlayer(p))
	vm.ctx.ToMoveSet = false
	vm.ctx.Mover, vm.playing, vm.keyValid = p, true, false
	return p
}

// repeated asks the script to end a game whose position has occurred the
// declared number of times.
func (vm *Machine) repeated(s *kernel.State, p int) error {
	vm.ctx.Mover = p
	if err := vm.call(vm.fnRepeated, "repeated", 0, luaInt(p)); err != nil {
		return err
	}
	if !s.Result.Over {
		vm.broken = true
		return &diag.ScriptError{Pos: vm.funcPos(vm.fnRepeated), Func: "repeated", Msg: "repeated returned without ending the game (call matombo.finish)"}
	}
	s.Moves = s.Moves[:0]
	return nil
}

// save keeps what apply needs to undo a move. The legal list is not
// copied: the state gets the machine's spare buffer for its next list and
// the machine keeps the old one, giving it back on failure (see restore)
// and taking it as its spare on success (see done).
func (vm *Machine) save(s *kernel.State) {
	v := &vm.saved
	v.cells = append(v.cells[:0], s.Cells...)
	v.moves = s.Moves
	s.Moves = vm.spare[:0]
	v.ply, v.result, v.key, v.effects = s.Ply, s.Result, s.Key, s.Effects
}

func (vm *Machine) restore(s *kernel.State) {
	if vm.noUndo {
		return // applyFrom copies the state again
	}
	v := &vm.saved
	s.Cells = append(s.Cells[:0], v.cells...)
	vm.spare, s.Moves = s.Moves, v.moves
	v.moves = nil
	s.Ply, s.Result, s.Key, s.Effects = v.ply, v.result, v.key, v.effects
}

// done ends a successful move: the old legal list becomes the spare buffer.
func (vm *Machine) done() {
	vm.spare, vm.saved.moves = vm.saved.moves, nil
}

// Limits on the data a variants file gives a script.
const (
	maxDataDepth = 64
	maxDataNodes = 100000
)

// yamlToLua converts a YAML node to a Lua value, remembering where each
// table came from (file and line) so that errors about data can name them.
// Deep nesting and alias bombs are refused.
func (vm *Machine) yamlToLua(n *yaml.Node, depth int, count *int) (lua.LValue, error) {
	L := vm.L
	*count++
	if depth > maxDataDepth || *count > maxDataNodes {
		return nil, &diag.ConfigError{Pos: params.NodePos(vm.g.dataFile(n), n), Msg: fmt.Sprintf("data is nested deeper than %d or has more than %d values (aliases count each time they are used)", maxDataDepth, maxDataNodes)}
	}
	switch n.Kind {
	case yaml.DocumentNode:
		if len(n.Content) == 0 {
			return lua.LNil, nil
		}
		return vm.yamlToLua(n.Content[0], depth+1, count)
	case yaml.AliasNode:
		return vm.yamlToLua(n.Alias, depth+1, count)
	case yaml.MappingNode:
		t := L.NewTable()
		vm.dataPos[t] = params.NodePos(vm.g.dataFile(n), n)
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, err := vm.yamlToLua(n.Content[i], depth+1, count)
			if err != nil {
				return nil, err
			}
			if k == lua.LNil {
				continue
			}
			v, err := vm.yamlToLua(n.Content[i+1], depth+1, count)
			if err != nil {
				return nil, err
			}
			t.RawSet(k, v)
		}
		return t, nil
	case yaml.SequenceNode:
		t := L.NewTable()
		vm.dataPos[t] = params.NodePos(vm.g.dataFile(n), n)
		for _, c := range n.Content {
			v, err := vm.yamlToLua(c, depth+1, count)
			if err != nil {
				return nil, err
			}
			t.Append(v)
		}
		return t, nil
	default:
		switch n.ShortTag() {
		case "!!int", "!!float":
			f, err := strconv.ParseFloat(n.Value, 64)
			if err != nil {
				var i int64
				if _, err := fmt.Sscan(n.Value, &i); err == nil {
					return lua.LNumber(i), nil
				}
				return lua.LString(n.Value), nil
			}
			return lua.LNumber(f), nil
		case "!!bool":
			var b bool
			if n.Decode(&b) == nil {
				return lua.LBool(b), nil
			}
		case "!!null":
			return lua.LNil, nil
		}
		return lua.LString(n.Value), nil
	}
}
