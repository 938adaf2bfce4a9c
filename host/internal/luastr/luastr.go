// Package luastr is the sandbox's string library, with table.concat and
// table.insert: the library functions that build, scan or grow strings
// and tables, bounded so that no script can make them work or allocate
// without limit in Go, where the time budget cannot stop them.
//
// The sandbox's own versions of the library functions that build strings.
// gopher-lua's versions build their result first (string.gsub even copies
// the whole subject once per match) and string.format hands the script's
// format to Go's fmt, whose errors ("%!d(...)") leak into Lua. Each
// function here works out the size of its result before building it and
// refuses, with a string-size BudgetError, a result above
// Limits.StringBytes; string.format follows Lua 5.1's format syntax and
// raises a Lua error for anything else.
package luastr

import (
	"fmt"
	"math"
	"math/bits"
	"strconv"
	"strings"

	"github.com/matombo/matombo/host/internal/memwalk"
	lua "github.com/yuin/gopher-lua"
	"github.com/yuin/gopher-lua/pm"
)

// Limits bound what the library functions do (see host.Limits).
type Limits struct {
	StringBytes int // largest string a function may build or scan
	PatternText int // largest subject of string.find/match/gmatch/gsub
	TableItems  int // most elements table.concat joins or table.insert grows to
	DataStack   int // Lua stack slots
}

// Budget receives the budget errors of the library functions and the
// steps their work in Go costs.
type Budget interface {
	// Exceeded records that a call went over one of the budgets
	// (host.Budget names them: "string size", "pattern", "table size",
	// "data stack") and raises a Lua error in L; it does not return.
	Exceeded(L *lua.LState, budget, limit, detail string)
	// Charge spends n steps of the call's step budget, raising the
	// step-budget error in L when they are spent.
	Charge(L *lua.LState, n int)
}

// The work library functions do in Go is charged to the step budget, in
// steps of about the cost of one Lua instruction (tens of nanoseconds), so
// that a loop around an expensive call is stopped by its steps, the same on
// every machine, long before the time guard would notice it. Every
// function charges one step for the call, plus:
const (
	// BytesPerStep: bytes a function builds, copies, converts or scans
	// (string.rep, string.format, string.upper, table.concat, ...).
	BytesPerStep = 64
	// ItemsPerStep: values it pushes, table elements it walks, moves or
	// compares (string.byte, unpack, table.insert, table.sort, ...).
	ItemsPerStep = 4
	// MatchStepsPerStep: steps the pattern matcher may take in the worst
	// case (see patternWork), for string.find, match, gmatch and gsub.
	MatchStepsPerStep = 16
)

// bytesCost is the steps of a function that handles n bytes.
func bytesCost(n int) int { return 1 + n/BytesPerStep }

// itemsCost is the steps of a function that handles n values.
func itemsCost(n int) int { return 1 + n/ItemsPerStep }

// strLib holds what the string functions need: where budget errors go
// and the limits.
type strLib struct {
	b   Budget
	lim Limits
}

// tooLong raises the string-size budget error for fn, which would build a
// string of n bytes.
func (s strLib) tooLong(L *lua.LState, fn string, n float64) {
	s.b.Exceeded(L, "string size", fmt.Sprintf("%d bytes", s.lim.StringBytes),
		fmt.Sprintf("%s would build a string of %.0f bytes", fn, n))
}

// checkSize raises the budget error when a result of n bytes is too long.
func (s strLib) checkSize(L *lua.LState, fn string, n float64) {
	if n > float64(s.lim.StringBytes) {
		s.tooLong(L, fn, n)
	}
}

// rep is string.rep(s, n): s repeated n times.
func (s strLib) rep(L *lua.LState) int {
	str := L.CheckString(1)
	n := float64(L.CheckNumber(2))
	if math.IsNaN(n) || n < 1 || str == "" {
		L.Push(lua.LString(""))
		return 1
	}
	s.checkSize(L, "string.rep", float64(len(str))*math.Floor(n))
	s.b.Charge(L, bytesCost(len(str)*int(n)))
	L.Push(lua.LString(strings.Repeat(str, int(n))))
	return 1
}

