package rules

import (
	"slices"

	"github.com/matombo/matombo/host/kernel"
)

// The captures of sowing games: of the last site (and runs from it), or
// of the site facing it.

var captureFields = []Field{
	{Name: "owner", Type: FieldWord, Words: []string{"mover", "opponent"}, Doc: "who must own the last site (any owner when absent)"},
	{Name: "was_empty", Type: FieldBool, Doc: "the last counter must have fallen into an empty site"},
	{Name: "counts", Type: FieldCounts, Doc: "the counts that capture, e.g. `{2, 3}`: the last site must hold one of them, and so must each site of a run"},
	{Name: "parity", Type: FieldWord, Words: []string{"even", "odd"}, Doc: "instead of `counts`: the last site must hold an even (or odd) number of counters, and so must each site of a run"},
	{Name: "opposite", Type: FieldRow, PerPlayer: true, Doc: "take the site of the last site's column in this row, which must hold counters"},
	{Name: "empty_opposite", Type: FieldBool, Doc: "with `opposite`: the capture happens even when the opposite site is empty (`with_last`'s counters then go alone)"},
	{Name: "opposite_min", Type: FieldInt, Min: 1, Max: kernel.MaxCount, Default: 1, Doc: "with `opposite`: the counters the opposite site must hold for the capture (not with `empty_opposite`)"},
	{Name: "behind", Type: FieldRow, PerPlayer: true, Doc: "with `opposite`: the site of that column in this row is taken too, after the opposite one, whatever it holds"},
	{Name: "row", Type: FieldRow, PerPlayer: true, Doc: "the last site must be in this row"},
	{Name: "with_last", Type: FieldBool, Doc: "with `opposite`: the last site's counters go too"},
	{Name: "runs", Type: FieldTables, Max: 4, Doc: "after the last site, walk each `{track = T, step = k}` from it (T per player: the track of the player who owns the last site) and take each site holding one of `counts`, stopping at the first that does not (as `capture_run`)",
		Fields: []Field{
			{Name: "track", Type: FieldTrack, PerPlayer: true, Required: true, Doc: "the track walked"},
			{Name: "step", Type: FieldInt, Min: -1000, Max: 1000, Doc: "places a step, negative to walk back"},
		}},
	{Name: "unless", Type: FieldPart, Slot: SlotUnless, Doc: "when `unless(last, owner)` is true nothing is captured (a `takes_all_rule`)"},
	{Name: "when", Type: FieldPart, Slot: SlotCond, Doc: "the capture happens only when `when(p)` holds"},
	{Name: "into", Type: FieldSite, PerPlayer: true, Doc: "a site per player (a store) to put the captured counters in; the captured total when absent"},
}

func init() {
	Register(Spec{Name: "capture_rule", Group: "Sowing", Slot: SlotCapture, Mutates: true,
		Doc:    "takes the last site's counters, or the opposite site's, when the conditions of its fields hold, and returns how many it took",
		Fields: captureFields, New: func(a *Args) (any, error) { return newCapture(a) }})
	Register(Spec{Name: "takes_all_rule", Group: "Sowing", Slot: SlotUnless,
		Doc:    "with the table of a capture (`counts`, `runs`): whether that capture from `last` would take every counter on the sites `owner` owns (a capture of everything, which some games forbid)",
		Fields: captureFields,
		New: func(a *Args) (any, error) {
			r, err := newCapture(a)
			if err != nil {
				return nil, err
			}
			if r.opposite != nil || r.row != nil {
				return nil, a.Errorf("counts the last site and its runs; opposite and row are not supported")
			}
			return &takesAll{r}, nil
		}})
}

// The owner a capture requires.
const (
	anyOwner = iota
	moverOwns
	opponentOwns
)

