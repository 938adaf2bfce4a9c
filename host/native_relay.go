package host

import (
	"fmt"

	lua "github.com/yuin/gopher-lua"
)

// The native rules of relay sowing games whose moves pause for decisions:
// a relay that stops at an occupied site with a stop tag, where
// the mover chooses to continue or stop; a capture after a sowing that
// ends in an empty site; and bonus captures of sites the mover chooses,
// one decision each. docs/lua-api.md, "Native rules", describes the
// tables.
//
// The pending decision is one script variable, declared by the script and
// named in the tables: 0 when a move starts, a site (from 1) when the
// sowing waits at that stop for continue or stop, -k while the mover
// still takes k bonus captures.

// ---- relay_rule and relay_ends_rule ----

// relayRule: relay_rule{track = T, stop = TAG, max_laps = 1000}: (p, from)
// -> last, how, laps, as matombo.relay(p's track, from, stop, max_laps).
// relay_ends_rule with the same table: (p, from) -> whether that relay
// ends within max_laps laps, as matombo.relay_ends.
type relayRule struct {
	tracks  []*Track // per player
	stop    uint64   // the stop tag's mask; 0 for none
	maxLaps int
}

// relayEndsRule is relay_ends_rule.
type relayEndsRule struct{ relayRule }

func (vm *machine) relaySpec(L *lua.LState, what string) relayRule {
	t := vm.specTable(L, what, "track", "stop", "max_laps")
	r := relayRule{tracks: perPlayer(vm, L, t, "track", what, vm.specTrack(L, what, "track")),
		maxLaps: specInt(L, t, what, "max_laps", 1000, 1, 1<<30)}
	if v := t.RawGetString("stop"); v != lua.LNil {
		r.stop = vm.specTag(L, v, what, "stop")
	}
	for _, tr := range r.tracks {
		if !tr.Loop {
			L.RaiseError("%s: track %s does not loop; a relay sows around a looping track", what, tr.Name)
		}
	}
	return r
}

// specTag reads a tag: its handle or its name; it returns its mask.
func (vm *machine) specTag(L *lua.LState, v lua.LValue, what, field string) uint64 {
	b := vm.dcl.board
	switch x := v.(type) {
	case lua.LNumber:
		if i := int(x); float64(i) == float64(x) && i >= 1 && i <= len(b.tags) {
			return 1 << uint(i-1)
		}
	case lua.LString:
		for i, name := range b.tags {
			if name == string(x) {
				return 1 << uint(i)
			}
		}
	}
	L.RaiseError("%s: %s must be a tag (from matombo.tag, or its name), got %s", what, field, describeLua(v))
	return 0
}

func (vm *machine) apiRelayRule(L *lua.LState) int {
	r := vm.relaySpec(L, "relay_rule")
	return vm.newNative(L, "relay_rule", &r)
}

func (vm *machine) apiRelayEndsRule(L *lua.LState) int {
	return vm.newNative(L, "relay_ends_rule", &relayEndsRule{vm.relaySpec(L, "relay_ends_rule")})
}

func (r *relayRule) fromLua(c *nativeCall) (int, error) {
	c.mutable()
	last, how, laps, err := r.run(c, c.playerArg(1), c.siteArg(2))
	if err != nil {
		return 0, err
	}
	c.pushSite(last)
	c.L.Push(c.vm.howValue(how))
	c.pushInt(laps)
	return 3, nil
}

// howValue is the word matombo.relay returns for how a relay ended.
func (vm *machine) howValue(how int) lua.LValue {
	switch how {
	case relayEmpty:
		return vm.strs.empty
	case relayStop:
		return vm.strs.stop
	}
	return vm.strs.laps
}

// check fails unless from is a site with counters on p's track.
func (r *relayRule) check(c *nativeCall, t *Track, from int) error {
	if from < 0 || t.pos[from] < 0 {
		return c.fail("%s is not on track %s", siteLabel(c.vm.dcl.board, from), t.Name)
	}
	if c.s.cells[from] == 0 {
		return c.fail("%s is empty: there is nothing to sow", c.vm.dcl.board.sites[from].Name)
	}
	return nil
}