// char is string.char(...): the bytes with the given codes.
func (s strLib) char(L *lua.LState) int {
	top := L.GetTop()
	s.b.Charge(L, itemsCost(top))
	b := make([]byte, top)
	for i := 1; i <= top; i++ {
		c := float64(L.CheckNumber(i))
		if c < 0 || c > 255 || c != math.Trunc(c) {
			L.ArgError(i, fmt.Sprintf("invalid value %v (a byte from 0 to 255 expected)", lua.LNumber(c)))
		}
		b[i-1] = byte(c)
	}
	L.Push(lua.LString(b))
	return 1
}

// mapBytes makes string.upper, string.lower and string.reverse: their
// result is as long as their argument.
func (s strLib) mapBytes(name string, f func(string) string) lua.LGFunction {
	return func(L *lua.LState) int {
		str := L.CheckString(1)
		s.checkSize(L, name, float64(len(str)))
		s.b.Charge(L, bytesCost(len(str)))
		L.Push(lua.LString(f(str)))
		return 1
	}
}

func reverseBytes(str string) string {
	b := make([]byte, len(str))
	for i := range b {
		b[i] = str[len(str)-1-i]
	}
	return string(b)
}

// lowerASCII and upperASCII change the case of ASCII letters only, byte by
// byte as Lua does in the C locale (Go's strings.ToUpper works on UTF-8 and
// may change a string's length).
func lowerASCII(str string) string {
	b := []byte(str)
	for i, c := range b {
		if 'A' <= c && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return string(b)
}

func upperASCII(str string) string {
	b := []byte(str)
	for i, c := range b {
		if 'a' <= c && c <= 'z' {
			b[i] = c - 'a' + 'A'
		}
	}
	return string(b)
}

// Install replaces the functions of the string library str that build
// strings with the sandbox's own and guards the pattern functions, and
// replaces table.concat and table.insert of the table library tbl. Budget
// errors go to b.
func Install(L *lua.LState, str, tbl *lua.LTable, lim Limits, b Budget) {
	wrapString(L, str, lim, b)
	wrapTable(L, tbl, lim, b)
}

// wrapString replaces the string functions that build strings with the
// sandbox's own and guards the pattern functions.
func wrapString(L *lua.LState, str *lua.LTable, lim Limits, b Budget) {
	sl := strLib{b: b, lim: lim}
	textLimit := fmt.Sprintf("%d bytes", lim.PatternText)
	// checkPattern refuses a subject, pattern or match the matcher, which
	// runs in Go, could take too long over.
	checkPattern := func(L *lua.LState, name string) {
		s := L.CheckString(1)
		p := L.CheckString(2)
		if len(s) > lim.PatternText {
			b.Exceeded(L, "string size", textLimit, fmt.Sprintf("string.%s over a string of %d bytes", name, len(s)))
		}
		if len(p) > 1024 {
			b.Exceeded(L, "string size", "1024 bytes", fmt.Sprintf("string.%s with a pattern of %d bytes", name, len(p)))
		}
		plain := name == "find" && L.GetTop() >= 4 && lua.LVAsBool(L.Get(4))
		work := float64(len(s))
		if !plain {
			if work = patternWork(len(s), p); work > maxPatternWork {
				b.Exceeded(L, "pattern", fmt.Sprintf("%.0e steps", float64(maxPatternWork)),
					fmt.Sprintf("string.%s with %s over %d bytes could take %.1e steps (the matcher backtracks in Go, where the time budget cannot stop it)", name, shapeOf(p), len(s), work))
			}
		}
		// The matcher's worst case is charged: what it really does
		// cannot be counted from outside, and a loop of matches that each
		// take milliseconds must run out of steps.
		b.Charge(L, bytesCost(len(s))+int(work)/MatchStepsPerStep)
	}
	for _, name := range []string{"find", "match", "gmatch"} {
		orig := str.RawGetString(name).(*lua.LFunction).GFunction
		str.RawSetString(name, L.NewFunction(func(L *lua.LState) int {
			checkPattern(L, name)
			return orig(L)
		}))
	}
	str.RawSetString("gsub", L.NewFunction(func(L *lua.LState) int {
		checkPattern(L, "gsub")
		return sl.gsub(L)
	}))
	str.RawSetString("gfind", str.RawGetString("gmatch"))
	// string.byte pushes a value per byte: a count the data stack cannot
	// hold is refused before the pushes (which copy the growing stack).
	strByte := str.RawGetString("byte").(*lua.LFunction).GFunction
	str.RawSetString("byte", L.NewFunction(func(L *lua.LState) int {
		s := L.CheckString(1)
		i := float64(L.OptNumber(2, 1))
		j := i
		if L.Get(3) != lua.LNil {
			j = float64(L.CheckNumber(3))
		}
		n := float64(len(s))
		if i < 0 {
			i = max(n+i+1, 1)
		}
		if j < 0 {
			j = n + j + 1
		}
		count := min(j, n) - max(i, 1) + 1
		if count > float64(lim.DataStack)/2 {
			b.Exceeded(L, "data stack", fmt.Sprintf("%d values", lim.DataStack), fmt.Sprintf("string.byte of %.0f bytes", count))
		}
		b.Charge(L, itemsCost(int(max(count, 0))))
		return strByte(L)
	}))
	str.RawSetString("rep", L.NewFunction(sl.rep))
	str.RawSetString("format", L.NewFunction(sl.format))
	str.RawSetString("char", L.NewFunction(sl.char))
	str.RawSetString("upper", L.NewFunction(sl.mapBytes("string.upper", upperASCII)))
	str.RawSetString("lower", L.NewFunction(sl.mapBytes("string.lower", lowerASCII)))
	str.RawSetString("reverse", L.NewFunction(sl.mapBytes("string.reverse", reverseBytes)))
}

func wrapTable(L *lua.LState, tbl *lua.LTable, lim Limits, b Budget) {
	itemLimit := fmt.Sprintf("%d", lim.TableItems)
	// length is t's length (#t), charging for the walk it takes: the
	// array part is searched from its end for the last value, over any
	// nils after it.
	length := func(L *lua.LState, t *lua.LTable) int {
		n := t.Len()
		b.Charge(L, itemsCost(memwalk.ArrayLen(t)-n))
		return n
	}
	insert := tbl.RawGetString("insert").(*lua.LFunction).GFunction
	tbl.RawSetString("insert", L.NewFunction(func(L *lua.LState) int {
		t := L.CheckTable(1)
		n := length(L, t)
		if L.GetTop() == 3 {
			pos := L.CheckInt(2)
			if pos < 1 || pos > n+1 {
				L.ArgError(2, fmt.Sprintf("position %d out of bounds (the table has %d elements)", pos, n))
			}
			b.Charge(L, (n+1-pos)/ItemsPerStep) // the elements moved up
		}
		if n >= lim.TableItems {
			b.Exceeded(L, "table size", itemLimit, "table.insert into a table of that many elements")
		}
		return insert(L)
	}))
	remove := tbl.RawGetString("remove").(*lua.LFunction).GFunction
	tbl.RawSetString("remove", L.NewFunction(func(L *lua.LState) int {
		t := L.CheckTable(1)
		pos := memwalk.ArrayLen(t)
		if L.GetTop() >= 2 {
			pos = min(max(L.CheckInt(2), 1), pos)
		}
		b.Charge(L, itemsCost(memwalk.ArrayLen(t)-pos)) // the elements moved down
		return remove(L)
	}))
	for _, name := range []string{"getn", "maxn"} {
		orig := tbl.RawGetString(name).(*lua.LFunction).GFunction
		tbl.RawSetString(name, L.NewFunction(func(L *lua.LState) int {
			b.Charge(L, itemsCost(memwalk.ArrayLen(L.CheckTable(1))))
			return orig(L)
		}))
	}
	sort := tbl.RawGetString("sort").(*lua.LFunction).GFunction
	tbl.RawSetString("sort", L.NewFunction(func(L *lua.LState) int {
		// The whole array part is sorted: n log n comparisons and swaps
		// (a comparator in Lua costs its own instructions besides).
		n := memwalk.ArrayLen(L.CheckTable(1))
		b.Charge(L, itemsCost(n*bits.Len(uint(n))))
		return sort(L)
	}))
	tbl.RawSetString("concat", L.NewFunction(strLib{b: b, lim: lim}.concat))
}

// ---- string.gsub ----

// gsubTemplate is a replacement string of string.gsub, parsed: literal
// text and references to captures (%0 is the whole match).
type gsubTemplate struct {
	parts   []gsubPart
	literal int     // bytes of literal text
	refs    [10]int // how many times each capture is referred to
}

type gsubPart struct {
	text    string
	capture int // -1 for literal text
}

func parseGsubTemplate(repl string) gsubTemplate {
	var t gsubTemplate
	var lit strings.Builder
	flush := func() {
		if lit.Len() > 0 {
			t.parts = append(t.parts, gsubPart{text: lit.String(), capture: -1})
			t.literal += lit.Len()
			lit.Reset()
		}
	}
	for i := 0; i < len(repl); i++ {
		c := repl[i]
		if c != '%' || i+1 == len(repl) {
			lit.WriteByte(c)
			continue
		}
		i++
		c = repl[i]
		if c < '0' || c > '9' {
			// Lua 5.1: "%" followed by another character stands for
			// that character.
			lit.WriteByte(c)
			continue
		}
		flush()
		t.parts = append(t.parts, gsubPart{capture: int(c - '0')})
		t.refs[c-'0']++
	}
	flush()
	return t
}

// countGsubParts is len(parseGsubTemplate(repl).parts), without
// building them.
func countGsubParts(repl string) int {
	n, lit := 0, false
	for i := 0; i < len(repl); i++ {
		if repl[i] == '%' && i+1 < len(repl) {
			c := repl[i+1]
			i++
			if c >= '0' && c <= '9' {
				if lit {
					n++
				}
				n++
				lit = false
				continue
			}
		}
		lit = true
	}
	if lit {
		n++
	}
	return n
}

// captures returns the number of captures of a match (not counting the
// whole match).
func captures(m *pm.MatchData) int { return m.CaptureLength()/2 - 1 }

// captureValue returns capture k of a match (0: the whole match, or the
// first capture when k is 1 and there are none), as Lua passes it.
func captureValue(L *lua.LState, m *pm.MatchData, str string, k int) lua.LValue {
	if k == 0 || k == 1 && captures(m) == 0 {
		return lua.LString(str[m.Capture(0):m.Capture(1)])
	}
	if k > captures(m) {
		L.RaiseError("invalid capture index %%%d (the pattern has %d captures)", k, captures(m))
	}
	if m.IsPosCapture(2 * k) {
		return lua.LNumber(m.Capture(2 * k))
	}
	return lua.LString(str[m.Capture(2*k):m.Capture(2*k+1)])
}

func captureLen(L *lua.LState, m *pm.MatchData, str string, k int) int {
	if k == 0 || k == 1 && captures(m) == 0 {
		return m.Capture(1) - m.Capture(0)
	}
	if k > captures(m) {
		L.RaiseError("invalid capture index %%%d (the pattern has %d captures)", k, captures(m))
	}
	if m.IsPosCapture(2 * k) {
		return len(strconv.Itoa(m.Capture(2 * k)))
	}
	return m.Capture(2*k+1) - m.Capture(2*k)
}

// gsubWork bounds the steps of expanding a replacement template: each
// part of the template is visited once per match, even when it expands to
// nothing, and that loop runs in Go where the time budget cannot stop it.
const gsubWork = 1 << 24

// gsub is string.gsub(s, pattern, repl [, n]). The subject and pattern
// were checked by the pattern guard (see wrapString).
func (s strLib) gsub(L *lua.LState) int {
	str := L.CheckString(1)
	pat := L.CheckString(2)
	repl := L.Get(3)
	switch repl.(type) {
	case lua.LString, lua.LNumber, *lua.LTable, *lua.LFunction:
	default:
		L.ArgError(3, "string, number, table or function expected, got "+Describe(repl))
	}
	limit := -1
	if L.Get(4) != lua.LNil {
		n := float64(L.CheckNumber(4))
		switch {
		case math.IsNaN(n) || n < 1:
			limit = 0
		case n < float64(len(str)+1):
			limit = int(n)
		}
	}
	var matches []*pm.MatchData
	if limit != 0 {
		var err error
		matches, err = pm.Find(pat, []byte(str), 0, limit)
		if err != nil {
			L.RaiseError("string.gsub: malformed pattern %q: %s", pat, err.Error())
		}
	}
	if len(matches) == 0 {
		L.Push(lua.LString(str))
		L.Push(lua.LNumber(0))
		return 2
	}
	const fn = "string.gsub"
	out := make([]byte, 0, min(len(str), s.lim.StringBytes))
	add := func(piece string) {
		if len(out)+len(piece) > s.lim.StringBytes {
			s.tooLong(L, fn, float64(len(out))+float64(len(piece)))
		}
		out = append(out, piece...)
	}
	prev := 0
	var tmpl gsubTemplate
	if _, ok := repl.(*lua.LTable); !ok {
		if _, ok := repl.(*lua.LFunction); !ok {
			r := lua.LVAsString(repl)
			work := float64(len(matches)) * float64(countGsubParts(r))
			if work > gsubWork {
				s.b.Exceeded(L, "pattern", fmt.Sprintf("%d steps", gsubWork),
					fmt.Sprintf("string.gsub would expand a replacement of %d parts for each of %d matches", countGsubParts(r), len(matches)))
			}
			s.b.Charge(L, itemsCost(int(work)))
			tmpl = parseGsubTemplate(r)
		}
	}
	for _, m := range matches {
		start, end := m.Capture(0), m.Capture(1)
		add(str[prev:start])
		prev = end
		whole := str[start:end]
		switch r := repl.(type) {
		case *lua.LTable, *lua.LFunction:
			key := captureValue(L, m, str, 1)
			var v lua.LValue
			if t, ok := r.(*lua.LTable); ok {
				v = L.GetTable(t, key)
			} else {
				L.Push(r)
				n := 0
				if captures(m) == 0 {
					L.Push(key)
					n = 1
				} else {
					for k := 1; k <= captures(m); k++ {
						L.Push(captureValue(L, m, str, k))
					}
					n = captures(m)
				}
				L.Call(n, 1)
				v = L.Get(-1)
				L.Pop(1)
			}
			switch x := v.(type) {
			case lua.LString:
				add(string(x))
			case lua.LNumber:
				add(x.String())
			default:
				if lua.LVIsFalse(v) {
					add(whole)
				} else {
					L.RaiseError("string.gsub: invalid replacement value (a %s): the replacement must give a string, a number, false or nil", v.Type())
				}
			}
		default:
			size := float64(tmpl.literal)
			for k, n := range tmpl.refs {
				if n > 0 {
					size += float64(n) * float64(captureLen(L, m, str, k))
				}
			}
			if float64(len(out))+size > float64(s.lim.StringBytes) {
				s.tooLong(L, fn, float64(len(out))+size)
			}
			for _, p := range tmpl.parts {
				if p.capture < 0 {
					out = append(out, p.text...)
				} else {
					out = append(out, lua.LVAsString(captureValue(L, m, str, p.capture))...)
				}
			}
		}
	}
	add(str[prev:])
	s.b.Charge(L, bytesCost(len(out))+itemsCost(len(matches)))
	L.Push(lua.LString(out))
	L.Push(lua.LNumber(len(matches)))
	return 2
}

// ---- string.format ----

// formatSpec is one conversion of a format: %[flags][width][.precision]conv.
type formatSpec struct {
	flags   string
	width   int
	prec    int // -1: none
	conv    byte
	literal string // the text before the conversion
}

const formatConvs = "cdiouxXeEfgGqs"

// parseFormat splits a Lua 5.1 format into conversions, raising Lua 5.1's
// errors for a format it does not accept. The text after the last
// conversion is returned separately.
func parseFormat(L *lua.LState, f string) ([]formatSpec, string) {
	var specs []formatSpec
	var lit strings.Builder
	for i := 0; i < len(f); i++ {
		c := f[i]
		if c != '%' {
			lit.WriteByte(c)
			continue
		}
		i++
		if i == len(f) {
			L.RaiseError("invalid format: %q ends with a lone %% (write %%%% for a percent sign)", f)
		}
		if f[i] == '%' {
			lit.WriteByte('%')
			continue
		}
		sp := formatSpec{prec: -1}
		j := i
		for j < len(f) && strings.IndexByte("-+ #0", f[j]) >= 0 {
			j++
		}
		if j-i > 5 {
			L.RaiseError("invalid format (repeated flags) in %q", f)
		}
		sp.flags = f[i:j]
		digits := func() int {
			n, k := 0, 0
			for j < len(f) && f[j] >= '0' && f[j] <= '9' {
				if k == 2 {
					L.RaiseError("invalid format (width or precision too long: at most 2 digits) in %q", f)
				}
				n = n*10 + int(f[j]-'0')
				j++
				k++
			}
			return n
		}
		sp.width = digits()
		if j < len(f) && f[j] == '.' {
			j++
			sp.prec = digits()
		}
		if j == len(f) {
			L.RaiseError("invalid format: %q ends inside a conversion", f)
		}
		sp.conv = f[j]
		if strings.IndexByte(formatConvs, sp.conv) < 0 {
			spec := ""
			for k := i - 1; k <= j; k++ {
				spec += printableByte(f[k])
			}
			L.RaiseError("invalid option '%s' to 'format' (known: %%c %%d %%i %%o %%u %%x %%X %%e %%E %%f %%g %%G %%q %%s %%%%)", spec)
		}
		sp.literal = lit.String()
		lit.Reset()
		specs = append(specs, sp)
		i = j
	}
	return specs, lit.String()
}

// printableByte shows a byte of a format in an error message.
func printableByte(c byte) string {
	if c >= 0x20 && c < 0x7f {
		return string(c)
	}
	return fmt.Sprintf("\\x%02x", c)
}

// format is string.format(f, ...), with Lua 5.1's syntax.
func (s strLib) format(L *lua.LState) int {
	f := L.CheckString(1)
	s.checkSize(L, "string.format", float64(len(f)))
	specs, tail := parseFormat(L, f)
	// First check every argument and add up the longest result.
	size := float64(len(tail))
	for k, sp := range specs {
		arg := k + 2
		if arg > L.GetTop() {
			L.ArgError(arg, fmt.Sprintf("no value for %%%c", sp.conv))
		}
		size += float64(len(sp.literal) + sp.width + max(sp.prec, 0))
		switch sp.conv {
		case 'c':
			c := float64(L.CheckNumber(arg))
			if c < 0 || c > 255 || c != math.Trunc(c) {
				L.ArgError(arg, fmt.Sprintf("invalid value %v for %%c (a byte from 0 to 255 expected)", lua.LNumber(c)))
			}
			size++
		case 'd', 'i', 'o', 'u', 'x', 'X':
			formatInt(L, arg)
			size += 24
		case 'e', 'E', 'f', 'g', 'G':
			L.CheckNumber(arg)
			size += 320
		case 's':
			size += float64(len(formatString(L, arg)))
		case 'q':
			size += float64(quotedLen(formatString(L, arg)))
		}
	}
	s.checkSize(L, "string.format", size)
	s.b.Charge(L, bytesCost(int(size))+len(specs)/ItemsPerStep)
	var b strings.Builder
	b.Grow(int(size))
	for k, sp := range specs {
		b.WriteString(sp.literal)
		arg := k + 2
		goFmt := "%" + sp.flags
		if sp.width > 0 {
			goFmt += strconv.Itoa(sp.width)
		}
		if sp.prec >= 0 {
			goFmt += "." + strconv.Itoa(sp.prec)
		}
		switch sp.conv {
		case 'c':
			writePadded(&b, string([]byte{byte(L.CheckNumber(arg))}), sp)
		case 'd', 'i':
			fmt.Fprintf(&b, goFmt+"d", formatInt(L, arg))
		case 'u':
			fmt.Fprintf(&b, goFmt+"d", uint64(formatInt(L, arg)))
		case 'o', 'x', 'X':
			fmt.Fprintf(&b, goFmt+string(sp.conv), uint64(formatInt(L, arg)))
		case 'e', 'E', 'f', 'g', 'G':
			v := float64(L.CheckNumber(arg))
			switch {
			case math.IsNaN(v):
				writePadded(&b, "nan", sp)
			case math.IsInf(v, 0):
				inf := "inf"
				if v < 0 {
					inf = "-inf"
				} else if strings.Contains(sp.flags, "+") {
					inf = "+inf"
				}
				writePadded(&b, inf, sp)
			default:
				if sp.prec < 0 && (sp.conv == 'g' || sp.conv == 'G') {
					goFmt += ".6" // C's default precision; Go's is "as many digits as needed"
				}
				fmt.Fprintf(&b, goFmt+string(sp.conv), v)
			}
		case 's':
			str := formatString(L, arg)
			if sp.prec >= 0 && len(str) > sp.prec {
				str = str[:sp.prec]
			}
			writePadded(&b, str, sp)
		case 'q':
			writeQuoted(&b, formatString(L, arg))
		}
	}
	b.WriteString(tail)
	L.Push(lua.LString(b.String()))
	return 1
}

// formatInt reads the argument of an integer conversion.
func formatInt(L *lua.LState, arg int) int64 {
	v := float64(L.CheckNumber(arg))
	if math.IsNaN(v) || math.IsInf(v, 0) || math.Abs(v) >= 1<<63 {
		L.ArgError(arg, fmt.Sprintf("number %v has no integer representation", lua.LNumber(v)))
	}
	return int64(v)
}

// formatString reads the argument of %s or %q: a string or a number, as in
// Lua 5.1 (use tostring for other values).
func formatString(L *lua.LState, arg int) string {
	switch v := L.Get(arg).(type) {
	case lua.LString:
		return string(v)
	case lua.LNumber:
		return v.String()
	default:
		L.ArgError(arg, "string expected, got "+Describe(v)+" (convert it with tostring)")
		return ""
	}
}

// writePadded writes str padded with spaces to the spec's width.
func writePadded(b *strings.Builder, str string, sp formatSpec) {
	pad := sp.width - len(str)
	left := strings.Contains(sp.flags, "-")
	if pad > 0 && !left {
		b.WriteString(strings.Repeat(" ", pad))
	}
	b.WriteString(str)
	if pad > 0 && left {
		b.WriteString(strings.Repeat(" ", pad))
	}
}

// quotedLen is the length of %q of str.
func quotedLen(str string) int {
	n := len(str) + 2
	for i := 0; i < len(str); i++ {
		switch str[i] {
		case '"', '\\', '\n', '\r':
			n++
		case 0:
			n += 3
		}
	}
	return n
}

// writeQuoted writes str as Lua 5.1's %q does: between double quotes, with
// quotes, backslashes, newlines, carriage returns and zero bytes escaped.
func writeQuoted(b *strings.Builder, str string) {
	b.WriteByte('"')
	for i := 0; i < len(str); i++ {
		switch c := str[i]; c {
		case '"', '\\', '\n':
			b.WriteByte('\\')
			b.WriteByte(c)
		case '\r':
			b.WriteString(`\r`)
		case 0:
			b.WriteString(`\000`)
		default:
			b.WriteByte(c)
		}
	}
	b.WriteByte('"')
}

// ---- table.concat ----

// concat is table.concat(t [, sep [, i [, j]]]).
func (s strLib) concat(L *lua.LState) int {
	t := L.CheckTable(1)
	sep := L.OptString(2, "")
	fi := float64(L.OptNumber(3, 1))
	var fj float64
	if L.Get(4) == lua.LNil {
		fj = float64(t.Len())
	} else {
		fj = float64(L.CheckNumber(4))
	}
	if math.IsNaN(fi) || math.IsNaN(fj) || fi > fj {
		L.Push(lua.LString(""))
		return 1
	}
	if math.Abs(fi) > 1<<53 || math.Abs(fj) > 1<<53 {
		L.RaiseError("table.concat: index %v to %v is out of range", lua.LNumber(fi), lua.LNumber(fj))
	}
	if n := fj - fi + 1; n > float64(s.lim.TableItems) {
		s.b.Exceeded(L, "table size", fmt.Sprintf("%d", s.lim.TableItems), fmt.Sprintf("table.concat of %.0f elements", n))
	}
	i, j := int(fi), int(fj)
	s.b.Charge(L, itemsCost(j-i+1))
	size := 0
	for k := i; k <= j; k++ {
		switch v := t.RawGetInt(k).(type) {
		case lua.LString:
			size += len(v)
		case lua.LNumber:
			size += len(v.String())
		default:
			L.RaiseError("table.concat: invalid value (%s) at index %d: only strings and numbers can be joined", Describe(v), k)
		}
		if k < j {
			size += len(sep)
		}
		if size > s.lim.StringBytes {
			s.tooLong(L, "table.concat", float64(size))
		}
	}
	s.b.Charge(L, size/BytesPerStep)
	var b strings.Builder
	b.Grow(size)
	for k := i; k <= j; k++ {
		b.WriteString(lua.LVAsString(t.RawGetInt(k)))
		if k < j {
			b.WriteString(sep)
		}
	}
	L.Push(lua.LString(b.String()))
	return 1
}

// maxPatternWork bounds the worst-case steps of one pattern match. Lua
// patterns backtrack, and gopher-lua's matcher runs in Go where the time
// budget cannot interrupt it (about 50 ns a step): see patternWork.
const maxPatternWork = 4e6

// patternShape is what makes matching a pattern costly: its repetition
// items (*, + and -, each of which may take 0 to n bytes), its optional
// items (?, each tried with and without its byte) and its items that
// scan the subject (%b balances, %1 to %9 back-references), besides its
// length.
type patternShape struct {
	loops, optionals, scans int
}

func (sh patternShape) String() string {
	return fmt.Sprintf("%d repetition items, %d optional items and %d %%b or back-reference items", sh.loops, sh.optionals, sh.scans)
}

// patternWork is the worst-case number of steps of matching pattern p
// over n bytes, as gopher-lua's matcher (package pm) runs it: from each
// start (every byte, or the first only for a pattern anchored with ^) it
// may follow each way the repetition items can split the subject ((n+1)
// per item) and each choice of the optional items (2 per item), and each
// way costs up to the pattern's length in steps (an item's character set
// is tested class by class) plus a scan of the subject for each %b or
// back-reference. A pattern of a thousand characters, "%b()" over a
// string of open parentheses, or forty "a?" before a "b" are costly
// without any repetition item: the last takes 2^40 steps per start.
func patternWork(n int, p string) float64 {
	sh := shapeOf(p)
	starts := float64(n + 1)
	if strings.HasPrefix(p, "^") {
		starts = 1
	}
	ways := math.Pow(float64(n+1), float64(sh.loops)) * math.Pow(2, float64(sh.optionals))
	return starts * ways * (float64(len(p)) + float64(sh.scans)*float64(n))
}

// shapeOf reads a Lua pattern's items as gopher-lua's parser (package pm)
// does: a quantifier after a single-character item (a character, a class,
// a set or .) repeats it, elsewhere it is a plain character.
func shapeOf(p string) patternShape {
	var sh patternShape
	single := false // the previous item is a single-character item
	for i := 0; i < len(p); i++ {
		switch c := p[i]; c {
		case '%':
			i++
			switch {
			case i < len(p) && p[i] >= '1' && p[i] <= '9':
				sh.scans++
				single = false
			case i < len(p) && p[i] == 'b':
				sh.scans++
				i += 2 // the two delimiters
				single = false
			default:
				single = true
			}
		case '[':
			i++
			if i < len(p) && p[i] == '^' {
				i++
			}
			if i < len(p) && p[i] == ']' {
				i++
			}
			for i < len(p) && p[i] != ']' {
				if p[i] == '%' {
					i++
				}
				i++
			}
			single = true
		case '*', '+', '-', '?':
			if !single {
				single = true // a plain character
				continue
			}
			if c == '?' {
				sh.optionals++
			} else {
				sh.loops++
			}
			single = false
		case '(', ')':
			single = false
		case '^':
			single = i > 0
		default:
			single = true
		}
	}
	return sh
}

// Describe names a value for an error message: its type, and its value
// when it is a short string or a number. It calls no metamethods.
func Describe(v lua.LValue) string {
	switch x := v.(type) {
	case lua.LString:
		if len(x) > 40 {
			x = x[:40] + "..."
		}
		return fmt.Sprintf("string %q", string(x))
	case lua.LNumber:
		return "number " + x.String()
	case *lua.LNilType:
		return "nil"
	default:
		return v.Type().String()
	}
}
