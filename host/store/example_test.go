package store_test

import (
	"context"
	"errors"
	"fmt"
	"log"
	"time"

	"github.com/matombo/matombo/host/store"
)

// A game stored in memory: two moves, a move for a ply already played,
// and a computer move claimed by a worker. A program stores in SQLite or
// PostgreSQL the same way, with the backend's package imported and its
// name given to Open (see package host/store/sqlite's example).
func Example() {
	ctx := context.Background()
	s, err := store.Open(ctx, "memory:") // or a file path, or "postgres://...", with their backend linked
	if err != nil {
		log.Fatal(err)
	}
	defer s.Close()

	g := &store.Game{
		Game:     "tsoro",
		Variants: []string{"4x8"},
		Seats:    []store.Seat{{Player: "human", Secret: store.NewSecret()}, {Player: "random"}},
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

// Deleting the games nobody has changed for 30 days, as matombo serve
// --expire 720h does: a store that can is a store.Pruner.
func ExamplePruner() {
	ctx := context.Background()
	s, err := store.Open(ctx, "memory:")
	if err != nil {
		log.Fatal(err)
	}
	defer s.Close()
	g := &store.Game{Game: "tsoro", Seats: []store.Seat{{Player: "human"}, {Player: "random"}}}
	if err := s.Create(ctx, g); err != nil {
		log.Fatal(err)
	}
	p, ok := s.(store.Pruner)
	if !ok {
		log.Fatal("this store cannot delete games")
	}
	monthAgo := time.Now().AddDate(0, 0, -30)
	n, err := p.Prune(ctx, monthAgo, 500) // at most 500 at a time
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("deleted:", n) // the game was made just now
	// Thirty days on, it is older than the cut.
	n, err = p.Prune(ctx, time.Now().Add(time.Minute), 500)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("deleted:", n)
	_, err = s.Get(ctx, g.ID)
	fmt.Println("gone:", errors.Is(err, store.ErrNotFound))
	// Output:
	// deleted: 0
	// deleted: 1
	// gone: true
}
