package rules

import (
	"testing"

	"github.com/matombo/matombo/host/kernel"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The sowings of a four-row board of four columns, each player sowing
// round their own two rows either way: player 1 rows a (back) and b
// (front), player 2 rows c (front) and d (back), the front rows facing
// each other column by column. The end holes of the front rows are the
// start sites where captures are sown in.

type ringFixture struct {
	def   *kernel.Def
	s     *kernel.State
	c     *kernel.Ctx
	b     *kernel.Board
	dirs  [][]*kernel.Track // per player: clockwise, anticlockwise
	front []*kernel.Filter  // per player: their front row's occupied sites
}

const (
	kindRingSow = iota
	kindRingCapture
)

func newRingFixture(t *testing.T) *ringFixture {
	t.Helper()
	b, err := kernel.NewBoard(kernel.BoardSpec{Rows: []string{"a", "b", "c", "d"}, Columns: 4})
	require.NoError(t, err)
	f := &ringFixture{b: b}
	ring := func(name string, names ...string) int {
		var sites []int
		for _, n := range names {
			sites = append(sites, f.site(t, n))
		}
		k, err := b.AddTrack(name, sites, true)
		require.NoError(t, err)
		return k
	}
	// The board's tracks are taken once all are added (adding may move
	// them).
	ks := [][]int{
		{ring("one_cw", "b1", "b2", "b3", "b4", "a4", "a3", "a2", "a1"), ring("one_acw", "a1", "a2", "a3", "a4", "b4", "b3", "b2", "b1")},
		{ring("two_cw", "c4", "c3", "c2", "c1", "d1", "d2", "d3", "d4"), ring("two_acw", "d4", "d3", "d2", "d1", "c1", "c2", "c3", "c4")},
	}
	for _, dirs := range ks {
		f.dirs = append(f.dirs, []*kernel.Track{b.TrackAt(dirs[0]), b.TrackAt(dirs[1])})
	}
	f.def = &kernel.Def{Board: b, Players: 2, Layout: kernel.NewLayout(16, 2, 0, 0)}
	for _, k := range []struct{ name, tmpl string }{{"sow", "{1}-{2}"}, {"capture", "{1}x{2}"}} {
		mk, err := kernel.NewMoveKind(k.name, k.tmpl, "")
		require.NoError(t, err)
		f.def.Kinds = append(f.def.Kinds, mk)
	}
	f.front = []*kernel.Filter{
		kernel.NewFilter(b, kernel.FilterSpec{Min: 1, Max: -1, Row: 1}),
		kernel.NewFilter(b, kernel.FilterSpec{Min: 1, Max: -1, Row: 2}),
	}
	f.s = &kernel.State{Cells: make([]int32, f.def.Layout.Size)}
	f.s.Cells[f.def.Layout.ToMove] = 1
	f.c = &kernel.Ctx{Def: f.def}
	f.c.Reset(f.s, kernel.Unmetered{}, 1)
	return f
}

func (f *ringFixture) site(t *testing.T, name string) int {
	i, ok := f.b.Index(name)
	require.True(t, ok, name)
	return i
}

func (f *ringFixture) sites(t *testing.T, names ...string) []int {
	var out []int
	for _, n := range names {
		out = append(out, f.site(t, n))
	}
	return out
}

// counts sets the named sites' counts; the others are empty.
func (f *ringFixture) counts(t *testing.T, counts map[string]int32) {
	for i := 0; i < f.def.Layout.Sites; i++ {
		f.s.Cells[i] = 0
	}
	for n, k := range counts {
		f.s.Cells[f.site(t, n)] = k
	}
}

func (f *ringFixture) make(t *testing.T, name string, fill func(a *Args)) (any, error) {
	t.Helper()
	spec, ok := Lookup(name)
	require.True(t, ok, name)
	a := NewArgs(f.def, spec)
	fill(a)
	return spec.New(a)
}

func (f *ringFixture) tokens() []string {
	var out []string
	for _, m := range f.s.Moves {
		out = append(out, f.def.Kinds[m.Kind].Format(f.b, m))
	}
	return out
}

// facingRows: player 1's front row b faces row c, player 2's c faces b.
var facingRows = []int{2, 1}

// TestSowingsStart: sowings_rule names a move's direction by the first
// site sown or by the direction's start site, and keeps the sites of
// toward to their direction; facing_rule keeps the sites facing
// counters.
func TestSowingsStart(t *testing.T) {
	position := map[string]int32{"b1": 1, "b2": 1, "b3": 2, "c1": 1, "c2": 3, "c4": 5, "a2": 4}
	for _, c := range []struct {
		name      string
		p         int
		start     bool
		toward    bool
		facingMin int // 0: no facing test
		want      []string
	}{
		{"the first site sown names the direction", 1, false, false, 0,
			[]string{"b1-b2", "b1-a1", "b2-b3", "b2-b1", "b3-b4", "b3-b2"}},
		{"the start sites name it", 1, true, false, 0,
			[]string{"b1xb1", "b1xb4", "b2xb1", "b2xb4", "b3xb1", "b3xb4"}},
		{"only the sites facing counters", 1, true, false, 1,
			[]string{"b1xb1", "b1xb4", "b2xb1", "b2xb4"}},
		{"a site of toward goes its own way only", 1, true, true, 1,
			[]string{"b1xb1", "b2xb1", "b2xb4"}},
		{"facing at least two", 1, true, true, 2,
			[]string{"b2xb1", "b2xb4"}},
		{"player 2: its own start sites, in board order", 2, true, true, 1,
			[]string{"c1xc1", "c2xc4", "c2xc1"}},
		{"player 2 by the first site sown", 2, false, true, 1,
			[]string{"c1-c2", "c2-c1", "c2-c3"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			f := newRingFixture(t)
			f.counts(t, position)
			f.c.Mover = c.p
			x, err := f.make(t, "sowings_rule", func(a *Args) {
				a.Set("kind", kindRingSow)
				if c.start {
					a.Set("kind", kindRingCapture)
					a.Set("start", [][]int{f.sites(t, "b1", "b4"), f.sites(t, "c4", "c1")})
				}
				a.Set("from", f.front)
				a.Set("tracks", f.dirs)
				if c.toward {
					a.Set("toward", [][]int{f.sites(t, "b1", "c4"), f.sites(t, "b4", "c1")})
				}
				if c.facingMin > 0 {
					facing, err := f.make(t, "facing_rule", func(a *Args) {
						a.Set("opposite", facingRows)
						a.Set("min", c.facingMin)
					})
					require.NoError(t, err)
					a.Set("ends", facing)
				}
			})
			require.NoError(t, err)
			n, err := x.(Emitter).Emit(f.c, c.p)
			require.NoError(t, err)
			assert.Equal(t, c.want, f.tokens())
			assert.Equal(t, len(c.want), n)
		})
	}
}

// TestFacingRule: the facing site of each player's row, with the default
// minimum of one counter.
func TestFacingRule(t *testing.T) {
	f := newRingFixture(t)
	f.counts(t, map[string]int32{"b1": 2, "c2": 1, "c3": 4})
	x, err := f.make(t, "facing_rule", func(a *Args) { a.Set("opposite", facingRows) })
	require.NoError(t, err)
	r := x.(SiteTester)
	for _, c := range []struct {
		p    int
		site string
		want bool
	}{
		{1, "b1", false}, // c1 is empty
		{1, "b2", true},  // c2 holds one
		{1, "b3", true},
		{2, "c1", true}, // b1 holds two
		{2, "c2", false},
		{1, "a2", true}, // the column, whatever the row asked about
	} {
		ok, err := r.TestSite(f.c, c.p, f.site(t, c.site))
		require.NoError(t, err)
		assert.Equal(t, c.want, ok, "player %d, %s", c.p, c.site)
	}
}

// TestSowingsStartRefused: start and toward need tracks, and start names
// one site on each direction's track per player.
func TestSowingsStartRefused(t *testing.T) {
	f := newRingFixture(t)
	for _, c := range []struct {
		name string
		fill func(a *Args)
		want string
	}{
		{"start without tracks", func(a *Args) {
			a.Set("kind", 0)
			a.Set("start", [][]int{f.sites(t, "b1", "b4"), f.sites(t, "c4", "c1")})
		}, "need tracks"},
		{"toward without tracks", func(a *Args) {
			a.Set("kind", 0)
			a.Set("toward", [][]int{f.sites(t, "b1"), f.sites(t, "b4")})
		}, "need tracks"},
		{"one player's list", func(a *Args) {
			a.Set("tracks", f.dirs)
			a.Set("start", [][]int{f.sites(t, "b1", "b4")})
		}, "one list of sites per player"},
		{"a site per direction", func(a *Args) {
			a.Set("tracks", f.dirs)
			a.Set("start", [][]int{f.sites(t, "b1"), f.sites(t, "c4", "c1")})
		}, "a site for each of player 1's 2 directions"},
		{"a site off the track", func(a *Args) {
			a.Set("tracks", f.dirs)
			a.Set("start", [][]int{f.sites(t, "b1", "c1"), f.sites(t, "c4", "c1")})
		}, "c1 is not on track one_acw"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := f.make(t, "sowings_rule", func(a *Args) {
				a.Set("kind", kindRingCapture)
				a.Set("from", f.front)
				c.fill(a)
			})
			require.Error(t, err)
			assert.Contains(t, err.Error(), c.want)
		})
	}
}
