package server_test

import (
	"context"
	"encoding/json"
	"fmt"
	"log"
	"net/http"
	"net/http/httptest"
	"strings"

	"github.com/matombo/matombo/games"
	"github.com/matombo/matombo/host/server"
	"github.com/matombo/matombo/host/store"
	_ "github.com/matombo/matombo/host/store/sqlite"
)

// A server for the shipped games over an in-memory SQLite database: create
// a game for two people and make the first move with the first seat's
// secret link.
func Example() {
	ctx := context.Background()
	st, err := store.Open(ctx, ":memory:")
	if err != nil {
		log.Fatal(err)
	}
	defer st.Close()
	srv, err := server.New(games.Library(), st)
	if err != nil {
		log.Fatal(err)
	}
	defer srv.Close()
	hs := httptest.NewServer(srv.Handler()) // or server.HTTPServer(addr, srv.Handler()).ListenAndServe()
	defer hs.Close()

	res, err := http.Post(hs.URL+"/api/games", "application/json", strings.NewReader(`{"game": "yematatu"}`))
	if err != nil {
		log.Fatal(err)
	}
	var game struct {
		ID    string
		Seats []struct{ URL string }
	}
	json.NewDecoder(res.Body).Decode(&game)
	res.Body.Close()
	fmt.Println(res.Status)

	_, secret, _ := strings.Cut(game.Seats[0].URL, "&seat=")
	move := fmt.Sprintf(`{"token": "b2", "ply": 0, "seat": %q}`, secret)
	res, err = http.Post(hs.URL+"/api/games/"+game.ID+"/moves", "application/json", strings.NewReader(move))
	if err != nil {
		log.Fatal(err)
	}
	var after struct {
		Record []string
		State  struct {
			ToMove int      `json:"to_move"`
			Legal  []string `json:"legal"`
		}
	}
	json.NewDecoder(res.Body).Decode(&after)
	res.Body.Close()
	fmt.Println(res.Status, after.Record, "player", after.State.ToMove, "to move:", after.State.Legal)
	// Output:
	// 201 Created
	// 200 OK [b2] player 2 to move: [a1 b1 b3 c1 c2 c3]
}
