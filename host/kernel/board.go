package kernel

import (
	"cmp"
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
)

// DiagramStyle says how a board's sites are shown in diagrams.
type DiagramStyle int

const (
	// Counts shows each site's number of counters (mancala boards).
	Counts DiagramStyle = iota
	// Pieces shows each site's owner: 1, 2, ... or . when empty (alignment boards).
	Pieces
)

func (s DiagramStyle) String() string {
	if s == Pieces {
		return "pieces"
	}
	return "counts"
}

// Site is one place on a board that holds counters: a hole or a point.
type Site struct {
	Name string // row letter and column, e.g. "a1"
	Row  int    // row index, 0 for the southernmost row (Player 1's side)
	Col  int    // column from 1 on grid boards; drawing position on point boards
	// End is "west" or "east" for a site drawn at that end of the board,
	// beside all the rows, as a mancala's store (a7 and b7 of a 2x6 board); ""
	// for a site drawn in its row. It changes only how the board is drawn:
	// the site keeps its name, row and column.
	End string
}

// The ends of a board a site can be drawn at (Site.End).
const (
	West = "west"
	East = "east"
)

// Track is a named, ordered list of sites, such as a player's sowing
// circuit. A looping track continues from its last site to its first.
type Track struct {
	Name  string
	Sites []int // site indices in order
	Loop  bool

	pos  []int32 // site index -> position on the track, -1 when not on it
	next []int32 // site index -> the next site on the track, -1 when none
}

// Board is the fixed layout of a game: sites, rows, tags, tracks and lines.
// The script declares it while the game loads; it never changes afterwards
// and is shared by every state of the game.
type Board struct {
	sites   []Site
	byName  map[string]int
	rows    []string  // row labels, south to north
	rowSite [][]int32 // sites of each row, by column
	drawn   [][]int32 // sites of each row drawn in the row: rowSite without the ends
	ends    [2]int32  // the site drawn at the west and at the east end, -1 for none
	cell    [][]int32 // [row][col] -> site index + 1, 0 when none
	style   DiagramStyle
	picture string
	grid    bool // declared as rows x columns
	// checkered: the points are the dark squares of a checkerboard, drawn
	// as squares with light squares between them (BoardSpec.Checkered).
	checkered bool

	tags    []string
	tagDocs []string // per tag: what it means to the players, "" for nothing said (tagdoc.go)
	tagMask []uint64 // per site
	marks   []tagMark

	tracks []Track

	lines        [][]int32
	linesAt      [][]int32 // per site: the lines through it
	lineCost     []int32   // per site: the steps reading the lines through it costs
	allLinesCost int       // the steps reading every line costs
	adj          [][]int32 // per site: neighbours along lines
	jumps        [][]Jump  // per site: jumps along lines
	ahead, back  [][]int32 // per site: neighbours along lines in the order each line lists its sites, and against it
	jumpsAhead   [][]Jump  // per site: jumps along lines in their order
	jumpsBack    [][]Jump  // per site: jumps along lines against their order
	raysAhead    [][]ray   // per site: the lines through it, read onward in their order
	raysBack     [][]ray   // per site: the lines through it, read onward against their order
	adjSet       []uint64  // per site of a board of at most 64 sites: its neighbours as a set (bit i for site i); nil on larger boards
	lineLen      int       // the length of every line, 0 when they differ
	flatAt       [][]int32 // per site, when lineLen > 0: the sites of the lines through it, one line after the other

	// aheadAcross and backAcross: per site, its neighbours ahead (back)
	// and those across, in its row, either way; jumpsAheadAcross and
	// jumpsBackAcross the same of its jumps (a jump across: all three
	// sites in one row). A site with nothing across shares ahead's or
	// back's list. They are made when a heading across is first asked
	// for (across), so that a board no piece crosses does not pay for
	// them.
	aheadAcross, backAcross           [][]int32
	jumpsAheadAcross, jumpsBackAcross [][]Jump
	across                            sync.Once

	// twoRoutes: two lines of the board share two sites, so a jump
	// between those may go two ways (see Ctx.JumpedOver); found when a
	// jump's route is first asked for (routes).
	twoRoutes bool
	routes    sync.Once
	lineWork  int // the sites of the lines through each site, over the sites (each line's length squared, summed)

	// Once a move kind writes sites by number (sitenumbers.go): the
	// sites by the number of their names, and each site's number.
	byNumber   map[int]int32
	numberText []string
}

