package host

import (
	"errors"
	"strings"
	"testing"

	lua "github.com/yuin/gopher-lua"
)

// FuzzStringFormat: string.format with any format never panics, never
// shows Go's formatter ("%!" where the format has none), and either fails
// with a host error or returns a string within the string limit.
func FuzzStringFormat(f *testing.F) {
	for _, s := range []string{"%d", "%5.2f|%-3s|%q", "%", "%*d", "%z", "%100d", "%------d", "%.99f", "%c%c", "%x %X %o %u %i", "%g %G %e %E", "100%%", "%s"} {
		f.Add(s)
	}
	g := fuzzGame(f)
	s := g.Start()
	vm, err := g.machine()
	if err != nil {
		f.Fatal(err)
	}
	f.Cleanup(func() { g.release(vm) })
	format := vm.L.GetField(vm.L.GetGlobal("string"), "format")
	f.Fuzz(func(t *testing.T, fmtStr string) {
		vm.bind(s)
		defer vm.bind(nil)
		err := vm.call(format, "fuzz", 1, lua.LString(fmtStr), lua.LNumber(65), lua.LString("x\"y"), lua.LNumber(2.5), lua.LNumber(-7))
		if err != nil {
			var se *ScriptError
			var be *BudgetError
			if !errors.As(err, &se) && !errors.As(err, &be) {
				t.Fatalf("error of type %T: %v", err, err)
			}
			if !strings.Contains(fmtStr, "%!") && strings.Contains(err.Error(), "%!") {
				t.Fatalf("Go's formatter shows through: %v", err)
			}
			// A failed call breaks the machine: take a fresh one.
			g.release(vm)
			if vm, err = g.machine(); err != nil {
				t.Fatal(err)
			}
			format = vm.L.GetField(vm.L.GetGlobal("string"), "format")
			return
		}
		out := vm.L.Get(-1)
		vm.L.Pop(1)
		str, ok := out.(lua.LString)
		if !ok {
			t.Fatalf("string.format returned %s", out.Type())
		}
		if !strings.Contains(fmtStr, "%!") && strings.Contains(string(str), "%!") {
			t.Fatalf("Go's formatter shows through: %q gives %q", fmtStr, str)
		}
		if len(str) > g.limits.StringBytes {
			t.Fatalf("a result of %d bytes", len(str))
		}
	})
}
