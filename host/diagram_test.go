package host

import (
	"errors"
	"math/rand/v2"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Diagrams: Diagram draws a state, ParseDiagram reads one back.

func TestDiagramCounts(t *testing.T) {
	g := loadTest(t, "probe")
	s := g.Start()
	assert.Equal(t, ""+
		"c    2* 2  2  2\n"+
		"b    0+ 0  0  0+\n"+
		"a    2  2  2  2*\n"+
		"     1  2  3  4\n", s.Diagram())

	// Owners that differ from the opening's show as @N; wide counts widen
	// every cell.
	_, err := evalIn(g, s, asSetup, luaPrefix+`m.set_owner("b2", 1) m.set_owner("a1", 0) m.set_count("c4", 123) m.set_count("a4", 0)`)
	require.NoError(t, err)
	assert.Equal(t, ""+
		"c    2*  2   2   123\n"+
		"b    0+  0@1 0   0+\n"+
		"a    2@0 2   2   0*\n"+
		"     1   2   3   4\n", s.Diagram())

	k := loadTest(t, "kalah")
	assert.Equal(t, ""+
		"b    4  4  4  4  4  4  0\n"+
		"a    4  4  4  4  4  4  0\n"+
		"     1  2  3  4  5  6  7\n", k.Start().Diagram())
}

func TestDiagramPieces(t *testing.T) {
	g := loadTest(t, "probepts")
	s := g.Start()
	// To the right, the key: each point's number, so b1 and b3 can be told
	// apart.
	assert.Equal(t, ""+
		"c   .-----.-----.      c   1-----2-----3\n"+
		"     \\    |    /            \\    |    /\n"+
		"b     .---.---.        b     1---2---3\n"+
		"       \\  |  /                \\  |  /\n"+
		"a         .            a         1\n", s.Diagram())
	for _, tok := range []string{"a1", "c2", "b1"} {
		require.NoError(t, s.Play(tok))
	}
	assert.Equal(t, ""+
		"c   .-----2-----.      c   1-----2-----3\n"+
		"     \\    |    /            \\    |    /\n"+
		"b     1---.---.        b     1---2---3\n"+
		"       \\  |  /                \\  |  /\n"+
		"a         1            a         1\n", s.Diagram())
	// The key is optional when a diagram is read: with it, without it.
	pos := s.Position()
	for _, text := range []string{s.Diagram(), "c . 2 .\nb 1 . .\na 1\n", "c . 2 .   c 1 2 3\nb 1 . .\na 1   a 1\n"} {
		counts, owners, err := g.ParseDiagram(text)
		require.NoError(t, err, text)
		assert.Equal(t, pos.Counts, counts, text)
		assert.Equal(t, pos.Owners, owners, text)
	}
	colored := s.DiagramWith(DiagramOptions{Color: true})
	assert.Contains(t, colored, "\x1b[36m1\x1b[0m", "Player 1 in cyan")
	assert.Contains(t, colored, "\x1b[33m2\x1b[0m", "Player 2 in yellow")
	assert.Contains(t, colored, "\x1b[0m-----.      c   1-----2-----3\n", "the key is aligned as without colour")
	assert.NotContains(t, s.Diagram(), "\x1b[")
	assert.Equal(t, Pieces, g.Board().Style())
	assert.Equal(t, "pieces", Pieces.String())
	assert.Equal(t, "counts", Counts.String())
}

// ansiEscape matches the colour escapes of a diagram.
var ansiEscape = regexp.MustCompile("\x1b\\[[0-9;]*m")

// A point board whose key does not fit beside it in the width asked for
// has its key below it, after a line "Key:"; a board wider than the width
// is drawn whole. Either drawing reads back as the same position.
func TestDiagramKeyBelow(t *testing.T) {
	g := loadTest(t, "probepts")
	s := g.Start()
	for _, tok := range []string{"a1", "c2", "b1"} {
		require.NoError(t, s.Play(tok))
	}
	beside := "" +
		"c   .-----2-----.      c   1-----2-----3\n" +
		"     \\    |    /            \\    |    /\n" +
		"b     1---.---.        b     1---2---3\n" +
		"       \\  |  /                \\  |  /\n" +
		"a         1            a         1\n"
	below := "" +
		"c   .-----2-----.\n" +
		"     \\    |    /\n" +
		"b     1---.---.\n" +
		"       \\  |  /\n" +
		"a         1\n" +
		"Key:\n" +
		"c   1-----2-----3\n" +
		"     \\    |    /\n" +
		"b     1---2---3\n" +
		"       \\  |  /\n" +
		"a         1\n"
	pos := s.Position()
	for _, c := range []struct {
		width int
		want  string
	}{
		{0, beside},  // no limit
		{40, beside}, // just fits
		{39, below},
		{17, below}, // the board alone just fits
		{10, below}, // nothing fits: the board whole all the same
	} {
		got := s.DiagramWith(DiagramOptions{Width: c.width})
		assert.Equal(t, c.want, got, "width %d", c.width)
		colored := s.DiagramWith(DiagramOptions{Width: c.width, Color: true})
		assert.Equal(t, got, ansiEscape.ReplaceAllString(colored, ""), "width %d: in colour, the same lines", c.width)
		counts, owners, err := g.ParseDiagram(got)
		require.NoError(t, err, "width %d:\n%s", c.width, got)
		assert.Equal(t, pos.Counts, counts, "width %d", c.width)
		assert.Equal(t, pos.Owners, owners, "width %d", c.width)
		// NoKeyBelow leaves out only a key that would go below.
		short := s.DiagramWith(DiagramOptions{Width: c.width, NoKeyBelow: true})
		want, _, _ := strings.Cut(c.want, "Key:\n")
		assert.Equal(t, want, short, "width %d, no key below", c.width)
	}
	// A board of holes has no key: the width changes nothing.
	k := loadTest(t, "kalah").Start()
	assert.Equal(t, k.Diagram(), k.DiagramWith(DiagramOptions{Width: 10}))
}

func TestDiagramColorCounts(t *testing.T) {
	g := loadTest(t, "probe")
	d := g.Start().DiagramWith(DiagramOptions{Color: true})
	assert.Contains(t, d, "\x1b[36m2 \x1b[0m")
	assert.Contains(t, d, "\x1b[33m2*\x1b[0m")
	assert.Contains(t, d, "b    0+ 0  0  0+\n", "nobody's sites are not coloured")
}

func TestCellAndParseCell(t *testing.T) {
	g := loadTest(t, "probe")
	a4, _ := g.Board().Index("a4")
	b2, _ := g.Board().Index("b2")
	assert.Equal(t, "3*", g.Cell(a4, 3, 1))
	assert.Equal(t, "3*@2", g.Cell(a4, 3, 2))
	assert.Equal(t, "0@1", g.Cell(b2, 0, 1))
	for _, c := range []struct {
		site         int
		cell         string
		count, owner int
		err          string
	}{
		{a4, "3*", 3, 1, ""},
		{a4, "3", 3, 1, ""},
		{a4, "3*@2", 3, 2, ""},
		{a4, "3@0", 3, 0, ""},
		{a4, ".", 0, 1, ""},
		{b2, "17", 17, 0, ""},
		{b2, "0@2", 0, 2, ""},
		{b2, "3*", 0, 0, `"3*": mark * means head, which this site is not`},
		{b2, "3!", 0, 0, `"3!": unknown mark '!'`},
		{b2, "x", 0, 0, `"x": unknown mark 'x'`},
		{b2, "", 0, 0, `want a count`},
		{b2, "3@3", 0, 0, `"3@3": owner after @ must be 0-2`},
		{b2, "3@x", 0, 0, "owner after @ must be 0-2"},
		{b2, "99999999999", 0, 0, "want a count"},
		{-1, "1", 0, 0, "site -1 is not on the board"},
		{12, "1", 0, 0, "site 12 is not on the board"},
	} {
		count, owner, err := g.ParseCell(c.site, c.cell)
		if c.err != "" {
			assert.ErrorContains(t, err, c.err, "%q", c.cell)
			continue
		}
		require.NoError(t, err, "%q", c.cell)
		assert.Equal(t, []int{c.count, c.owner}, []int{count, owner}, "%q", c.cell)
	}

	p := loadTest(t, "probepts")
	for _, c := range []struct {
		cell         string
		count, owner int
		err          string
	}{
		{".", 0, 0, ""},
		{"1", 1, 1, ""},
		{"2", 1, 2, ""},
		{"3", 0, 0, `"3": want a player number 1-2 or . for empty`},
		{"0", 0, 0, "want a player number 1-2"},
		{"1@2", 1, 2, ""},
		{"11", 2, 1, ""},
		{"222", 3, 2, ""},
		{"999999999", 0, 0, "want a player number 1-2"},
		{"111111111", 9, 1, ""},
		{"1111111111", 0, 0, "up to 9"},
		{"12@1", 12, 1, ""},
		{"12", 0, 0, "want a player number 1-2"},
		{"12@3", 0, 0, "want a player number 1-2"},
		{"0@1", 0, 0, "want a player number 1-2"},
		{"@1", 0, 0, "want a player number 1-2"},
		{"2@", 0, 0, "unknown mark"},
		{"2@11", 0, 0, "want a player number 1-2"},
	} {
		count, owner, err := p.ParseCell(0, c.cell)
		if c.err != "" {
			assert.ErrorContains(t, err, c.err, "%q", c.cell)
			continue
		}
		require.NoError(t, err, "%q", c.cell)
		assert.Equal(t, []int{c.count, c.owner}, []int{count, owner}, "%q", c.cell)
	}
}

// Diagrams read back to the same counts and owners, along random games.
func TestDiagramRoundTrip(t *testing.T) {
	for _, name := range []string{"probe", "probepts", "kalah"} {
		t.Run(name, func(t *testing.T) {
			g := loadTest(t, name)
			rng := rand.New(rand.NewPCG(3, 4))
			for game := 0; game < 5; game++ {
				s := g.Start()
				for {
					counts, owners, err := g.ParseDiagram(s.Diagram())
					require.NoError(t, err, "%s", s.Diagram())
					pos := s.Position()
					assert.Equal(t, pos.Counts, counts)
					assert.Equal(t, pos.Owners, owners)
					if ok, err := PlayRandom(s, rng); !ok {
						break
					} else {
						require.NoError(t, err)
					}
				}
			}
		})
	}
}

func TestParseDiagram(t *testing.T) {
	g := loadTest(t, "probe")
	want := func(cs, os []int) func(t *testing.T, counts, owners []int) {
		return func(t *testing.T, counts, owners []int) {
			assert.Equal(t, cs, counts)
			assert.Equal(t, os, owners)
		}
	}
	opening := want([]int{2, 2, 2, 2, 0, 0, 0, 0, 2, 2, 2, 2}, []int{1, 1, 1, 1, 0, 0, 0, 0, 2, 2, 2, 2})
	for _, c := range []struct {
		name, text string
		check      func(t *testing.T, counts, owners []int)
		line       int
		err        string
	}{
		{"as drawn", "c    2* 2  2  2\nb    0+ 0  0  0+\na    2  2  2  2*\n     1  2  3  4\n", opening, 0, ""},
		{"rows in any order, marks left out, no header", "a 2 2 2 2\n\nc 2 2 2 2\n   \nb . . . .\n", opening, 0, ""},
		{"indented with trailing spaces and CRs", "  c 2 2 2 2   \r\n  b 0 0 0 0\r\n  a 2 2 2 2\r\n", opening, 0, ""},
		{"connectors between cells", "c 2--2--2--2\n  |  |  |  |\nb 0--0--0--0\n  |  |  |  |\na 2--2--2--2\n", opening, 0, ""},
		{"owners", "c 1 2 3 4\nb 5@1 6@2 7 8@0\na 0@2 0 0 10\n",
			want([]int{0, 0, 0, 10, 5, 6, 7, 8, 1, 2, 3, 4}, []int{2, 1, 1, 1, 1, 2, 0, 0, 2, 2, 2, 2}), 0, ""},
		{"missing row", "c 2 2 2 2\na 2 2 2 2\n", nil, 0, "diagram: row b is missing (a diagram gives every row: a, b, c)"},
		{"row twice", "c 2 2 2 2\nb 0 0 0 0\nc 2 2 2 2\na 2 2 2 2\n", nil, 3, "diagram line 3: row c appears twice"},
		{"too few cells", "c 2 2 2 2\nb 0 0 0\na 2 2 2 2\n", nil, 2, "diagram line 2: row b has 4 sites, the line gives 3"},
		{"too many cells", "c 2 2 2 2\nb 0 0 0 0\n\na 2 2 2 2 2\n", nil, 4, "diagram line 4: row a has 4 sites, the line gives 5"},
		{"not a row", "c 2 2 2 2\nd 0 0 0 0\nb 0 0 0 0\na 2 2 2 2\n", nil, 2, `diagram line 2: "d 0 0 0 0" does not start with a row label (rows are a, b, c)`},
		{"a wrong header", "c 2 2 2 2\nb 0 0 0 0\na 2 2 2 2\n  1 2 4\n", nil, 4, "does not start with a row label"},
		{"bad mark", "c 2 2 2 2\nb 0 0* 0 0\na 2 2 2 2\n", nil, 2, `diagram line 2: b2: "0*": mark * means head, which this site is not`},
		{"bad count", "c 2 2 2 2\nb 0 0 x 0\na 2 2 2 2\n", nil, 2, `diagram line 2: b3: "x": unknown mark 'x'`},
		{"bad owner", "c 2 2 2 2\nb 0 0 0 0@7\na 2 2 2 2\n", nil, 2, `diagram line 2: b4: "0@7": owner after @ must be 0-2`},
		{"empty", "", nil, 0, "row a is missing"},
	} {
		t.Run(c.name, func(t *testing.T) {
			counts, owners, err := g.ParseDiagram(c.text)
			if c.err != "" {
				require.Error(t, err)
				var de *DiagramError
				require.True(t, errors.As(err, &de), "%T", err)
				assert.Equal(t, c.line, de.Line)
				assert.Contains(t, err.Error(), c.err)
				return
			}
			require.NoError(t, err)
			c.check(t, counts, owners)
		})
	}
}

// A negative count is not a count: "-1" is an error naming the cell, not
// a picture connector followed by 1.
func TestParseDiagramNegativeCount(t *testing.T) {
	g := loadTest(t, "probe")
	_, _, err := g.ParseDiagram("c 2 2 2 2\nb -1 0 0 0\na 2 2 2 2\n")
	require.Error(t, err)
	assert.ErrorContains(t, err, "b1")
}

func TestParseDiagramPieces(t *testing.T) {
	g := loadTest(t, "probepts")
	// The picture as drawn, and the same rows without the picture.
	for _, text := range []string{
		"c   1-----.-----2\n     \\    |    /\nb     .---1---.\n       \\  |  /\na         2\n",
		"a 2\nb . 1 .\nc 1 . 2\n",
	} {
		counts, owners, err := g.ParseDiagram(text)
		require.NoError(t, err, text)
		// Sites in board order: a1, b1, b2, b3, c1, c2, c3.
		assert.Equal(t, []int{1, 0, 1, 0, 1, 0, 1}, counts)
		assert.Equal(t, []int{2, 0, 1, 0, 1, 0, 2}, owners)
	}
	_, _, err := g.ParseDiagram("a 2\nb . 1 .\nc 1 . 3\n")
	assert.ErrorContains(t, err, `diagram line 3: c3: "3": want a player number 1-2 or . for empty`)
	_, _, err = g.ParseDiagram("a 2\nb . 1\nc 1 . 2\n")
	assert.ErrorContains(t, err, "diagram line 2: row b has 3 sites, the line gives 2")
}

// A position read from a diagram starts a state (NewState).
func TestNewStateFromDiagram(t *testing.T) {
	g := loadTest(t, "probe")
	counts, owners, err := g.ParseDiagram("c 0 0 1 0\nb 0 0 0 0\na 3 0 0 0\n")
	require.NoError(t, err)
	s, err := g.NewState(Position{Counts: counts, Owners: owners, Captured: []int{5, 7}, Hand: []int{1, 1}, ToMove: 2})
	require.NoError(t, err)
	assert.Equal(t, []string{"c3"}, s.Legal())
	assert.Equal(t, "c    0* 0  1  0\nb    0+ 0  0  0+\na    3  0  0  0*\n     1  2  3  4\n", s.Diagram())
	assert.Equal(t, 2, s.ToMove())
	assert.Equal(t, 0, s.Ply())
	assert.Equal(t, 1, s.Repetitions())
	assert.True(t, strings.HasPrefix(stateJSONText(t, s), `{"game":"probe"`))
}