type tagMark struct {
	tag  int
	mark byte
}

// NumSites is the number of sites; sites are indexed 0..NumSites()-1 in
// board order (row a first, columns ascending).
func (b *Board) NumSites() int { return len(b.sites) }

// Site returns site i.
func (b *Board) Site(i int) Site { return b.sites[i] }

// Names returns the names of the sites of the indices, in order: the
// sites of a result (Outcome.Sites) as b.Names(out.Sites), e.g. [a3 b2
// c1]. Like Site, it panics on an index out of range.
func (b *Board) Names(sites []int) []string {
	out := make([]string, len(sites))
	for k, i := range sites {
		out[k] = b.sites[i].Name
	}
	return out
}

// Index returns the index of the site with the given name.
func (b *Board) Index(name string) (int, bool) {
	i, ok := b.byName[name]
	return i, ok
}

// Rows returns the row labels from south to north.
func (b *Board) Rows() []string { return append([]string(nil), b.rows...) }

// RowSites returns the sites of row r (0 = south) from left to right.
func (b *Board) RowSites(r int) []int {
	out := make([]int, len(b.rowSite[r]))
	for i, s := range b.rowSite[r] {
		out[i] = int(s)
	}
	return out
}

// Style is how diagrams show the board's sites.
func (b *Board) Style() DiagramStyle { return b.style }

// Grid reports whether the board was declared as rows and columns (every
// row full), rather than as points with drawing positions.
func (b *Board) Grid() bool { return b.grid }

// Checkered reports whether the board is drawn as a checkerboard: each
// site a dark square at its row and drawing position, the light squares
// between them, and no lines (BoardSpec.Checkered).
func (b *Board) Checkered() bool { return b.checkered }

// Tags returns the names of the tags of site i.
func (b *Board) Tags(i int) []string {
	var out []string
	for t, name := range b.tags {
		if b.tagMask[i]&(1<<uint(t)) != 0 {
			out = append(out, name)
		}
	}
	return out
}

// HasTag reports whether site i carries the named tag.
func (b *Board) HasTag(i int, tag string) bool {
	for t, name := range b.tags {
		if name == tag {
			return b.tagMask[i]&(1<<uint(t)) != 0
		}
	}
	return false
}

// Tracks returns the board's tracks.
func (b *Board) Tracks() []Track {
	out := make([]Track, len(b.tracks))
	for i, t := range b.tracks {
		out[i] = Track{Name: t.Name, Sites: append([]int(nil), t.Sites...), Loop: t.Loop}
	}
	return out
}

// Lines returns the board's lines, each a list of site indices in order.
func (b *Board) Lines() [][]int {
	out := make([][]int, len(b.lines))
	for i, l := range b.lines {
		for _, s := range l {
			out[i] = append(out[i], int(s))
		}
	}
	return out
}

// Adjacent returns the neighbours of site i along the board's lines.
func (b *Board) Adjacent(i int) []int {
	out := make([]int, len(b.adj[i]))
	for k, s := range b.adj[i] {
		out[k] = int(s)
	}
	return out
}

// SiteName returns the name of site i for messages, tolerating bad
// indices ("site 7" for a site the board does not have).
func (b *Board) SiteName(i int) string {
	if i >= 0 && i < len(b.sites) {
		return b.sites[i].Name
	}
	return "site " + strconv.Itoa(i+1)
}

// splitName splits a site name into its row letters and its column number.
func splitName(name string) (row string, col int, ok bool) {
	i := 0
	for i < len(name) && name[i] >= 'a' && name[i] <= 'z' {
		i++
	}
	if i == 0 || i == len(name) {
		return "", 0, false
	}
	c, err := strconv.Atoi(name[i:])
	if err != nil || c < 0 || name[i] == '0' && len(name) > i+1 || name[i] == '+' || name[i] == '-' {
		return "", 0, false
	}
	return name[:i], c, true
}

// BoardSpec is what a script declares with matombo.board.
type BoardSpec struct {
	Rows    []string          // grid: row labels south to north
	Columns int               // grid: columns per row
	Points  map[string]int    // point board: name -> drawing position
	Order   []string          // point names as declared (for messages)
	Lines   [][]string        // lines as site names
	Ends    map[string]string // sites drawn at the west or east end
	Style   DiagramStyle
	Picture string
	// Checkered draws the board as a checkerboard: every site is a dark
	// square at its row and drawing position, so no two sites are side by
	// side in a row or a column (the row and the position of each add up
	// to the same parity). Only a board of pieces is checkered.
	Checkered bool
}

