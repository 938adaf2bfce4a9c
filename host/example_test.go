package host_test

import (
	"errors"
	"fmt"
	"log"
	"math/rand/v2"

	"github.com/matombo/matombo/host"
)

// library returns a Library of the test games in testdata/games (the
// shipped games would come from games.FS with AddFS).
func library() *host.Library {
	lib := host.NewLibrary()
	if err := lib.AddDir("testdata/games"); err != nil {
		log.Fatal(err)
	}
	return lib
}

// Load a game from a folder, with a named variant of its variants.yaml and
// a parameter given as text (as on a command line); parameters set with
// WithParam win over the variants.
func ExampleLibrary_Load() {
	lib := library()
	g, err := lib.Load("kalah", host.WithVariant("three"))
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(g.Title(), g.Params())
	fmt.Print(g.Start().Diagram())

	g, err = lib.Load("kalah", host.WithVariant("three"), host.WithParam("seeds", "5"))
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(g.Params(), g.ChosenVariants())

	_, err = lib.Load("kalah", host.WithParam("seeds", 7))
	fmt.Println(err)
	// Output:
	// Kalah (OpenSpiel rules) [{seeds 3}]
	// b    3  3  3  3  3  3  0
	// a    3  3  3  3  3  3  0
	//      1  2  3  4  5  6  7
	// [{seeds 5}] [three]
	// parameter seeds: 7 is not allowed (allowed: 3, 4, 5, 6)
}

// Play tokens and print the board.
func ExampleState_Play() {
	g, err := library().Load("kalah")
	if err != nil {
		log.Fatal(err)
	}
	s := g.Start()
	fmt.Println(s.Legal())
	for _, tok := range []string{"a3", "a6"} { // a3 ends in the store: Player 1 again
		if err := s.Play(tok); err != nil {
			log.Fatal(err)
		}
	}
	fmt.Print(s.Diagram())
	fmt.Println("ply", s.Ply(), "to move", s.ToMove(), "store a7", s.Count(6))
	// Output:
	// [a1 a2 a3 a4 a5 a6]
	// b    4  4  5  5  5  5  0
	// a    4  4  0  5  5  0  2
	//      1  2  3  4  5  6  7
	// ply 2 to move 2 store a7 2
}

// An illegal token is an *IllegalMoveError naming the token, why it is
// not legal (which part of it is wrong and what is possible there) and the
// legal tokens; the state is unchanged.
func ExampleIllegalMoveError() {
	g, err := library().Load("kalah")
	if err != nil {
		log.Fatal(err)
	}
	s := g.Start()
	err = s.Play("b1")
	var illegal *host.IllegalMoveError
	if errors.As(err, &illegal) {
		fmt.Println(illegal.Token, illegal.Legal)
		fmt.Println(illegal.Reason)
	}
	fmt.Println(err)
	fmt.Println(host.ErrorCode(err))
	fmt.Println(s.Ply())
	// Output:
	// b1 [a1 a2 a3 a4 a5 a6]
	// b1 is not possible for a sow now (possible: a1 a2 a3 a4 a5 a6)
	// illegal token "b1": b1 is not possible for a sow now (possible: a1 a2 a3 a4 a5 a6); legal tokens: a1 a2 a3 a4 a5 a6; "b1" is not a legal token here
	// illegal-token
	// 0
}

