package host

import (
	"fmt"
	"testing"
	"time"

	"github.com/matombo/matombo/host/luavm"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// BenchmarkRaise measures what an error raised and caught costs in Go,
// against a Lua instruction, to set the steps it is charged (lua_pcall.go):
// "instruction" is one step of an empty loop; "pcall/depth=N" one
// pcall(error, "x") with N frames below it, reported as ns and as steps
// (ns over the ns of an instruction) per raise, beside the steps charged.
func BenchmarkRaise(b *testing.B) {
	g, err := loadSource(b, "raise", miniSource("raise", ""), WithLimits(Limits{Steps: 1 << 50, Time: time.Hour}))
	require.NoError(b, err)
	s := g.Start()
	const loops = 1000
	var perStep float64
	b.Run("instruction", func(b *testing.B) {
		code := fmt.Sprintf(`for i = 1, %d do end`, loops*1000)
		b.ResetTimer()
		for i := 0; i < b.N; i++ {
			_, err := evalIn(g, s, asSetup, code)
			require.NoError(b, err)
		}
		// A loop turn is one instruction (FORLOOP).
		perStep = float64(b.Elapsed().Nanoseconds()) / float64(b.N) / (loops * 1000)
		b.ReportMetric(perStep, "ns/step")
	})
	for _, depth := range []int{1, 16, 64, 180} {
		b.Run(fmt.Sprintf("pcall/depth=%d", depth), func(b *testing.B) {
			code := fmt.Sprintf(`local function f(d) if d > 1 then return f(d - 1) + 0 end
				for i = 1, %d do pcall(error, "x") end return 0 end
				f(%d)`, loops, depth)
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				_, err := evalIn(g, s, asSetup, code)
				require.NoError(b, err)
			}
			ns := float64(b.Elapsed().Nanoseconds()) / float64(b.N) / loops
			b.ReportMetric(ns, "ns/raise")
			if perStep > 0 {
				b.ReportMetric(ns/perStep, "steps/raise")
				b.ReportMetric(float64(luavm.RaiseSteps+luavm.RaiseFrameSteps*depthBound(depth+4)), "charged/raise")
			}
		})
	}
}

// BenchmarkRaiseNested: an error raised under N metamethod calls, each of
// which gopher-lua runs in a Go call of its own, so the panic unwinds N
// nests of Go frames to the pcall that catches it.
func BenchmarkRaiseNested(b *testing.B) {
	g, err := loadSource(b, "raise", miniSource("raise", ""), WithLimits(Limits{Steps: 1 << 50, Time: time.Hour}))
	require.NoError(b, err)
	s := g.Start()
	const loops = 1000
	for _, depth := range []int{1, 16, 64, 180} {
		for _, raise := range []bool{false, true} {
			name, last := "return", "return 0"
			if raise {
				name, last = "raise", `error("x")`
			}
			b.Run(fmt.Sprintf("%s/depth=%d", name, depth), func(b *testing.B) {
				code := fmt.Sprintf(`local t = setmetatable({}, {__index = function(t, d) if d > 1 then return t[d - 1] end %s end})
				local function f() return t[%d] end
				for i = 1, %d do pcall(f) end`, last, depth, loops)
				b.ResetTimer()
				for i := 0; i < b.N; i++ {
					_, err := evalIn(g, s, asSetup, code)
					require.NoError(b, err)
				}
				ns := float64(b.Elapsed().Nanoseconds()) / float64(b.N) / loops
				b.ReportMetric(ns, "ns/call")
			})
		}
	}
}

