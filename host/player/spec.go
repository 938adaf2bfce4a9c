package player

import (
	"fmt"
	"slices"
	"strings"
)

// Spec is a parsed player specification such as "mcts:time=1s,seed=3": a
// player name and its options in the order given.
type Spec struct {
	Name    string
	Options []Option
}

// Option is one key=value option of a spec.
type Option struct {
	Key, Value string
}

// String writes the spec back in its text form.
func (s Spec) String() string {
	if len(s.Options) == 0 {
		return s.Name
	}
	parts := make([]string, len(s.Options))
	for i, o := range s.Options {
		parts[i] = o.Key + "=" + o.Value
	}
	return s.Name + ":" + strings.Join(parts, ",")
}

// SpecError is a spec that cannot be used: bad syntax, an unknown player
// name, an unknown option or a bad value. Allowed lists what would have
// been accepted in its place.
type SpecError struct {
	Spec    string   // the spec as given
	Problem string   // what is wrong
	Allowed []string // the valid names or options, when that is the problem
}

func (e *SpecError) Error() string {
	msg := fmt.Sprintf("player %q: %s", e.Spec, e.Problem)
	if len(e.Allowed) > 0 {
		msg += " (valid: " + strings.Join(e.Allowed, ", ") + ")"
	}
	return msg
}

// ParseSpec splits a spec into its name and options. It checks the syntax
// only: "name" or "name:key=value,key=value" with no empty parts and no
// repeated key. New checks the names and values.
func ParseSpec(text string) (Spec, error) {
	bad := func(problem string) (Spec, error) {
		return Spec{}, &SpecError{Spec: text, Problem: problem}
	}
	name, rest, hasOpts := strings.Cut(text, ":")
	name = strings.TrimSpace(name)
	if name == "" {
		return bad("no player name before the options; want e.g. mcts:time=1s")
	}
	if !validWord(name) {
		return bad(fmt.Sprintf("player name %q has characters other than letters, digits, - and _", name))
	}
	sp := Spec{Name: name}
	if !hasOpts {
		return sp, nil
	}
	if strings.TrimSpace(rest) == "" {
		return bad("nothing after the colon; want options key=value separated by commas")
	}
	for _, part := range strings.Split(rest, ",") {
		k, v, ok := strings.Cut(part, "=")
		k, v = strings.TrimSpace(k), strings.TrimSpace(v)
		switch {
		case !ok:
			return bad(fmt.Sprintf("option %q is not key=value", strings.TrimSpace(part)))
		case k == "" || !validWord(k):
			return bad(fmt.Sprintf("option %q has no valid key", strings.TrimSpace(part)))
		case v == "":
			return bad(fmt.Sprintf("option %s has no value", k))
		case strings.ContainsAny(v, "=:"):
			return bad(fmt.Sprintf("option %s has a value %q with = or :", k, v))
		}
		if slices.ContainsFunc(sp.Options, func(o Option) bool { return o.Key == k }) {
			return bad(fmt.Sprintf("option %s is given twice", k))
		}
		sp.Options = append(sp.Options, Option{Key: k, Value: v})
	}
	return sp, nil
}

// validWord reports whether w is a non-empty word of ASCII letters, digits,
// '-' and '_'.
func validWord(w string) bool {
	if w == "" {
		return false
	}
	for _, r := range w {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_') {
			return false
		}
	}
	return true
}