// The fast path for programs: moves as values (Moves, Apply), a copy
// reused without allocating (CopyFrom), and whole random games (Playout),
// all from a seeded math/rand/v2 source, so the games are reproducible.
func Example_fastPath() {
	g, err := library().Load("kalah")
	if err != nil {
		log.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	s := g.Start()
	var played []string
	for i := 0; i < 3; i++ {
		ms := s.Moves()
		m := ms[rng.IntN(len(ms))]
		played = append(played, g.Token(m))
		if err := s.Apply(m); err != nil {
			log.Fatal(err)
		}
	}
	fmt.Println(played)

	var c host.State
	wins := make([]int, 3)
	for game := 0; game < 100; game++ {
		c.CopyFrom(s)
		if _, err := host.Playout(&c, rng, 0); err != nil {
			log.Fatal(err)
		}
		wins[c.Outcome().Winner]++
	}
	fmt.Println("draws", wins[0], "Player 1", wins[1], "Player 2", wins[2])
	// Output:
	// [a5 b4 b5]
	// draws 7 Player 1 39 Player 2 54
}

// Clone gives an independent copy: playing on it leaves the original as it
// was.
func ExampleState_Clone() {
	g, err := library().Load("kalah")
	if err != nil {
		log.Fatal(err)
	}
	s := g.Start()
	c := s.Clone()
	if err := c.Play("a1"); err != nil {
		log.Fatal(err)
	}
	fmt.Println(s.Ply(), s.Count(0), c.Ply(), c.Count(0))
	// Output: 0 4 1 0
}

// The state as JSON, in the field order of docs/state-json.md.
func ExampleState_MarshalJSON() {
	g, err := library().Load("probepts")
	if err != nil {
		log.Fatal(err)
	}
	s := g.Start()
	m, err := s.ParseMove("b2")
	if err != nil {
		log.Fatal(err)
	}
	if err := s.ApplyRecorded(m); err != nil { // Apply would leave "effects" null
		log.Fatal(err)
	}
	data, err := s.MarshalJSON()
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(string(data))
	// Output:
	// {"game":"probepts","variant":{},"ply":1,"to_move":2,"sites":[{"name":"a1","count":0,"owner":0},{"name":"b1","count":0,"owner":0},{"name":"b2","count":1,"owner":1},{"name":"b3","count":0,"owner":0},{"name":"c1","count":0,"owner":0},{"name":"c2","count":0,"owner":0},{"name":"c3","count":0,"owner":0}],"captured":[0,0],"hand":[2,3],"score":null,"legal":["a1","b1","b3","c1","c2","c3"],"prompt":"","over":false,"winner":0,"notes":[],"reason":"","result_sites":[],"vars":{},"history":["b3c6f9d1f93aa792","840b4101505c7d59"],"effects":[{"kind":"place","site":"b2","player":1},{"kind":"turn","player":2}]}
}

// A state from a board diagram (as in a test scenario): ParseDiagram reads
// the counts and owners, NewState adds the rest of the position.
func ExampleGame_NewState() {
	g, err := library().Load("kalah")
	if err != nil {
		log.Fatal(err)
	}
	counts, owners, err := g.ParseDiagram(`
b    0  0  0  0  0  1  20
a    0  0  0  0  2  1  24
     1  2  3  4  5  6  7
`)
	if err != nil {
		log.Fatal(err)
	}
	s, err := g.NewState(host.Position{Counts: counts, Owners: owners, Captured: []int{0, 0}, Hand: []int{0, 0}, ToMove: 1})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(s.Legal())
	if err := s.Play("a6"); err != nil { // into the store: Player 1 again
		log.Fatal(err)
	}
	fmt.Println(s.Legal(), s.ToMove())
	// Output:
	// [a5 a6]
	// [a5] 1
}

// Reading the result of a game.
func ExampleState_Outcome() {
	g, err := library().Load("kalah")
	if err != nil {
		log.Fatal(err)
	}
	counts, owners, err := g.ParseDiagram("b 0 0 0 0 0 1 20\na 0 0 0 0 0 1 26\n")
	if err != nil {
		log.Fatal(err)
	}
	s, err := g.NewState(host.Position{Counts: counts, Owners: owners, Captured: []int{0, 0}, Hand: []int{0, 0}, ToMove: 1})
	if err != nil {
		log.Fatal(err)
	}
	if err := s.Play("a6"); err != nil {
		log.Fatal(err)
	}
	out := s.Outcome()
	fmt.Printf("over %v, winner %d, reason %q, legal %v\n", out.Over, out.Winner, out.Reason, s.Legal())
	// Output:
	// over true, winner 1, reason "more seeds", legal []
}

// Record what each move does: the pick-up and the drops of a sowing, the
// captures, and whose decision is next.
func ExampleRunner_Record() {
	g, err := library().Load("kalah")
	if err != nil {
		log.Fatal(err)
	}
	s := g.Start()
	r := g.NewRunner()
	defer r.Close()
	r.Record(true)
	if err := r.Play(s, "a3"); err != nil { // four seeds, the last into the store
		log.Fatal(err)
	}
	effects, _ := s.Effects()
	for _, e := range effects {
		fmt.Println(g.EffectText(e))
	}
	// Applied to the position before the move, the effects give the
	// position after it.
	pos := g.Start().Position()
	if err := pos.ApplyEffects(effects); err != nil {
		log.Fatal(err)
	}
	fmt.Println(pos.Counts[:7], pos.ToMove)
	// Output:
	// take 4 from a3
	// drop 1 on a4
	// drop 1 on a5
	// drop 1 on a6
	// drop 1 on a7
	// player 1 to move
	// [4 4 0 5 5 5 1] 1
}
