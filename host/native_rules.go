package host

import (
	"math"
	"math/bits"
	"slices"

	lua "github.com/yuin/gopher-lua"
)

// The native rules of sowing games: each type is one kind of rule, made
// from a script's table by its constructor (apiSowRule, ...) and run by
// its run method. docs/lua-api.md, "Native rules", describes the tables.

// ---- sow_rule ----

// sowRule: sow_rule{track = T or {T1, T2, ...}, skip_origin = false}:
// (p, from) -> last, was_empty. Takes every counter of from and sows them
// one per site along player p's track, starting with the next site;
// skip_origin never drops into from, however many laps the sowing makes.
type sowRule struct {
	tracks []*Track // per player
	skip   bool
}

func (vm *machine) apiSowRule(L *lua.LState) int {
	const what = "sow_rule"
	t := vm.specTable(L, what, "track", "skip_origin")
	r := &sowRule{tracks: perPlayer(vm, L, t, "track", what, vm.specTrack(L, what, "track")), skip: specBool(L, t, what, "skip_origin")}
	for _, tr := range r.tracks {
		if r.skip && tr.Loop && len(tr.Sites) < 2 {
			L.RaiseError("%s: track %s has no site to sow into but the origin", what, tr.Name)
		}
	}
	return vm.newNative(L, what, r)
}

func (r *sowRule) fromLua(c *nativeCall) (int, error) {
	c.mutable()
	last, empty, err := r.run(c, c.playerArg(1), c.siteArg(2))
	if err != nil {
		return 0, err
	}
	c.pushSite(last)
	c.pushBool(empty)
	return 2, nil
}

func (r *sowRule) run(c *nativeCall, p, from int) (last int, wasEmpty bool, err error) {
	b := c.vm.dcl.board
	t := r.tracks[p-1]
	if from < 0 || t.pos[from] < 0 {
		return -1, false, c.fail("%s is not on track %s", siteLabel(b, from), t.Name)
	}
	cells := c.s.cells[:c.vm.g.lay.sites]
	n := int(cells[from])
	if n == 0 {
		return -1, false, c.fail("%s is empty: there is nothing to sow", b.sites[from].Name)
	}
	if err := c.charge(min(n, len(t.Sites))/8 + 1); err != nil {
		return -1, false, err
	}
	cells[from] = 0
	if r.skip {
		room := n
		if t.Loop {
			room = n/(len(t.Sites)-1) + 1
		}
		for _, site := range t.Sites {
			if int(cells[site])+room > maxCount {
				cells[from] = int32(n)
				return -1, false, c.fail("sowing %d counters from %s: the count of %s would pass %d", n, b.sites[from].Name, b.sites[site].Name, maxCount)
			}
		}
		last, wasEmpty = sowSkipping(cells, t, from, n)
	} else {
		var over int
		last, wasEmpty, over = sowInto(cells, t, from, n)
		if over >= 0 {
			return -1, false, c.fail("sowing %d counters from %s: the count of %s would pass %d", n, b.sites[from].Name, b.sites[over].Name, maxCount)
		}
	}
	if last < 0 {
		return -1, false, c.fail("sowing %d counters from %s runs off the end of track %s", n, b.sites[from].Name, t.Name)
	}
	if c.vm.rec != nil {
		c.vm.recordSite(EffectTake, from, n)
		c.vm.recordSowing(t, from, n, r.skip)
	}
	return last, wasEmpty, nil
}

func siteLabel(b *Board, i int) string {
	if i < 0 || i >= len(b.sites) {
		return "no site"
	}
	return b.sites[i].Name
}

// ---- extra_turn_rule ----

// extraTurnRule: extra_turn_rule{sites = {s1, s2, ...}}: (p, last) ->
// bool. When the last counter fell into player p's site, p moves again.
type extraTurnRule struct{ sites []int }

func (vm *machine) apiExtraTurnRule(L *lua.LState) int {
	const what = "extra_turn_rule"
	t := vm.specTable(L, what, "sites")
	r := &extraTurnRule{sites: perPlayer(vm, L, t, "sites", what, vm.specSite(L, what, "sites"))}
	return vm.newNative(L, what, r)
}

func (r *extraTurnRule) fromLua(c *nativeCall) (int, error) {
	c.mutable()
	c.pushBool(r.run(c, c.playerArg(1), c.siteArg(2)))
	return 1, nil
}

