package kernel

// RelayOn goes on with a relay as a lap's end says (a LapResow: the
// counters of end.From sown along end.Track after end.After), when what
// ended there was not a lap (a counter put in from the hand that captures,
// say): the laps that follow are RelayWith's, the first of them counted
// as lap 1.
func (c *Ctx) RelayOn(fn string, end LapEnd, stop uint64, maxLaps int, only uint64, hook LapHook) (last int, how How, laps int, err error) {
	t, sites := end.Track, c.Def.Layout.Sites
	if end.Act != LapResow || t == nil {
		return -1, 0, 0, Failf("%s: nothing to sow on", fn)
	}
	if end.After < 0 || end.After >= len(t.pos) || t.pos[end.After] < 0 {
		return -1, 0, 0, Failf("%s: the site to sow after is not on track %s", fn, t.Name)
	}
	if end.From < 0 || end.From >= sites {
		return -1, 0, 0, Failf("%s: no site to sow from", fn)
	}
	return c.relayLaps(fn, t, end.From, end.After, stop, maxLaps, only, hook)
}
