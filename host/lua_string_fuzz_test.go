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
	f.Fuzz(func(t *testing.T, fmtStr string) {
		vm, err := g.machine()
		if err != nil {
			t.Fatal(err)
		}
		defer g.release(vm)
		out, err := vm.EvalWith(&s.k, asSetup, `return string.format(FMT, 65, 'x"y', 2.5, -7)`, map[string]lua.LValue{"FMT": lua.LString(fmtStr)})
		if err != nil {
			var se *ScriptError
			var be *BudgetError
			if !errors.As(err, &se) && !errors.As(err, &be) {
				t.Fatalf("error of type %T: %v", err, err)
			}
			if !strings.Contains(fmtStr, "%!") && strings.Contains(err.Error(), "%!") {
				t.Fatalf("Go's formatter shows through: %v", err)
			}
			return
		}
		str, ok := out[0].(lua.LString)
		if !ok {
			t.Fatalf("string.format returned %s", out[0].Type())
		}
		if !strings.Contains(fmtStr, "%!") && strings.Contains(string(str), "%!") {
			t.Fatalf("Go's formatter shows through: %q gives %q", fmtStr, str)
		}
		if len(str) > g.prog.Limits.StringBytes {
			t.Fatalf("a result of %d bytes", len(str))
		}
	})
}
