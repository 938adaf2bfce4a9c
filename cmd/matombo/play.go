package main

import (
	"bufio"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"time"

	"github.com/matombo/matombo/host"
)

const playAbout = `
Plays a game in the terminal. The board is drawn as the players see it:
Player 1 (South) at the bottom with row a, Player 2 (North) at the top.
Each player is a human, who types tokens, or a random player, who picks a
uniformly random legal token (deterministic for a --seed; without one a
seed is chosen and shown).

Type a legal token to play it (several, separated by spaces, are played in
turn), or one of:
  help    show these commands
  legal   list the legal tokens
  undo    take back the last decision (against a random player: back to
          your own last decision)
  record  show the game record so far
  quit    end the session
The session also ends at the end of the input. At the end of the game the
result and the record are shown.`

// playHelp is what the help command of a session prints.
const playHelp = `Type a legal token to play it (several separated by spaces are played in turn), or:
  help    show these commands
  legal   list the legal tokens
  undo    take back the last decision (against a random player: back to your own)
  record  show the game record so far
  quit    end the session`

// streamSeed is the second word of the PCG seed of every random player; it
// is the one package verify uses, so the random game selfplay plays for a
// seed is the game verify plays for that seed when it is not thorough.
const streamSeed = 0x6d61746f6d626f

// newRand returns the random source of random players for a seed.
func newRand(seed uint64) *rand.Rand { return rand.New(rand.NewPCG(seed, streamSeed)) }

// session is a game being played in the terminal.
type session struct {
	e      *env
	g      *host.Game
	random [3]bool        // by player number: true for a random player
	rng    *rand.Rand     // the random players' choices
	states []*host.State  // states[k] is the state after k decisions
	record []string       // the tokens played
	input  *bufio.Scanner // what the humans type
	queue  []string       // words typed and not handled yet
}

// runPlay is `matombo play GAME`.
func runPlay(e *env, args []string) int {
	c := newCLI(e, "play", "GAME [--p1 human|random] [--p2 human|random] [--seed S] [--games DIR] [--variant NAME] [--param key=value]", playAbout)
	var gf gameFlags
	gf.register(c.fs, true)
	p1 := c.fs.String("p1", "human", "Player 1 (South) is `KIND`: human or random")
	p2 := c.fs.String("p2", "random", "Player 2 (North) is `KIND`: human or random")
	seed := c.fs.Uint64("seed", 0, "seed `S` of the random players (default: chosen from the clock and shown)")
	name, _, status, ok := c.parseGame(args, false)
	if !ok {
		return status
	}
	random, err := randomPlayers(*p1, *p2)
	if err != nil {
		return c.usageError("%v", err)
	}
	if !c.given("seed") {
		*seed = uint64(time.Now().UnixNano() % 1_000_000)
	}
	g, err := gf.open(name)
	if err != nil {
		return c.fail(err)
	}
	if g.Players() != 2 {
		return c.fail(fmt.Errorf("play handles two-player games; %s has %d players", name, g.Players()))
	}
	ss := &session{e: e, g: g, random: random, rng: newRand(*seed), states: []*host.State{g.Start()}, input: bufio.NewScanner(e.stdin)}
	ss.input.Buffer(make([]byte, 64*1024), 1<<20)
	ss.intro(*p1, *p2, *seed)
	if err := ss.loop(); err != nil {
		return c.fail(err)
	}
	return exitOK
}

// randomPlayers reads the kinds of the two players: which are random.
func randomPlayers(kinds ...string) ([3]bool, error) {
	var random [3]bool
	for i, kind := range kinds {
		switch kind {
		case "human":
		case "random":
			random[i+1] = true
		default:
			return random, fmt.Errorf("--p%d %s: want human or random", i+1, kind)
		}
	}
	return random, nil
}

// state is the current state.
func (ss *session) state() *host.State { return ss.states[len(ss.states)-1] }

// intro says what is played by whom.
func (ss *session) intro(p1, p2 string, seed uint64) {
	w := ss.e.stdout
	fmt.Fprintf(w, "%s\n", gameLabel(ss.g))
	fmt.Fprintf(w, "%s: %s. %s: %s.", playerName(1), p1, playerName(2), p2)
	if ss.random[1] || ss.random[2] {
		fmt.Fprintf(w, " Random seed %d.", seed)
	}
	fmt.Fprintln(w)
	if !ss.random[1] || !ss.random[2] {
		fmt.Fprintln(w, "Type a token to play it; help, legal, undo, record or quit.")
	}
	ss.show()
}

