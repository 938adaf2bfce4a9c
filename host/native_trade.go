package host

import (
	lua "github.com/yuin/gopher-lua"
)

// The native rules of trades of sites for captured counters: a player
// offers some of their sites, the next player answers, and on accepting
// takes them over, paying a price per site from their captured counters.
// The sites of a pending offer wait in script variables, declared by the
// script and named in the tables (0 for none).
// docs/lua-api.md, "Native rules", describes the tables.

// offersRule: offers_rule{kind = K, from = F, keep = 1, most = 3, price =
// N}: (p) -> the moves emitted. A move of kind K for each set of 1 to k
// sites of the filter F (per player), smaller sets first, each in board
// order (as emit_subsets), where k is the most sites p may offer: at most
// most, keeping keep sites of F, and no more than the next player can pay
// for at price counters each from their captured total.
type offersRule struct {
	kind              int
	from              []*filter
	keep, most, price int
}

func (vm *machine) apiOffersRule(L *lua.LState) int {
	const what = "offers_rule"
	t := vm.specTable(L, what, "kind", "from", "keep", "most", "price")
	r := &offersRule{kind: vm.specKind(L, t, what, "kind", true),
		keep:  specInt(L, t, what, "keep", 0, 0, maxSites),
		most:  specInt(L, t, what, "most", MaxMoveSites, 1, MaxMoveSites),
		price: specInt(L, t, what, "price", 0, 0, maxCount)}
	if vm.dcl.kinds[r.kind].arity >= 0 {
		L.RaiseError("%s: kind %s names fixed sites; an offer needs a kind whose template uses {sites}", what, vm.dcl.kinds[r.kind].Name)
	}
	if t.RawGetString("from") == lua.LNil {
		L.RaiseError("%s: from is required (the filter of the sites a player may offer)", what)
	}
	r.from = perPlayer(vm, L, t, "from", what, vm.specFilter(L, what, "from"))
	return vm.newNative(L, what, r)
}

func (r *offersRule) fromLua(c *nativeCall) (int, error) {
	c.emitting()
	n, err := r.emit(c, c.playerArg(1))
	c.pushInt(n)
	return 1, err
}

func (r *offersRule) emit(c *nativeCall, p int) (int, error) {
	vm := c.vm
	cells, lay := c.s.cells, &vm.g.lay
	k := r.most
	if r.price > 0 {
		k = min(k, int(cells[lay.captured+vm.g.nextPlayer(p)-1])/r.price)
	}
	if k < 1 {
		return 0, nil
	}
	f := r.from[p-1]
	if err := c.chargeFilter(f); err != nil {
		return 0, err
	}
	var buf [64]int32
	pool := buf[:0]
	t, owners := f.tester(vm.mover), lay.ownersOf(cells)
	for _, i := range f.cand {
		if t.ok(cells, owners, i) && (!t.rare || f.matchesOwner(cells, lay, vm.mover, i)) {
			pool = append(pool, i)
		}
	}
	k = min(k, len(pool)-r.keep)
	before := len(c.s.moves)
	var idx [MaxMoveSites]int
	for size := 1; size <= k; size++ {
		for i := range size {
			idx[i] = i
		}
		for {
			m := Move{Kind: uint8(r.kind), N: uint8(size)}
			for i := range size {
				m.Sites[i] = uint16(pool[idx[i]])
			}
			if err := c.push(m); err != nil {
				return 0, err
			}
			i := size - 1 // the next set of this size
			for i >= 0 && idx[i] == len(pool)-size+i {
				i--
			}
			if i < 0 {
				break
			}
			idx[i]++
			for j := i + 1; j < size; j++ {
				idx[j] = idx[j-1] + 1
			}
		}
	}
	return len(c.s.moves) - before, nil
}

// offerRule: offer_rule{holes = {V1, V2, ...}}: (p, s1, s2, ...). The
// sites offered go into the variables, the rest become 0.
type offerRule struct{ holes []int }

// specVars reads a list of script variables.
func (vm *machine) specVars(L *lua.LState, t *lua.LTable, what, field string) []int {
	lt, ok := t.RawGetString(field).(*lua.LTable)
	if !ok || lt.Len() < 1 || lt.Len() > MaxMoveSites {
		L.RaiseError("%s: %s must be a list of 1 to %d variables (from matombo.var)", what, field, MaxMoveSites)
	}
	var out []int
	for i := 1; i <= lt.Len(); i++ {
		out = append(out, vm.specVarValue(L, lt.RawGetInt(i), what, field))
	}
	return out
}

func (vm *machine) apiOfferRule(L *lua.LState) int {
	const what = "offer_rule"
	t := vm.specTable(L, what, "holes")
	return vm.newNative(L, what, &offerRule{holes: vm.specVars(L, t, what, "holes")})
}

