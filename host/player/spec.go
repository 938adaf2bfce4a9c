package player

import (
	"fmt"
	"slices"
	"strings"
)

// Spec is a parsed player specification such as "mcts:time=1s,seed=3": a
// player name and its settings in the order given.
type Spec struct {
	Name     string
	Settings []Setting
}

// Setting is one key=value part of a spec, such as time=1s.
type Setting struct {
	Key, Value string
}

// String writes the spec back in its text form.
func (s Spec) String() string {
	if len(s.Settings) == 0 {
		return s.Name
	}
	parts := make([]string, len(s.Settings))
	for i, o := range s.Settings {
		parts[i] = o.Key + "=" + o.Value
	}
	return s.Name + ":" + strings.Join(parts, ",")
}

// Get returns the value of a setting and whether the spec has it.
func (s Spec) Get(key string) (string, bool) {
	for _, o := range s.Settings {
		if o.Key == key {
			return o.Value, true
		}
	}
	return "", false
}

// With returns a copy of the spec with the setting key=value, replacing
// the spec's own value of key if it has one.
func (s Spec) With(key, value string) Spec {
	out := Spec{Name: s.Name, Settings: slices.Clone(s.Settings)}
	for i, o := range out.Settings {
		if o.Key == key {
			out.Settings[i].Value = value
			return out
		}
	}
	out.Settings = append(out.Settings, Setting{Key: key, Value: value})
	return out
}

// SpecError is a spec that cannot be used: bad syntax, an unknown player
// name, an unknown option or a bad value. Allowed lists what would have
// been accepted in its place.
type SpecError struct {
	Spec    string   // the spec as given
	Problem string   // what is wrong
	Allowed []string // the valid names or options, when that is the problem
	Err     error    // the cause, when a constructor refused the settings
}

// Unwrap returns the cause.
func (e *SpecError) Unwrap() error { return e.Err }

func (e *SpecError) Error() string {
	msg := fmt.Sprintf("player %q: %s", e.Spec, e.Problem)
	if len(e.Allowed) > 0 {
		msg += " (valid: " + strings.Join(e.Allowed, ", ") + ")"
	}
	return msg
}

// ParseSpec splits a spec into its name and settings. It checks the syntax
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
		if _, dup := sp.Get(k); dup {
			return bad(fmt.Sprintf("option %s is given twice", k))
		}
		sp.Settings = append(sp.Settings, Setting{Key: k, Value: v})
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
