package conformance

import (
	"errors"
	"strings"
	"testing"
)

// FuzzParseScenario: a scenario file never panics the parser; errors are
// FileErrors with a position.
func FuzzParseScenario(f *testing.F) {
	f.Add([]byte(kalahOK))
	f.Add([]byte("game: kalah\nscenarios:\n  - name: x\n    rule: K\n    steps:\n      - play: [a1]\n        expect: {legal: [], over: true, notes: [x], vars: {a: 1}, sites: {a1: 3}}\n"))
	f.Add([]byte("game: [\n"))
	f.Add([]byte("---\n---\n"))
	f.Add([]byte("game: kalah\nscenarios:\n  - name: x\x00y\n"))
	f.Add([]byte("game: kalah\nscenarios:\n  - name: caf\xe9\n"))
	f.Add([]byte("game: kalah\nscenarios:\n  - name: \"x\\e[2J\\u202e\"\n    rule: K\n    play: [a1]\n"))
	f.Add([]byte("game: kalah\nscenarios:\n  - &s {name: x, rule: K, play: [a1]}\n  - *s\n"))
	f.Add([]byte("game: kalah\nscenarios: [{name: x, rule: K, play: *p}]\n---\n: [\n"))
	f.Add([]byte("game: kalah\nparams: {a: 1, b: x}\nscenarios: [{name: x, rule: K, params: {a: 2, [c]: 1}, expect: {sites: {a1: 1}, vars: {v: 1}}}]\n"))
	f.Fuzz(func(t *testing.T, src []byte) {
		_, err := Parse("f.yaml", src)
		if err != nil {
			var fe *FileError
			if !errors.As(err, &fe) {
				t.Fatalf("error of type %T: %v", err, err)
			}
			// Text YAML refuses is placed, not reported line-less.
			if fe.Pos.Line == 0 && (strings.Contains(fe.Msg, "control characters") || strings.Contains(fe.Msg, "UTF-8")) {
				t.Fatalf("a refused character without its line: %v", err)
			}
		}
	})
}
