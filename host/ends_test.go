package host

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// storesGame is a Kalah-like board whose stores a7 and b7 are drawn at the
// ends (BOARD replaces the board's extra fields).
const storesGame = `local m = matombo
m.declare { name = "stores", conserve = false }
m.board { rows = { "a", "b" }, columns = 7, BOARD }
local SOW = m.move("sow", "{1}")
return {
  setup = function()
    for c = 1, 6 do m.set_count("a" .. c, 4); m.set_count("b" .. c, 4) end
    m.set_count("b7", 12)
  end,
  legal = function(p) m.emit(SOW, "a1") end,
  play = function(p) m.finish(0, "done") end,
}
`

func loadStores(t testing.TB, board string) (*Game, error) {
	t.Helper()
	return loadSource(t, "stores", strings.Replace(storesGame, "BOARD", board, 1))
}

func TestEndsDeclared(t *testing.T) {
	g, err := loadStores(t, `ends = { a7 = "east", b7 = "west" }`)
	require.NoError(t, err)
	b := g.Board()
	a7, _ := b.Index("a7")
	b7, _ := b.Index("b7")
	assert.Equal(t, Site{Name: "a7", Row: 0, Col: 7, End: East}, b.Site(a7))
	assert.Equal(t, Site{Name: "b7", Row: 1, Col: 7, End: West}, b.Site(b7))
	assert.Equal(t, "", b.Site(0).End)
	west, east := b.Ends()
	assert.Equal(t, b7, west)
	assert.Equal(t, a7, east)
	assert.Len(t, b.RowSites(0), 7, "a site at an end stays in its row")

	_, err = loadStores(t, `ends = { a7 = "east" }`)
	require.NoError(t, err, "one end only")

	for _, tc := range []struct{ board, msg string }{
		{`ends = { z9 = "east" }`, `ends: "z9" is not a site of the board`},
		{`ends = { a7 = "north" }`, `ends: a7 = "north": an end is "west" or "east"`},
		{`ends = { a7 = "east", b7 = "east" }`, "ends: a7 and b7 are both at the east end; each end holds one site"},
		{`ends = { a7 = "east", b7 = "west", a1 = "west" }`, "want at most two sites"},
		{`ends = { a7 = 1 }`, "want at most two sites, each mapped to"},
		{`ends = "a7"`, `ends must map site names to "west" or "east"`},
	} {
		t.Run(tc.msg, func(t *testing.T) {
			_, err := loadStores(t, tc.board)
			require.Error(t, err)
			assert.Contains(t, err.Error(), tc.msg)
		})
	}
	_, err = loadSource(t, "pts", `local m = matombo
m.declare { name = "pts" }
m.board { points = { a1 = 0, a2 = 2 }, ends = { a1 = "west" } }
m.move("x", "{1}")
return { setup = function() end, legal = function() end, play = function() end }`)
	require.ErrorContains(t, err, "ends place sites of a board of rows and columns")
	_, err = loadSource(t, "one", `local m = matombo
m.declare { name = "one" }
m.board { rows = { "a" }, columns = 1, ends = { a1 = "west" } }
m.move("x", "{1}")
return { setup = function() end, legal = function() end, play = function() end }`)
	require.ErrorContains(t, err, "ends: row a has no site left to draw in it")
}

func TestEndsDiagram(t *testing.T) {
	g, err := loadStores(t, `ends = { a7 = "east", b7 = "west" }`)
	require.NoError(t, err)
	s := g.Start()
	want := "" +
		"b         4  4  4  4  4  4\n" +
		"     [12]                   [0]\n" +
		"a         4  4  4  4  4  4\n" +
		"          1  2  3  4  5  6\n"
	assert.Equal(t, want, s.Diagram())
	diagramRoundTrip(t, g, want)

	east, err := loadStores(t, `ends = { a7 = "east" }`)
	require.NoError(t, err)
	assert.Equal(t, ""+
		"b    4  4  4  4  4  4  12\n"+
		"                          [0]\n"+
		"a    4  4  4  4  4  4\n"+
		"     1  2  3  4  5  6  7\n", east.Start().Diagram(), "b7 stays in its row")
	diagramRoundTrip(t, east, east.Start().Diagram())
}

