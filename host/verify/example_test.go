package verify_test

import (
	"context"
	"fmt"
	"path/filepath"
	"time"

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

// Check a script under a time limit, as `matombo check --max-time` does:
// a check that reaches it stops the script call in progress, the step it
// was in has a finding that says so, the steps after it are skipped, and
// the report's Stopped says why. A server vetting an upload passes the
// request's context the same way.
func ExampleCheckContext() {
	lib := host.NewLibrary()
	if err := lib.AddDir(filepath.Join("..", "testdata", "games")); err != nil {
		fmt.Println(err)
		return
	}
	limit := 10 * time.Minute
	ctx, cancel := context.WithTimeoutCause(context.Background(), limit,
		fmt.Errorf("the run's time limit of %v was reached", limit))
	defer cancel()

	r := verify.CheckContext(ctx, lib, "kalah", verify.CheckOptions{Games: 20})
	if r.Stopped != "" {
		fmt.Println("stopped:", r.Stopped)
	}
	fmt.Println("ok:", r.OK())
	// Output: ok: true
}
