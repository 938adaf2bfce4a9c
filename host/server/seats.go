package server

import (
	"errors"
	"fmt"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/matombo/matombo/host/player"
)

// A ComputerSeat is a kind of computer seat the operator of a server
// allows: a player name and what a client may set of its options. It is
// written like a player spec, with a cap for an option a client may
// choose up to a limit:
//
//	mcts:time<=2s,iterations<=1000000,threads<=2,eval=*
//
// allows "mcts", "mcts:time=500ms" or "mcts:threads=1,eval=generic",
// and refuses "mcts:time=1h" and "mcts:nodes=9". An option is one of
//
//	key<=MAX  the client chooses a value up to MAX (a number, or a
//	          duration such as 2s); a client that gives none gets MAX
//	key=VALUE the option is VALUE (a client may leave it out)
//	key=*     the client chooses any value the player accepts
//
// seed is always allowed. A threads cap is lowered to the machine's
// cores when it is more. Seats are made from the allowed spec the client's spec becomes
// (Allow), so a stored seat names its player's every budget.
type ComputerSeat struct {
	Name    string
	Options []SeatOption
}

// SeatOption is one option of a ComputerSeat.
type SeatOption struct {
	Key   string
	Max   string // the cap of key<=Max, else ""
	Value string // the value of key=Value ("*": any), else ""
}

// String writes the seat in the form ParseComputerSeat reads.
func (cs ComputerSeat) String() string {
	if len(cs.Options) == 0 {
		return cs.Name
	}
	parts := make([]string, len(cs.Options))
	for i, o := range cs.Options {
		if o.Max != "" {
			parts[i] = o.Key + "<=" + o.Max
		} else {
			parts[i] = o.Key + "=" + o.Value
		}
	}
	return cs.Name + ":" + strings.Join(parts, ",")
}

// DefaultComputerSeats are the computer seats a server allows unless told
// otherwise: searches of at most two seconds a move on at most two
// threads, greedy, random, and perfect play for the games whose solution
// is at hand.
func DefaultComputerSeats() []string {
	return []string{
		"mcts:time<=2s,iterations<=1000000,threads<=2,c=*,playout=*,minimax=*,eval=*",
		"alphabeta:time<=2s,depth<=64,eval=*",
		"greedy:eval=*",
		"random",
		"perfect",
	}
}

// ParseComputerSeat reads a computer seat such as
// "mcts:time<=2s,threads<=2" (see ComputerSeat).
func ParseComputerSeat(text string) (ComputerSeat, error) {
	bad := func(format string, args ...any) (ComputerSeat, error) {
		return ComputerSeat{}, &SeatError{Spec: text, Problem: fmt.Sprintf(format, args...)}
	}
	name, rest, hasOpts := strings.Cut(strings.TrimSpace(text), ":")
	name = strings.TrimSpace(name)
	if _, err := player.ParseSpec(name); err != nil || name == humanSeat {
		return bad("want a player name such as mcts, then options such as time<=2s")
	}
	cs := ComputerSeat{Name: name}
	if !hasOpts {
		return cs, nil
	}
	for _, part := range strings.Split(rest, ",") {
		part = strings.TrimSpace(part)
		var o SeatOption
		if k, v, ok := strings.Cut(part, "<="); ok {
			o.Key, o.Max = strings.TrimSpace(k), strings.TrimSpace(v)
			if _, err := parseLimit(o.Max); err != nil {
				return bad("%s: the cap %q is neither a number nor a duration such as 2s", o.Key, o.Max)
			}
		} else if k, v, ok := strings.Cut(part, "="); ok {
			o.Key, o.Value = strings.TrimSpace(k), strings.TrimSpace(v)
		} else {
			return bad("option %q: want key<=MAX, key=VALUE or key=*", part)
		}
		if o.Max == "" && o.Value == "" {
			return bad("option %s has no value", o.Key)
		}
		if _, err := player.ParseSpec("x:" + o.Key + "=" + o.Max + o.Value); err != nil || o.Key == "seed" {
			return bad("option %q is not a valid key with a value (seed is always allowed)", part)
		}
		if slices.ContainsFunc(cs.Options, func(x SeatOption) bool { return x.Key == o.Key }) {
			return bad("option %s is given twice", o.Key)
		}
		cs.Options = append(cs.Options, o)
	}
	return cs, nil
}

// max is the option's cap on this machine: a threads cap is at most the
// number of cores.
func (o SeatOption) max() string {
	if o.Key == "threads" {
		if l, _ := parseLimit(o.Max); l.isDur || l.num > float64(runtime.NumCPU()) {
			return strconv.Itoa(runtime.NumCPU())
		}
	}
	return o.Max
}

// limit is a parsed cap or value: a duration or a number.
type limit struct {
	dur   time.Duration
	num   float64
	isDur bool
}