func (r *extraTurnRule) run(c *nativeCall, p, last int) bool {
	if last != r.sites[p-1] {
		return false
	}
	c.s.cells[c.vm.g.lay.toMove] = int32(p)
	c.vm.toMoveSet = true
	return true
}

// ---- capture_rule and takes_all_rule ----

// captureRule: capture_rule{owner =, was_empty =, counts =, opposite =,
// with_last =, runs =, unless =, into =}: (p, last, was_empty) -> the
// counters captured. See docs/lua-api.md.
type captureRule struct {
	owner    int     // -1 any, relMover, relOpponent
	wasEmpty bool    // the last counter fell into an empty site
	counts   []int32 // the counts that capture (the last site's, and each of a run's)
	opposite []int   // per player: the row whose site of the last site's column is taken; nil for none
	behind   []int   // per player: with opposite, the row whose site of that column is taken too; nil for none
	row      []int   // per player: the row the last site must be in; nil for any
	withLast bool    // with opposite: the last site's counters go too
	runs     []captureRun
	unless   ruleRef // (last, owner of last) -> true forbids the capture
	into     []int   // per player: the store site; nil for the captured total
}

// captureRun walks a track from the last site, step places at a time.
type captureRun struct {
	tracks []*Track // per player: the track of the player who owns the last site
	step   int
}

func (vm *machine) captureSpec(L *lua.LState, what string) *captureRule {
	t := vm.specTable(L, what, "owner", "was_empty", "counts", "opposite", "behind", "row", "with_last", "runs", "unless", "into")
	r := &captureRule{owner: -1, wasEmpty: specBool(L, t, what, "was_empty"), withLast: specBool(L, t, what, "with_last")}
	switch specString(L, t, what, "owner", "mover", "opponent") {
	case "mover":
		r.owner = relMover
	case "opponent":
		r.owner = relOpponent
	}
	r.counts = specCounts(L, t, what, "counts")
	b := vm.dcl.board
	rows := func(field string) []int {
		if t.RawGetString(field) == lua.LNil {
			return nil
		}
		return perPlayer(vm, L, t, field, what, func(v lua.LValue) int {
			n, ok := v.(lua.LNumber)
			if !ok || int(n) < 1 || int(n) > len(b.rows) || float64(int(n)) != float64(n) {
				L.RaiseError("%s: %s must be a row (1..%d) or one per player, got %s", what, field, len(b.rows), describeLua(v))
			}
			return int(n) - 1
		})
	}
	r.opposite, r.behind, r.row = rows("opposite"), rows("behind"), rows("row")
	if r.behind != nil && r.opposite == nil {
		L.RaiseError("%s: behind needs opposite (the site behind the opposite one)", what)
	}
	if v := t.RawGetString("runs"); v != lua.LNil {
		rt, ok := v.(*lua.LTable)
		if !ok || rt.Len() < 1 || rt.Len() > 4 {
			L.RaiseError("%s: runs must be a list of 1 to 4 runs {track = T, step = k}, got %s", what, describeLua(v))
		}
		for i := 1; i <= rt.Len(); i++ {
			one, ok := rt.RawGetInt(i).(*lua.LTable)
			if !ok {
				L.RaiseError("%s: runs[%d] must be a table {track = T, step = k}", what, i)
			}
			checkFields(L, one, what+": a run", "track", "step")
			run := captureRun{tracks: perPlayer(vm, L, one, "track", what, vm.specTrack(L, what, "runs' track")),
				step: specInt(L, one, what, "step", 0, -1000, 1000)}
			if run.step == 0 {
				L.RaiseError("%s: runs[%d] needs a step other than 0", what, i)
			}
			r.runs = append(r.runs, run)
		}
		if r.counts == nil {
			L.RaiseError("%s: runs need counts (the counts each site of a run must hold)", what)
		}
	}
	if r.opposite == nil && r.counts == nil {
		L.RaiseError("%s: give opposite (take the opposite site) or counts (take the last site when it holds one of them)", what)
	}
	r.unless = vm.refArg(L, t, "unless", what, false)
	if t.RawGetString("into") != lua.LNil {
		r.into = perPlayer(vm, L, t, "into", what, vm.specSite(L, what, "into"))
	}
	return r
}

func (vm *machine) apiCaptureRule(L *lua.LState) int {
	return vm.newNative(L, "capture_rule", vm.captureSpec(L, "capture_rule"))
}

