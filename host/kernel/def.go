package kernel

// Def is the definition of a loaded game that rules run on: its board,
// the layout of its states, its kinds of moves and variables, and its
// players. A Def is made once, while the game loads, and shared by every
// state and every machine of the game; it never changes afterwards.
type Def struct {
	Board   *Board
	Layout  Layout
	Kinds   []MoveKind
	Vars    []Var
	Players int
	Tag     uint32 // the identity of the game, carried by its moves
}

// Var is a script variable: a small integer kept in every state.
type Var struct {
	Name     string
	Position bool // part of the position (the repetition key)
	Cell     int  // its cell in a state
}

// NextPlayer is the player after p (a player from 1 to Players), without
// a division: every ply asks it.
func (d *Def) NextPlayer(p int) int {
	if p >= d.Players {
		return 1
	}
	return p + 1
}

// Pieces reports whether the board is a board of pieces, where an empty
// site has no owner (see Ctx.Emptied).
func (d *Def) Pieces() bool { return d.Board.style == Pieces }

// VarNamed returns the index of the variable named name.
func (d *Def) VarNamed(name string) (int, bool) {
	for i, v := range d.Vars {
		if v.Name == name {
			return i, true
		}
	}
	return 0, false
}
