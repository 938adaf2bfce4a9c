package host

import (
	"strings"

	"github.com/matombo/matombo/host/internal/watchdog"
)

// Prompt says what the decision of s asks of the player to move, in the
// script's words: "Your lap ended on your head a20: continue sowing or stop
// here". It is the script's prompt function's answer; when the script has
// none, or it returns nil, the prompts of the move kinds among the legal
// moves (MoveKind.Prompt), in the order the script declared them, joined
// by "; ". It is "" when the game is over or nothing is said.
func (s *State) Prompt() (string, error) { return s.prompt(nil) }

// prompt is Prompt, its script calls stopped when cancel is done.
func (s *State) prompt(cancel *watchdog.Cancel) (string, error) {
	if err := s.list(cancel); err != nil { // an unlisted state's moves decide it
		return "", err
	}
	if s.k.Result.Over {
		return "", nil
	}
	if s.g.hasPrompt {
		vm, err := s.g.machineWith(cancel)
		if err != nil {
			return "", err
		}
		text, ok, err := vm.Prompt(&s.k)
		s.g.release(vm)
		if err != nil || ok {
			return text, err
		}
	}
	return s.kindPrompts(), nil
}

// kindPrompts joins the prompts of the kinds of the legal moves.
func (s *State) kindPrompts() string {
	var used [256]bool
	for _, m := range s.moves() {
		used[m.Kind] = true
	}
	var parts []string
	for k, kind := range s.g.def.Kinds {
		if used[k] && kind.Prompt != "" {
			parts = append(parts, kind.Prompt)
		}
	}
	return strings.Join(parts, "; ")
}
