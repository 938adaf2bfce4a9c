package host

import (
	"context"
	"fmt"
	"strings"

	"github.com/matombo/matombo/host/diag"
	"github.com/matombo/matombo/host/internal/watchdog"
)

// A turn written as one word. A player whose turn takes several decisions
// in a row (a capture and its continuations, a line made and the removal
// it earns) may write their tokens one after another without spaces: with
// the capture 22x15 and its continuation x8, the word 22x15x8 is the
// whole turn.
// ParseTurn finds the decisions such a word writes; State.Play and
// ParseMove still take one decision's token.

// Bounds on reading a turn: the longest word, and the most moves tried
// while looking for the ways to read it.
const (
	maxTurnWord  = 256
	maxTurnTries = 4096
)

// ParseTurn returns the moves of the decisions that word writes, in
// order: a legal token of s (one move), or the tokens of several
// decisions in a row of the player to move written one after another.
// Every decision but the last must leave the same player to move in a game
// that goes on. A word that reads two ways is refused as ambiguous. An
// error is an *IllegalMoveError for the first token that cannot be
// played (the state is then unchanged), or the script's error while
// trying the moves.
func (s *State) ParseTurn(word string) ([]Move, error) { return s.parseTurn(nil, word) }

// parseTurn is ParseTurn, its script calls stopped when cancel is done.
func (s *State) parseTurn(cancel *watchdog.Cancel, word string) ([]Move, error) {
	if m, err := s.parseMove(cancel, word); err == nil {
		return []Move{m}, nil
	} else if len(word) > maxTurnWord || strings.ContainsAny(word, " \t\r\n") {
		return nil, err
	}
	t := turnReader{cancel: cancel, player: s.ToMove(), word: word}
	if err := t.read(s, 0, nil); err != nil {
		if ie, ok := err.(*IllegalMoveError); ok {
			ie.Legal = s.Legal()
		}
		return nil, err
	}
	switch len(t.found) {
	case 0:
		if t.deepest != nil && t.deepAt > 0 {
			ie := *t.deepest
			ie.Token, ie.Legal = word, s.Legal()
			ie.Reason = fmt.Sprintf("after %s, %s: %s", word[:t.deepAt], quoteToken(word[t.deepAt:]), ie.Reason)
			return nil, &ie
		}
		_, err := s.parseMove(cancel, word)
		return nil, err
	case 1:
		return t.found[0], nil
	}
	reads := make([]string, len(t.found))
	for i, ms := range t.found {
		toks := make([]string, len(ms))
		for j, m := range ms {
			toks[j] = s.g.Token(m)
		}
		reads[i] = strings.Join(toks, " ")
	}
	return nil, &IllegalMoveError{Token: word, Legal: s.Legal(), Reason: diag.ClipText("it reads as several turns: "+strings.Join(reads, ", or "), diag.MaxMessageText)}
}

// PlayTurn plays the decisions of word (see ParseTurn): all of them, or,
// when one fails, none.
func (s *State) PlayTurn(word string) error { return s.playTurn(nil, word) }

// PlayTurnContext is PlayTurn, stopped when ctx is done: the script's
// call in progress (reading the word, playing its decisions, explaining a
// token that is not legal) stops between two instructions with a
// *CanceledError, and the state is left unchanged.
func (s *State) PlayTurnContext(ctx context.Context, word string) error {
	return s.playTurn(watchdog.NewCancel(ctx), word)
}

func (s *State) playTurn(cancel *watchdog.Cancel, word string) error {
	moves, err := s.parseTurn(cancel, word)
	if err != nil {
		return err
	}
	next := s.Clone()
	for _, m := range moves {
		if err := next.apply(cancel, m); err != nil {
			return err
		}
	}
	s.CopyFrom(next)
	return nil
}

// quoteToken quotes the rest of a word for a message.
func quoteToken(t string) string { return fmt.Sprintf("%q", t) }

// turnReader looks for the ways to read a word as decisions in a row.
type turnReader struct {
	cancel  *watchdog.Cancel // stops the script's calls
	player  int
	word    string
	tries   int
	found   [][]Move
	deepest *IllegalMoveError // why the rest after the longest readable start is not legal
	deepAt  int               // where that rest starts in word
}

// read tries every legal token of s that starts word[at:]; moves are the
// decisions read before at.
func (t *turnReader) read(s *State, at int, moves []Move) error {
	rest := t.word[at:]
	if at > 0 {
		if m, err := s.parseMove(t.cancel, rest); err == nil {
			t.found = append(t.found, append(append([]Move(nil), moves...), m))
		} else if ie, ok := err.(*IllegalMoveError); ok && at >= t.deepAt {
			t.deepest, t.deepAt = ie, at
		}
	}
	var buf [64]byte
	for _, m := range s.moves() {
		if len(t.found) > 1 {
			return nil
		}
		tok := string(s.g.def.Kinds[m.Kind].AppendToken(buf[:0], s.g.def.Board, m))
		if len(tok) >= len(rest) || !strings.HasPrefix(rest, tok) {
			continue
		}
		if t.tries++; t.tries > maxTurnTries {
			return &IllegalMoveError{Token: t.word, Reason: fmt.Sprintf("it could be read too many ways (more than %d tries)", maxTurnTries)}
		}
		next := s.Clone()
		if err := next.apply(t.cancel, m); err != nil {
			return err
		}
		if next.Over() || next.ToMove() != t.player {
			if end := at + len(tok); end > t.deepAt {
				t.deepest, t.deepAt = &IllegalMoveError{Reason: "the turn ends with " + tok}, end
			}
			continue
		}
		if err := t.read(next, at+len(tok), append(moves, m)); err != nil {
			return err
		}
	}
	return nil
}
