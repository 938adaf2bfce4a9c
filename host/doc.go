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
// call into a script runs under a time budget, a bounded call stack and data
// stack, and bounded string and table sizes. A script that breaks a rule of
// the sandbox fails with an error; it cannot crash or hang the host.
//
// The package names no game: everything a game means lives in its script and
// its variants file. See docs/lua-api.md for the script side and
// docs/embedding.md for the Go side.
package host