// apiTakesAllRule: takes_all_rule{the capture's table}: (last, opp) ->
// whether the capture would take every counter on the sites opp owns,
// the test of a rule that forbids a capture of everything (a "grand
// slam").
func (vm *machine) apiTakesAllRule(L *lua.LState) int {
	r := vm.captureSpec(L, "takes_all_rule")
	if r.opposite != nil || r.row != nil {
		L.RaiseError("takes_all_rule: counts the last site and its runs; opposite and row are not supported")
	}
	return vm.newNative(L, "takes_all_rule", &takesAllRule{r})
}

// takesAllRule is takes_all_rule: a capture's table, asked whether the
// capture would take everything.
type takesAllRule struct{ *captureRule }

func (r *takesAllRule) fromLua(c *nativeCall) (int, error) {
	c.readOnly()
	all, err := r.takesAll(c, c.siteArg(1), c.playerArg(2))
	c.pushBool(all)
	return 1, err
}

// runTrack returns the track of run k for a last site owned by o, and
// checks that the last site is on it.
func (r *captureRule) runTrack(c *nativeCall, k, o, p, last int) (*Track, error) {
	if o < 1 {
		o = p
	}
	t := r.runs[k].tracks[o-1]
	if t.pos[last] < 0 {
		return nil, c.fail("%s is not on track %s", c.vm.dcl.board.sites[last].Name, t.Name)
	}
	return t, nil
}

// takesAll reports whether the capture from last (owned by opp) would
// take every counter on opp's sites.
func (r *captureRule) takesAll(c *nativeCall, last, opp int) (bool, error) {
	cells, lay := c.s.cells, &c.vm.g.lay
	would := int(cells[last])
	for k := range r.runs {
		t, err := r.runTrack(c, k, opp, opp, last)
		if err != nil {
			return false, err
		}
		if err := c.charge(len(t.Sites)/8 + 1); err != nil {
			return false, err
		}
		n, _ := runOf(cells[:lay.sites], t, last, r.runs[k].step, r.counts)
		would += n
	}
	total := 0
	for i := 0; i < lay.sites; i++ {
		if int(cells[lay.owners+i]) == opp {
			total += int(cells[i])
		}
	}
	return would == total, nil
}

func (r *captureRule) fromLua(c *nativeCall) (int, error) {
	c.mutable()
	got, err := r.run(c, c.playerArg(1), c.siteArg(2), c.L.ToBool(3))
	c.pushInt(got)
	return 1, err
}

func (r *captureRule) run(c *nativeCall, p, last int, wasEmpty bool) (int, error) {
	vm := c.vm
	b, lay, cells := vm.dcl.board, &vm.g.lay, c.s.cells
	if last < 0 || last >= lay.sites {
		return 0, c.fail("no last site to capture from")
	}
	o := int(cells[lay.owners+last])
	switch r.owner {
	case relMover:
		if o != p {
			return 0, nil
		}
	case relOpponent:
		if o == 0 || o == p {
			return 0, nil
		}
	}
	if r.wasEmpty && !wasEmpty {
		return 0, nil
	}
	if r.row != nil && b.sites[last].Row != r.row[p-1] {
		return 0, nil
	}
	if r.counts != nil && !slices.Contains(r.counts, cells[last]) {
		return 0, nil
	}
	opp := -1
	if r.opposite != nil {
		opp = b.at(r.opposite[p-1], b.sites[last].Col)
		if opp < 0 || cells[opp] == 0 {
			return 0, nil
		}
	}
	if r.unless.present() {
		no, err := c.stageUnless(r.unless, last, o)
		if err != nil || no {
			return 0, err
		}
	}
	// Into a store the counters are taken and dropped there; into the
	// captured total each site is a capture (the effects of take, add and
	// capture).
	kind, player := EffectCapture, p
	if r.into != nil {
		kind, player = EffectTake, 0
	}
	take := func(site int) int {
		n := int(cells[site])
		cells[site] = 0
		if vm.rec != nil && n > 0 {
			vm.record(Effect{Kind: kind, Site: site, To: -1, Player: player, Count: n})
		}
		vm.emptied(c.s, site)
		return n
	}
	total := 0
	if opp >= 0 {
		total = take(opp)
		if r.behind != nil {
			if x := b.at(r.behind[p-1], b.sites[last].Col); x >= 0 {
				total += take(x)
			}
		}
		if r.withLast {
			total += take(last)
		}
	} else {
		total = take(last)
		for k, run := range r.runs {
			t, err := r.runTrack(c, k, o, p, last)
			if err != nil {
				return 0, err
			}
			if err := c.charge(len(t.Sites)/8 + 1); err != nil {
				return 0, err
			}
			site := last
			for range len(t.Sites) {
				site = t.step(site, run.step)
				if site < 0 || !slices.Contains(r.counts, cells[site]) {
					break
				}
				total += take(site)
			}
		}
	}
	dst := lay.captured + p - 1
	if r.into != nil {
		dst = r.into[p-1]
	}
	if int(cells[dst])+total > maxCount {
		return 0, c.fail("a capture of %d counters would make a count pass %d", total, maxCount)
	}
	cells[dst] += int32(total)
	if r.into != nil && total > 0 {
		vm.recordSite(EffectDrop, dst, total)
	}
	return total, nil
}

