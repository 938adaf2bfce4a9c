package server_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"net/netip"
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

// A server for strangers: the operator allows short searches and random
// play, names the host people reach it by and the reverse proxy in front,
// and sets each client's quotas. A request for a costlier seat is refused
// with the seats allowed.
func ExampleWithComputerSeats() {
	st, err := store.Open(context.Background(), ":memory:")
	if err != nil {
		log.Fatal(err)
	}
	defer st.Close()
	limits := server.DefaultLimits(server.OpenFileLimit())
	limits.GamesPerMinute = 10
	limits.TrustedProxies = []netip.Prefix{netip.MustParsePrefix("127.0.0.1/32")}
	srv, err := server.New(games.Library(), st,
		server.WithComputerSeats("mcts:time<=1s,threads<=1", "random"),
		server.WithHosts("play.example.org"),
		server.WithLimits(limits))
	if err != nil {
		log.Fatal(err)
	}
	defer srv.Close()
	hs := httptest.NewServer(srv.Handler())
	defer hs.Close()

	for _, seat := range []string{"mcts:time=10s", "mcts"} {
		res, err := http.Post(hs.URL+"/api/games", "application/json",
			strings.NewReader(`{"game": "yematatu", "seats": ["human", "`+seat+`"]}`))
		if err != nil {
			log.Fatal(err)
		}
		var answer struct {
			Seats   []struct{ Player string }
			Allowed []string
		}
		json.NewDecoder(res.Body).Decode(&answer)
		res.Body.Close()
		if res.StatusCode == http.StatusCreated {
			fmt.Println(res.Status, "seat 2 plays", answer.Seats[1].Player)
		} else {
			fmt.Println(res.Status, "allowed:", answer.Allowed)
		}
	}
	// Output:
	// 422 Unprocessable Entity allowed: [mcts:time<=1s,threads<=1 random]
	// 201 Created seat 2 plays mcts:time=1s,threads=1
}

// Mounted in an existing http.ServeMux under a path prefix: the site keeps
// its own pages, and the games' page, files, API and seat links are under
// /games/.
func ExampleWithBasePath() {
	st, err := store.Open(context.Background(), ":memory:")
	if err != nil {
		log.Fatal(err)
	}
	defer st.Close()
	srv, err := server.New(games.Library(), st, server.WithBasePath("/games"))
	if err != nil {
		log.Fatal(err)
	}
	defer srv.Close()
	mux := http.NewServeMux()
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprintln(w, "the site's own home page")
	})
	mux.Handle("/games/", srv.Handler())
	hs := httptest.NewServer(mux)
	defer hs.Close()

	res, err := http.Post(hs.URL+"/games/api/games", "application/json", strings.NewReader(`{"game": "yematatu"}`))
	if err != nil {
		log.Fatal(err)
	}
	var game struct {
		Seats []struct{ URL, Invite string }
	}
	json.NewDecoder(res.Body).Decode(&game)
	res.Body.Close()
	fmt.Println(res.Status, strings.HasPrefix(game.Seats[0].URL, "/games/g/"), strings.HasPrefix(game.Seats[1].Invite, "/games/g/"))
	res, err = http.Get(hs.URL + "/")
	if err != nil {
		log.Fatal(err)
	}
	home, _ := io.ReadAll(res.Body)
	res.Body.Close()
	fmt.Print(string(home))
	// Output:
	// 201 Created true true
	// the site's own home page
}
