package kernel

import (
	"fmt"
	"slices"
)

// SowWork bounds the steps (sites visited) of one sowing call on a board
// of the given number of sites: relays loop in Go, where the time budget
// cannot interrupt them, and a script chooses their lap limit. The bound
// leaves room for a sowing of 1000 laps from every site of the board (a
// lap visits at most twice the sites), between 2^22 and 2^25 steps (about
// 10 to 250 ms). A sowing that runs longer is a sowing that does not end:
// the call fails, asking for a lower lap limit.
func SowWork(sites int) int {
	w := 2048 * sites * sites
	return min(max(w, 1<<22), 1<<25)
}

// sowInto drops n counters one per site along t, starting with the site
// after from. It returns the last site sown and whether that site was empty
// before the last counter fell in; last is -1 when a track that does not
// loop ran out of sites. The starting site is not skipped when a sowing laps
// the track. A site whose count would pass MaxCount is returned as
// overflow (-1 when none): the counts are then partly sown.
func sowInto(counts []int32, t *Track, from int, n int) (last int, wasEmpty bool, overflow int) {
	if t.Loop && n >= len(t.Sites) {
		q := n / len(t.Sites)
		for _, s := range t.Sites {
			v := int(counts[s]) + q
			if v > MaxCount {
				return from, false, s
			}
			counts[s] = int32(v)
		}
		n -= q * len(t.Sites)
		if n == 0 {
			return from, counts[from] == 1, -1
		}
	}
	pos := from
	for ; n > 0; n-- {
		pos = int(t.next[pos])
		if pos < 0 {
			return -1, false, -1
		}
		if counts[pos] >= MaxCount {
			return pos, false, pos
		}
		counts[pos]++
	}
	return pos, counts[pos] == 1, -1
}

// sowSkipping drops n counters one per site along t, starting with the site
// after from and never into from itself, however many laps the sowing
// makes. It returns the last site sown and whether that site was empty
// before the last counter fell in; last is -1 when a track that does not
// loop ran out of sites. On a looping track the other sites get n / (L-1)
// counters each at once (L sites on the track). The caller checks that no
// count passes MaxCount.
func sowSkipping(counts []int32, t *Track, from int, n int) (last int, wasEmpty bool) {
	if !t.Loop {
		last, wasEmpty, _ = sowInto(counts, t, from, n)
		return last, wasEmpty
	}
	others := len(t.Sites) - 1
	if others < 1 {
		return -1, false
	}
	if q := n / others; q > 0 {
		for _, s := range t.Sites {
			if s != from {
				counts[s] += int32(q)
			}
		}
		n -= q * others
		if n == 0 {
			last = t.Step(from, -1)
			return last, counts[last] == 1
		}
	}
	pos := from
	for ; n > 0; n-- {
		pos = int(t.next[pos])
		if pos == from {
			pos = int(t.next[pos])
		}
		counts[pos]++
	}
	return pos, counts[pos] == 1
}

// SowCost is the number of steps a lap of n counters on t costs: the sites
// a sowing visits, plus lapOverhead for the lap itself (picking up,
// checking how it ended), which costs as much as visiting a few sites.
func SowCost(t *Track, n int) int {
	if t.Loop && n >= len(t.Sites) {
		return len(t.Sites) + n%len(t.Sites) + lapOverhead
	}
	return n + lapOverhead
}

const lapOverhead = 8

// How a relay sowing ended.
type How uint8

// The ends of a relay.
const (
	RelayEmpty    How = iota // the last counter fell into an empty site
	RelayStop                // the last counter fell into an occupied site with the stop tag
	RelayLaps                // the lap limit was reached
	RelayOff                 // a track that does not loop ran out of sites
	RelayWork                // the work bound was reached (see SowWork)
	RelayOverflow            // a count would pass MaxCount
	RelayHook                // a lap's hook ended the sowing
)

// Word is how matombo.relay names the end: "empty", "stop", "laps" or
// "hook".
func (h How) Word() string {
	switch h {
	case RelayEmpty:
		return "empty"
	case RelayStop:
		return "stop"
	case RelayHook:
		return "hook"
	}
	return "laps"
}