// ---- end_rule and result_rule ----

// endRule: end_rule{{CONDITION, reason = TEXT}, ..., result = fn}: (p,
// captured). The first condition that holds ends the game: result(reason).
type endRule struct {
	conds  []endCond
	result ruleRef
}

type endCond struct {
	reason   string
	empty    []*filter // some player's filter holds no counter
	none     *filter   // no site matches
	plyAbove int       // the ply count passed this (-1: unused)
	above    int       // some captured total passed this (-1: unused)
	each     int       // every captured total is this (-1: unused)
}

func (vm *machine) apiEndRule(L *lua.LState) int {
	const what = "end_rule"
	vm.mustLoad(L, "a native rule ("+what+")")
	vm.board(L)
	t := L.CheckTable(1)
	r := &endRule{result: vm.refArg(L, t, "result", what, true)}
	t.ForEach(func(k, _ lua.LValue) {
		if _, ok := k.(lua.LNumber); !ok && k.String() != "result" {
			L.RaiseError("%s: unknown field %s (a list of conditions, and result)", what, k.String())
		}
	})
	for i := 1; i <= t.Len(); i++ {
		ct, ok := t.RawGetInt(i).(*lua.LTable)
		if !ok {
			L.RaiseError("%s: condition %d must be a table such as {empty = F, reason = \"...\"}", what, i)
		}
		checkFields(L, ct, what+": a condition", "reason", "empty", "none", "ply_above", "captured_above", "captured_each")
		c := endCond{plyAbove: -1, above: -1, each: -1}
		reason, ok := ct.RawGetString("reason").(lua.LString)
		if !ok || len(reason) > 200 {
			L.RaiseError("%s: condition %d needs a reason (text of at most 200 characters)", what, i)
		}
		checkText(L, what+": a reason", string(reason), false)
		c.reason = string(reason)
		set := 0
		if ct.RawGetString("empty") != lua.LNil {
			c.empty = perPlayer(vm, L, ct, "empty", what, vm.specFilter(L, what, "empty"))
			set++
		}
		if v := ct.RawGetString("none"); v != lua.LNil {
			c.none = vm.specFilter(L, what, "none")(v)
			set++
		}
		for _, f := range []struct {
			name string
			dst  *int
		}{{"ply_above", &c.plyAbove}, {"captured_above", &c.above}, {"captured_each", &c.each}} {
			if ct.RawGetString(f.name) != lua.LNil {
				*f.dst = specInt(L, ct, what, f.name, 0, 0, maxCount)
				set++
			}
		}
		if set != 1 {
			L.RaiseError("%s: condition %d needs exactly one of empty, none, ply_above, captured_above, captured_each", what, i)
		}
		r.conds = append(r.conds, c)
	}
	if len(r.conds) == 0 {
		L.RaiseError("%s: give at least one condition", what)
	}
	return vm.newNative(L, what, r)
}

func (r *endRule) fromLua(c *nativeCall) (int, error) {
	c.mutable()
	return 0, r.run(c, c.playerArg(1), c.vm.optInt(c.L, 2, 0))
}

