package host

import (
	"github.com/matombo/matombo/host/params"
	lua "github.com/yuin/gopher-lua"
)

// withTestPrimitive adds a primitive to the matombo table of a game's
// machines, for tests of how the host survives a misbehaving primitive.
func withTestPrimitive(name string, fn lua.LGFunction) Option {
	return func(c *loadConfig) {
		if c.extra == nil {
			c.extra = map[string]lua.LGFunction{}
		}
		c.extra[name] = fn
	}
}

// evalLua runs Lua code on a machine of g with s as the current state, as
// if it were the body of a rule function, and returns its results. It is
// for testing primitives directly.
func evalLua(g *Game, s *State, code string) ([]lua.LValue, error) {
	vm, err := g.machine()
	if err != nil {
		return nil, err
	}
	defer g.release(vm)
	vm.bind(s)
	defer vm.bind(nil)
	vm.ctx.Mover = s.ToMove()
	fn, err := vm.L.LoadString(code)
	if err != nil {
		return nil, err
	}
	top := vm.L.GetTop()
	if err := vm.call(fn, "test", lua.MultRet); err != nil {
		return nil, err
	}
	out := []lua.LValue{}
	for i := top + 1; i <= vm.L.GetTop(); i++ {
		out = append(out, vm.L.Get(i))
	}
	vm.L.SetTop(top)
	return out, nil
}

// evalMode says as which rule function evalIn runs its code.
type evalMode int

const (
	// asSetup runs code like setup or blocked: the state may change, no
	// moves can be emitted.
	asSetup evalMode = iota
	// asLegal runs code like legal: moves may be emitted (they replace the
	// state's legal moves) and the state may not change.
	asLegal
	// asPlay runs code like play: the position being made is not yet in
	// the history.
	asPlay
)

// evalIn runs Lua code on a machine of g with s as the current state, as
// the body of the rule function mode says, and returns its results. The
// code sees the script's filters as F[1], F[2], ... in the order the script
// made them (userdata wrapping the same filters), besides the sandbox's
// globals.
func evalIn(g *Game, s *State, mode evalMode, code string) ([]lua.LValue, error) {
	vm, err := g.machine()
	if err != nil {
		return nil, err
	}
	defer g.release(vm)
	L := vm.L
	vm.bind(s)
	defer vm.bind(nil)
	vm.ctx.Mover = s.ToMove()
	fn, err := L.LoadString(code)
	if err != nil {
		return nil, err
	}
	env := L.NewTable()
	filters := L.NewTable()
	for _, f := range vm.filters {
		ud := L.NewUserData()
		ud.Value = f
		filters.Append(ud)
	}
	env.RawSetString("F", filters)
	meta := L.NewTable()
	meta.RawSetString("__index", L.Get(lua.GlobalsIndex))
	L.SetMetatable(env, meta)
	fn.Env = env
	switch mode {
	case asLegal:
		s.k.Moves = s.k.Moves[:0]
		vm.emitting = true
		defer func() { vm.emitting = false }()
	case asPlay:
		vm.playing = true
		defer func() { vm.playing = false }()
	}
	top := L.GetTop()
	if err := vm.call(fn, "test", lua.MultRet); err != nil {
		return nil, err
	}
	out := []lua.LValue{}
	for i := top + 1; i <= L.GetTop(); i++ {
		out = append(out, L.Get(i))
	}
	L.SetTop(top)
	return out, nil
}

// machineCount reports how many idle machines g keeps, for tests of the
// pool.
func machineCount(g *Game) int {
	g.mu.Lock()
	defer g.mu.Unlock()
	return len(g.free)
}

// secondMachine makes a new machine of g besides the pooled ones, as a
// game used from two goroutines at once does, and closes it again. It
// returns the error of running the script's chunk on it, e.g. when the
// script declares something different the second time.
func secondMachine(g *Game) error {
	vm, err := newMachine(g, nil)
	if err != nil {
		return err
	}
	vm.close()
	return nil
}

// historyLen is the number of position keys in s's history.
func historyLen(s *State) int { return s.k.Hist.Len() }

// variantsOf parses the text of a variants file and returns its variants,
// for tests of the parser.
func variantsOf(file string, src []byte) ([]Variant, error) {
	vf, err := params.Parse(file, src)
	if err != nil {
		return nil, err
	}
	return vf.Variants(), nil
}