// show draws the board and says whose decision it is.
func (ss *session) show() {
	s := ss.state()
	fmt.Fprintln(ss.e.stdout)
	fmt.Fprint(ss.e.stdout, diagram(s, ss.e.color))
	writeTotals(ss.e.stdout, s, false)
	if !s.Over() {
		writeTurn(ss.e.stdout, s)
	}
}

// loop plays until the game ends, a human quits or the input ends.
func (ss *session) loop() error {
	for !ss.state().Over() {
		s := ss.state()
		if ss.random[s.ToMove()] {
			moves := s.Moves()
			if err := ss.play(ss.g.Token(moves[ss.rng.IntN(len(moves))])); err != nil {
				return err
			}
			continue
		}
		word, ok := ss.next()
		if !ok {
			fmt.Fprintf(ss.e.stdout, "\nEnd of input: the session ends unfinished after %s.\nRecord: %s\n", plural(len(ss.record), "decision"), recordText(ss.record))
			return nil
		}
		done, err := ss.handle(word)
		if err != nil {
			return err
		}
		if done {
			return nil
		}
	}
	ss.finish()
	return nil
}

// next returns the next word a human typed, prompting for a line when
// none is waiting; ok is false at the end of the input.
func (ss *session) next() (string, bool) {
	for len(ss.queue) == 0 {
		fmt.Fprintf(ss.e.stdout, "%s> ", playerShort(ss.state().ToMove()))
		if !ss.input.Scan() {
			fmt.Fprintln(ss.e.stdout)
			return "", false
		}
		if ss.e.echo {
			fmt.Fprintln(ss.e.stdout, ss.input.Text())
		}
		ss.queue = strings.Fields(ss.input.Text())
	}
	w := ss.queue[0]
	ss.queue = ss.queue[1:]
	return w, true
}

// playerShort is a player's prompt, e.g. "P1".
func playerShort(p int) string { return fmt.Sprintf("P%d", p) }

// handle handles one word typed by a human: a command or a token. It
// returns true when the session ends.
func (ss *session) handle(word string) (bool, error) {
	w := ss.e.stdout
	s := ss.state()
	if slices.Contains(s.Legal(), word) {
		return false, ss.play(word)
	}
	switch word {
	case "help", "?":
		fmt.Fprintln(w, playHelp)
	case "legal":
		fmt.Fprint(w, wrap("Legal tokens:", s.Legal(), "  "))
	case "record":
		fmt.Fprintf(w, "Record: %s\n", recordText(ss.record))
	case "undo":
		ss.undo()
	case "quit", "exit":
		fmt.Fprintf(w, "Quit after %s.\nRecord: %s\n", plural(len(ss.record), "decision"), recordText(ss.record))
		return true, nil
	default:
		_, err := s.ParseMove(word)
		fmt.Fprintf(w, "%s\n", oneLine(err.Error()))
		ss.queue = nil // the rest of the line was typed for another position
	}
	return false, nil
}

// play plays a legal token for the player to move and shows the result.
func (ss *session) play(tok string) error {
	s := ss.state()
	next := s.Clone()
	if err := next.Play(tok); err != nil {
		return err
	}
	fmt.Fprintf(ss.e.stdout, "%s plays %s.\n", playerName(s.ToMove()), tok)
	ss.states = append(ss.states, next)
	ss.record = append(ss.record, tok)
	ss.show()
	return nil
}

// undo takes back decisions back to the last one a human made.
func (ss *session) undo() {
	k := len(ss.record) - 1
	for k >= 0 && ss.random[ss.states[k].ToMove()] {
		k--
	}
	if k < 0 {
		fmt.Fprintln(ss.e.stdout, "Nothing to undo.")
		return
	}
	taken := ss.record[k:]
	fmt.Fprintf(ss.e.stdout, "Undone: %s.\n", strings.Join(taken, " "))
	ss.states = ss.states[:k+1]
	ss.record = ss.record[:k]
	ss.queue = nil
	ss.show()
}

// finish shows the result and the record at the end of the game.
func (ss *session) finish() {
	s := ss.state()
	w := ss.e.stdout
	fmt.Fprintf(w, "\nGame over after %s: %s.\n", plural(s.Ply(), "decision"), resultText(s.Outcome()))
	if anyNonZero(ss.g.Players(), s.Captured) {
		fmt.Fprintf(w, "Captured: %s\n", perPlayer(ss.g.Players(), s.Captured))
	}
	fmt.Fprintf(w, "Record: %s\n", recordText(ss.record))
}
