package host

// PositionView reads the values of a state's position in place, without
// copying them: the values AppendPositionValues appends (the counts and
// owners of the sites, the captured totals, the hands, the position
// variables and the player to move, in that order), for a loop that reads
// a few of them from many states. It reads the state as it is when read:
// keep it only while the state does not change.
type PositionView struct{ cells []int32 }

// PositionView returns a view of the values of s's position.
func (s *State) PositionView() PositionView {
	n := s.g.def.Layout.KeyLen
	return PositionView{cells: s.k.Cells[:n:n]}
}

// Len is the number of values (the length of AppendPositionValues).
func (v PositionView) Len() int { return len(v.cells) }

// Value is the i-th value (0 <= i < Len; like a slice index, an index out
// of range panics).
func (v PositionView) Value(i int) int { return int(v.cells[i]) }

// Same reports whether the values from to to-1 of v and w are equal
// (0 <= from <= to <= Len of both; a range out of either panics): for
// instance whether two positions of a game have the same owners.
func (v PositionView) Same(w PositionView, from, to int) bool {
	a, b := v.cells[from:to], w.cells[from:to]
	b = b[:len(a)]
	var d int32
	for i, x := range a {
		d |= x ^ b[i]
	}
	return d == 0
}