// pcall, xpcall and matombo.try behave as gopher-lua's own did (Lua 5.1
// but for error positions, whose levels count a library function too)
// while their errors are charged: results, error values of any
// type, positions, levels, handlers and upvalues.
func TestPcallSemantics(t *testing.T) {
	g, err := loadSource(t, "pc", miniSource("pc", ""))
	require.NoError(t, err)
	s := g.Start()
	for _, c := range []struct {
		code string
		want []any
	}{
		{`return pcall(function(a, b) return a + b, "x" end, 1, 2)`, []any{true, 3, "x"}},
		{`return pcall(error, "plain", 0)`, []any{false, "plain"}},
		{`local ok, e = pcall(function() error("where") end) return ok, e`, []any{false, "<string>:1: where"}},
		{`local function f() error("level 2", 2) end
		  local ok, e = pcall(function()
		    f() -- line 3
		  end) return e`, []any{"<string>:1: level 2"}}, // gopher-lua's level 2 is f
		{`local t = {} local ok, e = pcall(error, t) return ok, e == t`, []any{false, true}},
		{`return pcall(error)`, []any{false, "<string>:1: bad argument #1 to (anonymous) (value expected)"}},
		{`return pcall(nil)`, []any{false, "attempt to call a nil value"}},
		{`return pcall(setmetatable({}, {__call = function(self, x) return x * 2 end}), 21)`, []any{true, 42}},
		{`return pcall(pcall, error, "inner")`, []any{true, false, "<string>:1: inner"}},
		{`local ok, e = pcall(function() local x = nil; return x.y end) return ok, type(e)`, []any{false, "string"}},
		{`return xpcall(function() return 1, 2 end, print)`, []any{true, 1, 2}},
		{`return xpcall(function() error({code = 7}) end, function(e) return e.code, "dropped" end)`, []any{false, 7}},
		{`return xpcall(function() error("a", 0) end, function(e) error("handler: " .. e, 0) end)`, []any{false, "handler: a"}},
		{`return xpcall(function() error("a", 0) end, function(e) end)`, []any{false, nil}},
		// A closure made in the function that failed keeps its own value
		// (its upvalue is closed when the error unwinds the frame).
		{`local saved
		  pcall(function() local y = 10; saved = function() return y end; error("e") end)
		  local a, b, c = 7, 8, 9
		  return saved()`, []any{10}},
		{`local saved
		  xpcall(function() local y = 10; saved = function() return y end; error("e") end, function(e) return e end)
		  local a, b, c = 7, 8, 9
		  return saved()`, []any{10}},
		// A try that fails restores the state; pcall catches its error.
		{`local m = matombo
		  local ok, e = pcall(m.try, function() m.set_count("a1", 9) error("no", 0) end)
		  return ok, e, m.count("a1")`, []any{false, "no", 1}},
	} {
		got, err := evalIn(g, s, asSetup, c.code)
		require.NoError(t, err, c.code)
		var vals []any
		for _, v := range got {
			vals = append(vals, fromLua(v))
		}
		assert.Equal(t, c.want, vals, c.code)
	}
}

// Every error raised and caught is charged at least luavm.RaiseSteps steps, so
// a loop of pcall(error, "x") is stopped by the step budget after about
// Steps/luavm.RaiseSteps turns, on every machine; deeper stacks and longer
// messages cost more.
func TestPcallCharged(t *testing.T) {
	const steps = 200_000
	g, err := loadSource(t, "pc", miniSource("pc", ""), WithLimits(Limits{Steps: steps}))
	require.NoError(t, err)
	s := g.Start()
	turns := func(body string, n int) error {
		_, err := evalIn(g, s, asSetup, fmt.Sprintf(`for i = 1, %d do %s end`, n, body))
		return err
	}
	for _, c := range []struct {
		body   string
		charge int // at least, per turn
	}{
		{`pcall(error, "x")`, luavm.RaiseSteps},
		{`xpcall(error, function(e) error(e, 0) end)`, 2 * luavm.RaiseSteps},
		{`pcall(matombo.try, error, "x")`, 2 * luavm.RaiseSteps},
		{`pcall(error, string.rep("x", 64000))`, luavm.RaiseSteps + 1000},
	} {
		n := steps / c.charge
		assert.NoError(t, turns(c.body, n/2), "%s: half the turns the budget allows", c.body)
		err := turns(c.body, n+1)
		var be *BudgetError
		require.ErrorAs(t, err, &be, "%s: more turns than the budget allows", c.body)
		assert.Equal(t, BudgetSteps, be.Budget)
	}
}

// depthBound is what stackDepth returns for a stack of n levels.
func depthBound(n int) int {
	b := 1
	for b <= n {
		b *= 2
	}
	return b
}

// A call-stack overflow caught by pcall (gopher-lua raises it from its
// frame stack, not through an error) is caught like any error: pcall
// returns false and the message, a loop of them runs out of steps, and
// each is charged by the stack's depth, with no traceback built (building
// one walked the frames from the top for each frame: seconds per call
// before the steps were spent). For every call-stack size, including the
// largest allowed.
func TestPcallOfCallStackOverflow(t *testing.T) {
	for _, depth := range []int{0, 1, 50, luavm.MaxCallStack} {
		t.Run(fmt.Sprint(depth), func(t *testing.T) {
			src := replaceOnce(miniSource("overflow", `local function f(n) return f(n + 1) + 1 end`),
				`play = function(p, kind, s) m.finish(0, "done") end`,
				`play = function(p, kind, s)
    local ok, e = pcall(f, 1)
    if ok or not tostring(e):find("callstack overflow") then error("pcall gave " .. tostring(ok) .. " " .. tostring(e)) end
    while true do pcall(f, 1) end
  end`)
			g, err := loadSource(t, "overflow", src, WithLimits(Limits{CallStack: depth}))
			require.NoError(t, err)
			err = g.Start().Play("a1")
			var be *BudgetError
			require.ErrorAs(t, err, &be)
			assert.Equal(t, BudgetSteps, be.Budget, "%v", err)
		})
	}
}
