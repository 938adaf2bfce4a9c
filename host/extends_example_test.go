package host_test

import (
	"fmt"
	"testing/fstest"

	"github.com/matombo/matombo/host"
)

// A folder game that extends another and replaces one of its rule points.
func ExampleGame_Extends() {
	shipped := fstest.MapFS{"base/base.lua": {Data: []byte(`local m = matombo
m.declare { name = "base" }
m.board { rows = { "a" }, columns = 2 }
local SOW = m.move("sow", "{1}")
local setup = m.rule("setup", function() m.set_count("a1", 1) end)
return {
  setup = setup,
  legal = function(p) m.emit(SOW, "a1") end,
  play = function(p, kind, s) m.finish(0, "done") end,
}`)}}
	mine := fstest.MapFS{"more/more.lua": {Data: []byte(`return matombo.extends("base", {
  title = "More",
  replace = { setup = function(setup) setup(); matombo.add("a1", 2) end },
})`)}}
	lib := host.NewLibrary()
	if err := lib.AddFS(shipped, "games"); err != nil {
		panic(err)
	}
	if err := lib.AddFS(mine, "mygames"); err != nil {
		panic(err)
	}
	g, err := lib.Load("more")
	if err != nil {
		panic(err)
	}
	ext, _ := g.Extends()
	fmt.Println(g.Title(), "extends", ext.Base, "replacing", ext.Replaced)
	fmt.Println("rule points:", g.RulePoints())
	fmt.Print(g.Start().Diagram())
	// Output:
	// More extends base replacing [setup]
	// rule points: [setup]
	// a    3  0
	//      1  2
}
