package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"slices"
	"strings"
	"time"

	"github.com/matombo/matombo/host"
	"github.com/matombo/matombo/host/diag"
	"github.com/matombo/matombo/host/player"
	"github.com/matombo/matombo/host/safefile"
)

const playAbout = `
Plays a game in the terminal. The board is drawn as the players see it:
Player 1 (South) at the bottom with row a, Player 2 (North) at the top.
Each player is a human, who types tokens, or a computer player given by a
spec (see below); Player 2 is by default mcts:time=1s, about a second a
move, shown thinking on a terminal. Computer players are deterministic for
a --seed when their budget is iterations or depth (without --seed one is
chosen and shown); a spec's own seed=N wins over --seed.

Type a legal token to play it (several, separated by spaces, are played in
turn), or one of:
  help    show these commands (? too)
  legal   list the legal tokens
  undo    take back the last decision (against a computer player: back
          to your own last decision)
  record  show the game record so far
  hint    suggest a move: what the --hint player (by default
          mcts:time=1s, the default opponent) would play
  resign  resign the game: the other player wins
  draw    offer a draw: the other player accepts or declines it (a
          computer player plays on)
  quit    end the session (q and exit too)
The commands are read in any case (Quit, HELP). The session also ends at
the end of the input, and at Ctrl-C (exit status 130), with the record.
At the end of the game the result and the record are shown.

Players (options after a colon, separated by commas, e.g. mcts:time=500ms):
  human (types tokens)
`

// playHelpIntro is the first paragraph of what the help command of a
// session prints (see playHelp).
const playHelpIntro = "Type a legal token to play it (several separated by spaces are played in turn; " +
	"the decisions of one turn may be written as one word: draughts' 22x15 then x8 as 22x15x8), or:"

// playCommands are the commands of a session and what each does, as the
// help command lists them.
func playCommands() [][2]string {
	return [][2]string{
		{"help", "show these commands (? too)"},
		{"legal", "list the legal tokens"},
		{"undo", "take back the last decision (against a computer: back to your own)"},
		{"record", "show the game record so far"},
		{"board", "draw the board again, with the key to its points' names on a board of points"},
		{"hint", "suggest a move"},
		{"resign", "resign the game"},
		{"draw", "offer a draw to the other player"},
		{"quit", "end the session (q and exit too)"},
	}
}

// playHelp is what the help command of a session prints, wrapped to
// width: playHelpIntro, then each command, its words indented under those
// of the first.
func playHelp(width int) string {
	var sb strings.Builder
	sb.WriteString(wrapText(width, playHelpIntro, ""))
	for _, c := range playCommands() {
		words := strings.Fields(c[1])
		sb.WriteString(wrap(width, fmt.Sprintf("  %-7s %s", c[0], words[0]), words[1:], "          "))
	}
	return sb.String()
}

// streamSeed is the second word of the PCG seed of every random player; it
// is the one package verify uses, so the random game selfplay plays for a
// seed is the game verify plays for that seed when it is not thorough.
const streamSeed = 0x6d61746f6d626f

// newRand returns the random source of random players for a seed.
func newRand(seed uint64) *rand.Rand { return rand.New(rand.NewPCG(seed, streamSeed)) }

// session is a game being played in the terminal.
type session struct {
	e       *env
	g       *host.Game
	random  [3]bool          // by player number: true for a plain random player
	ai      [3]player.Player // by player number: a computer player, else nil
	rng     *rand.Rand       // the plain random players' choices
	states  []*host.State    // states[k] is the state after k decisions
	record  []string         // the tokens played
	input   *lineReader      // what the humans type, read by readLines only
	want    chan struct{}    // asks readLines for a line
	lines   chan lineResult  // readLines' answers
	ctx     context.Context  // done at the first Ctrl-C, SIGINT or SIGTERM
	queue   []string         // words typed and not handled yet
	hinter  player.Player    // the hint command's player, made when first asked
	hintErr error            // why it could not be made
	hints   string           // its spec
	seed    uint64           // the computer players' seed
	// keyShown: a point board's key has been drawn; where it goes below
	// the board (a narrow terminal), later boards leave it out.
	keyShown bool
}

