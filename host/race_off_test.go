//go:build !race

package host

// raceEnabled reports whether the tests run under the race detector, which
// makes big memory copies (and so some hostile cases) ten times slower.
const raceEnabled = false
