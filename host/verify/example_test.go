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
	r := verify.Check(lib, "kalah", verify.CheckOptions{Games: 2, Seed: 1})
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