// run plays the relay of player p from from: the last site, how it ended
// (relayEmpty, relayStop or relayLaps) and the laps sown.
func (r *relayRule) run(c *nativeCall, p, from int) (last, how, laps int, err error) {
	vm := c.vm
	t := r.tracks[p-1]
	if err := r.check(c, t, from); err != nil {
		return -1, 0, 0, err
	}
	sites := vm.g.lay.sites
	work := sowWork(sites)
	last, how, laps = relayInto(c.s.cells[:sites], vm.dcl.board.tagMask, t, from, r.stop, r.maxLaps, &work, vm.trip, vm.rec)
	if err := c.charge(max(sowWork(sites)-work, 0)/8 + 1); err != nil {
		return -1, 0, 0, err
	}
	switch how {
	case relayWork, relayOverflow:
		return -1, 0, 0, c.relayFailed("relay", from, how, last, r.maxLaps)
	case relayOff:
		return -1, 0, 0, c.fail("a relay sowing from %s runs off the end of track %s", vm.dcl.board.sites[from].Name, t.Name)
	}
	return last, how, laps, nil
}

// relayFailed is the error of a relay that ran out of work or overflowed a
// count, as the primitives raise it.
func (c *nativeCall) relayFailed(fn string, from, how, at, maxLaps int) error {
	vm := c.vm
	b := vm.dcl.board
	if how == relayOverflow {
		return c.fail("%s from %s: the count of %s would pass %d", fn, b.sites[from].Name, b.sites[at].Name, maxCount)
	}
	if vm.trip.Stopped() {
		return c.fail("%s from %s: the time budget ran out", fn, b.sites[from].Name)
	}
	w := sowWork(vm.g.lay.sites)
	return c.overBudget(BudgetSteps, fmt.Sprintf("%d site visits in one sowing call", w),
		fmt.Sprintf("%s from %s did not end within %d site visits (lap limit %d): a sowing that long does not end; lower the lap limit", fn, b.sites[from].Name, w, maxLaps))
}

func (r *relayEndsRule) fromLua(c *nativeCall) (int, error) {
	c.readOnly()
	ok, err := r.run(c, c.playerArg(1), c.siteArg(2))
	c.pushBool(ok)
	return 1, err
}

func (r *relayEndsRule) run(c *nativeCall, p, from int) (bool, error) {
	t := r.tracks[p-1]
	if err := r.check(c, t, from); err != nil {
		return false, err
	}
	work := sowWork(c.vm.g.lay.sites)
	return r.ends(c, t, from, r.bounded(c, p), &work)
}

// bounded reports whether every relay of p surely ends, by the bound of
// relayBounded.
func (r *relayEndsRule) bounded(c *nativeCall, p int) bool {
	return relayBounded(c.s.cells, c.vm.dcl.board.tagMask, r.tracks[p-1], r.stop, r.maxLaps)
}

// ends reports whether the relay from from along t ends within the lap
// limit: at once when bounded, else by trying it on a copy of the counts,
// its site visits charged to *work and to the call's steps.
func (r *relayEndsRule) ends(c *nativeCall, t *Track, from int, bounded bool, work *int) (bool, error) {
	if bounded {
		return true, nil
	}
	vm := c.vm
	vm.scratch = append(vm.scratch[:0], c.s.cells[:vm.g.lay.sites]...)
	before := *work
	at, how, _ := relayInto(vm.scratch, vm.dcl.board.tagMask, t, from, r.stop, r.maxLaps, work, vm.trip, nil)
	if err := c.charge(max(before-*work, 0)/8 + 1); err != nil {
		return false, err
	}
	if how == relayWork || how == relayOverflow {
		return false, c.relayFailed("relay_ends", from, how, at, r.maxLaps)
	}
	return how == relayEmpty || how == relayStop, nil
}

