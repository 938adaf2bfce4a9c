package host

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
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

	tags    []string
	tagMask []uint64 // per site
	marks   []tagMark

	tracks []Track

	lines   [][]int32
	linesAt [][]int32 // per site: the lines through it
	adj     [][]int32 // per site: neighbours along lines
	jumps   [][]jump  // per site: jumps along lines
}

type tagMark struct {
	tag  int
	mark byte
}

type jump struct{ over, to int32 }

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

// siteName returns the name of a site for messages, tolerating bad indices.
func (b *Board) siteName(i int) string {
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

// boardSpec is what a script declares with matombo.board.
type boardSpec struct {
	rows    []string       // grid: row labels south to north
	columns int            // grid: columns per row
	points  map[string]int // point board: name -> drawing position
	order   []string       // point names as declared (for messages)
	lines   [][]string     // lines as site names
	ends    map[string]string
	style   DiagramStyle
	picture string
}

const maxSites = 4096

func newBoard(spec boardSpec) (*Board, error) {
	b := &Board{byName: map[string]int{}, style: spec.style, picture: spec.picture}
	switch {
	case len(spec.rows) > 0 && spec.points != nil:
		return nil, fmt.Errorf("a board has either rows and columns or points, not both")
	case len(spec.rows) > 0:
		if spec.columns < 1 {
			return nil, fmt.Errorf("a grid board needs columns >= 1, got %d", spec.columns)
		}
		if len(spec.rows)*spec.columns > maxSites {
			return nil, fmt.Errorf("a board may have at most %d sites, this one has %d", maxSites, len(spec.rows)*spec.columns)
		}
		seen := map[string]bool{}
		for _, r := range spec.rows {
			if !validRowLabel(r) {
				return nil, fmt.Errorf("row label %q must be 1 to %d lower-case letters", firstN(r, 20), maxRowLabel)
			}
			if seen[r] {
				return nil, fmt.Errorf("row label %q is declared twice", r)
			}
			seen[r] = true
		}
		b.rows = append([]string(nil), spec.rows...)
		b.grid = true
		for r, label := range spec.rows {
			for c := 1; c <= spec.columns; c++ {
				b.sites = append(b.sites, Site{Name: label + strconv.Itoa(c), Row: r, Col: c})
			}
		}
	case spec.points != nil:
		if len(spec.points) == 0 {
			return nil, fmt.Errorf("a point board needs at least one point")
		}
		if len(spec.points) > maxSites {
			return nil, fmt.Errorf("a board may have at most %d sites, this one has %d", maxSites, len(spec.points))
		}
		labels := map[string]bool{}
		for _, name := range spec.order {
			row, _, ok := splitName(name)
			if !ok || len(name) > maxSiteName || len(row) > maxRowLabel {
				return nil, fmt.Errorf("point name %q must be a row letter and a number, like a1 (at most %d characters)", firstN(name, 20), maxSiteName)
			}
			if spec.points[name] < 0 {
				return nil, fmt.Errorf("point %s: drawing position must be >= 0, got %d", name, spec.points[name])
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
		for _, name := range spec.order {
			row, _, _ := splitName(name)
			b.sites = append(b.sites, Site{Name: name, Row: rowIndex[row], Col: spec.points[name]})
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
	if err := b.placeEnds(spec.ends); err != nil {
		return nil, err
	}
	b.tagMask = make([]uint64, len(b.sites))
	if err := b.addLines(spec.lines); err != nil {
		return nil, err
	}
	if b.picture != "" {
		if err := b.checkPicture(); err != nil {
			return nil, err
		}
	}
	return b, nil
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

// lineError is a problem with one line of a board declaration.
type lineError struct {
	line int // index in the declared lines
	msg  string
}

func (e *lineError) Error() string { return e.msg }

func (b *Board) addLines(lines [][]string) error {
	n := len(b.sites)
	b.linesAt = make([][]int32, n)
	b.adj = make([][]int32, n)
	b.jumps = make([][]jump, n)
	// Sets, not searches of the lists: many lines through one site must
	// not make loading quadratic (the loop runs in Go, outside the budget).
	adjSeen := map[[2]int32]bool{}
	jumpSeen := map[[3]int32]bool{}
	for li, names := range lines {
		if len(names) < 2 {
			return &lineError{li, fmt.Sprintf("line %d has %d sites; a line needs at least 2", li+1, len(names))}
		}
		line := make([]int32, len(names))
		seen := map[int]bool{}
		for k, name := range names {
			i, ok := b.byName[name]
			if !ok {
				return &lineError{li, fmt.Sprintf("line %d (%s) names %q, which is not a site of the board", li+1, strings.Join(names, "-"), name)}
			}
			if seen[i] {
				return &lineError{li, fmt.Sprintf("line %d (%s) names %s twice", li+1, strings.Join(names, "-"), name)}
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
				}
				if k+2*d >= 0 && k+2*d < len(line) {
					j := jump{over: line[k+d], to: line[k+2*d]}
					if e := [3]int32{s, j.over, j.to}; !jumpSeen[e] {
						jumpSeen[e] = true
						b.jumps[s] = append(b.jumps[s], j)
					}
				}
			}
		}
	}
	for i := range b.adj {
		sort.Slice(b.adj[i], func(x, y int) bool { return b.adj[i][x] < b.adj[i][y] })
		sort.Slice(b.jumps[i], func(x, y int) bool { return b.jumps[i][x].to < b.jumps[i][y].to })
	}
	return nil
}

// addTag declares a tag on the given sites and returns its index.
func (b *Board) addTag(name string, sites []int) (int, error) {
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

// addTrack declares a track and returns its index.
func (b *Board) addTrack(name string, sites []int, loop bool) (int, error) {
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

// step moves k places along track t from site s (k may be negative). It
// returns -1 when s is not on the track or a non-looping track ends.
func (t *Track) step(s, k int) int {
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

// at returns the site in row r and column c, or -1.
func (b *Board) at(r, c int) int {
	if r < 0 || r >= len(b.cell) || c < 0 || c >= len(b.cell[r]) {
		return -1
	}
	return int(b.cell[r][c]) - 1
}

// markOf returns the diagram marks of site i.
func (b *Board) markOf(i int) string {
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
		r := b.rowIndex(fields[0])
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

// rowIndex returns the index of the row with the given label, or -1.
func (b *Board) rowIndex(label string) int {
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
