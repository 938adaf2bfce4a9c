package host

import (
	"github.com/matombo/matombo/host/luavm"
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
	return vm.Eval(&s.k, asSetup, code)
}

// evalMode says as which rule function evalIn runs its code.
type evalMode = luavm.EvalMode

const (
	asSetup = luavm.AsSetup
	asLegal = luavm.AsLegal
	asPlay  = luavm.AsPlay
)

// evalIn runs Lua code on a machine of g with s as the current state, as
// the body of the rule function mode says (see luavm.Machine.Eval).
func evalIn(g *Game, s *State, mode evalMode, code string) ([]lua.LValue, error) {
	vm, err := g.machine()
	if err != nil {
		return nil, err
	}
	defer g.release(vm)
	return vm.EvalWith(&s.k, mode, code, nil)
}

// machineCount reports how many idle machines g keeps, for tests of the
// pool.
func machineCount(g *Game) int { return g.prog.Idle() }

// secondMachine makes a new machine of g besides the pooled ones, as a
// game used from two goroutines at once does, and closes it again. It
// returns the error of running the script's chunk on it, e.g. when the
// script declares something different the second time.
func secondMachine(g *Game) error {
	vm, err := g.prog.NewMachine()
	if err != nil {
		return err
	}
	vm.Discard()
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
