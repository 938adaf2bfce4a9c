// Command onlysqlite stores a game in a SQLite file: a program that links
// only the SQLite backend of package store (TestLinksOnlySQLite checks
// that it links no PostgreSQL driver).
package main

import (
	"context"
	"fmt"
	"log"
	"os"

	"github.com/matombo/matombo/host/store"
	_ "github.com/matombo/matombo/host/store/sqlite"
)

func main() {
	ctx := context.Background()
	s, err := store.Open(ctx, os.Args[1])
	if err != nil {
		log.Fatal(err)
	}
	defer s.Close()
	g := &store.Game{Game: "mygame", Seats: []store.Seat{{Player: "human"}, {Player: "random"}}}
	if err := s.Create(ctx, g); err != nil {
		log.Fatal(err)
	}
	fmt.Println(g.ID)
}
