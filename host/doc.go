// Package host runs board games whose rules are Lua scripts.
//
// A Library finds game sources (the shipped games embedded in the binary and
// any folders added at run time). Library.Load compiles a game's script once,
// resolves its parameters from named variants and overrides, builds its board
// and returns a Game. A Game makes States, the positions of a game, which are
// plain Go values: copying one is cheap and playing the same tokens on the
// same opening always gives the same states.
//
// Scripts run in a sandbox: they see the string, table and math libraries,
// the safe base functions and the matombo table of board primitives, and every
// call into a script runs under the budgets of Limits: a deterministic step
// budget charged for Lua instructions and for the work primitives and
// library functions do in Go, a memory budget for what the game's scripts
// hold, a time guard, a bounded call stack and data stack, and bounded
// string and table sizes. A script that breaks a rule of the sandbox fails
// with an error; it cannot crash or hang the host. A caller's context stops
// a call between two instructions (Runner.SetContext, State.ApplyContext,
// Library.LoadContext). Errors are typed (ConfigError, ScriptError,
// BudgetError, CanceledError, IllegalMoveError, ...) and keep their cause
// for errors.Is and errors.As.
//
// Importing the package lowers gopher-lua's global lua.MaxArrayIndex to
// 1<<20 (unless the program set it lower), for every Lua state of the
// program: see docs/embedding.md, "Limits".
//
// The package names no game: everything a game means lives in its script and
// its variants file. See docs/lua-api.md for the script side and
// docs/embedding.md for the Go side.
package host
