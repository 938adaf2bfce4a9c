package host

import (
	"fmt"

	"github.com/matombo/matombo/host/diagram"
)

// Diagrams of a game's states are drawn and read by package diagram.

// DiagramOptions change how a board is drawn.
type DiagramOptions = diagram.Options

// DiagramError reports a problem in a board diagram; Line counts from 1
// within the diagram's text.
type DiagramError = diagram.Error

// Diagram draws the board as the players see it: the northernmost row on
// top, Player 1's row a at the bottom, each line starting with its row
// letter. On a "counts" board each site shows its count, then the marks of
// its tags (e.g. * for a head), then @ and the owner when the owner differs
// from the opening; a grid board has a line of column numbers below. On a
// "pieces" board each site shows its owner (repeated for a stack) or .
// when empty. The text can be pasted into a scenario, see ParseDiagram.
func (s *State) Diagram() string { return s.DiagramWith(DiagramOptions{}) }

// DiagramWith draws the board with options.
func (s *State) DiagramWith(opt DiagramOptions) string {
	return diagram.Draw(s.g.diagramGame(), s.Count, s.Owner, opt)
}

// Cell writes what a diagram shows for site i holding count counters owned
// by owner: e.g. "3", "2*", "12@2" on a counts board, "1", "11" or "." on a
// pieces board. A site index out of range panics, naming Cell, the index and the range,
// as a State's accessors do.
func (g *Game) Cell(i, count, owner int) string {
	if uint(i) >= uint(g.def.Layout.Sites) {
		panic(fmt.Sprintf("host: Game.Cell: site index %d out of range [0, %d)", i, g.def.Layout.Sites))
	}
	return diagram.Cell(g.diagramGame(), i, count, owner)
}

// ParseCell reads one diagram cell for site i, as ParseDiagram does.
func (g *Game) ParseCell(i int, cell string) (count, owner int, err error) {
	return diagram.ParseCell(g.diagramGame(), i, cell)
}

// ParseDiagram reads a board diagram in the style Diagram draws and returns
// the count and owner of every site in board order (see diagram.Parse).
func (g *Game) ParseDiagram(text string) (counts, owners []int, err error) {
	return diagram.Parse(g.diagramGame(), text)
}

// diagramGame is what package diagram needs of g.
func (g *Game) diagramGame() diagram.Game {
	d := diagram.Game{Board: g.def.Board, Players: g.players}
	if g.opening != nil {
		d.Opening = g.opening.Owner
	}
	return d
}
