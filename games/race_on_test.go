//go:build race

package games_test

// raceEnabled reports whether the tests run under the race detector, which
// makes the Lua VM about ten times slower: the long differential tests
// play fewer games then.
const raceEnabled = true
