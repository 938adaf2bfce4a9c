package kernel

// Hooks calls the script functions that rule parts name in their slots:
// a rule point an extending script replaced with a Lua function, or a
// script's own function given to a part. The Lua machine implements it;
// rule parts know a hook only by its number.
type Hooks interface {
	// Call calls hook id with the arguments c.Args[:nargs] and writes
	// its first nret results to c.Out[:nret].
	Call(c *Ctx, id, nargs, nret int) error
}

// The most arguments and results of a hook call.
const (
	MaxHookArgs = 2 + MaxMoveSites
	MaxHookOut  = 4
)

// ValueKind says what a Value holds.
type ValueKind uint8

// The kinds of hook values.
const (
	NilValue  ValueKind = iota // nothing (Lua's nil)
	IntKind                    // a whole number, N
	SiteKind                   // a site, N its index (from 0)
	BoolKind                   // a truth value, N 0 or 1
	TextKind                   // a text, S
	OtherKind                  // any other value (a table, a function...), described by S
)

// Value is an argument or a result of a hook.
type Value struct {
	Kind ValueKind
	N    int
	S    string
}

// IntValue, SiteValue, BoolValue and TextValue make hook arguments.
func IntValue(n int) Value { return Value{Kind: IntKind, N: n} }

// SiteValue is site i, or nil when i < 0.
func SiteValue(i int) Value {
	if i < 0 {
		return Value{}
	}
	return Value{Kind: SiteKind, N: i}
}

// BoolValue is a truth value.
func BoolValue(b bool) Value {
	if b {
		return Value{Kind: BoolKind, N: 1}
	}
	return Value{Kind: BoolKind}
}

// TextValue is a text.
func TextValue(s string) Value { return Value{Kind: TextKind, S: s} }

// Truthy is the value as Lua's conditions read it: false only for nil and
// false.
func (v Value) Truthy() bool { return v.Kind != NilValue && !(v.Kind == BoolKind && v.N == 0) }
