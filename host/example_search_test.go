package host_test

import (
	"fmt"
	"log"

	"github.com/matombo/matombo/host"
)

// A depth-limited negamax with a transposition table, as a search built on
// the host would write it (docs/embedding.md, "Searching and solving"):
//
//   - one Runner for the goroutine, so moves take no machine from the pool;
//   - each move played from the position into a state kept per depth
//     with Runner.ApplyTo, a copy and the move in one step (no
//     allocation per node);
//   - the table keyed by the exact position encoding, plus the number of
//     times the position occurred when the game has a repetition rule (the
//     same position can be a draw by repetition in one line and not in
//     another);
//   - the sign flips only when the player to move changes: in Kalah a
//     sowing that ends in one's store gives another turn.
func Example_negamax() {
	g, err := library().Load("kalah")
	if err != nil {
		log.Fatal(err)
	}
	r := g.NewRunner()
	defer r.Close()
	stores := [3]int{}
	stores[1], _ = g.Board().Index("a7")
	stores[2], _ = g.Board().Index("b7")

	const maxDepth = 6
	type entry struct{ depth, value int }
	table := map[string]entry{}
	children := make([]*host.State, maxDepth+1)
	for i := range children {
		children[i] = g.Start()
	}
	var key []byte

	var negamax func(s *host.State, depth int) int
	negamax = func(s *host.State, depth int) int {
		p := s.ToMove()
		if s.Over() {
			return int(1000 * (2*s.Outcome().Score(p) - 1)) // win 1000, draw 0, loss -1000
		}
		if depth == 0 {
			return s.Count(stores[p]) - s.Count(stores[3-p])
		}
		key = positionKey(key[:0], g, s)
		if e, ok := table[string(key)]; ok && e.depth >= depth {
			return e.value
		}
		best := -1 << 30
		for _, m := range s.AppendMoves(nil) {
			c := children[depth]
			if err := r.ApplyTo(c, s, m); err != nil { // c becomes s with m played
				log.Fatal(err)
			}
			v := negamax(c, depth-1)
			if c.ToMove() != p {
				v = -v
			}
			best = max(best, v)
		}
		table[string(positionKey(key[:0], g, s))] = entry{depth, best}
		return best
	}

	s := g.Start()
	for _, m := range s.Moves() {
		c := s.Clone()
		if err := r.Apply(c, m); err != nil {
			log.Fatal(err)
		}
		v := negamax(c, maxDepth-1)
		if c.ToMove() != s.ToMove() {
			v = -v
		}
		fmt.Printf("%s %d\n", g.Token(m), v)
	}
	// Output:
	// a1 -4
	// a2 -4
	// a3 1
	// a4 0
	// a5 0
	// a6 3
}

// positionKey is what a transposition table compares: the exact position,
// and how often it occurred when the game has a repetition rule.
func positionKey(dst []byte, g *host.Game, s *host.State) []byte {
	dst = s.AppendPosition(dst)
	if g.Repetition() > 0 {
		dst = append(dst, byte(min(s.Repetitions(), 255)))
	}
	return dst
}

// A search that looks at every child of a position but goes on from few
// plays them with Runner.ApplyToUnlisted: the position, key and result
// are there at once, the next player's legal moves only once Runner.List
// lists them (here for the child whose store holds the most).
func ExampleRunner_ApplyToUnlisted() {
	g, err := library().Load("kalah")
	if err != nil {
		log.Fatal(err)
	}
	r := g.NewRunner()
	defer r.Close()
	store, _ := g.Board().Index("a7")
	s := g.Start()
	kids := make([]*host.State, len(s.Moves()))
	best := 0
	for i := range s.Moves() {
		kids[i] = &host.State{}
		if err := r.ApplyToUnlisted(kids[i], s, i); err != nil {
			log.Fatal(err)
		}
		if kids[i].Count(store) > kids[best].Count(store) {
			best = i
		}
	}
	c := kids[best]
	fmt.Println(g.Token(s.Moves()[best]), c.Listed(), c.Count(store), c.ToMove())
	if err := r.List(c); err != nil {
		log.Fatal(err)
	}
	fmt.Println(c.Listed(), c.Legal())
	// Output:
	// a3 false 1 1
	// true [a1 a2 a4 a5 a6]
}
