package sqlite_test

import (
	"context"
	"errors"
	"fmt"
	"log"
	"time"

	"github.com/matombo/matombo/games"
	"github.com/matombo/matombo/host"
	"github.com/matombo/matombo/host/store"
	_ "github.com/matombo/matombo/host/store/sqlite" // links SQLite, and only SQLite, into the program
)

// A game stored in SQLite (here a private in-memory database; a file path
// keeps it): two moves, a move for a ply already played, and a computer
// move claimed by a worker. A program importing only this backend links
// no PostgreSQL driver.
func Example() {
	ctx := context.Background()
	game, err := games.Library().Load("tsoro", host.WithVariant("4x8"))
	if err != nil {
		log.Fatal(err)
	}

	s, err := store.Open(ctx, ":memory:") // or "games.db"
	if err != nil {
		log.Fatal(err)
	}
	defer s.Close()

	g := &store.Game{
		Game:        "tsoro",
		Fingerprint: game.Fingerprint(), // the rules it is played by
		Variants:    []string{"4x8"},
		Seats:       []store.Seat{{Player: "human", Secret: store.NewSecret()}, {Player: "random"}},
	}
	if err := s.Create(ctx, g); err != nil {
		log.Fatal(err)
	}
	// The person moves; the computer is to move next.
	if _, err := s.Append(ctx, g.ID, store.Move{Ply: 0, Token: "a3", ComputerDue: true}); err != nil {
		log.Fatal(err)
	}
	// A second click for the same ply loses.
	_, err = s.Append(ctx, g.ID, store.Move{Ply: 0, Token: "a4", ComputerDue: true})
	fmt.Println("conflict:", errors.Is(err, store.ErrConflict))

	// A worker claims the game to play the computer's move.
	claimed, err := s.Claim(ctx, "worker-1", 30*time.Second)
	if err != nil {
		log.Fatal(err)
	}
	stored, err := s.Append(ctx, claimed.ID, store.Move{Ply: claimed.Ply(), Token: "d5"})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(stored.Record)
	_, err = s.Claim(ctx, "worker-1", 30*time.Second)
	fmt.Println("nothing to claim:", errors.Is(err, store.ErrNotFound))
	// Output:
	// conflict: true
	// [a3 d5]
	// nothing to claim: true
}
