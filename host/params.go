package host

import (
	"errors"
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"

	"github.com/matombo/matombo/host/diag"
)

// ParamKind is the type of a parameter's values.
type ParamKind int

const (
	IntParam ParamKind = iota
	BoolParam
	StringParam
)

func (k ParamKind) String() string {
	switch k {
	case BoolParam:
		return "boolean"
	case StringParam:
		return "string"
	default:
		return "integer"
	}
}

// ParamSpec describes a parameter a script declares: its name, type,
// default and allowed values.
type ParamSpec struct {
	Name    string
	Kind    ParamKind
	Default any   // int, bool or string
	Values  []any // the allowed values; empty means any value of the kind
	Doc     string
}

// Allowed returns the allowed values as text, or nil when any value of the
// kind is accepted.
func (p ParamSpec) Allowed() []string {
	var out []string
	for _, v := range p.Values {
		out = append(out, formatValue(v))
	}
	if p.Kind == BoolParam && len(out) == 0 {
		out = []string{"true", "false"}
	}
	return out
}

// Param is a parameter and its value in a loaded game.
type Param struct {
	Name  string
	Value any // int, bool or string
}

func formatValue(v any) string {
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

// normalize converts a Go value given for a parameter to the parameter's
// kind. Strings are parsed for integer and boolean parameters, so values
// typed on a command line work.
func (p ParamSpec) normalize(v any) (any, error) {
	switch p.Kind {
	case IntParam:
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
		return nil, fmt.Errorf("want an integer, got %s", describeValue(v))
	case BoolParam:
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
func (p ParamSpec) check(v any) (any, error) {
	n, err := p.normalize(v)
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
	return nil, fmt.Errorf("%s is not allowed", formatValue(n))
}

func kindArticle(k ParamKind) string {
	if k == IntParam {
		return "an integer"
	}
	return "true or false"
}

// Variant is a named set of parameter values from a variants file.
type Variant struct {
	Name        string
	Description string
	Params      []Param // in file order
	Pos         Pos     // where it is declared

	paramPos map[string]Pos
}

// Override is a parameter value given at load time, outside any variants
// file, for example on a command line.
type Override struct {
	Name   string
	Value  any    // int, bool or string; strings are parsed for other kinds
	Source string // where it came from, for messages, e.g. "--param holes=9"
}

// resolveParams computes a game's parameter values: defaults, then the
// chosen variants in order, then the overrides. Every variant in the file is
// checked, chosen or not, so a broken file is reported at once.
func resolveParams(specs []ParamSpec, variants []Variant, chosen []string, overrides []Override) ([]Param, error) {
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
	for _, v := range variants {
		set := map[string]any{}
		for _, p := range v.Params {
			i, ok := byName[p.Name]
			pos := v.paramPos[p.Name]
			if !ok {
				return nil, &ConfigError{Pos: pos, Param: p.Name, Msg: fmt.Sprintf("variant %s sets unknown parameter %s", v.Name, p.Name), Allowed: names}
			}
			if str, isStr := p.Value.(string); isStr && specs[i].Kind != StringParam {
				return nil, &ConfigError{Pos: pos, Param: p.Name, Msg: fmt.Sprintf("variant %s: parameter %s: want %s, got the text %q (leave out the quotes)", v.Name, p.Name, kindArticle(specs[i].Kind), str), Allowed: specs[i].Allowed()}
			}
			val, err := specs[i].check(p.Value)
			if err != nil {
				return nil, &ConfigError{Pos: pos, Param: p.Name, Msg: fmt.Sprintf("variant %s: parameter %s: %v", v.Name, p.Name, err), Allowed: specs[i].Allowed(), Err: err}
			}
			set[p.Name] = val
		}
		checked[v.Name] = set
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
				return nil, &ConfigError{Msg: fmt.Sprintf("unknown variant %q: the game has no variants", name)}
			}
			return nil, &ConfigError{Msg: fmt.Sprintf("unknown variant %q", name), Allowed: known}
		}
		keys := make([]string, 0, len(set))
		for k := range set {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			i := byName[k]
			if prev, ok := setBy[k]; ok && prev != name && values[i] != set[k] {
				return nil, &ConfigError{Param: k, Msg: fmt.Sprintf("variants %s and %s set parameter %s to different values (%s and %s)", prev, name, k, formatValue(values[i]), formatValue(set[k]))}
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
			return nil, &ConfigError{Param: o.Name, Msg: fmt.Sprintf("%s: unknown parameter %s", src, o.Name), Allowed: names}
		}
		val, err := specs[i].check(o.Value)
		if err != nil {
			return nil, &ConfigError{Param: o.Name, Msg: fmt.Sprintf("%s: %v", src, err), Allowed: specs[i].Allowed(), Err: err}
		}
		values[i] = val
	}
	out := make([]Param, len(specs))
	for i, s := range specs {
		out[i] = Param{Name: s.Name, Value: values[i]}
	}
	return out, nil
}