// parseLimit reads a duration with its unit (2s, 500ms) or a number.
func parseLimit(s string) (limit, error) {
	if d, err := time.ParseDuration(s); err == nil && strings.IndexFunc(s, func(r rune) bool { return r >= 'a' && r <= 'z' }) >= 0 {
		return limit{dur: d, isDur: true}, nil
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil || f != f {
		return limit{}, errors.New("not a number")
	}
	return limit{num: f}, nil
}

// within reports whether value is a value of the kind of max, at most max.
func within(value, max string) bool {
	m, _ := parseLimit(max)
	v, err := parseLimit(value)
	switch {
	case err != nil || v.isDur != m.isDur:
		return false
	case v.isDur:
		return v.dur <= m.dur
	}
	return v.num <= m.num
}

// SeatError is a seat spec the server does not allow. Allowed lists the
// computer seats it does.
type SeatError struct {
	Spec    string
	Problem string
	Allowed []string
}

func (e *SeatError) Error() string {
	if len(e.Allowed) == 0 {
		return fmt.Sprintf("computer seat %q: %s", e.Spec, e.Problem)
	}
	return fmt.Sprintf("seat %q: %s (allowed: %s)", e.Spec, e.Problem, strings.Join(e.Allowed, "; "))
}

// computerSeats are the computer seats a server allows.
type computerSeats []ComputerSeat

func parseComputerSeats(texts []string) (computerSeats, error) {
	var out computerSeats
	for _, t := range texts {
		cs, err := ParseComputerSeat(t)
		if err != nil {
			return nil, err
		}
		if slices.ContainsFunc(out, func(x ComputerSeat) bool { return x.Name == cs.Name }) {
			return nil, &SeatError{Spec: t, Problem: fmt.Sprintf("the player %s is allowed twice", cs.Name)}
		}
		out = append(out, cs)
	}
	return out, nil
}

// texts lists the seats as they are written.
func (seats computerSeats) texts() []string {
	out := make([]string, len(seats))
	for i, cs := range seats {
		out[i] = cs.String()
	}
	return out
}

// maxTime is the longest time cap of the seats (their "time" options).
func (seats computerSeats) maxTime() time.Duration {
	var longest time.Duration
	for _, cs := range seats {
		for _, o := range cs.Options {
			if l, err := parseLimit(o.Max); err == nil && o.Key == "time" && l.isDur {
				longest = max(longest, l.dur)
			}
		}
	}
	return longest
}

// names lists the allowed player names.
func (seats computerSeats) names() []string {
	out := make([]string, len(seats))
	for i, cs := range seats {
		out[i] = cs.Name
	}
	return out
}

// allow checks a client's player spec against the allowed seats and
// returns the spec to play it with: its options within their caps, and
// the caps and fixed values of the options it does not give.
func (seats computerSeats) allow(spec string) (string, error) {
	refuse := func(format string, args ...any) (string, error) {
		return "", &SeatError{Spec: spec, Problem: fmt.Sprintf(format, args...), Allowed: seats.texts()}
	}
	sp, err := player.ParseSpec(spec)
	if err != nil {
		var se *player.SpecError
		if errors.As(err, &se) {
			return refuse("%s", se.Problem)
		}
		return refuse("%v", err)
	}
	i := slices.IndexFunc(seats, func(cs ComputerSeat) bool { return cs.Name == sp.Name })
	if i < 0 {
		return refuse("this server has no computer player %q", sp.Name)
	}
	cs := seats[i]
	out := player.Spec{Name: cs.Name}
	var seed *player.Setting
	for _, o := range sp.Settings {
		if o.Key == "seed" {
			seed = &o
			continue
		}
		j := slices.IndexFunc(cs.Options, func(x SeatOption) bool { return x.Key == o.Key })
		if j < 0 {
			return refuse("%s takes no option %s on this server", cs.Name, o.Key)
		}
		rule := cs.Options[j]
		switch {
		case rule.Max != "" && !within(o.Value, rule.max()):
			return refuse("%s=%s: at most %s on this server", o.Key, o.Value, rule.max())
		case rule.Value != "" && rule.Value != "*" && o.Value != rule.Value:
			return refuse("%s is %s on this server", o.Key, rule.Value)
		}
	}
	for _, rule := range cs.Options {
		given := slices.IndexFunc(sp.Settings, func(x player.Setting) bool { return x.Key == rule.Key })
		switch {
		case given >= 0:
			out.Settings = append(out.Settings, sp.Settings[given])
		case rule.Max != "":
			out.Settings = append(out.Settings, player.Setting{Key: rule.Key, Value: rule.max()})
		case rule.Value != "*":
			out.Settings = append(out.Settings, player.Setting{Key: rule.Key, Value: rule.Value})
		}
	}
	if seed != nil {
		out.Settings = append(out.Settings, *seed)
	}
	return out.String(), nil
}
