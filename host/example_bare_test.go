package host_test

import (
	"errors"
	"fmt"
	"log"

	"github.com/matombo/matombo/games"
	"github.com/matombo/matombo/host"
)

// Play every move of a position a program makes itself, bare: Kalah(3,2)
// with a2's seeds in Player 1's store, a1 to a4 after each move.
// A position or a move that needs a script function is played on the full
// path instead.
func ExampleRunner_SetBare() {
	g, err := games.Library().Load("kalah", host.WithParam("pits", 3), host.WithParam("seeds", 2))
	if err != nil {
		log.Fatal(err)
	}
	r := g.NewRunner()
	defer r.Close()
	vals := g.Start().AppendPositionValues(nil)
	vals[1], vals[3] = 0, 2 // a2 empty, a4 (Player 1's store) holds 2

	pos, kid := g.NewBare(), g.NewBare()
	if err := r.SetBare(pos, vals); errors.Is(err, host.ErrScriptNeeded) {
		log.Fatal("set it up with r.SetPositionValues instead")
	} else if err != nil {
		log.Fatal(err)
	}
	for i := range pos.Moves() {
		if err := r.PlayBare(kid, pos, i); err != nil {
			log.Fatal(err) // ErrScriptNeeded: play it with r.ApplyToUnlisted
		}
		v := kid.PositionView()
		fmt.Println(v.Value(0), v.Value(1), v.Value(2), v.Value(3), "to move:", kid.ToMove(), "over:", kid.Over())
	}
	// Output:
	// 0 1 3 2 to move: 2 over: false
	// 2 0 0 3 to move: 2 over: false
}