// relayInto picks up all counters of from and sows them along t; while the
// last counter falls into an occupied site without the stop tag, it picks
// up that site's counters and sows on. With skip, a lap never drops into
// the site it picked up from, however many times it goes round (as
// sowSkipping). A sowing that would need more than maxLaps laps stops
// before the lap that would exceed the limit. Each lap is charged to
// *work; the sowing stops (RelayWork) when it runs out, or when the call
// was stopped. Each lap is recorded in rec when it is not nil.
func relayInto(counts []int32, tagMask []uint64, t *Track, from int, stop uint64, maxLaps int, skip bool, work *int, meter Meter, rec *Recorder) (last int, how How, laps int) {
	pos := from
	for {
		if laps >= maxLaps {
			return pos, RelayLaps, laps
		}
		n := int(counts[pos])
		*work -= SowCost(t, n)
		if *work < 0 || laps&255 == 255 && meter != nil && meter.Stopped() {
			return pos, RelayWork, laps
		}
		counts[pos] = 0
		laps++
		if rec != nil {
			rec.Lap(t, pos, n)
		}
		var l, over int
		var empty bool
		if skip {
			if over = skipRoom(counts, t, n); over < 0 {
				l, empty = sowSkipping(counts, t, pos, n)
			}
		} else {
			l, empty, over = sowInto(counts, t, pos, n)
		}
		switch {
		case over >= 0:
			return over, RelayOverflow, laps
		case l < 0:
			return pos, RelayOff, laps
		case empty:
			return l, RelayEmpty, laps
		case tagMask[l]&stop != 0:
			return l, RelayStop, laps
		}
		pos = l
	}
}

// skipRoom returns a site of the looping track t whose count would pass
// MaxCount when n counters are sown along it skipping one site, or -1
// when none would: each other site gets at most n/(L-1)+1 of them.
func skipRoom(counts []int32, t *Track, n int) int {
	room := n
	if t.Loop && len(t.Sites) > 1 {
		room = n/(len(t.Sites)-1) + 1
	}
	for _, s := range t.Sites {
		if int(counts[s])+room > MaxCount {
			return s
		}
	}
	return -1
}

// RelayBounded reports whether every relay sowing on the looping track t,
// with the counters now on it and the stop mask, surely ends within
// maxLaps laps, without trying it. A relay whose laps skip their origin
// (see Relay) is not bounded so: its laps may drop into no stop site.
//
// While a relay runs, a counter dropped into a site with the stop tag stays
// there: a lap ending on such a site ends the sowing, and only the sites a
// lap ends on are picked up. Every L consecutive drops (L sites on the
// track) put one counter into each of the H stop sites, so with C counters
// on the track a sowing makes A < (C/H + 1) L + 1 drops. Every lap after the
// first picks up at least 2 counters (the site it ended on held one before
// the last drop), so it makes fewer than 1 + (C/H + 1) L / 2 laps: at most
// maxLaps when (C + H) L <= 2 maxLaps H.
func (c *Ctx) RelayBounded(t *Track, stop uint64, maxLaps int) bool {
	return relayBounded(c.S.Cells, c.Def.Board.tagMask, t, stop, maxLaps)
}

func relayBounded(counts []int32, tags []uint64, t *Track, stop uint64, maxLaps int) bool {
	if stop == 0 || !t.Loop {
		return false
	}
	n, h := 0, 0
	for _, s := range t.Sites {
		n += int(counts[s])
		if tags[s]&stop != 0 {
			h++
		}
	}
	return h > 0 && (n+h)*len(t.Sites) <= 2*maxLaps*h
}

// chargeVisits charges the site visits of a sowing to the call's steps,
// eight visits a step.
func (c *Ctx) chargeVisits(visits int) error { return c.Charge(max(visits, 0)/8 + 1) }

