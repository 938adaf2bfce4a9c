package host_test

import (
	"context"
	"errors"
	"fmt"
	"log"
	"os"
	"time"

	"github.com/matombo/matombo/host"
)

// runaway is a game whose play never returns.
const runaway = `local m = matombo
m.declare { name = "runaway" }
m.board { rows = { "a" }, columns = 2 }
local K = m.move("k", "{1}")
return {
  setup = function() m.set_count("a1", 1) end,
  legal = function(p) m.emit(K, "a1") end,
  play = function(p) while true do end end,
}
`

// Cancel a runaway script call with a context: the call stops between two
// Lua instructions soon after the context is done, however much of its
// budgets are left, with an error that errors.Is matches with the
// context's error, and the state is left as it was.
func ExampleRunner_SetContext() {
	dir := writeScript("runaway", runaway)
	defer os.RemoveAll(dir)
	lib := host.NewLibrary()
	if err := lib.AddDir(dir); err != nil {
		log.Fatal(err)
	}
	// Budgets this large would let the loop run for hours.
	g, err := lib.Load("runaway", host.WithLimits(host.Limits{Steps: 1 << 50, Time: time.Hour}))
	if err != nil {
		log.Fatal(err)
	}

	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	r := g.NewRunner()
	defer r.Close()
	r.SetContext(ctx)
	s := g.Start()
	err = r.Play(s, "a1")

	var ce *host.CanceledError
	fmt.Println(errors.As(err, &ce), errors.Is(err, context.DeadlineExceeded))
	fmt.Println("ply", s.Ply())
	// Output:
	// true true
	// ply 0
}
