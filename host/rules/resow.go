package rules

import (
	"github.com/matombo/matombo/host/kernel"
)

// A capture in the middle of a relay: a lap that ends on an occupied site
// facing counters of the opponent takes them and sows them in from a
// start site (an end hole), and the relay goes on from there.

func init() {
	Register(Spec{Name: "capture_sow_rule", Group: "Relays and decisions", Slot: SlotLap, Mutates: true,
		Doc: "the end of a lap (a relay's `lap`): when the lap ended on a site that was occupied and the site facing it in the row `opposite` holds counters, those counters are captured and sown in along the player's track of the direction, starting with that direction's `start` site; the relay goes on from there. The direction is the sowing's, unless the site is one of a direction's `toward` sites. When `ends_when` holds after the capture, the captured counters are sown and the relay ends",
		Fields: []Field{
			{Name: "tracks", Type: FieldTracks, PerPlayer: true, Required: true, Doc: "the tracks of the directions, as the relay's"},
			{Name: "opposite", Type: FieldRow, PerPlayer: true, Required: true, Doc: "the row of the facing site"},
			{Name: "start", Type: FieldSiteLists, Required: true, Doc: "per player, the site of each direction where captured counters are sown in first"},
			{Name: "toward", Type: FieldSiteLists, Doc: "per direction, the sites whose capture is sown in that direction whatever the sowing's"},
			{Name: "ends_when", Type: FieldPart, Slot: SlotCond, Doc: "after the capture: the captured counters are sown and the relay ends"},
		},
		New: newCaptureSow})
	Register(Spec{Name: "facing_rule", Group: "Relays and decisions", Slot: SlotSiteTest,
		Doc: "whether the site facing `site` (its column in p's row `opposite`) holds at least `min` counters: a site whose sowing or counter put in would capture, where captures take the facing site",
		Fields: []Field{
			{Name: "opposite", Type: FieldRow, PerPlayer: true, Required: true, Doc: "the row of the facing site"},
			{Name: "min", Type: FieldInt, Min: 1, Max: kernel.MaxCount, Default: 1, Doc: "the counters the facing site must hold"},
		},
		New: func(a *Args) (any, error) {
			return &facing{opposite: a.Rows("opposite"), min: int32(a.Int("min"))}, nil
		}})
}

// ---- facing_rule ----

type facing struct {
	opposite []int // per player
	min      int32
}

func (r *facing) TestSite(c *kernel.Ctx, p, site int) (bool, error) {
	b := c.Def.Board
	f := b.At(r.opposite[p-1], b.Site(site).Col)
	return f >= 0 && c.S.Cells[f] >= r.min, nil
}

type captureSow struct {
	dirs     [][]*kernel.Track
	opposite []int
	start    [][]int // per player, per direction
	toward   []int   // per site: the direction its capture forces, -1 for none
	endsWhen Condition
}

func newCaptureSow(a *Args) (any, error) {
	r := &captureSow{dirs: a.TrackLists("tracks"), opposite: a.Rows("opposite")}
	r.endsWhen, _ = a.Part("ends_when").(Condition)
	var err error
	if r.start, err = directionStarts(a, r.dirs); err != nil {
		return nil, err
	}
	r.toward = towardTable(a)
	return r, nil
}

func (r *captureSow) Lap(c *kernel.Ctx, p, last int, t *kernel.Track, _ int) (kernel.LapEnd, error) {
	b := c.Def.Board
	if c.Count(last) <= 1 { // the lap ended in an empty site
		return kernel.LapEnd{}, nil
	}
	facing := b.At(r.opposite[p-1], b.Site(last).Col)
	if facing < 0 || c.Count(facing) == 0 {
		return kernel.LapEnd{}, nil
	}
	dirs := r.dirs[p-1]
	d := r.toward[last]
	if d < 0 || d >= len(dirs) {
		d = 0
		for k, x := range dirs {
			if x == t {
				d = k
			}
		}
	}
	tr := dirs[d]
	after := tr.Step(r.start[p-1][d], -1)
	if r.endsWhen != nil {
		ends := false
		err := c.Try(func() error {
			c.Take(facing)
			var err error
			ends, err = r.endsWhen.Holds(c, p)
			return err
		})
		if err != nil {
			return kernel.LapEnd{}, err
		}
		if ends {
			n := c.Take(facing)
			if _, _, err := c.Sow(tr, after, n); err != nil {
				return kernel.LapEnd{}, err
			}
			return kernel.LapEnd{Act: kernel.LapEndHere}, nil
		}
	}
	return kernel.LapEnd{Act: kernel.LapResow, Track: tr, After: after, From: facing}, nil
}
