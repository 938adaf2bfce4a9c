package verify_test

import (
	"fmt"
	"path/filepath"

	"github.com/matombo/matombo/host"
	"github.com/matombo/matombo/host/verify"
)

// A server vets a script someone uploaded as `matombo check` does, before
// anyone plays it: the script loads, its variants and parameter values
// load, its openings are sane and random games keep the invariants.
func ExampleCheck() {
	lib := host.NewLibrary()
	if err := lib.AddDir(filepath.Join("..", "testdata", "games")); err != nil {
		fmt.Println(err)
		return
	}
	r := verify.Check(lib, "kalah", verify.CheckOptions{Games: 20})
	for _, st := range r.Steps {
		fmt.Println(st.Name, len(st.Findings) == 0)
	}
	fmt.Println("ok:", r.OK())
	// Output:
	// loads true
	// variants true
	// parameters true
	// openings true
	// random games true
	// ok: true
}

// Random games that keep every invariant a script must keep, with the
// thorough checks after every move of the first five.
func ExampleRun() {
	lib := host.NewLibrary()
	if err := lib.AddDir(filepath.Join("..", "testdata", "games")); err != nil {
		fmt.Println(err)
		return
	}
	g, err := lib.Load("kalah")
	if err != nil {
		fmt.Println(err)
		return
	}
	stats, problems := verify.Run(g, verify.Options{Games: 50, Thorough: true, ThoroughGames: 5})
	for _, p := range problems {
		fmt.Println(p)
	}
	fmt.Println(stats.Games, "games,", stats.Checked, "moves checked thoroughly,", len(problems), "problems")
	// Output: 50 games, 234 moves checked thoroughly, 0 problems
}