type capture struct {
	owner    int
	wasEmpty bool
	counts   []int32
	parity   int32 // with parity: the remainder of a count by 2 that captures (0 even, 1 odd); -1 for any
	opposite []int // per player: the row whose site of the last site's column is taken; nil for none
	behind   []int // per player: with opposite, the row behind it
	row      []int // per player: the row the last site must be in; nil for any
	withLast bool
	emptyOpp bool  // the opposite site may be empty
	oppMin   int32 // else the counters it must hold, at least 1
	runs     []captureRun
	unless   SiteTester
	when     Condition
	into     []int // per player: the store; nil for the captured total
}

// captureRun walks a track from the last site, step places at a time.
type captureRun struct {
	tracks []*kernel.Track // per player: the track of the player who owns the last site
	step   int
}

func newCapture(a *Args) (*capture, error) {
	r := &capture{wasEmpty: a.Bool("was_empty"), withLast: a.Bool("with_last"), emptyOpp: a.Bool("empty_opposite"), counts: a.Counts("counts"),
		opposite: a.Rows("opposite"), behind: a.Rows("behind"), row: a.Rows("row"), unless: tester(a.Part("unless")),
		into: a.Sites("into"), oppMin: int32(a.Int("opposite_min"))}
	r.when, _ = a.Part("when").(Condition)
	r.parity = -1
	switch a.Word("parity") {
	case "even":
		r.parity = 0
	case "odd":
		r.parity = 1
	}
	if r.parity >= 0 && r.counts != nil {
		return nil, a.Errorf("give counts (the counts that capture) or parity (even or odd counts capture), not both")
	}
	switch a.Word("owner") {
	case "mover":
		r.owner = moverOwns
	case "opponent":
		r.owner = opponentOwns
	}
	if r.emptyOpp && r.opposite == nil {
		return nil, a.Errorf("empty_opposite needs opposite (the site that may be empty)")
	}
	if a.Has("opposite_min") && r.opposite == nil {
		return nil, a.Errorf("opposite_min needs opposite (the site that must hold the counters)")
	}
	if a.Has("opposite_min") && r.emptyOpp {
		return nil, a.Errorf("give empty_opposite (the opposite site may be empty) or opposite_min (it must hold that many), not both")
	}
	if r.behind != nil && r.opposite == nil {
		return nil, a.Errorf("behind needs opposite (the site behind the opposite one)")
	}
	for i, run := range a.Tables("runs") {
		cr := captureRun{tracks: run.Tracks("track"), step: run.Int("step")}
		if cr.step == 0 {
			return nil, a.Errorf("runs[%d] needs a step other than 0", i+1)
		}
		r.runs = append(r.runs, cr)
	}
	if r.runs != nil && !r.byCount() {
		return nil, a.Errorf("runs need counts or parity (what each site of a run must hold)")
	}
	if r.opposite == nil && !r.byCount() {
		return nil, a.Errorf("give opposite (take the opposite site), counts (take the last site when it holds one of them) or parity (when it holds an even or odd number)")
	}
	return r, nil
}

// byCount reports whether the capture takes the last site by its count
// (counts or parity).
func (r *capture) byCount() bool { return r.counts != nil || r.parity >= 0 }

// takes reports whether a site holding n counters is captured by its
// count: one of counts, or a nonzero count of the parity.
func (r *capture) takes(n int32) bool {
	if r.parity >= 0 {
		return n > 0 && n%2 == r.parity
	}
	return slices.Contains(r.counts, n)
}

// runTrack returns the track of run k for a last site owned by o, and
// checks that the last site is on it.
func (r *capture) runTrack(c *kernel.Ctx, k, o, p, last int) (*kernel.Track, error) {
	if o < 1 {
		o = p
	}
	t := r.runs[k].tracks[o-1]
	if !t.On(last) {
		return nil, kernel.Failf("%s is not on track %s", c.SiteName(last), t.Name)
	}
	return t, nil
}