// onTrack fails unless site from is on track t.
func (c *Ctx) onTrack(t *Track, from, arg int) error {
	if from < 0 || from >= len(t.pos) || t.pos[from] < 0 {
		return &ArgError{N: arg, Msg: fmt.Sprintf("%s is not on track %s", c.SiteName(from), t.Name)}
	}
	return nil
}

// Sow drops n counters one per site along t, starting after from. The
// counters come from wherever the rules took them. It returns the last
// site and whether it was empty before.
func (c *Ctx) Sow(t *Track, from, n int) (last int, wasEmpty bool, err error) {
	if err := c.onTrack(t, from, 2); err != nil {
		return -1, false, err
	}
	if n < 1 || n > MaxCount {
		return -1, false, &ArgError{N: 3, Msg: fmt.Sprintf("cannot sow %d counters (1 to %d)", n, MaxCount)}
	}
	if err := c.Charge(min(n, len(t.Sites))/8 + 1); err != nil {
		return -1, false, err
	}
	last, wasEmpty, over := sowInto(c.S.Cells[:c.Def.Layout.Sites], t, from, n)
	if over >= 0 {
		return -1, false, Failf("sowing %d counters from %s: the count of %s would pass %d", n, c.SiteName(from), c.SiteName(over), MaxCount)
	}
	if last < 0 {
		return -1, false, Failf("sowing %d counters from %s runs off the end of track %s", n, c.SiteName(from), t.Name)
	}
	c.Rec.Sowing(t, from, n, false)
	return last, wasEmpty, nil
}

// SowSkip is Sow that never drops into from, however many laps the
// sowing makes.
func (c *Ctx) SowSkip(t *Track, from, n int) (last int, wasEmpty bool, err error) {
	if err := c.onTrack(t, from, 2); err != nil {
		return -1, false, err
	}
	if n < 1 || n > MaxCount {
		return -1, false, &ArgError{N: 3, Msg: fmt.Sprintf("cannot sow %d counters (1 to %d)", n, MaxCount)}
	}
	if err := c.Charge(min(n, len(t.Sites))/8 + 1); err != nil {
		return -1, false, err
	}
	if t.Loop && len(t.Sites) < 2 {
		return -1, false, &ArgError{N: 1, Msg: fmt.Sprintf("track %s has no site but %s to sow into", t.Name, c.SiteName(from))}
	}
	cells := c.S.Cells[:c.Def.Layout.Sites]
	room := n
	if t.Loop {
		room = n/(len(t.Sites)-1) + 1
	}
	for _, site := range t.Sites {
		if err := c.checkSite(site, int(cells[site])+room); err != nil {
			return -1, false, err
		}
	}
	last, wasEmpty = sowSkipping(cells, t, from, n)
	if last < 0 {
		return -1, false, Failf("sowing %d counters from %s runs off the end of track %s", n, c.SiteName(from), t.Name)
	}
	c.Rec.Sowing(t, from, n, true)
	return last, wasEmpty, nil
}

// Origin says what a move's sowing does with the site it empties.
type Origin uint8

// The ways a sowing treats its origin.
const (
	OriginLap   Origin = iota // a lap drops into it as into any site
	OriginSkip                // nothing ever drops into it, however many laps the sowing makes
	OriginFirst               // the first counter goes back into it, a lone counter into the next site; laps drop into it
)