func (r *endRule) run(c *nativeCall, p, captured int) error {
	vm := c.vm
	lay, cells := &vm.g.lay, c.s.cells
	if err := c.charge(1 + lay.sites/4); err != nil {
		return err
	}
	for i := range r.conds {
		e := &r.conds[i]
		hit := false
		switch {
		case e.empty != nil:
			for _, f := range e.empty {
				if filterSum(f, cells, lay, vm.mover) == 0 {
					hit = true
					break
				}
			}
		case e.none != nil:
			hit = filterFirst(e.none, cells, lay, vm.mover) < 0
		case e.plyAbove >= 0:
			hit = c.s.ply > e.plyAbove
		case e.above >= 0:
			for q := range lay.players {
				hit = hit || int(cells[lay.captured+q]) > e.above
			}
		case e.each >= 0:
			hit = true
			for q := range lay.players {
				hit = hit && int(cells[lay.captured+q]) == e.each
			}
		}
		if hit {
			return c.stageResult(r.result, e.reason)
		}
	}
	return nil
}

func filterSum(f *filter, cells []int32, lay *layout, mover int) int {
	return f.sum(cells, lay, mover)
}

func filterFirst(f *filter, cells []int32, lay *layout, mover int) int {
	t, owners := f.tester(mover), lay.ownersOf(cells)
	for _, i := range f.cand {
		if t.ok(cells, owners, i) && (!t.rare || f.matchesOwner(cells, lay, mover, i)) {
			return int(i)
		}
	}
	return -1
}

// resultRule: result_rule{sweep = bool}: (reason). Each player's total is
// their captured counters plus the counters on the sites they own (with
// sweep, those counters first move into the captured totals); the one
// largest total wins, otherwise the game is drawn.
type resultRule struct{ sweep bool }

func (vm *machine) apiResultRule(L *lua.LState) int {
	const what = "result_rule"
	t := vm.specTable(L, what, "sweep")
	return vm.newNative(L, what, &resultRule{sweep: specBool(L, t, what, "sweep")})
}

func (r *resultRule) fromLua(c *nativeCall) (int, error) {
	c.readOnly()
	if c.vm.phase != CallBlocked && c.vm.phase != CallRepeated {
		c.mutable()
	}
	return 0, r.run(c, c.L.CheckString(1))
}

func (r *resultRule) run(c *nativeCall, reason string) error {
	lay, cells := &c.vm.g.lay, c.s.cells
	var totals [8]int
	if lay.players > len(totals) {
		return c.fail("result_rule handles at most %d players", len(totals))
	}
	for i := 0; i < lay.sites; i++ {
		o := int(cells[lay.owners+i])
		if o < 1 || cells[i] == 0 {
			continue
		}
		totals[o-1] += int(cells[i])
		if r.sweep {
			cp := &cells[lay.captured+o-1]
			if int(*cp)+int(cells[i]) > maxCount {
				return c.fail("player %d's captured total would pass %d", o, maxCount)
			}
			if c.vm.rec != nil {
				c.vm.record(Effect{Kind: EffectCapture, Site: i, To: -1, Player: o, Count: int(cells[i])})
			}
			*cp += cells[i]
			cells[i] = 0
		}
	}
	best, winner := -1, 0
	for q := range lay.players {
		t := totals[q]
		if r.sweep {
			t = int(cells[lay.captured+q])
		} else {
			t += int(cells[lay.captured+q])
		}
		switch {
		case t > best:
			best, winner = t, q+1
		case t == best:
			winner = 0
		}
	}
	c.finish(winner, reason, nil)
	return nil
}

// ---- sowings_rule ----

// sowingsRule: sowings_rule{kind =, from = F or {F1, F2}, sites = {...},
// feeding = T or {T1, T2}, none = KIND}: (p) -> the moves added. A move of
// kind for each site p may sow from: the sites of from that match, or the
// sites listed that hold counters, in that order. With feeding, only the
// sowings that reach a site another player owns along p's track. When
// none is given and no sowing is legal, one move of that kind.
type sowingsRule struct {
	kind    int
	from    []*filter
	sites   [][]int32
	feeding []*Track
	ends    ruleRef // (p, from) -> whether the sowing from there ends; absent for all
	none    int
}

