package openspiel_test

import (
	"fmt"
	"strings"

	"github.com/matombo/matombo/conformance/openspiel"
)

// A playthrough of two Oware moves, the second state printed in full,
// becomes a scenario that plays the moves and checks that state.
func Example() {
	playthrough := `game: oware
GetParameters() = {num_houses_per_player=6,num_seeds_per_house=4}

# State 0
# Apply action "C"
action: 2

# State 1
# Apply action "f"
action: 5

# State 2
IsTerminal() = False
CurrentPlayer() = 0
ObservationString(0) = "0 | 0 0 | 5 5 1 6 5 5 5 4 4 4 4 0"
LegalActions() = [0, 1, 2, 3, 4, 5]
`
	pt, err := openspiel.Parse(strings.NewReader(playthrough))
	if err != nil {
		fmt.Println(err)
		return
	}
	yaml, err := openspiel.Convert(pt, openspiel.Options{Source: "oware.txt"})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Print(string(yaml))
	// Output:
	// # yaml-language-server: $schema=../scenario.schema.json
	// # OpenSpiel's playthrough oware.txt (game oware), converted by `matombo import
	// # openspiel`: the game move for move, checking every state the file prints
	// # in full. Regenerate it rather than edit it.
	// game: oware
	// scenarios:
	//   - name: OpenSpiel's oware game of oware.txt, 2 moves
	//     rule: [O1, O2, O3, O7, O8]
	//     steps:
	//       - name: state 2
	//         play: [a3, b6]
	//         expect:
	//           board: |
	//             b    0 4 4 4 4 5
	//             a    5 5 1 6 5 5
	//           captured: [0, 0]
	//           ply: 2
	//           over: false
	//           to_move: 1
	//           legal: [a1, a2, a3, a4, a5, a6]
}
