package rules

import (
	"errors"
	"fmt"

	"github.com/matombo/matombo/host/kernel"
)

// Hook is a script function standing in a slot: a rule point an
// extending script replaced, or a function of the script's own. It fits
// every slot; it calls the function through c.Hooks with the arguments
// of its slot, in the order a script expects them (see Slot.Call).
type Hook struct {
	ID   int  // the function's number among the script's hooks
	Slot Slot // the slot it stands in
}

// refused marks a rule's error about what the function returned as the
// function's, so the host names the function's lines, not the part's.
func (h Hook) refused(err error) error {
	var rule *kernel.RuleError
	if errors.As(err, &rule) && rule.Hook == 0 {
		rule.Hook = h.ID + 1
	}
	return err
}

func (h Hook) call(c *kernel.Ctx, nargs, nret int) error {
	if c.Hooks == nil {
		return kernel.Failf("a script function stands in a %s slot, but no script runs", h.Slot)
	}
	return c.Hooks.Call(c, h.ID, nargs, nret)
}

// Emit calls the function (p) and counts the moves it added.
func (h Hook) Emit(c *kernel.Ctx, p int) (int, error) {
	before := len(c.S.Moves)
	c.Args[0] = kernel.IntValue(p)
	err := h.call(c, 1, 0)
	return len(c.S.Moves) - before, err
}

// EmitAt calls the function (p, at), or (p, k) in SlotCount.
func (h Hook) EmitAt(c *kernel.Ctx, p, at int) (int, error) {
	before := len(c.S.Moves)
	c.Args[0], c.Args[1] = kernel.IntValue(p), kernel.SiteValue(at)
	if h.Slot == SlotCount {
		c.Args[1] = kernel.IntValue(at)
	}
	err := h.call(c, 2, 0)
	return len(c.S.Moves) - before, err
}

// Play calls the function (p, kind, sites...), or (p, sites...) in
// SlotKindPlay.
func (h Hook) Play(c *kernel.Ctx, p int, m kernel.Move) error {
	n := 0
	c.Args[n] = kernel.IntValue(p)
	n++
	if h.Slot != SlotKindPlay {
		c.Args[n] = kernel.IntValue(int(m.Kind) + 1)
		n++
	}
	for i := 0; i < int(m.N); i++ {
		c.Args[n] = kernel.SiteValue(int(m.Sites[i]))
		n++
	}
	return h.call(c, n, 0)
}

// TestMove calls the function (p, kind, sites...).
func (h Hook) TestMove(c *kernel.Ctx, p int, m kernel.Move) (bool, error) {
	n := 0
	c.Args[n] = kernel.IntValue(p)
	c.Args[n+1] = kernel.IntValue(int(m.Kind) + 1)
	n += 2
	for i := 0; i < int(m.N); i++ {
		c.Args[n] = kernel.SiteValue(int(m.Sites[i]))
		n++
	}
	if err := h.call(c, n, 1); err != nil {
		return false, err
	}
	return c.Out[0].Truthy(), nil
}

// Sow calls the function (p, from) -> last, was_empty.
func (h Hook) Sow(c *kernel.Ctx, p, from int) (int, bool, error) {
	c.Args[0], c.Args[1] = kernel.IntValue(p), kernel.SiteValue(from)
	if err := h.call(c, 2, 2); err != nil {
		return -1, false, err
	}
	last, err := siteResult(c, c.Out[0], "sow")
	return last, c.Out[1].Truthy(), h.refused(err)
}

// Relay calls the function (p, from) -> last, how.
func (h Hook) Relay(c *kernel.Ctx, p, from int) (int, kernel.How, int, error) {
	c.Args[0], c.Args[1] = kernel.IntValue(p), kernel.SiteValue(from)
	if err := h.call(c, 2, 2); err != nil {
		return -1, 0, 0, err
	}
	how := c.Out[1]
	last, err := siteResult(c, c.Out[0], "relay")
	if err != nil {
		return -1, 0, 0, h.refused(err)
	}
	if how.Kind == kernel.TextKind {
		switch how.S {
		case "empty":
			return last, kernel.RelayEmpty, 0, nil
		case "stop":
			return last, kernel.RelayStop, 0, nil
		case "laps":
			return last, kernel.RelayLaps, 0, nil
		}
	}
	return -1, 0, 0, h.refused(kernel.Failf("relay returned %s as how the sowing ended; want \"empty\", \"stop\" or \"laps\"", describe(how)))
}

// Capture calls the function (p, last, was_empty) -> captured; a
// function that returns nothing captured nothing.
func (h Hook) Capture(c *kernel.Ctx, p, last int, wasEmpty bool) (int, error) {
	c.Args[0], c.Args[1], c.Args[2] = kernel.IntValue(p), kernel.SiteValue(last), kernel.BoolValue(wasEmpty)
	if err := h.call(c, 3, 1); err != nil {
		return 0, err
	}
	switch v := c.Out[0]; {
	case v.Kind == kernel.NilValue:
		return 0, nil
	case v.Kind == kernel.IntKind && v.N >= 0:
		return v.N, nil
	default:
		return 0, h.refused(kernel.Failf("a capture function returned %s; want the counters it captured (a whole number from 0), or nothing", describe(v)))
	}
}

// TestSite calls the function (p, site), or (site, p) in SlotUnless.
func (h Hook) TestSite(c *kernel.Ctx, p, site int) (bool, error) {
	if h.Slot == SlotUnless {
		c.Args[0], c.Args[1] = kernel.SiteValue(site), kernel.IntValue(p)
	} else {
		c.Args[0], c.Args[1] = kernel.IntValue(p), kernel.SiteValue(site)
	}
	if err := h.call(c, 2, 1); err != nil {
		return false, err
	}
	return c.Out[0].Truthy(), nil
}