// MaxSites is the most sites a board may have.
const MaxSites = 4096

// NewBoard builds the board a spec declares, checking it.
func NewBoard(spec BoardSpec) (*Board, error) {
	b := &Board{byName: map[string]int{}, style: spec.Style, picture: spec.Picture, checkered: spec.Checkered}
	if spec.Checkered && spec.Style != Pieces {
		return nil, fmt.Errorf("a checkered board is a board of pieces")
	}
	switch {
	case len(spec.Rows) > 0 && spec.Points != nil:
		return nil, fmt.Errorf("a board has either rows and columns or points, not both")
	case len(spec.Rows) > 0:
		if spec.Columns < 1 {
			return nil, fmt.Errorf("a grid board needs columns >= 1, got %d", spec.Columns)
		}
		if len(spec.Rows)*spec.Columns > MaxSites {
			return nil, fmt.Errorf("a board may have at most %d sites, this one has %d", MaxSites, len(spec.Rows)*spec.Columns)
		}
		seen := map[string]bool{}
		for _, r := range spec.Rows {
			if !validRowLabel(r) {
				return nil, fmt.Errorf("row label %q must be 1 to %d lower-case letters", firstN(r, 20), maxRowLabel)
			}
			if seen[r] {
				return nil, fmt.Errorf("row label %q is declared twice", r)
			}
			seen[r] = true
		}
		b.rows = append([]string(nil), spec.Rows...)
		b.grid = true
		for r, label := range spec.Rows {
			for c := 1; c <= spec.Columns; c++ {
				b.sites = append(b.sites, Site{Name: label + strconv.Itoa(c), Row: r, Col: c})
			}
		}
	case spec.Points != nil:
		if len(spec.Points) == 0 {
			return nil, fmt.Errorf("a point board needs at least one point")
		}
		if len(spec.Points) > MaxSites {
			return nil, fmt.Errorf("a board may have at most %d sites, this one has %d", MaxSites, len(spec.Points))
		}
		labels := map[string]bool{}
		for _, name := range spec.Order {
			row, _, ok := splitName(name)
			if !ok || len(name) > maxSiteName || len(row) > maxRowLabel {
				return nil, fmt.Errorf("point name %q must be a row letter and a number, like a1 (at most %d characters)", firstN(name, 20), maxSiteName)
			}
			if spec.Points[name] < 0 {
				return nil, fmt.Errorf("point %s: drawing position must be >= 0, got %d", name, spec.Points[name])
			}
			labels[row] = true
		}
		for l := range labels {
			b.rows = append(b.rows, l)
		}
		sort.Slice(b.rows, func(i, j int) bool {
			if len(b.rows[i]) != len(b.rows[j]) {
				return len(b.rows[i]) < len(b.rows[j])
			}
			return b.rows[i] < b.rows[j]
		})
		rowIndex := map[string]int{}
		for i, l := range b.rows {
			rowIndex[l] = i
		}
		for _, name := range spec.Order {
			row, _, _ := splitName(name)
			b.sites = append(b.sites, Site{Name: name, Row: rowIndex[row], Col: spec.Points[name]})
		}
		sort.SliceStable(b.sites, func(i, j int) bool {
			si, sj := b.sites[i], b.sites[j]
			if si.Row != sj.Row {
				return si.Row < sj.Row
			}
			return si.Col < sj.Col
		})
		for i := 1; i < len(b.sites); i++ {
			if b.sites[i].Row == b.sites[i-1].Row && b.sites[i].Col == b.sites[i-1].Col {
				return nil, fmt.Errorf("points %s and %s have the same row and drawing position %d", b.sites[i-1].Name, b.sites[i].Name, b.sites[i].Col)
			}
		}
	default:
		return nil, fmt.Errorf("a board needs rows and columns, or points")
	}
	for i, s := range b.sites {
		if _, dup := b.byName[s.Name]; dup {
			return nil, fmt.Errorf("site %s is declared twice", s.Name)
		}
		b.byName[s.Name] = i
	}
	b.rowSite = make([][]int32, len(b.rows))
	maxCol := 0
	for i, s := range b.sites {
		b.rowSite[s.Row] = append(b.rowSite[s.Row], int32(i))
		if s.Col > maxCol {
			maxCol = s.Col
		}
	}
	b.cell = make([][]int32, len(b.rows))
	for r := range b.cell {
		b.cell[r] = make([]int32, maxCol+1)
	}
	for i, s := range b.sites {
		b.cell[s.Row][s.Col] = int32(i + 1)
	}
	if err := b.placeEnds(spec.Ends); err != nil {
		return nil, err
	}
	b.tagMask = make([]uint64, len(b.sites))
	if err := b.addLines(spec.Lines); err != nil {
		return nil, err
	}
	if b.picture != "" {
		if err := b.checkPicture(); err != nil {
			return nil, err
		}
	}
	if b.checkered {
		if err := b.checkCheckered(); err != nil {
			return nil, err
		}
	}
	return b, nil
}