func (vm *machine) apiSowingsRule(L *lua.LState) int {
	const what = "sowings_rule"
	t := vm.specTable(L, what, "kind", "from", "sites", "feeding", "ends", "none")
	r := &sowingsRule{kind: vm.specKind(L, t, what, "kind", true), none: vm.specKind(L, t, what, "none", false),
		ends: vm.refArg(L, t, "ends", what, false)}
	if a := vm.dcl.kinds[r.kind].arity; a != 1 {
		L.RaiseError("%s: kind %s must take 1 site", what, vm.dcl.kinds[r.kind].Name)
	}
	if r.none >= 0 && vm.dcl.kinds[r.none].arity != 0 {
		L.RaiseError("%s: none's kind %s must take no site", what, vm.dcl.kinds[r.none].Name)
	}
	switch {
	case t.RawGetString("from") != lua.LNil && t.RawGetString("sites") == lua.LNil:
		r.from = perPlayer(vm, L, t, "from", what, vm.specFilter(L, what, "from"))
	case t.RawGetString("sites") != lua.LNil && t.RawGetString("from") == lua.LNil:
		lt, ok := t.RawGetString("sites").(*lua.LTable)
		if !ok || lt.Len() != vm.dcl.players {
			L.RaiseError("%s: sites must list one list of sites per player", what)
		}
		for p := 1; p <= lt.Len(); p++ {
			var list []int32
			for _, i := range vm.siteList(L, lt.RawGetInt(p), what+": sites") {
				list = append(list, int32(i))
			}
			r.sites = append(r.sites, list)
		}
	default:
		L.RaiseError("%s: give either from (filters) or sites (lists of sites)", what)
	}
	if t.RawGetString("feeding") != lua.LNil {
		r.feeding = perPlayer(vm, L, t, "feeding", what, vm.specTrack(L, what, "feeding"))
	}
	return vm.newNative(L, what, r)
}

func (r *sowingsRule) fromLua(c *nativeCall) (int, error) {
	c.emitting()
	k, err := r.run(c, c.playerArg(1))
	c.pushInt(k)
	return 1, err
}

func (r *sowingsRule) emit(c *nativeCall, p int) (int, error) { return r.run(c, p) }

func (r *sowingsRule) run(c *nativeCall, p int) (int, error) {
	vm := c.vm
	s, lay := c.s, &vm.g.lay
	cells := s.cells
	var cand []int32
	var f *filter
	if r.from != nil {
		f = r.from[p-1]
		cand = f.cand
	} else {
		cand = r.sites[p-1]
	}
	if err := c.charge(len(cand)/4 + 1); err != nil {
		return 0, err
	}
	if len(s.moves)+len(cand)+1 > maxLegal {
		return 0, c.fail("more than %d legal moves in one decision", maxLegal)
	}
	// A native ends rule settles most sowings at once by its bound, found
	// once for them all (as emit_sowings does).
	var ends *relayEndsRule
	bounded, work := false, 0
	if x, ok := r.ends.native().(*relayEndsRule); ok {
		ends, bounded, work = x, x.bounded(c, p), sowWork(lay.sites)
	}
	moves := s.moves
	before := len(moves)
	m := Move{Kind: uint8(r.kind), N: 1, game: vm.g.tag}
	mover := vm.mover
	t, owners := tester{lo: 1, hi: math.MaxInt32, owner: -1}, lay.ownersOf(cells) // any site with counters
	if f != nil {
		t = f.tester(mover)
	}
	// The candidates go by blocks of 64: a tight loop finds those passing
	// the filter's quick tests, then each is looked at. A Lua hook may see
	// the state between candidates, so with one each is tested in its turn.
	lua := r.ends.present() && ends == nil
	for len(cand) > 0 {
		block := cand[:min(len(cand), 64)]
		cand = cand[len(block):]
		hits := ^uint64(0) >> (64 - len(block))
		if !lua {
			hits = t.hits(cells, owners, block)
		}
		for ; hits != 0; hits &= hits - 1 {
			i := block[bits.TrailingZeros64(hits)]
			if lua && !t.ok(cells, owners, i) || t.rare && !f.matchesOwner(cells, lay, mover, i) {
				continue
			}
			if r.feeding != nil && !feeds(r.feeding[p-1], cells, lay, p, int(i)) {
				continue
			}
			if r.ends.present() {
				var ok bool
				var err error
				if ends != nil {
					t := ends.tracks[p-1]
					if err = ends.check(c, t, int(i)); err == nil {
						ok, err = ends.ends(c, t, int(i), bounded, &work)
					}
				} else {
					s.moves = moves // a Lua function sees the list so far
					ok, err = c.stageEnds(r.ends, p, int(i))
					moves = s.moves
				}
				if err != nil {
					return 0, err
				}
				if !ok {
					continue
				}
			}
			m.Sites[0] = uint16(i)
			moves = append(moves, m)
		}
	}
	if len(moves) == before && r.none >= 0 {
		moves = append(moves, Move{Kind: uint8(r.none), game: vm.g.tag})
	}
	s.moves = moves
	return len(moves) - before, nil
}