func (r *capture) Capture(c *kernel.Ctx, p, last int, wasEmpty bool) (int, error) {
	b, l, cells := c.Def.Board, &c.Def.Layout, c.S.Cells
	if last < 0 || last >= l.Sites {
		return 0, kernel.Failf("no last site to capture from")
	}
	o := int(cells[l.Owners+last])
	switch r.owner {
	case moverOwns:
		if o != p {
			return 0, nil
		}
	case opponentOwns:
		if o == 0 || o == p {
			return 0, nil
		}
	}
	if r.wasEmpty && !wasEmpty {
		return 0, nil
	}
	if r.row != nil && b.Site(last).Row != r.row[p-1] {
		return 0, nil
	}
	if r.byCount() && !r.takes(cells[last]) {
		return 0, nil
	}
	opp := -1
	if r.opposite != nil {
		opp = b.At(r.opposite[p-1], b.Site(last).Col)
		if opp < 0 || (cells[opp] < r.oppMin && !r.emptyOpp) {
			return 0, nil
		}
	}
	if r.when != nil {
		ok, err := r.when.Holds(c, p)
		if err != nil || !ok {
			return 0, err
		}
	}
	if r.unless != nil {
		no, err := r.unless.TestSite(c, o, last)
		if err != nil || no {
			return 0, err
		}
	}
	// Into a store the counters are taken and dropped there; into the
	// captured total each site is a capture (the effects of take, add and
	// capture).
	kind, player := kernel.EffectCapture, p
	if r.into != nil {
		kind, player = kernel.EffectTake, 0
	}
	take := func(site int) int {
		n := int(cells[site])
		cells[site] = 0
		if c.Rec != nil && n > 0 {
			c.Rec.Add(kernel.Effect{Kind: kind, Site: site, To: -1, Player: player, Count: n})
		}
		c.Emptied(site)
		return n
	}
	total := 0
	if opp >= 0 {
		total = take(opp)
		if r.behind != nil {
			if x := b.At(r.behind[p-1], b.Site(last).Col); x >= 0 {
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
			if err := c.Charge(len(t.Sites)/8 + 1); err != nil {
				return 0, err
			}
			site := last
			for range len(t.Sites) {
				site = t.Step(site, run.step)
				if site < 0 || !r.takes(cells[site]) {
					break
				}
				total += take(site)
			}
		}
	}
	dst := l.Captured + p - 1
	if r.into != nil {
		dst = r.into[p-1]
	}
	if int(cells[dst])+total > kernel.MaxCount {
		return 0, kernel.Failf("a capture of %d counters would make a count pass %d", total, kernel.MaxCount)
	}
	cells[dst] += int32(total)
	if r.into != nil && total > 0 {
		c.Rec.Site(kernel.EffectDrop, dst, total)
	}
	return total, nil
}

// run counts the counters a run from last would take, walking as
// Capture's run does: the sites after it, step places at a time, while
// each is taken by its count, never back to last (which Capture has
// emptied by then).
func (r *capture) run(cells []int32, t *kernel.Track, last, step int) int {
	total, site := 0, last
	for range len(t.Sites) {
		if site = t.Step(site, step); site < 0 || site == last || !r.takes(cells[site]) {
			break
		}
		total += int(cells[site])
	}
	return total
}

// takesAll is takes_all_rule: a capture's table, asked whether the
// capture would take everything.
type takesAll struct{ *capture }

// TestSite reports whether the capture from last (owned by opp) would
// take every counter on opp's sites.
func (r *takesAll) TestSite(c *kernel.Ctx, opp, last int) (bool, error) {
	cells, l := c.S.Cells, &c.Def.Layout
	would := int(cells[last])
	for k := range r.runs {
		t, err := r.runTrack(c, k, opp, opp, last)
		if err != nil {
			return false, err
		}
		if err := c.Charge(len(t.Sites)/8 + 1); err != nil {
			return false, err
		}
		would += r.run(cells[:l.Sites], t, last, r.runs[k].step)
	}
	total := 0
	for i := 0; i < l.Sites; i++ {
		if int(cells[l.Owners+i]) == opp {
			total += int(cells[i])
		}
	}
	return would == total, nil
}