// Arrive calls the function (p, at): whether it acted.
func (h Hook) Arrive(c *kernel.Ctx, p, at int) (bool, error) {
	c.Args[0], c.Args[1] = kernel.IntValue(p), kernel.SiteValue(at)
	if err := h.call(c, 2, 1); err != nil {
		return false, err
	}
	return c.Out[0].Truthy(), nil
}

// After calls the function (p, n).
func (h Hook) After(c *kernel.Ctx, p, n int) error {
	c.Args[0], c.Args[1] = kernel.IntValue(p), kernel.IntValue(n)
	return h.call(c, 2, 0)
}

// Result calls the function (reason).
func (h Hook) Result(c *kernel.Ctx, reason string) error {
	c.Args[0] = kernel.TextValue(reason)
	return h.call(c, 1, 0)
}

// Holds calls the function (p).
func (h Hook) Holds(c *kernel.Ctx, p int) (bool, error) {
	c.Args[0] = kernel.IntValue(p)
	if err := h.call(c, 1, 1); err != nil {
		return false, err
	}
	return c.Out[0].Truthy(), nil
}

// Value calls the function (p), which must return a whole number.
func (h Hook) Value(c *kernel.Ctx, p int) (int, error) {
	c.Args[0] = kernel.IntValue(p)
	if err := h.call(c, 1, 1); err != nil {
		return 0, err
	}
	if v := c.Out[0]; v.Kind != kernel.IntKind {
		return 0, h.refused(kernel.Failf("an amount function returned %s, not a whole number", describe(v)))
	}
	return c.Out[0].N, nil
}

// Lap calls the function (p, last, track, laps); it returns nothing (go
// on as a relay does), false (end here), true (sow on from the last site)
// or a track and a site (and a site to sow from): see kernel.LapEnd.
func (h Hook) Lap(c *kernel.Ctx, p, last int, t *kernel.Track, laps int) (kernel.LapEnd, error) {
	c.Args[0], c.Args[1], c.Args[2], c.Args[3] = kernel.IntValue(p), kernel.SiteValue(last), kernel.IntValue(c.Def.Board.TrackIndex(t)+1), kernel.IntValue(laps)
	if err := h.call(c, 4, 3); err != nil {
		return kernel.LapEnd{}, err
	}
	end, err := LapAnswer(c, c.Out[0], c.Out[1], c.Out[2])
	return end, h.refused(err)
}

// LapAnswer reads how a script function says a relay goes on: nothing,
// false, true, or a track, a site to sow after and optionally a site to
// sow from.
func LapAnswer(c *kernel.Ctx, r1, r2, r3 kernel.Value) (kernel.LapEnd, error) {
	switch r1.Kind {
	case kernel.NilValue:
		return kernel.LapEnd{}, nil
	case kernel.BoolKind:
		if r1.N == 0 {
			return kernel.LapEnd{Act: kernel.LapEndHere}, nil
		}
		return kernel.LapEnd{Act: kernel.LapRelay}, nil
	case kernel.IntKind:
		b := c.Def.Board
		if r1.N < 1 || r1.N > b.NumTracks() {
			return kernel.LapEnd{}, kernel.Failf("relay: the hook returned track %s, which does not exist", describe(r1))
		}
		t := b.TrackAt(r1.N - 1)
		after := siteOf(c, r2)
		if after < 0 {
			return kernel.LapEnd{}, kernel.Failf("relay: the hook returned %s as the site to sow after, which is not a site of the board", describe(r2))
		}
		if !t.On(after) {
			return kernel.LapEnd{}, kernel.Failf("relay: the hook names %s to sow after, which is not on track %s", b.SiteName(after), t.Name)
		}
		from := after
		if r3.Kind != kernel.NilValue {
			if from = siteOf(c, r3); from < 0 {
				return kernel.LapEnd{}, kernel.Failf("relay: the hook returned %s as the site to sow from, which is not a site of the board", describe(r3))
			}
		}
		return kernel.LapEnd{Act: kernel.LapResow, Track: t, After: after, From: from}, nil
	}
	return kernel.LapEnd{}, kernel.Failf("relay: the hook returned %s; want nothing (go on as a relay does), false (end here), true (sow on from the last site) or a track and a site", describe(r1))
}

// siteOf reads a site a function returned: its number (from 1) or its
// name; -1 when v is neither.
func siteOf(c *kernel.Ctx, v kernel.Value) int {
	b := c.Def.Board
	switch v.Kind {
	case kernel.IntKind:
		if v.N >= 1 && v.N <= b.NumSites() {
			return v.N - 1
		}
	case kernel.TextKind:
		if i, ok := b.Index(v.S); ok {
			return i
		}
	}
	return -1
}

// siteResult reads a site a function returned.
func siteResult(c *kernel.Ctx, v kernel.Value, what string) (int, error) {
	if i := siteOf(c, v); i >= 0 && v.Kind == kernel.IntKind {
		return i, nil
	}
	return -1, kernel.Failf("%s returned %s, not a site", what, describe(v))
}

// describe names a hook value for a message.
func describe(v kernel.Value) string {
	switch v.Kind {
	case kernel.NilValue:
		return "nil"
	case kernel.IntKind:
		return fmt.Sprint("number ", v.N)
	case kernel.SiteKind:
		return fmt.Sprint("site ", v.N+1)
	case kernel.BoolKind:
		return fmt.Sprint("boolean ", v.N != 0)
	case kernel.TextKind:
		if len(v.S) > 40 {
			return fmt.Sprintf("string %q", v.S[:40]+"...")
		}
		return fmt.Sprintf("string %q", v.S)
	}
	return v.S
}