// feeds reports whether a sowing from i reaches, along t, a site that a
// player other than p owns.
func feeds(t *Track, cells []int32, lay *layout, p, i int) bool {
	n := int(cells[i])
	if t.pos[i] < 0 {
		return false
	}
	site := i
	for d := 1; d <= n && d <= len(t.Sites); d++ {
		site = int(t.next[site])
		if site < 0 || site == i {
			return false
		}
		if o := int(cells[lay.owners+site]); o != 0 && o != p {
			return true
		}
	}
	return false
}

// ---- sowing_play and sowing_legal: native turns ----

// playTurn: sowing_play{kind =, sow =, extra_turn =, capture =,
// irreversible =, after_capture =, after =, other =}: play(p, kind, ...).
// A move of kind is: last, was_empty = sow(p, from); unless extra_turn(p,
// last) is true, n = capture(p, last, was_empty); after a capture (n > 0),
// with irreversible, every earlier position is impossible
// (matombo.irreversible), and after_capture(p, n) runs; then after(p, n).
// A move of another kind is other(p, kind, sites...).
type playTurn struct {
	kind                       int
	sow, extra, capture        ruleRef
	after, afterCapture, other ruleRef
	irreversible               bool
}

func (vm *machine) apiSowingPlay(L *lua.LState) int {
	const what = "sowing_play"
	t := vm.specTable(L, what, "kind", "sow", "extra_turn", "capture", "irreversible", "after_capture", "after", "other")
	r := &playTurn{kind: vm.specKind(L, t, what, "kind", true), sow: vm.refArg(L, t, "sow", what, true),
		extra: vm.refArg(L, t, "extra_turn", what, false), capture: vm.refArg(L, t, "capture", what, false),
		after: vm.refArg(L, t, "after", what, false), afterCapture: vm.refArg(L, t, "after_capture", what, false),
		other:        vm.refArg(L, t, "other", what, false),
		irreversible: specBool(L, t, what, "irreversible")}
	if a := vm.dcl.kinds[r.kind].arity; a != 1 {
		L.RaiseError("%s: kind %s must take 1 site (the site sown from)", what, vm.dcl.kinds[r.kind].Name)
	}
	return vm.newNative(L, what, r)
}

func (r *playTurn) fromLua(c *nativeCall) (int, error) {
	c.mutable()
	return 0, r.play(c, c.playerArg(1), c.moveArgs(2))
}

func (r *playTurn) play(c *nativeCall, p int, m Move) error {
	if int(m.Kind) != r.kind {
		return c.stageOther(r.other, p, m)
	}
	last, empty, err := c.stageSow(r.sow, p, int(m.Sites[0]))
	if err != nil {
		return err
	}
	n := 0
	again := false
	if r.extra.present() {
		if again, err = c.stageExtra(r.extra, p, last); err != nil {
			return err
		}
	}
	if !again && r.capture.present() {
		if n, err = c.stageCapture(r.capture, p, last, empty); err != nil {
			return err
		}
	}
	if n > 0 && r.irreversible {
		c.vm.irrev.marked = true
	}
	if n > 0 && r.afterCapture.present() {
		if err := c.stageAfter(r.afterCapture, p, n); err != nil {
			return err
		}
	}
	if r.after.present() {
		return c.stageAfter(r.after, p, n)
	}
	return nil
}

// legalTurn: sowing_legal{sowings =, starving = F or {F1, F2}, feeding =}:
// legal(p). When the next player's starving filter holds no counter,
// feeding(p) (nothing without feeding); otherwise sowings(p).
type legalTurn struct {
	sowings, feeding ruleRef
	starving         []*filter
}

