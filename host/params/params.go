// Package params holds a game's parameters and variants: the parameters a
// script declares, their values, the named variants of variants files
// (which it reads and merges) and the overrides a caller gives, and how
// they resolve into the values a game loads with.
package params

import (
	"errors"
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/matombo/matombo/host/diag"
)

// Kind is the type of a parameter's values.
type Kind int

const (
	Int Kind = iota
	Bool
	String
)

func (k Kind) String() string {
	switch k {
	case Bool:
		return "boolean"
	case String:
		return "string"
	default:
		return "integer"
	}
}

// Spec describes a parameter a script declares: its name, type,
// default and allowed values.
type Spec struct {
	Name    string
	Kind    Kind
	Default any   // int, bool or string
	Values  []any // the allowed values; empty means any value of the kind
	Doc     string
}

// Allowed returns the allowed values as text, or nil when any value of the
// kind is accepted.
func (p Spec) Allowed() []string {
	var out []string
	for _, v := range p.Values {
		out = append(out, FormatValue(v))
	}
	if p.Kind == Bool && len(out) == 0 {
		out = []string{"true", "false"}
	}
	return out
}

// Param is a parameter and its value in a loaded game.
type Value struct {
	Name  string
	Value any // int, bool or string
}

func FormatValue(v any) string {
	switch x := v.(type) {
	case string:
		return x
	case bool:
		return strconv.FormatBool(x)
	case int:
		return strconv.Itoa(x)
	default:
		return fmt.Sprint(v)
	}
}

// outOfRange reports whether v is a whole number (a Go integer, a whole
// float or a string of digits, however many) that an integer parameter
// refused only for its size.
func outOfRange(v any) bool {
	switch x := v.(type) {
	case int, int64:
		return true
	case float64:
		return x == math.Trunc(x) && !math.IsInf(x, 0)
	case string:
		t := strings.TrimLeft(strings.TrimSpace(x), "+-")
		return t != "" && strings.Trim(t, "0123456789") == ""
	}
	return false
}

// normalize converts a Go value given for a parameter to the parameter's
// kind. Strings are parsed for integer and boolean parameters, so values
// typed on a command line work.
func (p Spec) Normalize(v any) (any, error) {
	switch p.Kind {
	case Int:
		switch x := v.(type) {
		case int:
			if x >= math.MinInt32 && x <= math.MaxInt32 {
				return x, nil
			}
		case int64:
			if x >= math.MinInt32 && x <= math.MaxInt32 {
				return int(x), nil
			}
		case int32:
			return int(x), nil
		case float64:
			if x == math.Trunc(x) && math.Abs(x) < 1<<31 {
				return int(x), nil
			}
		case string:
			n, err := strconv.Atoi(strings.TrimSpace(x))
			if err == nil && n >= math.MinInt32 && n <= math.MaxInt32 {
				return n, nil
			}
		}
		if outOfRange(v) {
			return nil, fmt.Errorf("the integer %s is out of range: the limit is %d to %d", describeValue(v), math.MinInt32, math.MaxInt32)
		}
		return nil, fmt.Errorf("want an integer, got %s", describeValue(v))
	case Bool:
		switch x := v.(type) {
		case bool:
			return x, nil
		case string:
			switch strings.TrimSpace(x) {
			case "true":
				return true, nil
			case "false":
				return false, nil
			}
		}
		return nil, fmt.Errorf("want true or false, got %s", describeValue(v))
	default:
		if x, ok := v.(string); ok {
			if msg := diag.TextProblem("the value", x, false); msg != "" {
				return nil, errors.New(msg)
			}
			return x, nil
		}
		return nil, fmt.Errorf("want a string, got %s", describeValue(v))
	}
}

func describeValue(v any) string {
	switch x := v.(type) {
	case string:
		return strconv.Quote(x)
	case nil:
		return "nothing"
	default:
		return fmt.Sprint(x)
	}
}

// check normalizes v and verifies it is allowed.
func (p Spec) Check(v any) (any, error) {
	n, err := p.Normalize(v)
	if err != nil {
		return nil, err
	}
	if len(p.Values) == 0 {
		return n, nil
	}
	for _, a := range p.Values {
		if a == n {
			return n, nil
		}
	}
	return nil, fmt.Errorf("%s is not allowed", FormatValue(n))
}

func kindArticle(k Kind) string {
	if k == Int {
		return "an integer"
	}
	return "true or false"
}

// Variant is a named set of parameter values from a variants file.
type Variant struct {
	Name string
	// Title is the variant in a player's words, as the file gives it
	// ("4 by 6"); "" when it gives none. Label falls back to the name.
	Title       string
	Description string
	Params      []Value  // in file order
	Pos         diag.Pos // where it is declared

	paramPos map[string]diag.Pos
}

// Label is the variant in a player's words: its title, or one made from
// its name (NameTitle).
func (v Variant) Label() string {
	if v.Title != "" {
		return v.Title
	}
	return NameTitle(v.Name)
}