// checkCheckered verifies that the sites of a checkered board are squares
// of one colour: a row index and a column that add up to the same parity
// for every site. (Only boards of rows and columns place sites at the
// ends, and on such a board two sites of a row are side by side.)
func (b *Board) checkCheckered() error {
	first := b.sites[0]
	for _, s := range b.sites[1:] {
		if (s.Row+s.Col-first.Row-first.Col)%2 != 0 {
			return fmt.Errorf("a checkered board's points are squares of one colour: %s (row %s, position %d) is on the other colour from %s",
				s.Name, b.rows[s.Row], s.Col, first.Name)
		}
	}
	return nil
}

// Longest row label and site name a board may use.
const (
	maxRowLabel = 8
	maxSiteName = 16
)

func validRowLabel(r string) bool {
	if r == "" || len(r) > maxRowLabel {
		return false
	}
	for i := 0; i < len(r); i++ {
		if r[i] < 'a' || r[i] > 'z' {
			return false
		}
	}
	return true
}

// LineError is a problem with one line of a board declaration.
type LineError struct {
	Line int // index in the declared lines
	Msg  string
}

func (e *LineError) Error() string { return e.Msg }

// maxFlatSites bounds the copies of the lines a board keeps per site for
// the commonest search (flatAt): a line of n sites is copied n times, so
// long lines would make them quadratic, beyond any budget (256 lines of
// 4,096 sites: 17 GB). A board over it searches its lines without them,
// as one with lines of different lengths does. Ordinary boards hold a
// few thousand.
const maxFlatSites = 1 << 20

