package main

import (
	"cmp"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/matombo/matombo/host"
)

// maxWidth is the width text is wrapped to where the terminal's width is
// not known, and on a wider terminal, where longer lines read worse.
const maxWidth = 78

// playerName names a player as the boards show them: Player 1 sits South
// (row a at the bottom), Player 2 North.
func playerName(p int) string {
	switch p {
	case 1:
		return "Player 1 (South)"
	case 2:
		return "Player 2 (North)"
	default:
		return "Player " + strconv.Itoa(p)
	}
}

// diagram draws the state's board, in colour when allowed, fitted to
// width where it can be (a point board's key below it rather than beside).
func diagram(s *host.State, color bool, width int) string {
	return s.DiagramWith(host.DiagramOptions{Color: color, Width: width})
}

// perPlayer writes a value per player, e.g. "Player 1 3, Player 2 0".
func perPlayer(players int, get func(int) int) string {
	parts := make([]string, players)
	for p := 1; p <= players; p++ {
		parts[p-1] = fmt.Sprintf("Player %d %d", p, get(p))
	}
	return strings.Join(parts, ", ")
}

// anyNonZero reports whether get is non-zero for some player.
func anyNonZero(players int, get func(int) int) bool {
	for p := 1; p <= players; p++ {
		if get(p) != 0 {
			return true
		}
	}
	return false
}

// writeTotals writes the score, the captured totals and the hands, each
// only when it means something: the script's score, labelled as the
// script names it, for a game that has one (see writeScore); for a game
// without one, the captured totals when captures is true or some player
// has captured; the hands when hands is true or some player holds one,
// labelled as the script names them (see handLabel), unless forPlayers is
// set and the script does not show its hands to players (declare's
// hand_label = false).
func writeTotals(w io.Writer, s *host.State, captures, hands, forPlayers bool) {
	n := s.Game().Players()
	if s.Game().HasScore() {
		writeScore(w, s, "")
	} else if captures || anyNonZero(n, s.Captured) {
		fmt.Fprintf(w, "Captured: %s\n", perPlayer(n, s.Captured))
	}
	if forPlayers && s.Game().HandLabel() == "" {
		return
	}
	if hands || anyNonZero(n, s.Hand) {
		fmt.Fprintf(w, "%-9s %s\n", handLabel(s.Game())+":", perPlayer(n, s.Hand))
	}
}

// handLabel is the label of the hands' line: declare's hand_label with a
// capital ("To place"), "In hand" by default and for the hands a script
// keeps to itself (which only trace shows, to the script's author).
func handLabel(g *host.Game) string {
	return capitalized(cmp.Or(g.HandLabel(), "in hand"))
}

// capitalized is text with its first letter a capital, whatever its
// alphabet ("seeds" reads "Seeds", "été" "Été").
func capitalized(text string) string {
	if text == "" {
		return ""
	}
	r, n := utf8.DecodeRuneInString(text)
	return string(unicode.ToUpper(r)) + text[n:]
}

// writeScore writes the script's score of s labelled as the script names
// it, e.g. "Seeds:    Player 1 7, Player 2 38", with prefix before the
// label ("Final "); nothing for a game without a score. A score function
// that fails is reported in the line.
func writeScore(w io.Writer, s *host.State, prefix string) {
	g := s.Game()
	if !g.HasScore() {
		return
	}
	label := capitalized(prefix+g.ScoreLabel()) + ":"
	score, err := s.Score()
	if err != nil {
		fmt.Fprintf(w, "%s (the script's score fails: %s)\n", label, oneLine(err.Error()))
		return
	}
	fmt.Fprintf(w, "%-9s %s\n", label, perPlayer(len(score), func(p int) int { return score[p-1] }))
}

// writeTurn writes what the decision asks (the script's prompt), whose
// decision it is and the legal tokens, or the result when the game is
// over, wrapped to width.
func writeTurn(w io.Writer, s *host.State, width int) {
	if s.Over() {
		fmt.Fprint(w, wrapText(width, fmt.Sprintf("Game over after %s: %s", plural(s.Ply(), "decision"), resultText(s)), ""))
		return
	}
	if prompt, err := s.Prompt(); err != nil {
		fmt.Fprintf(w, "(the script's prompt fails: %s)\n", oneLine(err.Error()))
	} else if prompt != "" {
		fmt.Fprint(w, wrapText(width, prompt+".", ""))
	}
	fmt.Fprint(w, wrap(width, playerName(s.ToMove())+" to play:", s.Legal(), "  "))
}

// resultText describes the result of s: the winner or a draw, how the
// game ended, the sites that made it and its notes, e.g. "Player 1
// (South) wins (three on a line: a1 b1 c1)", "Player 2 (North) wins (no
// legal move; without glory)".
func resultText(s *host.State) string {
	o := s.Outcome()
	if !o.Over {
		return "unfinished"
	}
	text := "a draw"
	if o.Winner > 0 {
		text = playerName(o.Winner) + " wins"
	}
	var more []string
	reason := o.Reason
	if len(o.Sites) > 0 {
		names := make([]string, len(o.Sites))
		for i, x := range o.Sites {
			names[i] = s.Game().Board().Site(x).Name
		}
		if reason != "" {
			reason += ": "
		}
		reason += strings.Join(names, " ")
	}
	if reason != "" {
		more = append(more, reason)
	}
	more = append(more, o.Notes...)
	if len(more) > 0 {
		text += " (" + strings.Join(more, "; ") + ")"
	}
	return text
}

// recordText is a game record: its tokens separated by single spaces.
func recordText(record []string) string {
	if len(record) == 0 {
		return "(no decisions yet)"
	}
	return strings.Join(record, " ")
}

// plural writes a count and a noun, e.g. "1 decision", "3 decisions".
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return strconv.Itoa(n) + " " + noun + "s"
}

// wrap writes head followed by the words, wrapped to width; continued
// lines start with indent. A word longer than the width stands whole on
// a line of its own.
func wrap(width int, head string, words []string, indent string) string {
	var sb strings.Builder
	line := head
	for _, w := range words {
		if len(line)+1+len(w) > width && len(line) > len(indent) {
			sb.WriteString(line + "\n")
			line = indent + w
			continue
		}
		if line == "" {
			line = w
		} else {
			line += " " + w
		}
	}
	sb.WriteString(line + "\n")
	return sb.String()
}

// wrapText wraps a paragraph of text to width, each line starting with
// indent.
func wrapText(width int, text, indent string) string {
	words := strings.Fields(text)
	if len(words) == 0 {
		return ""
	}
	return wrap(width, indent+words[0], words[1:], indent)
}

// wrapHanging wraps a line of text to width, its continued lines indented
// by two spaces.
func wrapHanging(width int, text string) string {
	words := strings.Fields(text)
	if len(words) == 0 {
		return "\n"
	}
	return wrap(width, words[0], words[1:], "  ")
}

// progressLine fits a progress line, redrawn in place after a carriage
// return, to a terminal of width columns: cut to width-1 (a full line
// would move the cursor to the next one, and the next carriage return
// would leave the line behind) and padded to it with spaces, which rub
// out a longer line drawn before.
func progressLine(line string, width int) string {
	n := max(width-1, 1)
	if r := []rune(line); len(r) > n {
		line = string(r[:n])
	}
	return fmt.Sprintf("%-*s", n, line) // fmt counts runes, as the cut does
}