// NameTitle makes a title of a variant's name, for a variant whose file
// gives none: the dashes and underscores become spaces and the first
// letter a capital ("bonus-1" is "Bonus 1", "no_trading" "No trading").
// It is the one place a name is made into words.
func NameTitle(name string) string {
	words := strings.Fields(strings.NewReplacer("-", " ", "_", " ").Replace(name))
	t := strings.Join(words, " ")
	if t == "" {
		return name
	}
	r, n := utf8.DecodeRuneInString(t)
	return string(unicode.ToUpper(r)) + t[n:]
}

// Override is a parameter value given at load time, outside any variants
// file, for example on a command line.
type Override struct {
	Name   string
	Value  any    // int, bool or string; strings are parsed for other kinds
	Source string // where it came from, for messages, e.g. "--param holes=9"
}

// checkVariant checks the values variant v sets against the parameters'
// specs (byName indexes them, names lists them) and returns them by name,
// or the first problem.
func checkVariant(specs []Spec, byName map[string]int, names []string, v Variant) (map[string]any, error) {
	set := map[string]any{}
	for _, p := range v.Params {
		i, ok := byName[p.Name]
		pos := v.paramPos[p.Name]
		if !ok {
			return nil, &diag.ConfigError{Pos: pos, Param: p.Name, Msg: fmt.Sprintf("variant %s sets unknown parameter %s", v.Name, p.Name), Allowed: names}
		}
		if str, isStr := p.Value.(string); isStr && specs[i].Kind != String {
			return nil, &diag.ConfigError{Pos: pos, Param: p.Name, Msg: fmt.Sprintf("variant %s: parameter %s: want %s, got the text %q (leave out the quotes)", v.Name, p.Name, kindArticle(specs[i].Kind), str), Allowed: specs[i].Allowed()}
		}
		val, err := specs[i].Check(p.Value)
		if err != nil {
			return nil, &diag.ConfigError{Pos: pos, Param: p.Name, Msg: fmt.Sprintf("variant %s: parameter %s: %v", v.Name, p.Name, err), Allowed: specs[i].Allowed(), Err: err}
		}
		set[p.Name] = val
	}
	return set, nil
}

// Resolve computes a game's parameter values: defaults, then the
// chosen variants in order, then the overrides. Every variant in the file is
// checked, chosen or not, so a broken file is reported at once: every bad variant
// (diag.Diagnostics, the first 20), each with its first problem.
func Resolve(specs []Spec, variants []Variant, chosen []string, overrides []Override) ([]Value, error) {
	byName := map[string]int{}
	var names []string
	for i, s := range specs {
		byName[s.Name] = i
		names = append(names, s.Name)
	}
	values := make([]any, len(specs))
	for i, s := range specs {
		values[i] = s.Default
	}
	checked := map[string]map[string]any{}
	var problems diag.Diagnostics
	for _, v := range variants {
		if len(problems) == maxProblems {
			break
		}
		set, err := checkVariant(specs, byName, names, v)
		if err != nil {
			problems = append(problems, err)
			continue
		}
		checked[v.Name] = set
	}
	if err := problems.Err(); err != nil {
		return nil, err
	}
	setBy := map[string]string{}
	for _, name := range chosen {
		set, ok := checked[name]
		if !ok {
			var known []string
			for _, v := range variants {
				known = append(known, v.Name)
			}
			if len(known) == 0 {
				return nil, &diag.ConfigError{Msg: fmt.Sprintf("unknown variant %q: the game has no variants", name)}
			}
			return nil, &diag.ConfigError{Msg: fmt.Sprintf("unknown variant %q", name), Allowed: known}
		}
		keys := make([]string, 0, len(set))
		for k := range set {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			i := byName[k]
			if prev, ok := setBy[k]; ok && prev != name && values[i] != set[k] {
				return nil, &diag.ConfigError{Param: k, Msg: fmt.Sprintf("variants %s and %s set parameter %s to different values (%s and %s)", prev, name, k, FormatValue(values[i]), FormatValue(set[k]))}
			}
			values[byName[k]] = set[k]
			setBy[k] = name
		}
	}
	for _, o := range overrides {
		i, ok := byName[o.Name]
		src := o.Source
		if src == "" {
			src = "parameter " + o.Name
		}
		if !ok {
			return nil, &diag.ConfigError{Param: o.Name, Msg: fmt.Sprintf("%s: unknown parameter %s", src, o.Name), Allowed: names}
		}
		val, err := specs[i].Check(o.Value)
		if err != nil {
			return nil, &diag.ConfigError{Param: o.Name, Msg: fmt.Sprintf("%s: %v", src, err), Allowed: specs[i].Allowed(), Err: err}
		}
		values[i] = val
	}
	out := make([]Value, len(specs))
	for i, s := range specs {
		out[i] = Value{Name: s.Name, Value: values[i]}
	}
	return out, nil
}