// SowAll picks up every counter of from and sows them along t, treating
// from as origin says: the sowing of a move.
func (c *Ctx) SowAll(t *Track, from int, origin Origin) (last int, wasEmpty bool, err error) {
	if err := c.onTrack(t, from, 2); err != nil {
		return -1, false, Failf("%s is not on track %s", c.SiteName(from), t.Name)
	}
	cells := c.S.Cells[:c.Def.Layout.Sites]
	n := int(cells[from])
	if n == 0 {
		return -1, false, Failf("%s is empty: there is nothing to sow", c.SiteName(from))
	}
	if err := c.Charge(min(n, len(t.Sites))/8 + 1); err != nil {
		return -1, false, err
	}
	cells[from] = 0
	taken, back := n, 0
	if origin == OriginFirst && n > 1 {
		back, n = 1, n-1 // the first counter goes back in: the rest is sown from it
		cells[from] = 1
	}
	skip := origin == OriginSkip
	if skip {
		room := n
		if t.Loop {
			room = n/(len(t.Sites)-1) + 1
		}
		for _, site := range t.Sites {
			if int(cells[site])+room > MaxCount {
				cells[from] = int32(n)
				return -1, false, Failf("sowing %d counters from %s: the count of %s would pass %d", n, c.SiteName(from), c.SiteName(site), MaxCount)
			}
		}
		last, wasEmpty = sowSkipping(cells, t, from, n)
	} else {
		var over int
		last, wasEmpty, over = sowInto(cells, t, from, n)
		if over >= 0 {
			return -1, false, Failf("sowing %d counters from %s: the count of %s would pass %d", n, c.SiteName(from), c.SiteName(over), MaxCount)
		}
	}
	if last < 0 {
		return -1, false, Failf("sowing %d counters from %s runs off the end of track %s", n, c.SiteName(from), t.Name)
	}
	if c.Rec != nil {
		c.Rec.Site(EffectTake, from, taken)
		if back > 0 {
			c.Rec.Site(EffectDrop, from, back)
		}
		c.Rec.Sowing(t, from, n, skip)
	}
	return last, wasEmpty, nil
}

// relayStart checks the start of a relay: from on t, with counters.
func (c *Ctx) relayStart(t *Track, from int) error {
	if err := c.onTrack(t, from, 2); err != nil {
		return err
	}
	if c.S.Cells[from] == 0 {
		return &ArgError{N: 2, Msg: fmt.Sprintf("%s is empty: there is nothing to sow", c.SiteName(from))}
	}
	return nil
}

// Relay picks up the counters of from and sows them along t, relaying:
// while the last counter falls into an occupied site without the stop
// tag, it picks up that site's counters and sows on, for at most maxLaps
// laps; with skip, a lap never drops into the site it picked up from. It
// returns the last site, how the sowing ended (RelayEmpty, RelayStop or
// RelayLaps) and the laps sown. fn names the primitive or rule in
// messages.
func (c *Ctx) Relay(fn string, t *Track, from int, stop uint64, maxLaps int, skip bool) (last int, how How, laps int, err error) {
	if err := c.relayStart(t, from); err != nil {
		return -1, 0, 0, err
	}
	sites := c.Def.Layout.Sites
	work := SowWork(sites)
	last, how, laps = relayInto(c.S.Cells[:sites], c.Def.Board.tagMask, t, from, stop, maxLaps, skip, &work, c.Meter, c.Rec)
	if err := c.chargeVisits(SowWork(sites) - work); err != nil {
		return -1, 0, 0, err
	}
	switch how {
	case RelayWork, RelayOverflow:
		return -1, 0, 0, c.relayFailed(fn, from, how, last, maxLaps)
	case RelayOff:
		return -1, 0, 0, Failf("a relay sowing from %s runs off the end of track %s", c.SiteName(from), t.Name)
	}
	return last, how, laps, nil
}

// relayFailed is the error of a relay that ran out of work or overflowed
// a count.
func (c *Ctx) relayFailed(fn string, from int, how How, at, maxLaps int) error {
	if how == RelayOverflow {
		return Failf("%s from %s: the count of %s would pass %d", fn, c.SiteName(from), c.SiteName(at), MaxCount)
	}
	if c.Meter.Stopped() {
		return Failf("%s from %s: the time budget ran out", fn, c.SiteName(from))
	}
	w := SowWork(c.Def.Layout.Sites)
	return &BudgetExceeded{Budget: BudgetStep, Limit: fmt.Sprintf("%d site visits in one sowing call", w),
		Detail: fmt.Sprintf("%s from %s did not end within %d site visits (lap limit %d): a sowing that long does not end; lower the lap limit", fn, c.SiteName(from), w, maxLaps)}
}