// ---- relay_choices_rule and bonus_rule ----

// relayChoicesRule: relay_choices_rule{continue = K, stop = K, ends = f}:
// (p, at) -> the moves emitted: continue, when ends(p, at) holds (or
// without ends), then stop.
type relayChoicesRule struct {
	cont, stop int
	ends       ruleRef
}

func (vm *machine) apiRelayChoicesRule(L *lua.LState) int {
	const what = "relay_choices_rule"
	t := vm.specTable(L, what, "continue", "stop", "ends")
	r := &relayChoicesRule{cont: vm.specKind(L, t, what, "continue", true), stop: vm.specKind(L, t, what, "stop", true),
		ends: vm.refArg(L, t, "ends", what, false)}
	for _, k := range []int{r.cont, r.stop} {
		if a := vm.dcl.kinds[k].arity; a != 0 {
			L.RaiseError("%s: kind %s must take no site, not %s", what, vm.dcl.kinds[k].Name, arityText(a))
		}
	}
	return vm.newNative(L, what, r)
}

func (r *relayChoicesRule) fromLua(c *nativeCall) (int, error) {
	c.emitting()
	if !c.vm.emitting {
		c.L.RaiseError("moves can only be emitted inside legal")
	}
	n, err := r.run(c, c.playerArg(1), c.siteArg(2))
	c.pushInt(n)
	return 1, err
}

func (r *relayChoicesRule) run(c *nativeCall, p, at int) (int, error) {
	n := 0
	if r.ends.present() {
		ok, err := c.stageEnds(r.ends, p, at)
		if err != nil {
			return 0, err
		}
		if !ok {
			n = -1
		}
	}
	if n == 0 {
		if err := c.push(Move{Kind: uint8(r.cont)}); err != nil {
			return 0, err
		}
	}
	return n + 2, c.push(Move{Kind: uint8(r.stop)})
}

// bonusRule: bonus_rule{pending = VAR, from = F}: (p, left). With left > 0
// and a site of the filter from (per player) to take from, p takes left
// bonus captures, one decision each: pending becomes -left and p decides
// next. Otherwise pending becomes 0: the move is over.
type bonusRule struct {
	pending int // the variable's index
	from    []*filter
}

func (vm *machine) apiBonusRule(L *lua.LState) int {
	const what = "bonus_rule"
	t := vm.specTable(L, what, "pending", "from")
	r := &bonusRule{pending: vm.specVar(L, t, what, "pending")}
	if t.RawGetString("from") == lua.LNil {
		L.RaiseError("%s: from is required (the filter of the sites p may take from, per player)", what)
	}
	r.from = perPlayer(vm, L, t, "from", what, vm.specFilter(L, what, "from"))
	return vm.newNative(L, what, r)
}

// specVar reads a script variable: its handle or its name; it returns its
// index.
func (vm *machine) specVar(L *lua.LState, t *lua.LTable, what, field string) int {
	return vm.specVarValue(L, t.RawGetString(field), what, field)
}

// specVarValue reads a script variable from its value v.
func (vm *machine) specVarValue(L *lua.LState, v lua.LValue, what, field string) int {
	switch x := v.(type) {
	case lua.LNumber:
		if i := int(x); float64(i) == float64(x) && i >= 1 && i <= len(vm.dcl.vars) {
			return i - 1
		}
	case lua.LString:
		for i, spec := range vm.dcl.vars {
			if spec.name == string(x) {
				return i
			}
		}
	}
	L.RaiseError("%s: %s must be a variable (from matombo.var, or its name), got %s", what, field, describeLua(v))
	return 0
}

func (r *bonusRule) fromLua(c *nativeCall) (int, error) {
	c.mutable()
	return 0, r.run(c, c.playerArg(1), c.vm.argInt(c.L, 2))
}

