package host_test

import (
	"errors"
	"fmt"
	"log"
	"math/rand/v2"

	"github.com/matombo/matombo/games"
	"github.com/matombo/matombo/host"
)

// The examples of docs/embedding.md, in its order: each section's Go
// block is a part of one of these functions (TestDocsGoBlocksRun checks
// it), so the page shows code that runs.

// Load a shipped game, with a folder of one's own added (here the tests'
// games), a named variant and a parameter on top of it.
func ExampleLibrary_Load_shipped() {
	lib := games.Library()                               // the shipped games (embedded)
	if err := lib.AddDir("testdata/games"); err != nil { // optional: a folder of your own
		log.Fatal(err)
	}

	g, err := lib.Load("tsoro",
		host.WithVariant("4x8"),    // named variants from variants.yaml
		host.WithParam("bonus", 3)) // any parameter, after the variants
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(g.Name(), g.ChosenVariants(), g.Params())
	// Output:
	// tsoro [4x8] [{holes 8} {bonus 3} {heads 2}]
}

// Play a token, read the decision, the result, the prompt and the score.
func ExampleState_Play_tsoro() {
	g, err := games.Library().Load("tsoro", host.WithVariant("4x8"))
	if err != nil {
		log.Fatal(err)
	}
	s := g.Start()                     // the opening position
	fmt.Print(s.Diagram())             // the board as the players see it
	fmt.Println(s.ToMove(), s.Legal()) // whose decision, the legal tokens

	if err := s.Play("a7"); err != nil {
		var ill *host.IllegalMoveError
		if errors.As(err, &ill) {
			fmt.Println("not legal:", ill.Token, "legal are", ill.Legal)
		}
		// the state is unchanged
	}

	out := s.Outcome()        // Over, Winner (0 = draw), Reason, Notes, Sites (e.g. the three on a line)
	prompt, err := s.Prompt() // what the decision asks, in the script's words ("" for nothing)
	if err != nil {
		log.Fatal(err)
	}
	scores, err := s.Score() // the script's score per player, nil without one
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("over %v, to move %d, legal %v, prompt %q, scores %v\n", out.Over, s.ToMove(), s.Legal(), prompt, scores)
	// Output:
	// d    2* 2* 2  2  2  2  2  2
	// c    0  0  0  0  0  0  0  0
	// b    0  0  0  0  0  0  0  0
	// a    2  2  2  2  2  2  2* 2*
	//      1  2  3  4  5  6  7  8
	// 1 [a1 a2 a3 a4 a5 a6 a7 a8]
	// over false, to move 2, legal [d1 d2 d3 d4 d5 d6 d7 d8], prompt "", scores [0 0]
}

// Moves as values, and a Runner that plays many of them: one move, a
// random playout, a playout by a policy of one's own, the script's
// evaluation and score.
func ExampleRunner() {
	g, err := games.Library().Load("kalah")
	if err != nil {
		log.Fatal(err)
	}
	s := g.Start()
	rng := rand.New(rand.NewPCG(1, 0))

	moves := s.Moves()                        // the legal moves; read-only, valid until s changes
	tok := g.Token(moves[2])                  // the text, when needed
	if err := s.Apply(moves[2]); err != nil { // same checks as Play, no parsing
		log.Fatal(err)
	}
	m, err := s.ParseMove("a6") // the move of a token
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(tok, g.Token(m))

	r := g.NewRunner()
	defer r.Close()
	if err := r.Apply(s, m); err != nil { // as s.Apply(m)
		log.Fatal(err)
	}
	c := s.Clone()
	n, err := r.Playout(c, rng, 0) // uniform random moves to the end
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(n, "random plies, winner", c.Outcome().Winner)
	first := func(s *host.State) host.Move { return s.Moves()[0] } // a policy of your own
	c.CopyFrom(s)
	n, err = r.PlayoutWith(c, first, 200) // moves it picks, at most 200
	if err != nil {
		log.Fatal(err)
	}
	p := s.ToMove()
	score, ok, err := r.Evaluate(s, p) // the script's evaluate(p), when it has one
	if err != nil {
		log.Fatal(err)
	}
	buf := make([]int, 0, 2)
	scores, err := r.Score(c, buf[:0]) // one number per player, when the game keeps a score
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(n, "plies of the first legal move, winner", c.Outcome().Winner, "seeds", scores)
	fmt.Printf("evaluate(%d) %v %.3f\n", p, ok, score)
	// Output:
	// a3 a6
	// 36 random plies, winner 1
	// 24 plies of the first legal move, winner 2 seeds [14 34]
	// evaluate(2) true 0.021
}

// A random playout with a seeded math/rand/v2 source.
func ExamplePlayout() {
	g, err := games.Library().Load("kalah")
	if err != nil {
		log.Fatal(err)
	}
	s := g.Start()
	seed := uint64(7)

	rng := rand.New(rand.NewPCG(seed, 0))
	c := s.Clone()
	n, err := host.Playout(c, rng, 0)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(n, c.Outcome().Winner)
	// Output: 44 1
}

// Set up a position from a diagram, for a puzzle, a test or an analysis:
// Tsoro on a 4x8 board, Player 1 to move with 18 counters captured.
func ExampleGame_NewState_diagram() {
	lib := games.Library()

	g, err := lib.Load("tsoro", host.WithVariant("4x8"))
	if err != nil {
		log.Fatal(err)
	}
	counts, owners, err := g.ParseDiagram(`
d    0* 0* 0  0  0  0  0  0
c    0  0  0  3  0  0  0  0
b    0  0  0  0  0  0  0  0
a    0  0  0  1  0  0  0* 0*
     1  2  3  4  5  6  7  8`)
	if err != nil {
		log.Fatal(err)
	}
	s, err := g.NewState(host.Position{
		Counts: counts, Owners: owners,
		Captured: []int{18, 10}, Hand: []int{0, 0}, // 4 + 28 = 32 counters
		ToMove: 1,
		Vars:   map[string]int{},
	})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(s.ToMove(), s.Legal())
	// Output: 1 [a4]
}

// Budgets of one's own for every call into a game's script: the step
// budget is deterministic, so a budget too small for loading fails the
// same way on every machine.
func ExampleWithLimits() {
	lib := games.Library()

	g, err := lib.Load("kalah", host.WithLimits(host.Limits{Steps: 1_000_000}))
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(g.Start().Legal())

	_, err = lib.Load("kalah", host.WithLimits(host.Limits{Steps: 100}))
	var be *host.BudgetError
	if errors.As(err, &be) {
		fmt.Println(be.Budget, be.Limit, be.Func)
	}
	// Output:
	// [a1 a2 a3 a4 a5 a6]
	// step 100 steps load
}
