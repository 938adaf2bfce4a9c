package params_test

import (
	"fmt"

	"github.com/matombo/matombo/host/params"
)

// A game's variants files merge in order: a base game's file, then the
// game's own, which replaces a variant of the same name and drops one
// with NAME: null.
func ExampleMerge() {
	base, err := params.Parse("base/variants.yaml", []byte(`variants:
  standard: {description: Four seeds a pit., params: {seeds: 4}}
  five: {description: Five seeds a pit., params: {seeds: 5}}
  six: {params: {seeds: 6}}
`))
	if err != nil {
		fmt.Println(err)
		return
	}
	own, err := params.Parse("mine/variants.yaml", []byte(`variants:
  five: {description: "Five seeds, the way we count them.", params: {seeds: 5}}
  six: null
`))
	if err != nil {
		fmt.Println(err)
		return
	}
	variants, _, err := params.Merge([]*params.File{base, own})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, v := range variants {
		fmt.Printf("%s: %s\n", v.Name, v.Description)
	}
	_, _, err = params.Merge([]*params.File{own})
	fmt.Println(err)
	// Output:
	// standard: Four seeds a pit.
	// five: Five seeds, the way we count them.
	// mine/variants.yaml:3:3: six: null drops a variant of the files before this one, and none declares six
}
