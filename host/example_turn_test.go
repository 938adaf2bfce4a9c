package host_test

import (
	"fmt"
	"log"
)

// A turn of several decisions of one player, written as one word: in
// Kalah a sowing that ends in the store (a3) gives the same player
// another decision (a6), so a3a6 is one turn.
func ExampleState_ParseTurn() {
	g, err := library().Load("kalah")
	if err != nil {
		log.Fatal(err)
	}
	s := g.Start()
	moves, err := s.ParseTurn("a3a6") // Kalah: a3 ends in the store, so a6 is the same turn
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(len(moves), g.Token(moves[1]))
	if err := s.PlayTurn("a3a6"); err != nil {
		log.Fatal(err)
	}
	fmt.Println(s.Ply(), s.ToMove())
	_, err = s.ParseTurn("b1b9") // b1 ends Player 2's turn
	fmt.Println(err)
	// Output:
	// 2 a6
	// 2 2
	// illegal token "b1b9": after b1, "b9": the turn ends with b1; legal tokens: b1 b2 b3 b4 b5 b6; "b1b9" is not a legal token here
}