func (r *offerRule) fromLua(c *nativeCall) (int, error) {
	c.mutable()
	m := Move{}
	for i := 2; i <= c.L.GetTop() && int(m.N) < MaxMoveSites; i++ {
		if c.L.Get(i) == lua.LNil {
			break
		}
		m.Sites[m.N] = uint16(c.siteArg(i))
		m.N++
	}
	return 0, r.playMove(c, c.playerArg(1), m)
}

func (r *offerRule) playMove(c *nativeCall, p int, m Move) error {
	if int(m.N) > len(r.holes) {
		return c.fail("an offer of %d sites, but offer_rule keeps %d", m.N, len(r.holes))
	}
	cells, vars := c.s.cells, c.vm.g.vars
	for i, v := range r.holes {
		x := int32(0)
		if i < int(m.N) {
			x = int32(m.Sites[i]) + 1
		}
		cells[vars[v].cell] = x
	}
	return nil
}

// acceptRule: accept_rule{holes = {V1, ...}, price = N}: (p). Each site
// of the pending offer becomes p's (as matombo.set_owner) and p pays N of
// their captured counters into it (as matombo.pay); then the offer is
// cleared and p decides next.
type acceptRule struct {
	holes []int
	price int
}

func (vm *machine) apiAcceptRule(L *lua.LState) int {
	const what = "accept_rule"
	t := vm.specTable(L, what, "holes", "price")
	return vm.newNative(L, what, &acceptRule{holes: vm.specVars(L, t, what, "holes"), price: specInt(L, t, what, "price", 0, 0, maxCount)})
}

func (r *acceptRule) fromLua(c *nativeCall) (int, error) {
	c.mutable()
	return 0, r.playMove(c, c.playerArg(1), Move{})
}

func (r *acceptRule) playMove(c *nativeCall, p int, _ Move) error {
	vm := c.vm
	cells, lay, vars := c.s.cells, &vm.g.lay, vm.g.vars
	for _, v := range r.holes {
		s := int(cells[vars[v].cell]) - 1
		if s < 0 {
			continue
		}
		if s >= lay.sites {
			return c.fail("the offer names %d, which is not a site", s+1)
		}
		if o := &cells[lay.owners+s]; *o != int32(p) {
			*o = int32(p)
			vm.record(Effect{Kind: EffectOwner, Site: s, To: -1, Player: p})
		}
		if err := c.pay(p, s, r.price); err != nil {
			return err
		}
	}
	for _, v := range r.holes {
		cells[vars[v].cell] = 0
	}
	c.setToMove(p)
	return nil
}

// pay moves n of p's captured counters onto site s, as matombo.pay does.
func (c *nativeCall) pay(p, s, n int) error {
	vm := c.vm
	cells := c.s.cells
	total := &cells[vm.g.lay.captured+p-1]
	if n < 0 || int(*total) < n {
		return c.fail("player %d cannot pay %d counters with %d captured", p, n, *total)
	}
	if int(cells[s])+n > maxCount {
		return c.fail("the count of %s would become %d: too large (at most %d)", vm.dcl.board.sites[s].Name, int(cells[s])+n, maxCount)
	}
	*total -= int32(n)
	cells[s] += int32(n)
	if n != 0 && vm.rec != nil {
		vm.recordPlayer(EffectCaptured, p, int(*total))
		vm.recordSite(EffectDrop, s, n)
	}
	return nil
}

// declineRule: decline_rule{holes = {V1, ...}, declined = {D1, D2, ...}}:
// (p). The pending offer is cleared, p's variable of declined (one per
// player) becomes 1, and p decides next.
type declineRule struct {
	holes, declined []int
}

func (vm *machine) apiDeclineRule(L *lua.LState) int {
	const what = "decline_rule"
	t := vm.specTable(L, what, "holes", "declined")
	r := &declineRule{holes: vm.specVars(L, t, what, "holes")}
	if t.RawGetString("declined") != lua.LNil {
		r.declined = vm.specVars(L, t, what, "declined")
		if len(r.declined) != vm.dcl.players {
			L.RaiseError("%s: declined must list one variable per player (%d)", what, vm.dcl.players)
		}
	}
	return vm.newNative(L, what, r)
}

func (r *declineRule) fromLua(c *nativeCall) (int, error) {
	c.mutable()
	return 0, r.playMove(c, c.playerArg(1), Move{})
}

func (r *declineRule) playMove(c *nativeCall, p int, _ Move) error {
	cells, vars := c.s.cells, c.vm.g.vars
	if r.declined != nil {
		cells[vars[r.declined[p-1]].cell] = 1
	}
	for _, v := range r.holes {
		cells[vars[v].cell] = 0
	}
	c.setToMove(p)
	return nil
}
