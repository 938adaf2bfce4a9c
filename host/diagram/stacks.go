package diagram

import (
	"fmt"
	"strconv"
	"strings"
)

// Stacks on a board of pieces. A point of a "pieces" board usually holds
// one piece, drawn as its owner's number; it may hold a stack of several
// of one player's pieces (a piece promoted by putting a second on it).
// A diagram draws a stack of k pieces as the owner's number written k
// times, "11" for two of Player 1's pieces, up to nine; a taller stack as
// its height, @ and the owner, "12@1". A cell reads back the same way.

// maxDrawnStack is the tallest stack drawn by repeating the owner's number.
const maxDrawnStack = 9

// stackCell writes a stack of count pieces (count >= 1) of owner.
func stackCell(count, owner int) string {
	if count <= maxDrawnStack {
		return strings.Repeat(strconv.Itoa(owner), count)
	}
	return strconv.Itoa(count) + "@" + strconv.Itoa(owner)
}

// parseStack reads a pieces board's cell (without its marks): ".", an
// owner's number written once or repeated, or height@owner.
func parseStack(g Game, cell string) (count, owner int, err error) {
	if cell == "." {
		return 0, 0, nil
	}
	want := func() error {
		return fmt.Errorf("%q: want a player number 1-%d or . for empty; a stack of one player's pieces repeats the number (11: two of Player 1's, up to %d) or gives its height@player (12@1)",
			cell, g.Players, maxDrawnStack)
	}
	player := func(text string) (int, error) {
		p, err := strconv.Atoi(text)
		if err != nil || p < 1 || p > g.Players || len(text) != 1 {
			return 0, want()
		}
		return p, nil
	}
	if height, who, ok := strings.Cut(cell, "@"); ok {
		n, err := strconv.Atoi(height)
		if err != nil || n < 1 || n > 1<<30 || height[0] == '0' || height[0] == '+' {
			return 0, 0, want()
		}
		p, err := player(who)
		return n, p, err
	}
	if len(cell) > maxDrawnStack || strings.Count(cell, cell[:1]) != len(cell) {
		return 0, 0, want()
	}
	p, err := player(cell[:1])
	return len(cell), p, err
}
