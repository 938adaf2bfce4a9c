package host

import "github.com/matombo/matombo/host/luavm"

// Limits bound what one call into a script may use (see luavm.Limits).
// The zero value of a field means its default.
type Limits = luavm.Limits

// DefaultSteps is the default step budget of one call (see
// luavm.DefaultSteps).
const DefaultSteps = luavm.DefaultSteps
