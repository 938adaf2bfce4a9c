package host_test

import (
	"errors"
	"fmt"
	"io/fs"
	"log"
	"os"
	"path/filepath"

	"github.com/matombo/matombo/host"
)

// writeScript writes a one-game folder holding the script NAME.lua and
// returns the folder.
func writeScript(name, src string) string {
	dir, err := os.MkdirTemp("", name)
	if err != nil {
		log.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, name+".lua"), []byte(src), 0o644); err != nil {
		log.Fatal(err)
	}
	return dir
}

// Errors are typed and keep their cause: match them with errors.As and
// errors.Is, never by their text. A position names the file, the line and
// the column, and where the parser gives one, the range up to EndLine and
// EndCol.
func Example_errors() {
	lib := host.NewLibrary()
	err := lib.AddDir("no/such/folder")
	fmt.Println(errors.Is(err, fs.ErrNotExist))

	_, err = library().Load("kalah", host.WithParam("seeds", 7))
	var ce *host.ConfigError
	if errors.As(err, &ce) {
		fmt.Println(ce.Param, ce.Allowed)
	}

	dir := writeScript("broken", "local m = matombo\nlocal x = = 1\n")
	defer os.RemoveAll(dir)
	if err := lib.AddDir(dir); err != nil {
		log.Fatal(err)
	}
	_, err = lib.Load("broken")
	var se *host.ScriptError
	if errors.As(err, &se) {
		fmt.Println(se.Func, se.Pos.Line, se.Pos.Col, se.Pos.EndCol, se.Msg)
	}
	// Output:
	// true
	// seeds [3 4 5 6]
	// load 2 11 11 syntax error: unexpected text near "="
}

// A runaway script is stopped by its step budget, the same on every
// machine: the error says which budget, the limit, and the script line;
// the state is unchanged and the game stays usable.
func ExampleBudgetError() {
	dir := writeScript("runaway", runaway) // its play loops forever
	defer os.RemoveAll(dir)
	lib := host.NewLibrary()
	if err := lib.AddDir(dir); err != nil {
		log.Fatal(err)
	}
	g, err := lib.Load("runaway", host.WithLimits(host.Limits{Steps: 100_000}))
	if err != nil {
		log.Fatal(err)
	}
	s := g.Start()
	err = s.Play("a1")
	var be *host.BudgetError
	if errors.As(err, &be) {
		fmt.Println(be.Budget, be.Limit, be.Budget.Deterministic(), be.Func, be.Pos.Line)
	}
	fmt.Println(s.Ply(), s.Legal())
	// Output:
	// step 100000 steps true play 8
	// 0 [a1]
}

// Every error of the host has a stable code, one per kind: a program, a
// scenario or a client tells kinds of errors apart by their codes, which
// stay the same when messages are reworded. ErrorCode finds the code
// anywhere in a chain of wrapped errors.
func ExampleErrorCode() {
	g, err := library().Load("kalah")
	if err != nil {
		log.Fatal(err)
	}
	s := g.Start()
	err = s.Play("b1")
	fmt.Println(host.ErrorCode(err))

	_, err = library().Load("kalah", host.WithParam("seeds", 7))
	fmt.Println(host.ErrorCode(fmt.Errorf("loading: %w", err)))

	var coded interface{ Code() string } // what a server's error handler looks for
	if errors.As(err, &coded) {
		fmt.Println(coded.Code())
	}
	// Output:
	// illegal-token
	// config-error
	// config-error
}