func (b *Board) addLines(lines [][]string) error {
	n := len(b.sites)
	b.linesAt = make([][]int32, n)
	b.adj = make([][]int32, n)
	b.jumps = make([][]Jump, n)
	b.ahead, b.back = make([][]int32, n), make([][]int32, n)
	b.jumpsAhead, b.jumpsBack = make([][]Jump, n), make([][]Jump, n)
	// Sets, not searches of the lists: many lines through one site must
	// not make loading quadratic (the loop runs in Go, outside the budget).
	adjSeen := map[[2]int32]bool{}
	jumpSeen := map[[3]int32]bool{}
	headSeen := map[[3]int32]bool{}
	b.raysAhead, b.raysBack = make([][]ray, n), make([][]ray, n)
	jumpHeadSeen := map[[4]int32]bool{}
	for li, names := range lines {
		if len(names) < 2 {
			return &LineError{li, fmt.Sprintf("line %d has %d sites; a line needs at least 2", li+1, len(names))}
		}
		line := make([]int32, len(names))
		seen := map[int]bool{}
		for k, name := range names {
			i, ok := b.byName[name]
			if !ok {
				return &LineError{li, fmt.Sprintf("line %d (%s) names %q, which is not a site of the board", li+1, strings.Join(names, "-"), name)}
			}
			if seen[i] {
				return &LineError{li, fmt.Sprintf("line %d (%s) names %s twice", li+1, strings.Join(names, "-"), name)}
			}
			seen[i] = true
			line[k] = int32(i)
		}
		b.lines = append(b.lines, line)
		for k, s := range line {
			b.linesAt[s] = append(b.linesAt[s], int32(li))
			for _, d := range []int{-1, 1} {
				if k+d >= 0 && k+d < len(line) {
					if e := [2]int32{s, line[k+d]}; !adjSeen[e] {
						adjSeen[e] = true
						b.adj[s] = append(b.adj[s], line[k+d])
					}
					if e := [3]int32{s, line[k+d], int32(d)}; !headSeen[e] {
						headSeen[e] = true
						if d > 0 {
							b.ahead[s] = append(b.ahead[s], line[k+d])
						} else {
							b.back[s] = append(b.back[s], line[k+d])
						}
					}
					// A ray for every line, even one that leaves s through
					// the neighbour of another: past it the two may part.
					r := ray{line: int32(li), at: int32(k), d: int8(d)}
					if d > 0 {
						b.raysAhead[s] = append(b.raysAhead[s], r)
					} else {
						b.raysBack[s] = append(b.raysBack[s], r)
					}
				}
				if k+2*d >= 0 && k+2*d < len(line) {
					j := Jump{Over: line[k+d], To: line[k+2*d]}
					if e := [3]int32{s, j.Over, j.To}; !jumpSeen[e] {
						jumpSeen[e] = true
						b.jumps[s] = append(b.jumps[s], j)
					}
					if e := [4]int32{s, j.Over, j.To, int32(d)}; !jumpHeadSeen[e] {
						jumpHeadSeen[e] = true
						if d > 0 {
							b.jumpsAhead[s] = append(b.jumpsAhead[s], j)
						} else {
							b.jumpsBack[s] = append(b.jumpsBack[s], j)
						}
					}
				}
			}
		}
	}
	b.lineLen = 0
	flat := 0 // the sites flatAt would hold: each line once per site on it (counted up to just past maxFlatSites, so that it cannot overflow)
	for li, l := range b.lines {
		switch {
		case li == 0:
			b.lineLen = len(l)
		case len(l) != b.lineLen:
			b.lineLen = -1
		}
		if flat <= maxFlatSites {
			k := min(len(l), 1<<10+1) // a longer line alone passes maxFlatSites (2^20)
			flat += k * k
		}
	}
	b.lineWork = flat
	if b.lineLen > 0 && flat <= maxFlatSites {
		b.flatAt = make([][]int32, n)
		for i, ls := range b.linesAt {
			for _, l := range ls {
				b.flatAt[i] = append(b.flatAt[i], b.lines[l]...)
			}
		}
	} else {
		b.lineLen = 0
	}
	b.lineCost = make([]int32, n)
	for i, ls := range b.linesAt {
		cost := 0
		for _, l := range ls {
			cost += 1 + len(b.lines[l])/ItemsPerStep
		}
		b.lineCost[i] = int32(min(cost, 1<<30))
	}
	for _, l := range b.lines {
		b.allLinesCost += 1 + len(l)/ItemsPerStep
	}
	if n <= 64 {
		b.adjSet = make([]uint64, n)
		for i, ns := range b.adj {
			for _, x := range ns {
				b.adjSet[i] |= 1 << uint(x)
			}
		}
	}
	for i := range b.adj {
		sort.Slice(b.adj[i], func(x, y int) bool { return b.adj[i][x] < b.adj[i][y] })
		sort.Slice(b.jumps[i], func(x, y int) bool { return b.jumps[i][x].To < b.jumps[i][y].To })
		slices.Sort(b.ahead[i])
		slices.Sort(b.back[i])
		sort.Slice(b.jumpsAhead[i], func(x, y int) bool { return b.jumpsAhead[i][x].To < b.jumpsAhead[i][y].To })
		sort.Slice(b.jumpsBack[i], func(x, y int) bool { return b.jumpsBack[i][x].To < b.jumpsBack[i][y].To })
	}
	return nil
}

// addAcross fills the neighbours and jumps of each site in the headings
// that go across as well (AheadAcross, BackAcross): a heading's own,
// and the others' that stay in the site's row.
func (b *Board) addAcross() {
	n := len(b.sites)
	b.aheadAcross, b.backAcross = make([][]int32, n), make([][]int32, n)
	b.jumpsAheadAcross, b.jumpsBackAcross = make([][]Jump, n), make([][]Jump, n)
	byTo := func(x, y Jump) int { return int(x.To) - int(y.To) }
	for i := range n {
		row := b.sites[i].Row
		near := func(s int32) bool { return b.sites[s].Row == row }
		jump := func(j Jump) bool { return near(j.Over) && near(j.To) }
		b.aheadAcross[i] = withAcross(b.ahead[i], b.back[i], near, cmp.Compare)
		b.backAcross[i] = withAcross(b.back[i], b.ahead[i], near, cmp.Compare)
		b.jumpsAheadAcross[i] = withAcross(b.jumpsAhead[i], b.jumpsBack[i], jump, byTo)
		b.jumpsBackAcross[i] = withAcross(b.jumpsBack[i], b.jumpsAhead[i], jump, byTo)
	}
}