func TestEndsParseDiagram(t *testing.T) {
	g, err := loadStores(t, `ends = { a7 = "east", b7 = "west" }`)
	require.NoError(t, err)
	a7, _ := g.Board().Index("a7")
	b7, _ := g.Board().Index("b7")
	for _, tc := range []struct{ name, text string }{
		{"drawn", "b 1 2 3 4 5 6\n[20] [10]\na 6 5 4 3 2 1\n  1 2 3 4 5 6\n"},
		{"ends first", "[20] [10]\nb 1 2 3 4 5 6\na 6 5 4 3 2 1\n"},
		{"as a board without ends", "b 1 2 3 4 5 6 20\na 6 5 4 3 2 1 10\n"},
		{"mixed", "b 1 2 3 4 5 6 20\n[20] [10]\na 6 5 4 3 2 1\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			text := tc.text
			if tc.name == "mixed" {
				text = "b 1 2 3 4 5 6\n[20] [10]\na 6 5 4 3 2 1 10\n"
				_, _, err := g.ParseDiagram(text)
				require.ErrorContains(t, err, "a7 is given twice")
				return
			}
			counts, _, err := g.ParseDiagram(text)
			require.NoError(t, err)
			assert.Equal(t, 10, counts[a7])
			assert.Equal(t, 20, counts[b7])
			assert.Equal(t, 1, counts[a7+1], "b1")
		})
	}
	for _, tc := range []struct{ text, msg string }{
		{"b 1 2 3 4 5 6\na 6 5 4 3 2 1\n", "diagram: b7, the site at the west end, is missing: a line of its own gives the ends in brackets, west first ([b7] ... [a7])"},
		{"b 1 2 3 4 5 6\n[20]\na 6 5 4 3 2 1\n", "diagram line 2: the board has 2 sites at its ends, the line gives 1 ([b7] ... [a7])"},
		{"b 1 2 3 4 5 6\n[20] 7\na 6 5 4 3 2 1\n", "each site in brackets"},
		{"b 1 2 3 4 5 6\n[20 [7]\na 6 5 4 3 2 1\n", "the board has 2 sites at its ends, the line gives 1"},
		{"b 1 2 3 4 5 6\n[20] [7\na 6 5 4 3 2 1\n", "a [ without its ]"},
		{"b 1 2 3 4 5 6\n[x] [7]\na 6 5 4 3 2 1\n", "b7: \"x\": unknown mark"},
		{"b 1 2 3 4 5\n[1] [7]\na 6 5 4 3 2 1\n", "row b has 6 sites, the line gives 5 (without [b7] ... [a7], given on the line of the ends in brackets, or with it in column order)"},
		{"b 1 2 3 4 5 6\n[1] [7]\n[1] [7]\na 6 5 4 3 2 1\n", "b7 is given twice"},
	} {
		t.Run(tc.msg, func(t *testing.T) {
			_, _, err := g.ParseDiagram(tc.text)
			var de *DiagramError
			require.ErrorAs(t, err, &de)
			assert.Contains(t, err.Error(), tc.msg)
		})
	}
	// Brackets on a board without ends.
	k := loadTest(t, "kalah")
	_, _, err = k.ParseDiagram("b 4 4 4 4 4 4 0\n[0]\na 4 4 4 4 4 4 0\n")
	require.ErrorContains(t, err, "brackets give the sites at the ends of a board, and this board has none")
}

// FuzzParseEndsDiagram: a diagram of a board with ends never panics the
// parser, and what parses draws and parses back to the same board.
func FuzzParseEndsDiagram(f *testing.F) {
	g, err := loadStores(f, `ends = { a7 = "east", b7 = "west" }`)
	if err != nil {
		f.Fatal(err)
	}
	f.Add(g.Start().Diagram())
	f.Add("b 1 2 3 4 5 6\n[20] [10]\na 6 5 4 3 2 1\n")
	f.Add("b 1 2 3 4 5 6 20\na 6 5 4 3 2 1 10\n")
	f.Add("[] []\n[")
	f.Fuzz(func(t *testing.T, text string) { diagramRoundTrip(t, g, text) })
}