func (r *bonusRule) run(c *nativeCall, p, left int) error {
	vm := c.vm
	cells := c.s.cells
	cell := vm.g.vars[r.pending].cell
	if left > 0 {
		f := r.from[p-1]
		if err := c.chargeFilter(f); err != nil {
			return err
		}
		if filterFirst(f, cells, &vm.g.lay, vm.mover) >= 0 {
			if left > maxCount {
				return c.fail("%d bonus captures: too many", left)
			}
			cells[cell] = int32(-left)
			c.setToMove(p)
			return nil
		}
	}
	cells[cell] = 0
	return nil
}

// setToMove makes p decide next, as matombo.set_to_move does.
func (c *nativeCall) setToMove(p int) {
	c.s.cells[c.vm.g.lay.toMove] = int32(p)
	c.vm.toMoveSet = true
}

// ---- relay_play: a native turn ----

// relayPlay: relay_play{pending = VAR, sow = K, continue = K, stop = K,
// take = K, relay = f, capture = f, bonus = f, bonus_count = N, other =
// f}: play(p, kind, ...). See docs/lua-api.md.
type relayPlay struct {
	pending               int
	sow, cont, stop, take int // -1: none
	relay, capture, bonus ruleRef
	other                 ruleRef
	bonusCount            int
	irreversible          bool // a capture forgets every earlier position
}

func (vm *machine) apiRelayPlay(L *lua.LState) int {
	const what = "relay_play"
	t := vm.specTable(L, what, "pending", "sow", "continue", "stop", "take", "relay", "capture", "bonus", "bonus_count", "irreversible", "other")
	r := &relayPlay{pending: vm.specVar(L, t, what, "pending"), sow: vm.specKind(L, t, what, "sow", true),
		cont: vm.specKind(L, t, what, "continue", false), stop: vm.specKind(L, t, what, "stop", false),
		take:  vm.specKind(L, t, what, "take", false),
		relay: vm.refArg(L, t, "relay", what, true), capture: vm.refArg(L, t, "capture", what, false),
		bonus: vm.refArg(L, t, "bonus", what, false), other: vm.refArg(L, t, "other", what, false),
		bonusCount: specInt(L, t, what, "bonus_count", 0, 0, maxCount), irreversible: specBool(L, t, what, "irreversible")}
	arity := func(k, want int, field string) {
		if k >= 0 && vm.dcl.kinds[k].arity != want {
			L.RaiseError("%s: %s's kind %s must take %s", what, field, vm.dcl.kinds[k].Name, arityText(want))
		}
	}
	arity(r.sow, 1, "sow")
	arity(r.cont, 0, "continue")
	arity(r.stop, 0, "stop")
	arity(r.take, 1, "take")
	if r.take >= 0 && !r.bonus.present() {
		L.RaiseError("%s: take needs bonus (the rule that counts the captures left)", what)
	}
	return vm.newNative(L, what, r)
}

func (r *relayPlay) fromLua(c *nativeCall) (int, error) {
	c.mutable()
	return 0, r.play(c, c.playerArg(1), c.moveArgs(2))
}

func (r *relayPlay) play(c *nativeCall, p int, m Move) error {
	cells := c.s.cells
	pending := &cells[c.vm.g.vars[r.pending].cell]
	switch int(m.Kind) {
	case r.sow:
		return r.sowFrom(c, p, int(m.Sites[0]))
	case r.cont:
		at := int(*pending) - 1
		if at < 0 || at >= c.vm.g.lay.sites {
			return c.fail("continue, but no sowing waits at a stop")
		}
		*pending = 0
		return r.sowFrom(c, p, at)
	case r.stop:
		*pending = 0
		return nil
	case r.take:
		left := -int(*pending) - 1
		n, err := c.captureSite(int(m.Sites[0]), p)
		if err != nil {
			return err
		}
		r.captured(c, n)
		return c.stageBonus(r.bonus, p, left)
	}
	return c.stageOther(r.other, p, m)
}