// withAcross returns the items of own, which order sorts, and those of
// other that are across and not in own, all sorted by order; own itself
// when other adds none. It keeps a set, not searches of the lists: a
// site may have thousands of neighbours.
func withAcross[T comparable](own, other []T, across func(T) bool, order func(x, y T) int) []T {
	var seen map[T]bool
	out := own
	for _, x := range other {
		if !across(x) {
			continue
		}
		if seen == nil {
			seen = make(map[T]bool, len(own))
			for _, y := range own {
				seen[y] = true
			}
			out = slices.Clone(own)
		}
		if !seen[x] {
			seen[x] = true
			out = append(out, x)
		}
	}
	if len(out) != len(own) {
		slices.SortStableFunc(out, order)
	}
	return out
}

// AddTag declares a tag on the given sites and returns its index.
func (b *Board) AddTag(name string, sites []int) (int, error) {
	for _, t := range b.tags {
		if t == name {
			return 0, fmt.Errorf("tag %q is declared twice", name)
		}
	}
	if len(b.tags) == 64 {
		return 0, fmt.Errorf("a board may have at most 64 tags")
	}
	t := len(b.tags)
	b.tags = append(b.tags, name)
	for _, s := range sites {
		b.tagMask[s] |= 1 << uint(t)
	}
	return t, nil
}

// AddTrack declares a track and returns its index.
func (b *Board) AddTrack(name string, sites []int, loop bool) (int, error) {
	for _, t := range b.tracks {
		if t.Name == name {
			return 0, fmt.Errorf("track %q is declared twice", name)
		}
	}
	if len(sites) == 0 {
		return 0, fmt.Errorf("track %q has no sites", name)
	}
	t := Track{Name: name, Sites: sites, Loop: loop, pos: make([]int32, len(b.sites)), next: make([]int32, len(b.sites))}
	for i := range t.pos {
		t.pos[i], t.next[i] = -1, -1
	}
	for k, s := range sites {
		if t.pos[s] >= 0 {
			return 0, fmt.Errorf("track %q passes %s twice", name, b.sites[s].Name)
		}
		t.pos[s] = int32(k)
		switch {
		case k+1 < len(sites):
			t.next[s] = int32(sites[k+1])
		case loop:
			t.next[s] = int32(sites[0])
		}
	}
	b.tracks = append(b.tracks, t)
	return len(b.tracks) - 1, nil
}

// Step moves k places along track t from site s (k may be negative). It
// returns -1 when s is not on the track or a non-looping track ends.
func (t *Track) Step(s, k int) int {
	p := int(t.pos[s])
	if p < 0 {
		return -1
	}
	n := len(t.Sites)
	p += k
	if t.Loop {
		p %= n
		if p < 0 {
			p += n
		}
	} else if p < 0 || p >= n {
		return -1
	}
	return t.Sites[p]
}

// At returns the site in row r and column c, or -1.
func (b *Board) At(r, c int) int {
	if r < 0 || r >= len(b.cell) || c < 0 || c >= len(b.cell[r]) {
		return -1
	}
	return int(b.cell[r][c]) - 1
}

// MarkOf returns the diagram marks of site i.
func (b *Board) MarkOf(i int) string {
	var sb strings.Builder
	for _, m := range b.marks {
		if b.tagMask[i]&(1<<uint(m.tag)) != 0 {
			sb.WriteByte(m.mark)
		}
	}
	return sb.String()
}

