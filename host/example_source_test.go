package host_test

import (
	"errors"
	"fmt"
	"log"

	"github.com/matombo/matombo/games"
	"github.com/matombo/matombo/host"
)

// A script held in memory (an upload, a generated script): AddSource adds
// it as a game folder of its own, variants file and all. Errors name its
// files as NAME/NAME.lua and NAME/variants.yaml.
func ExampleLibrary_AddSource() {
	script := `local m = matombo
m.declare { name = "race", title = "Race to the end" }
m.board { rows = { "a" }, columns = 4 }
local STEP = m.move("step", "{1}")
local FULL = m.filter { min = 1 }
return {
  setup = function() m.set_count("a1", 1) end,
  legal = function(p) m.emit(STEP, m.first(FULL)) end,
  play = function(p, kind, s)
    m.take(s)
    if s == 4 then m.finish(p, "reached the end") else m.add(s + 1, 1) end
  end,
}
`
	lib := games.Library()
	if err := lib.AddSource("race", script, "variants:\n  short:\n    description: the same, shorter\n"); err != nil {
		log.Fatal(err)
	}
	g, err := lib.Load("race")
	if err != nil {
		log.Fatal(err)
	}
	defer g.Close() // release its machines at once (see Game.Close)
	s := g.Start()
	for !s.Over() {
		if err := s.Play(s.Legal()[0]); err != nil {
			log.Fatal(err)
		}
	}
	fmt.Println(g.Title(), g.File(), s.Outcome().Reason)
	// Output:
	// Race to the end race/race.lua reached the end
}

// A program that loads many games (a server taking uploaded scripts)
// closes each when done: its script machines and its watchdog goroutine
// go at once. Calls into the script then fail with ErrClosed.
func ExampleGame_Close() {
	g, err := library().Load("kalah")
	if err != nil {
		log.Fatal(err)
	}
	s := g.Start()
	if err := s.Play("a3"); err != nil {
		log.Fatal(err)
	}
	g.Close()
	err = s.Play("a1")
	fmt.Println(errors.Is(err, host.ErrClosed), host.ErrorCode(err), s.Ply())
	// Output:
	// true game-closed 1
}

// The sites a result names (three on a line, say) are indices: the board
// names them.
func ExampleBoard_Names() {
	g, err := games.Library().Load("yematatu", host.WithVariant("square"))
	if err != nil {
		log.Fatal(err)
	}
	s := g.Start()
	for _, tok := range []string{"a3", "c3", "c1", "a1", "b2"} {
		if err := s.Play(tok); err != nil {
			log.Fatal(err)
		}
	}
	out := s.Outcome()
	fmt.Println(out.Winner, out.Sites, g.Board().Names(out.Sites))
	// Output:
	// 1 [2 4 6] [a3 b2 c1]
}