// RelayEnds reports, without changing the state, whether a relay sowing
// from from (skipping its laps' origins with skip, see Relay) ends (in an
// empty site or at the stop tag) within maxLaps laps: at once when
// bounded (see RelayBounded), otherwise by trying it on a copy of the
// counts, its site visits charged to *work and to the call's steps.
func (c *Ctx) RelayEnds(fn string, t *Track, from int, stop uint64, maxLaps int, skip, bounded bool, work *int) (bool, error) {
	if err := c.relayStart(t, from); err != nil {
		return false, err
	}
	if bounded {
		return true, nil
	}
	scratch := c.Scratch()
	before := *work
	at, how, _ := relayInto(scratch, c.Def.Board.tagMask, t, from, stop, maxLaps, skip, work, c.Meter, nil)
	if err := c.chargeVisits(before - *work); err != nil {
		return false, err
	}
	if how == RelayWork || how == RelayOverflow {
		return false, c.relayFailed(fn, from, how, at, maxLaps)
	}
	return how == RelayEmpty || how == RelayStop, nil
}

// LapEnd is what a relay's lap hook says when a lap ends (see RelayWith).
type LapEnd struct {
	Act LapAct
	// With LapResow: the next lap picks up the counters of From and sows
	// them along Track, starting with the site after After.
	Track       *Track
	After, From int
}

// LapAct is how a relay goes on after a lap.
type LapAct uint8

// The ways a relay goes on.
const (
	LapDefault LapAct = iota // as a relay does: end in an empty site or at the stop tag, else sow on
	LapEndHere               // the sowing ends here (RelayHook)
	LapRelay                 // sow on from the last site, whatever it holds
	LapResow                 // sow on as the LapEnd says
)

// LapHook decides how a relay goes on after a lap that ended on last
// along t, laps laps into the sowing (the relay of c.Mover).
type LapHook interface {
	Lap(c *Ctx, last int, t *Track, laps int) (LapEnd, error)
}

// RelayWith is Relay with a hook that hears the end of every lap (only of
// the laps ending on a site with a tag of only, when only is not 0) and
// says how the sowing goes on: a relay whose laps may capture and sow the
// captured counters in elsewhere.
func (c *Ctx) RelayWith(fn string, t *Track, from int, stop uint64, maxLaps int, only uint64, hook LapHook) (last int, how How, laps int, err error) {
	if err := c.relayStart(t, from); err != nil {
		return -1, 0, 0, err
	}
	return c.relayLaps(fn, t, from, from, stop, maxLaps, only, hook)
}

// relayLaps is the loop of RelayWith: the first lap picks up the counters
// of pickup and sows them along t after the site after.
func (c *Ctx) relayLaps(fn string, t *Track, pickup, after int, stop uint64, maxLaps int, only uint64, hook LapHook) (last int, how How, laps int, err error) {
	tags := c.Def.Board.tagMask
	sites := c.Def.Layout.Sites
	work := SowWork(sites)
	from := pickup
	last = after
	for {
		if laps >= maxLaps {
			return last, RelayLaps, laps, nil
		}
		counts := c.S.Cells[:sites] // the hook may have changed the state
		n := int(counts[pickup])
		if n == 0 {
			return -1, 0, 0, Failf("relay: the hook names %s to sow from, but it is empty", c.SiteName(pickup))
		}
		cost := SowCost(t, n)
		work -= cost
		if work < 0 || c.Meter.Stopped() {
			return -1, 0, 0, c.relayFailed(fn, from, RelayWork, pickup, maxLaps)
		}
		if err := c.chargeVisits(cost); err != nil {
			return -1, 0, 0, err
		}
		counts[pickup] = 0
		if c.Rec != nil { // the lap's effects: the pick-up, then the drops
			c.Rec.Site(EffectTake, pickup, n)
			c.Rec.Sowing(t, after, n, false)
		}
		laps++
		l, empty, over := sowInto(counts, t, after, n)
		switch {
		case over >= 0:
			return -1, 0, 0, c.relayFailed(fn, from, RelayOverflow, over, maxLaps)
		case l < 0:
			return -1, 0, 0, Failf("a relay sowing from %s runs off the end of track %s", c.SiteName(after), t.Name)
		}
		last = l
		var end LapEnd
		if only == 0 || tags[l]&only != 0 {
			if end, err = hook.Lap(c, l, t, laps); err != nil {
				return -1, 0, 0, err
			}
		}
		switch end.Act {
		case LapDefault:
			if empty {
				return l, RelayEmpty, laps, nil
			}
			if tags[l]&stop != 0 {
				return l, RelayStop, laps, nil
			}
			pickup, after = l, l
		case LapEndHere:
			return l, RelayHook, laps, nil
		case LapRelay:
			pickup, after = l, l
		case LapResow:
			if end.Track == nil || end.After < 0 || end.After >= sites || end.Track.pos[end.After] < 0 {
				return -1, 0, 0, Failf("relay: the hook names %s to sow after, which is not on the track", c.SiteName(end.After))
			}
			t, after, pickup = end.Track, end.After, end.From
			if pickup < 0 || pickup >= sites {
				return -1, 0, 0, Failf("relay: the hook names %s to sow from, which is not a site of the board", c.SiteName(pickup))
			}
		}
	}
}