// checkPicture verifies a drawing template: each line that starts with a
// row label has one @ for each site of that row, standing for the row's
// sites from left to right; other lines are decoration.
func (b *Board) checkPicture() error {
	seen := map[int]bool{}
	for ln, line := range strings.Split(b.picture, "\n") {
		fields := strings.Fields(line)
		if len(fields) == 0 {
			continue
		}
		r := b.RowIndex(fields[0])
		if r < 0 {
			if strings.Contains(line, "@") {
				return fmt.Errorf("picture line %d has @ but does not start with a row label", ln+1)
			}
			continue
		}
		if seen[r] {
			return fmt.Errorf("picture line %d: row %s is drawn twice", ln+1, fields[0])
		}
		seen[r] = true
		if n := strings.Count(line, "@"); n != len(b.rowSite[r]) {
			return fmt.Errorf("picture line %d (row %s) has %d @, the row has %d sites", ln+1, fields[0], n, len(b.rowSite[r]))
		}
	}
	for r, label := range b.rows {
		if !seen[r] {
			return fmt.Errorf("picture does not draw row %s", label)
		}
	}
	return nil
}

// RowIndex returns the index of the row with the given label, or -1.
func (b *Board) RowIndex(label string) int {
	for i, l := range b.rows {
		if l == label {
			return i
		}
	}
	return -1
}

// placeEnds places sites at the west and east ends of a grid board
// (Site.End): at most one at each end.
func (b *Board) placeEnds(ends map[string]string) error {
	b.ends = [2]int32{-1, -1}
	if len(ends) > 0 && !b.grid {
		return fmt.Errorf("ends place sites of a board of rows and columns; a board of points is drawn from its points or picture")
	}
	names := make([]string, 0, len(ends))
	for name := range ends {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		i, ok := b.byName[name]
		if !ok {
			return fmt.Errorf("ends: %q is not a site of the board", firstN(name, 20))
		}
		var k int
		switch ends[name] {
		case West:
			k = 0
		case East:
			k = 1
		default:
			return fmt.Errorf("ends: %s = %q: an end is \"west\" or \"east\"", name, firstN(ends[name], 20))
		}
		if j := b.ends[k]; j >= 0 {
			return fmt.Errorf("ends: %s and %s are both at the %s end; each end holds one site", b.sites[j].Name, name, ends[name])
		}
		b.ends[k] = int32(i)
		b.sites[i].End = ends[name]
	}
	b.drawn = make([][]int32, len(b.rows))
	for r, row := range b.rowSite {
		for _, i := range row {
			if b.sites[i].End == "" {
				b.drawn[r] = append(b.drawn[r], i)
			}
		}
	}
	for r, row := range b.drawn {
		if len(row) == 0 {
			return fmt.Errorf("ends: row %s has no site left to draw in it", b.rows[r])
		}
	}
	return nil
}

// Ends returns the sites drawn at the west and at the east end of the
// board, -1 for an end without one (see Site.End).
func (b *Board) Ends() (west, east int) { return int(b.ends[0]), int(b.ends[1]) }

// SplitName splits a site name into its row letters and its column
// number, e.g. "ab12" into "ab" and 12.
func SplitName(name string) (row string, col int, ok bool) { return splitName(name) }

// MaxSiteName is the longest site name a board may use.
const MaxSiteName = maxSiteName

func firstN(s string, n int) string {
	if len(s) > n {
		return s[:n] + "..."
	}
	return s
}

// ---- fast access for rule parts ----
//
// The methods below return the board's own data without copying, for the
// hot loops of rule parts and primitives: callers must not change what
// they return.

// NumRows is the number of rows.
func (b *Board) NumRows() int { return len(b.rows) }

// RowLabel is the label of row r (0 = south).
func (b *Board) RowLabel(r int) string { return b.rows[r] }

// Row returns the sites of row r from left to right (shared, read only).
func (b *Board) Row(r int) []int32 { return b.rowSite[r] }

// Drawn returns the sites of row r drawn in the row, the row without the
// sites drawn at the ends (shared, read only).
func (b *Board) Drawn(r int) []int32 { return b.drawn[r] }

// Picture is the board's drawing template, "" for none.
func (b *Board) Picture() string { return b.picture }

// SetStyle sets how diagrams show the board's sites; it is called while
// the board is declared.
func (b *Board) SetStyle(s DiagramStyle) { b.style = s }

// NumTags is the number of tags declared.
func (b *Board) NumTags() int { return len(b.tags) }

// TagName is the name of tag t (from 0).
func (b *Board) TagName(t int) string { return b.tags[t] }

// TagIndex returns the index of the tag named name.
func (b *Board) TagIndex(name string) (int, bool) {
	for t, n := range b.tags {
		if n == name {
			return t, true
		}
	}
	return 0, false
}

// TagMask is the set of tags of site i: bit t for tag t.
func (b *Board) TagMask(i int) uint64 { return b.tagMask[i] }

