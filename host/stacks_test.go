package host

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A board of pieces draws a stack of one player's pieces as the player's
// number repeated (a crowned man, 11), a stack taller than nine as its
// height@player, and reads both back.
func TestStackCells(t *testing.T) {
	p := loadTest(t, "probepts")
	for _, c := range []struct {
		count, owner int
		cell         string
	}{
		{0, 0, "."}, {1, 1, "1"}, {1, 2, "2"}, {2, 1, "11"}, {2, 2, "22"}, {3, 2, "222"},
		{9, 1, "111111111"}, {10, 1, "10@1"}, {1 << 30, 2, "1073741824@2"},
	} {
		cell := p.Cell(0, c.count, c.owner)
		assert.Equal(t, c.cell, cell)
		count, owner, err := p.ParseCell(0, cell)
		require.NoError(t, err, cell)
		assert.Equal(t, []int{c.count, c.owner}, []int{count, owner}, cell)
	}
	// A position with stacks draws and reads back whole.
	pos := p.Start().Position()
	pos.Counts[0], pos.Owners[0] = 2, 1
	pos.Counts[3], pos.Owners[3] = 12, 2
	s, err := p.NewState(pos, AnyTotal())
	require.NoError(t, err)
	counts, owners, err := p.ParseDiagram(s.Diagram())
	require.NoError(t, err, s.Diagram())
	assert.Equal(t, pos.Counts, counts)
	assert.Equal(t, pos.Owners, owners)
}