// captured notes a capture of n counters: with irreversible, no earlier
// position can come back (matombo.irreversible).
func (r *relayPlay) captured(c *nativeCall, n int) {
	if n > 0 && r.irreversible {
		c.vm.irrev.marked = true
	}
}

// sowFrom relays from from; a relay that ends in an empty site is followed
// by the capture (and the bonus after one), one that ends at a stop waits
// there for the mover's decision.
func (r *relayPlay) sowFrom(c *nativeCall, p, from int) error {
	last, how, err := c.stageRelay(r.relay, p, from)
	if err != nil {
		return err
	}
	switch how {
	case relayEmpty:
		if !r.capture.present() {
			return nil
		}
		n, err := c.stageCapture(r.capture, p, last, true)
		r.captured(c, n)
		if err != nil || n <= 0 || !r.bonus.present() {
			return err
		}
		return c.stageBonus(r.bonus, p, r.bonusCount)
	case relayStop:
		c.s.cells[c.vm.g.vars[r.pending].cell] = int32(last + 1)
		c.setToMove(p)
		return nil
	}
	return c.fail("the sowing from %s went over the lap limit; legal must not offer it", c.vm.dcl.board.sites[from].Name)
}

// ---- the stages of the relay turns ----

func (c *nativeCall) stageRelay(r ruleRef, p, from int) (last, how int, err error) {
	if x, ok := r.native().(*relayRule); ok {
		last, how, _, err = x.run(c, p, from)
		return last, how, err
	}
	var out [2]lua.LValue
	if err := c.hook(r.fn, 2, out[:], luaInt(p), luaInt(from+1)); err != nil {
		return -1, 0, err
	}
	if last, err = c.siteResult(out[0], "relay"); err != nil {
		return -1, 0, err
	}
	switch w, _ := out[1].(lua.LString); w {
	case "empty":
		return last, relayEmpty, nil
	case "stop":
		return last, relayStop, nil
	case "laps":
		return last, relayLaps, nil
	}
	return -1, 0, c.fail("relay returned %s as how the sowing ended; want \"empty\", \"stop\" or \"laps\"", describeLua(out[1]))
}

func (c *nativeCall) stageEnds(r ruleRef, p, from int) (bool, error) {
	if x, ok := r.native().(*relayEndsRule); ok {
		return x.run(c, p, from)
	}
	var out [1]lua.LValue
	err := c.hook(r.fn, 1, out[:], luaInt(p), luaInt(from+1))
	return lua.LVAsBool(out[0]), err
}

func (c *nativeCall) stageBonus(r ruleRef, p, left int) error {
	if x, ok := r.native().(*bonusRule); ok {
		return x.run(c, p, left)
	}
	return c.hook(r.fn, 0, nil, luaInt(p), luaInt(left))
}

// captureSite moves every counter of site i into p's captured total, as
// matombo.capture does, and returns how many moved.
func (c *nativeCall) captureSite(i, p int) (int, error) {
	vm := c.vm
	cells := c.s.cells
	n := int(cells[i])
	total := &cells[vm.g.lay.captured+p-1]
	if int(*total)+n > maxCount {
		return 0, c.fail("a captured total would become %d: too large (at most %d)", int(*total)+n, maxCount)
	}
	cells[i] = 0
	*total += int32(n)
	if n != 0 && vm.rec != nil {
		vm.record(Effect{Kind: EffectCapture, Site: i, To: -1, Player: p, Count: n})
	}
	vm.emptied(c.s, i)
	return n, nil
}

// overBudget is the error of a native rule that exceeded a budget, as the
// primitives report it.
func (c *nativeCall) overBudget(budget Budget, limit, detail string) error {
	c.vm.budgetHit = &BudgetError{Budget: budget, Limit: limit, Detail: detail}
	return fmt.Errorf("%s budget exceeded (limit %s): %s", budget, limit, detail)
}
