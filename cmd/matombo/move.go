package main

import (
	"context"
	"fmt"
)

const moveAbout = `
Plays the tokens from the opening, lets a computer player choose the next
decision, and prints its token alone on one line, for scripts and engines
that want one answer. A spec without a seed of its own gets --seed. An
argument may hold several tokens separated by spaces, so a game record can
be pasted as one argument. An illegal token fails naming the token and the
legal ones.

Players (options after a colon, separated by commas, e.g. mcts:time=500ms):
`

// runMove is `matombo move GAME --player SPEC TOKENS...`.
func runMove(e *env, args []string) int {
	c := newCLI(e, "move", "GAME [--player SPEC] [--seed S] [--games DIR] [--variant NAME] [--param key=value] [TOKEN ...]", moveAbout+specHelp())
	var gf gameFlags
	gf.register(c.fs, true)
	spec := c.fs.String("player", "mcts", "the computer player's `SPEC`")
	seed := c.uint64Flag("seed", 1, "seed `S` of a player that names none")
	name, rest, status, ok := c.parseGame(args, true)
	if !ok {
		return status
	}
	tokens := splitTokens(rest)
	g, err := gf.open(name)
	if err != nil {
		return c.fail(err)
	}
	if err := checkSpec(g, *spec); err != nil {
		return c.usageError("--player: %v", err)
	}
	p, err := newPlayer(g, *spec, *seed, e.stderr)
	if err != nil {
		return c.fail(err)
	}
	s := g.Start()
	for i, tok := range tokens {
		if err := s.Play(tok); err != nil {
			return c.fail(fmt.Errorf("token %d: %w", i+1, err))
		}
	}
	if s.Over() {
		return c.fail(fmt.Errorf("the game is over after the tokens (%s): no move to choose", resultText(s)))
	}
	m, err := p.Choose(context.Background(), s)
	if err != nil {
		return c.fail(err)
	}
	fmt.Fprintln(e.stdout, g.Token(m))
	return exitOK
}
