package main

import (
	"bytes"
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/matombo/matombo/conformance/openspiel"
	"github.com/matombo/matombo/host/safefile"
)

const importAbout = `
Converts a record of games made by another program into a conformance
scenario file (docs/scenarios.md), which 'matombo conform' then replays.

The only SOURCE is openspiel: an OpenSpiel playthrough file (from
open_spiel/integration_tests/playthroughs) of mancala or kalah (to the game
kalah), oware (to oware) or checkers (to draughts, with OpenSpiel's rule of
a draw: the variant openspiel). The scenario plays the game move for move and
checks, at every state the file prints in full, the board, the scores, the
player to move, the legal tokens and the result. A file cut short (whose
last state is not printed in full, as over) is refused: OpenSpiel writes a
playthrough to the end of the game.

Example:
  matombo import openspiel mancala.txt -o conformance/kalah/openspiel-mancala.yaml`

// runImport is `matombo import openspiel FILE [--game kalah|oware|draughts] [-o OUT]`.
func runImport(e *env, args []string) int {
	c := newCLI(e, "import", "openspiel FILE [--game kalah|oware|draughts] [-o OUT]", importAbout)
	game := c.textFlag("game", "", "name a game: kalah, oware or draughts", "the game to convert to, `kalah|oware|draughts` (default: from the file's game)")
	out := c.textFlag("o", "", "name a file", "write the scenario file to `OUT` instead of the standard output")
	pos, status, ok := c.parse(args)
	if !ok {
		return status
	}
	switch {
	case len(pos) == 0:
		return c.usageError("name the source, openspiel, and a playthrough file")
	case pos[0] != "openspiel":
		return c.usageError("unknown source %q (allowed: openspiel)", pos[0])
	case len(pos) == 1:
		return c.usageError("name the playthrough file to convert")
	case len(pos) > 2:
		return c.usageError("unexpected argument %q after the file %s", pos[2], pos[1])
	}
	if *game != "" && !slices.Contains(openspiel.Games, *game) {
		return c.usageError("--game %s: allowed: %s", *game, strings.Join(openspiel.Games, ", "))
	}
	file := pos[1]
	// A named pipe or a device must not hang or flood the command.
	src, err := safefile.ReadFile(file, maxPlaythroughBytes)
	if err != nil {
		return c.fail(err)
	}
	pt, err := openspiel.Parse(bytes.NewReader(src))
	if err != nil {
		return c.fail(fmt.Errorf("%s: %w", file, err))
	}
	yaml, err := openspiel.Convert(pt, openspiel.Options{Game: *game, Source: filepath.Base(file)})
	if err == nil {
		err = pt.CheckComplete() // after Convert, which says first what it cannot convert
	}
	if err != nil {
		return c.fail(fmt.Errorf("%s: %w", file, err))
	}
	if *out == "" {
		_, err = e.stdout.Write(yaml)
	} else {
		err = safefile.WriteFile(*out, yaml, 0o644)
	}
	if err != nil {
		return c.fail(err)
	}
	return exitOK
}

// maxPlaythroughBytes bounds the size of a playthrough file to import.
const maxPlaythroughBytes = 64 << 20