// RunOf walks t from the site after from, step places at a time, over
// the sites whose count is one of values, stopping at the first that is
// not, at the end of a track that does not loop, or after one trip round.
// It returns the counters on those sites and how many sites there are.
func RunOf(counts []int32, t *Track, from, step int, values []int32) (counters, sites int) {
	site := from
	for k := 0; k < len(t.Sites); k++ {
		site = t.Step(site, step)
		if site < 0 {
			break
		}
		n := counts[site]
		if !slices.Contains(values, n) {
			break
		}
		counters += int(n)
		sites++
	}
	return counters, sites
}

// CaptureRun walks t from the site after from, step places at a time
// (negative to go back), and captures for player p each site whose count
// is one of values, stopping at the first that is not. It returns the
// counters captured.
func (c *Ctx) CaptureRun(p int, t *Track, from, step int, values []int32) (int, error) {
	cells := c.S.Cells
	total := 0
	site := from
	for k := 0; k < len(t.Sites); k++ {
		site = t.Step(site, step)
		if site < 0 {
			break
		}
		n := cells[site]
		if !slices.Contains(values, n) {
			break
		}
		cells[site] = 0
		c.Emptied(site)
		total += int(n)
		c.Rec.Add(Effect{Kind: EffectCapture, Site: site, To: -1, Player: p, Count: int(n)})
	}
	cp := &cells[c.Def.Layout.Captured+p-1]
	if v := int(*cp) + total; v > MaxCount {
		return 0, countError("a captured total", v)
	}
	*cp += int32(total)
	return total, nil
}

// Sweep moves the counters of every owned site into its owner's captured
// total and returns the number moved.
func (c *Ctx) Sweep() (int, error) {
	cells, l := c.S.Cells, &c.Def.Layout
	total := 0
	for i := 0; i < l.Sites; i++ {
		o := cells[l.Owners+i]
		if o == 0 || cells[i] == 0 {
			continue
		}
		cp := &cells[l.Captured+int(o)-1]
		if n := int(*cp) + int(cells[i]); n > MaxCount { // the message only on error: it allocates
			return 0, countError(fmt.Sprintf("player %d's captured total", o), n)
		}
		*cp += cells[i]
		total += int(cells[i])
		c.Rec.Add(Effect{Kind: EffectCapture, Site: i, To: -1, Player: int(o), Count: int(cells[i])})
		cells[i] = 0
		c.Emptied(i)
	}
	return total, nil
}

// Feeds reports whether a sowing from i reaches, along t, a site that a
// player other than p owns.
func (c *Ctx) Feeds(t *Track, p, i int) bool {
	cells, l := c.S.Cells, &c.Def.Layout
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
		if o := int(cells[l.Owners+site]); o != 0 && o != p {
			return true
		}
	}
	return false
}