func (vm *machine) apiSowingLegal(L *lua.LState) int {
	const what = "sowing_legal"
	t := vm.specTable(L, what, "sowings", "starving", "feeding")
	r := &legalTurn{sowings: vm.refArg(L, t, "sowings", what, true), feeding: vm.refArg(L, t, "feeding", what, false)}
	if t.RawGetString("starving") != lua.LNil {
		r.starving = perPlayer(vm, L, t, "starving", what, vm.specFilter(L, what, "starving"))
	} else if r.feeding.present() {
		L.RaiseError("%s: feeding needs starving (whose sites must be fed)", what)
	}
	return vm.newNative(L, what, r)
}

func (r *legalTurn) fromLua(c *nativeCall) (int, error) {
	c.emitting()
	_, err := r.emit(c, c.playerArg(1))
	return 0, err
}

func (r *legalTurn) emit(c *nativeCall, p int) (int, error) {
	vm := c.vm
	if r.starving != nil {
		q := vm.g.nextPlayer(p)
		if err := c.charge(len(r.starving[q-1].cand)/4 + 1); err != nil {
			return 0, err
		}
		if filterSum(r.starving[q-1], c.s.cells, &vm.g.lay, vm.mover) == 0 {
			if r.feeding.present() {
				return c.stageEmit(r.feeding, p)
			}
			return 0, nil
		}
	}
	return c.stageEmit(r.sowings, p)
}

// ---- the stages: native rules called from Go, others through Lua ----

func (c *nativeCall) siteResult(v lua.LValue, what string) (int, error) {
	n, ok := v.(lua.LNumber)
	if i := int(n); ok && float64(i) == float64(n) && i >= 1 && i <= c.vm.g.lay.sites {
		return i - 1, nil
	}
	return -1, c.fail("%s returned %s, not a site", what, describeLua(v))
}

func siteValue(i int) lua.LValue {
	if i < 0 {
		return lua.LNil
	}
	return luaInt(i + 1)
}

func (c *nativeCall) stageSow(r ruleRef, p, from int) (int, bool, error) {
	if x, ok := r.native().(*sowRule); ok {
		return x.run(c, p, from)
	}
	var out [2]lua.LValue
	if err := c.hook(r.fn, 2, out[:], luaInt(p), luaInt(from+1)); err != nil {
		return -1, false, err
	}
	last, err := c.siteResult(out[0], "sow")
	return last, lua.LVAsBool(out[1]), err
}

func (c *nativeCall) stageExtra(r ruleRef, p, last int) (bool, error) {
	if x, ok := r.native().(*extraTurnRule); ok {
		return x.run(c, p, last), nil
	}
	var out [1]lua.LValue
	err := c.hook(r.fn, 1, out[:], luaInt(p), siteValue(last))
	return lua.LVAsBool(out[0]), err
}

func (c *nativeCall) stageCapture(r ruleRef, p, last int, empty bool) (int, error) {
	if x, ok := r.native().(*captureRule); ok {
		return x.run(c, p, last, empty)
	}
	var out [1]lua.LValue
	if err := c.hook(r.fn, 1, out[:], luaInt(p), siteValue(last), lua.LBool(empty)); err != nil {
		return 0, err
	}
	n, _ := out[0].(lua.LNumber) // a capture function may return nothing
	return int(n), nil
}

func (c *nativeCall) stageUnless(r ruleRef, last, owner int) (bool, error) {
	if x, ok := r.native().(*takesAllRule); ok {
		return x.takesAll(c, last, owner)
	}
	var out [1]lua.LValue
	err := c.hook(r.fn, 1, out[:], siteValue(last), luaInt(owner))
	return lua.LVAsBool(out[0]), err
}

func (c *nativeCall) stageAfter(r ruleRef, p, n int) error {
	if x, ok := r.native().(*endRule); ok {
		return x.run(c, p, n)
	}
	return c.hook(r.fn, 0, nil, luaInt(p), luaInt(n))
}

func (c *nativeCall) stageResult(r ruleRef, reason string) error {
	if x, ok := r.native().(*resultRule); ok {
		return x.run(c, reason)
	}
	return c.hook(r.fn, 0, nil, lua.LString(reason))
}

// stageEmit runs an emitting stage for player p and returns the number of
// moves it emitted (for a Lua function, the moves the legal list grew by).
func (c *nativeCall) stageEmit(r ruleRef, p int) (int, error) {
	if r.nat != nil && r.nat.emits != nil {
		return r.nat.emits.emit(c, p)
	}
	before := len(c.s.moves)
	err := c.hook(r.fn, 0, nil, luaInt(p))
	return len(c.s.moves) - before, err
}