// AddMark makes diagrams mark the sites of tag t with the character mark.
func (b *Board) AddMark(t int, mark byte) { b.marks = append(b.marks, tagMark{tag: t, mark: mark}) }

// MarkedTags returns the tags diagrams mark, in the order they were
// marked, with their marks.
func (b *Board) MarkedTags() (tags []int, marks []byte) {
	for _, m := range b.marks {
		tags = append(tags, m.tag)
		marks = append(marks, m.mark)
	}
	return tags, marks
}

// NumTracks is the number of tracks.
func (b *Board) NumTracks() int { return len(b.tracks) }

// TrackAt returns track k (from 0), shared: callers must not change it.
func (b *Board) TrackAt(k int) *Track { return &b.tracks[k] }

// TrackIndex returns the index of track t, -1 when t is not the board's.
func (b *Board) TrackIndex(t *Track) int {
	for i := range b.tracks {
		if &b.tracks[i] == t {
			return i
		}
	}
	return -1
}

// TrackNamed returns the track named name.
func (b *Board) TrackNamed(name string) (*Track, bool) {
	for i := range b.tracks {
		if b.tracks[i].Name == name {
			return &b.tracks[i], true
		}
	}
	return nil, false
}

// NumLines is the number of lines.
func (b *Board) NumLines() int { return len(b.lines) }

// Line returns line k's sites in order (shared, read only).
func (b *Board) Line(k int) []int32 { return b.lines[k] }

// LineOf returns the index of the line whose sites are sites, in its
// order or the reverse, -1 when the board has no such line.
func (b *Board) LineOf(sites []int) int {
	if len(sites) == 0 || sites[0] < 0 || sites[0] >= len(b.sites) {
		return -1
	}
	for _, li := range b.linesAt[sites[0]] {
		l := b.lines[li]
		if len(l) != len(sites) {
			continue
		}
		fwd, back := true, true
		for k, x := range sites {
			fwd = fwd && int(l[k]) == x
			back = back && int(l[len(l)-1-k]) == x
		}
		if fwd || back {
			return int(li)
		}
	}
	return -1
}

// LinesAt returns the indices of the lines through site i (shared, read
// only).
func (b *Board) LinesAt(i int) []int32 { return b.linesAt[i] }

// Neighbours returns the neighbours of site i along the lines, in board
// order (shared, read only).
func (b *Board) Neighbours(i int) []int32 { return b.adj[i] }

// Jump is a jump along a line over one site to the site beyond.
type Jump struct{ Over, To int32 }

// JumpsFrom returns the jumps from site i along the lines, by their
// landing site (shared, read only).
func (b *Board) JumpsFrom(i int) []Jump { return b.jumps[i] }

// Pos is the position of site i on the track, -1 when it is not on it.
func (t *Track) Pos(i int) int { return int(t.pos[i]) }

// On reports whether site i is on the track.
func (t *Track) On(i int) bool { return t.pos[i] >= 0 }

// Next is the site after site i on the track, -1 when none (i is not on
// it, or is the end of a track that does not loop).
func (t *Track) Next(i int) int { return int(t.next[i]) }

// RunThrough reports whether player p owns k consecutive sites of a line
// through site i, i among them; owners holds the owner of every site.
func (b *Board) RunThrough(owners []int32, i, p int32, k int) bool {
	for _, li := range b.linesAt[i] {
		run, has := 0, false
		for _, x := range b.lines[li] {
			if owners[x] != p {
				run, has = 0, false
				continue
			}
			run++
			has = has || x == i
			if has && run >= k {
				return true
			}
		}
	}
	return false
}

// Fingerprint summarizes the board's declarations (sites, tags, lines,
// tracks), so that two declarations of one game can be compared.
func (b *Board) Fingerprint() string {
	var sb strings.Builder
	for _, s := range b.sites {
		fmt.Fprintf(&sb, "%s,", s.Name)
	}
	fmt.Fprintf(&sb, "|%v|%v|%v|", b.tags, b.tagMask, b.lines)
	if b.checkered {
		sb.WriteString("checkered|") // only then: other boards keep their fingerprints
	}
	for _, t := range b.tracks {
		fmt.Fprintf(&sb, "%s%v%v;", t.Name, t.Sites, t.Loop)
	}
	return sb.String()
}
