package host_test

import (
	"fmt"
	"log"
)

// A board declared as rows and columns is a grid (a page draws a grid of
// pieces as square cells); one declared as points with drawing positions is
// not, whatever its sites are named.
func ExampleBoard_Grid() {
	lib := library()
	for _, name := range []string{"kalah", "probepts"} {
		g, err := lib.Load(name)
		if err != nil {
			log.Fatal(err)
		}
		b := g.Board()
		fmt.Println(name, b.Grid(), b.Style(), b.NumSites())
	}
	// Output:
	// kalah true counts 14
	// probepts false pieces 7
}