// runPlay is `matombo play GAME`.
func runPlay(e *env, args []string) int {
	c := newCLI(e, "play", "GAME [--p1 SPEC] [--p2 SPEC] [--seed S] [--games DIR] [--variant NAME] [--param key=value]", playAbout+specHelp())
	var gf gameFlags
	gf.register(c.fs, true)
	p1 := c.fs.String("p1", "human", "Player 1 (South) is `SPEC`: human or a computer player")
	p2 := c.fs.String("p2", defaultOpponent, "Player 2 (North) is `SPEC`: human or a computer player")
	seed := c.uint64Flag("seed", 0, "seed `S` of the computer players (default: chosen from the clock and shown)")
	hints := c.fs.String("hint", defaultOpponent, "the hint command suggests what `SPEC`, a computer player, would play")
	name, _, status, ok := c.parseGame(args, false)
	if !ok {
		return status
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
	if err := checkSpec(g, *hints); err != nil {
		return c.usageError("--hint: %v", err)
	}
	ss := &session{e: e, g: g, rng: newRand(*seed), states: []*host.State{g.Start()}, input: newLineReader(e.stdin, maxInputLine), hints: *hints, seed: *seed}
	for i, spec := range []string{*p1, *p2} {
		switch spec {
		case "human":
		case "random":
			ss.random[i+1] = true
		default:
			if err := checkSpec(g, spec); err != nil {
				return c.usageError("--p%d: %v (or human)", i+1, err)
			}
			p, err := newPlayer(g, spec, *seed+uint64(i+1), e.stderr)
			if err != nil {
				return c.fail(err)
			}
			ss.ai[i+1] = p
		}
	}
	ctx, stop := e.interruptContext(context.Background())
	defer stop()
	ss.ctx = ctx
	ss.want, ss.lines = make(chan struct{}), make(chan lineResult, 1)
	go ss.readLines()
	defer close(ss.want)
	ss.intro(*p1, *p2, *seed, variantTitles(g, gf.variants))
	if err := ss.loop(); err != nil {
		return c.fail(err)
	}
	return exitOK
}

// variantTitles are the titles of the named variants of g, as players
// read them ("Nine men's morris" for nine-mens-morris).
func variantTitles(g *host.Game, names []string) []string {
	var titles []string
	for _, name := range names {
		for _, v := range g.Variants() {
			if v.Name == name {
				titles = append(titles, v.Label())
			}
		}
	}
	return titles
}

// defaultOpponent is Player 2 when --p2 is not given: about a second a
// move.
const defaultOpponent = "mcts:time=1s"

// computer reports whether player p is a computer player.
func (ss *session) computer(p int) bool { return ss.random[p] || ss.ai[p] != nil }

// state is the current state.
func (ss *session) state() *host.State { return ss.states[len(ss.states)-1] }

// intro says what is played, in which variants (by their titles), by
// whom.
func (ss *session) intro(p1, p2 string, seed uint64, variants []string) {
	w := ss.e.stdout
	fmt.Fprint(w, wrapHanging(ss.e.width, gameLabel(ss.g)))
	if len(variants) > 0 {
		label := "Variant"
		if len(variants) > 1 {
			label = "Variants"
		}
		fmt.Fprint(w, wrapText(ss.e.width, label+": "+strings.Join(variants, ", ")+".", ""))
	}
	players := fmt.Sprintf("%s: %s. %s: %s.", playerName(1), p1, playerName(2), p2)
	if ss.computer(1) || ss.computer(2) {
		players += fmt.Sprintf(" Random seed %d.", seed)
	}
	fmt.Fprint(w, wrapText(ss.e.width, players, ""))
	if !ss.computer(1) || !ss.computer(2) {
		fmt.Fprint(w, wrapText(ss.e.width, "Type a token, or help, legal, undo, record, hint, resign, draw or quit.", ""))
		fmt.Fprint(w, wrapText(ss.e.width, "Moves are typed "+moveForms(ss.g, ss.states[0])+".", ""))
		if marks := markWords(ss.g, ss.states[0]); marks != "" {
			fmt.Fprint(w, wrapText(ss.e.width, "On the board: "+marks+".", ""))
		}
		if ss.keyBelow(ss.states[0]) {
			fmt.Fprint(w, wrapText(ss.e.width, "The key under the first board names the points; type board to see it again.", ""))
		}
	}
	ss.show()
}

// keyBelow reports whether s's board is drawn with its key below it in
// this terminal, so that later boards leave the key out.
func (ss *session) keyBelow(s *host.State) bool {
	opt := host.DiagramOptions{Width: ss.e.width}
	full := s.DiagramWith(opt)
	opt.NoKeyBelow = true
	return s.DiagramWith(opt) != full
}

// show draws the board and says whose decision it is.
func (ss *session) show() {
	s := ss.state()
	fmt.Fprintln(ss.e.stdout)
	fmt.Fprint(ss.e.stdout, s.DiagramWith(host.DiagramOptions{Color: ss.e.color, Width: ss.e.width, NoKeyBelow: ss.keyShown}))
	ss.keyShown = true
	if owners := ownerWords(s, ss.states[0]); owners != "" {
		fmt.Fprint(ss.e.stdout, wrapText(ss.e.width, owners+".", ""))
	}
	writeTotals(ss.e.stdout, s, false, false, true)
	if !s.Over() {
		ss.writeTurn(s)
	}
}

// writeTurn writes what the decision asks, whose decision it is and the
// legal tokens: the script's prompt addresses the player to move, so it is
// written only for a person (a computer's decision is shown as it plays).
func (ss *session) writeTurn(s *host.State) {
	w := ss.e.stdout
	if !ss.computer(s.ToMove()) {
		if prompt, err := s.Prompt(); err != nil {
			fmt.Fprintf(w, "(the script's prompt fails: %s)\n", oneLine(err.Error()))
		} else if prompt != "" {
			fmt.Fprint(w, wrapText(ss.e.width, prompt+".", ""))
		}
	}
	fmt.Fprint(w, wrap(ss.e.width, playerName(s.ToMove())+" to play"+ss.again()+":", s.Legal(), "  "))
}

// again is " again" when the player to move made the decision before (a
// second part of a turn, an extra turn), else "": a player reads that the
// turn is still theirs even where the script's prompt does not say so.
func (ss *session) again() string {
	n := len(ss.states)
	if n < 2 || ss.states[n-2].ToMove() != ss.states[n-1].ToMove() {
		return ""
	}
	return " again"
}

// loop plays until the game ends, a human quits or the input ends.
func (ss *session) loop() error {
	for !ss.state().Over() {
		s := ss.state()
		if ss.ctx.Err() != nil {
			return ss.interrupted()
		}
		if p := s.ToMove(); ss.random[p] {
			m, err := player.NewRandomFrom(ss.rng).Choose(ss.ctx, s)
			if ss.ctx.Err() != nil {
				return ss.interrupted()
			}
			if err != nil {
				return ss.broken(err)
			}
			if err := ss.play(ss.g.Token(m)); err != nil {
				return ss.broken(err)
			}
			continue
		} else if ss.ai[p] != nil {
			m, err := ss.think(ss.ai[p], s)
			if ss.ctx.Err() != nil {
				return ss.interrupted() // not the move of a search cut short
			}
			if err != nil {
				return ss.broken(err)
			}
			if err := ss.play(ss.g.Token(m)); err != nil {
				return ss.broken(err)
			}
			continue
		}
		word, ok, err := ss.next()
		if err != nil {
			return err
		}
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
// none is waiting; ok is false at the end of the input. A line too long
// to be a command is refused with a message, and the session goes on.
func (ss *session) next() (string, bool, error) {
	for len(ss.queue) == 0 {
		fmt.Fprintf(ss.e.stdout, "%s> ", playerShort(ss.state().ToMove()))
		line, err := ss.readLine()
		var long *longLineError
		var ie interruptedError
		switch {
		case errors.As(err, &ie):
			return "", false, ss.interrupted()
		case errors.As(err, &long):
			fmt.Fprintf(ss.e.stdout, "\n%v: ignored; type a token, or help\n", err)
			continue
		case errors.Is(err, io.EOF):
			fmt.Fprintln(ss.e.stdout)
			return "", false, nil
		case err != nil:
			return "", false, fmt.Errorf("reading the standard input: %w", err)
		}
		if ss.e.echo {
			fmt.Fprintln(ss.e.stdout, diag.EscapeControls(line)) // no escape sequence of the input's reaches the terminal
		}
		ss.queue = strings.Fields(line)
	}
	w := ss.queue[0]
	ss.queue = ss.queue[1:]
	return w, true, nil
}

// lineResult is a line read, or why none was.
type lineResult struct {
	line string
	err  error
}

// readLines reads a line of the input each time the session asks for one
// (on ss.want), until the session ends; it is the only reader of
// ss.input, so that a session waiting for a line can stop at a signal.
func (ss *session) readLines() {
	for range ss.want {
		line, err := ss.input.next()
		ss.lines <- lineResult{line, err}
	}
}

// readLine returns the next line typed, or the interruptedError of the
// signal that came first.
func (ss *session) readLine() (string, error) {
	ss.want <- struct{}{}
	select {
	case r := <-ss.lines:
		return r.line, r.err
	case <-ss.ctx.Done():
		return "", context.Cause(ss.ctx)
	}
}

// interrupted ends a session a signal stopped (Ctrl-C, SIGINT, SIGTERM),
// saying the record so far, so that the game is not lost; its error makes
// the exit status 130 or 143.
func (ss *session) interrupted() error {
	fmt.Fprintf(ss.e.stdout, "\nInterrupted after %s.\nRecord: %s\n", plural(len(ss.record), "decision"), recordText(ss.record))
	return fmt.Errorf("stopped: %w", context.Cause(ss.ctx))
}

// maxInputLine bounds a line typed in play: tokens and commands are
// short, and a longer line is refused rather than held.
const maxInputLine = 64 << 10

// lineReader reads lines of at most max bytes; the rest of a longer line
// is read and dropped, so that it costs no memory.
type lineReader struct {
	r    *bufio.Reader
	max  int
	line int // lines read
}

func newLineReader(r io.Reader, max int) *lineReader {
	return &lineReader{r: bufio.NewReaderSize(r, 4096), max: max}
}

// longLineError is a line longer than the reader takes.
type longLineError struct {
	line, max int
}

func (e *longLineError) Error() string {
	return fmt.Sprintf("line %d of the input is longer than %s", e.line, safefile.Size(int64(e.max)))
}

// next returns the next line without its end; io.EOF at the end of the
// input, a *longLineError for a line longer than max.
func (lr *lineReader) next() (string, error) {
	var buf []byte
	long := false
	for {
		part, err := lr.r.ReadSlice('\n')
		if !long {
			if len(buf)+len(part) > lr.max+2 { // the line end is not counted
				long, buf = true, nil
			} else {
				buf = append(buf, part...)
			}
		}
		switch {
		case errors.Is(err, bufio.ErrBufferFull):
			continue
		case err == io.EOF && (len(buf) > 0 || long):
		case err != nil:
			return "", err
		}
		lr.line++
		if long {
			return "", &longLineError{line: lr.line, max: lr.max}
		}
		line := strings.TrimRight(string(buf), "\r\n")
		return line, nil
	}
}

// playerShort is a player's prompt, e.g. "P1".
func playerShort(p int) string { return fmt.Sprintf("P%d", p) }

// handle handles one word typed by a human: a command (in any case:
// "Quit" is quit) or a token. It returns true when the session ends.
func (ss *session) handle(word string) (bool, error) {
	w := ss.e.stdout
	s := ss.state()
	if slices.Contains(s.Legal(), word) {
		return false, ss.playTyped(word)
	}
	switch strings.ToLower(word) {
	case "help", "?":
		fmt.Fprint(w, playHelp(ss.e.width))
	case "legal":
		fmt.Fprint(w, wrap(ss.e.width, "Legal tokens:", s.Legal(), "  "))
	case "record":
		fmt.Fprintf(w, "Record: %s\n", recordText(ss.record))
	case "board":
		ss.keyShown = false
		ss.show()
	case "undo":
		ss.undo()
	case "hint":
		ss.hint()
	case "resign":
		return ss.resign(), nil
	case "draw":
		return ss.offerDraw()
	case "quit", "q", "exit":
		fmt.Fprintf(w, "Quit after %s.\nRecord: %s\n", plural(len(ss.record), "decision"), recordText(ss.record))
		return true, nil
	default:
		// A turn of several decisions written as one word (22x15x8).
		moves, err := s.ParseTurn(word)
		if err != nil {
			var ill *host.IllegalMoveError
			if errors.As(err, &ill) {
				fmt.Fprint(w, wrapText(ss.e.width, oneLine(refusal(s, word, ill)), ""))
			} else {
				fmt.Fprint(w, wrapText(ss.e.width, oneLine(err.Error()), ""))
			}
			ss.dropRest() // typed for the position after the word refused
			return false, nil
		}
		for _, m := range moves {
			if err := ss.playTyped(ss.g.Token(m)); err != nil {
				return false, err
			}
		}
	}
	return false, nil
}

// refusal is the line a person reads for a token the game refuses, in the
// words of the server's refusal: the token, the rule it breaks in the
// script's words where the script says it, what part of it is wrong and
// what is possible there, and the legal tokens unless that reason has just
// listed them. (The error's own text, which scripts and scenarios match,
// says the same for a program.)
func refusal(s *host.State, tok string, ill *host.IllegalMoveError) string {
	why := ill.Reason
	if full := s.WhyNot(tok); strings.HasSuffix(full, "; "+ill.Reason) {
		why = full // the script's words, when they explain this refusal
	}
	msg := diag.NotLegalHere(ill.Token, why)
	legal := strings.Join(ill.Legal, " ")
	switch {
	case ill.GameOver:
	case len(ill.Legal) == 0:
		msg += "; there are no legal tokens"
	case !strings.Contains(why, "(possible: "+legal+")"):
		msg += "; legal tokens: " + diag.ClipText(legal, diag.MaxLegalText)
	}
	return msg
}

// hint says what the hint player would play for the person to move. A
// hint player that cannot be made (perfect play of a game too large to
// solve) or fails is said, once made or each time it fails, and the
// session goes on.
func (ss *session) hint() {
	if ss.hinter == nil && ss.hintErr == nil {
		ss.hinter, ss.hintErr = newPlayer(ss.g, ss.hints, ss.seed+3, ss.e.stderr)
	}
	if ss.hintErr != nil {
		fmt.Fprint(ss.e.stdout, wrapText(ss.e.width, "No hint: "+oneLine(ss.hintErr.Error()), ""))
		return
	}
	m, err := ss.think(ss.hinter, ss.state())
	if ss.ctx.Err() != nil {
		return // interrupted: the session ends, no hint cut short
	}
	if err != nil {
		fmt.Fprint(ss.e.stdout, wrapText(ss.e.width, "No hint: "+oneLine(err.Error()), ""))
		return
	}
	fmt.Fprint(ss.e.stdout, wrapText(ss.e.width, fmt.Sprintf("Hint: %s (what %s would play).", ss.g.Token(m), ss.hints), ""))
}

// resign ends the game: the person to move resigns, and the other player
// wins. It reports whether the session ends (it does, with the result).
func (ss *session) resign() bool {
	s := ss.state().Clone()
	if err := s.Resign(s.ToMove()); err != nil {
		fmt.Fprintf(ss.e.stdout, "%s\n", oneLine(err.Error()))
		return false
	}
	fmt.Fprintf(ss.e.stdout, "%s resigns.\n", playerName(ss.state().ToMove()))
	ss.states[len(ss.states)-1] = s
	ss.queue = nil
	ss.finish()
	return true
}

// offerDraw offers a draw from the person to move to the other player: a
// person answers yes or no at the prompt, a computer player plays on. An
// accepted draw ends the game (the session too).
func (ss *session) offerDraw() (bool, error) {
	w := ss.e.stdout
	s := ss.state()
	p, q := s.ToMove(), 3-s.ToMove()
	ss.dropRest() // the answer is the other player's
	if ss.computer(q) {
		fmt.Fprintf(w, "%s offers a draw; %s, a computer player, declines and plays on.\n", playerName(p), playerName(q))
		return false, nil
	}
	fmt.Fprintf(w, "%s offers a draw. %s, do you accept it? (yes or no)\n", playerName(p), playerName(q))
	fmt.Fprintf(w, "%s> ", playerShort(q))
	line, err := ss.readLine()
	var ie interruptedError
	switch {
	case errors.As(err, &ie):
		return true, ss.interrupted()
	case errors.Is(err, io.EOF):
		fmt.Fprintln(w)
		fmt.Fprintf(w, "No answer: %s plays on.\n", playerName(p))
		return false, nil
	case err != nil:
		var long *longLineError
		if errors.As(err, &long) {
			fmt.Fprintf(w, "\n%v: taken as no\n", err)
			return false, nil
		}
		return false, fmt.Errorf("reading the standard input: %w", err)
	}
	if ss.e.echo {
		fmt.Fprintln(w, diag.EscapeControls(line))
	}
	switch strings.ToLower(strings.TrimSpace(line)) {
	case "yes", "y", "accept":
		ended := s.Clone()
		if err := ended.AgreeDraw(); err != nil {
			return false, err
		}
		fmt.Fprintf(w, "%s accepts the draw.\n", playerName(q))
		ss.states[len(ss.states)-1] = ended
		ss.finish()
		return true, nil
	}
	fmt.Fprintf(w, "%s declines: %s plays on.\n", playerName(q), playerName(p))
	return false, nil
}

// playTyped plays a legal token a person typed. When the game's script
// fails on it (an error of the script's, a budget it ran out of), the
// person reads why and the session goes on from the position as it was:
// another token, undo or quit, with nothing lost.
func (ss *session) playTyped(tok string) error {
	err := ss.play(tok)
	if !diag.ScriptFailed(err) {
		return err
	}
	fmt.Fprint(ss.e.stdout, wrapText(ss.e.width, fmt.Sprintf("The game's script failed playing %s: %s. The position is as it was: type another token, undo or quit.", tok, oneLine(err.Error())), ""))
	ss.dropRest() // typed for the position after it
	return nil
}

// broken ends a session whose computer's move failed with err, saying
// the record so far, so that no decision is lost.
func (ss *session) broken(err error) error {
	fmt.Fprintf(ss.e.stdout, "The session ends after %s: a computer's move failed.\nRecord: %s\n", plural(len(ss.record), "decision"), recordText(ss.record))
	return err
}

// play plays a legal token for the player to move and shows the result.
func (ss *session) play(tok string) error {
	s := ss.state()
	next := s.Clone()
	m, err := next.ParseMove(tok)
	if err == nil {
		err = next.ApplyRecorded(m)
	}
	if err != nil {
		return err
	}
	if did := moveWords(next); did != "" {
		words := strings.Fields(fmt.Sprintf("%s plays %s: %s.", playerName(s.ToMove()), tok, did))
		fmt.Fprint(ss.e.stdout, wrap(ss.e.width, words[0], words[1:], "  "))
	} else {
		fmt.Fprintf(ss.e.stdout, "%s plays %s.\n", playerName(s.ToMove()), tok)
	}
	ss.states = append(ss.states, next)
	ss.record = append(ss.record, tok)
	ss.show()
	return nil
}

// undo takes back decisions back to the last one a human made.
func (ss *session) undo() {
	k := len(ss.record) - 1
	for k >= 0 && ss.computer(ss.states[k].ToMove()) {
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
	ss.dropRest() // typed before the player saw this position
	ss.show()
}

// dropRest drops the words typed and not handled yet, saying which, so
// that a player does not take them for played: what follows a refused
// word, an undo or a draw offer on the line was typed for another
// position.
func (ss *session) dropRest() {
	if len(ss.queue) > 0 {
		fmt.Fprint(ss.e.stdout, wrap(ss.e.width, "Dropped the rest of the line:", ss.queue, "  "))
	}
	ss.queue = nil
}

// finish shows the result and the record at the end of the game.
func (ss *session) finish() {
	s := ss.state()
	w := ss.e.stdout
	fmt.Fprint(w, "\n"+wrapText(ss.e.width, fmt.Sprintf("Game over after %s: %s.", plural(s.Ply(), "decision"), resultText(s)), ""))
	if ss.g.HasScore() {
		writeScore(w, s, "final ")
	} else if anyNonZero(ss.g.Players(), s.Captured) {
		fmt.Fprintf(w, "Captured: %s\n", perPlayer(ss.g.Players(), s.Captured))
	}
	fmt.Fprintf(w, "Record: %s\n", recordText(ss.record))
}

// think lets a computer player choose, with a spinner on stderr while it
// thinks when stderr is a terminal, so the session never looks hung.
func (ss *session) think(p player.Player, s *host.State) (host.Move, error) {
	if !isTerminal(ss.e.stderr) {
		return p.Choose(ss.ctx, s)
	}
	stop := make(chan struct{})
	done := make(chan struct{})
	go func() {
		defer close(done)
		label := playerName(s.ToMove()) + " is thinking "
		tick := time.NewTicker(120 * time.Millisecond)
		defer tick.Stop()
		for i := 0; ; i++ {
			fmt.Fprintf(ss.e.stderr, "\r%s%c", label, `|/-\`[i%4])
			select {
			case <-stop:
				fmt.Fprintf(ss.e.stderr, "\r%s\r", strings.Repeat(" ", len(label)+1))
				return
			case <-tick.C:
			}
		}
	}()
	m, err := p.Choose(ss.ctx, s)
	close(stop)
	<-done
	return m, err
}
