package openspiel

import (
	"fmt"
	"strconv"
	"strings"
)

// oware converts OpenSpiel's oware, whose seeds[2H] are Player 1's houses
// A.. (0..H-1) then Player 2's a.. (H..2H-1), H houses a row. Matombo's
// Oware names them a1..aH and b1..bH. An action is a house's place in the
// mover's row (0..H-1), its label the house's letter.
type oware struct {
	houses, seeds int
}

// Oware's parameters in Matombo and the values its script allows.
const (
	owareHouses, owareSeeds = 6, 4
	minHouses, maxHouses    = 4, 6
	minSeeds, maxSeeds      = 3, 6
)

func newOware(params []string) (rules, error) {
	o := oware{houses: owareHouses, seeds: owareSeeds}
	for _, p := range params {
		name, val, _ := strings.Cut(p, "=")
		n, err := strconv.Atoi(val)
		switch {
		case name == "num_houses_per_player" && err == nil && n >= minHouses && n <= maxHouses:
			o.houses = n
		case name == "num_seeds_per_house" && err == nil && n >= minSeeds && n <= maxSeeds:
			o.seeds = n
		case name == "num_houses_per_player":
			return nil, &ConvertError{Msg: fmt.Sprintf("parameter %s: Matombo's Oware plays %d to %d houses a row", p, minHouses, maxHouses)}
		case name == "num_seeds_per_house":
			return nil, &ConvertError{Msg: fmt.Sprintf("parameter %s: Matombo's Oware plays %d to %d seeds a house", p, minSeeds, maxSeeds)}
		default:
			return nil, &ConvertError{Msg: fmt.Sprintf("unknown parameter %s (OpenSpiel's Oware has num_houses_per_player and num_seeds_per_house)", p)}
		}
	}
	return o, nil
}

// house names house k (0..H-1) of player (0 or 1).
func (o oware) house(player, k int) (string, error) {
	if k < 0 || k >= o.houses {
		return "", fmt.Errorf("house %d is not in a row of %d", k, o.houses)
	}
	return fmt.Sprintf("%c%d", 'a'+player, k+1), nil
}

func (o oware) token(a Action) (string, error) {
	if len(a.Label) != 1 {
		return "", fmt.Errorf("want a house's letter as the label")
	}
	c := a.Label[0]
	player, k := 0, int(c)-'A'
	if c >= 'a' {
		player, k = 1, int(c)-'a'
	}
	if k != a.ID {
		return "", fmt.Errorf("label %q is not house %d of a row", a.Label, a.ID)
	}
	return o.house(player, k)
}

func (o oware) position(s State) (position, error) {
	var p position
	// ObservationString(0) is "player | score0 score1 | seeds..."
	parts := strings.Split(s.Observation, "|")
	if len(parts) != 3 {
		return p, fmt.Errorf("ObservationString(0) = %q: want \"player | scores | seeds\"", short(s.Observation))
	}
	scores, seeds := strings.Fields(parts[1]), strings.Fields(parts[2])
	if len(scores) != 2 || len(seeds) != 2*o.houses {
		return p, fmt.Errorf("ObservationString(0) = %q: want 2 scores and %d seed counts", short(s.Observation), 2*o.houses)
	}
	nums := func(fs []string) ([]int, error) {
		out := make([]int, len(fs))
		for i, f := range fs {
			n, err := strconv.Atoi(f)
			if err != nil || n < 0 || n > 1<<20 {
				return nil, fmt.Errorf("%q is not a number of seeds", short(f))
			}
			out[i] = n
		}
		return out, nil
	}
	var err error
	if p.captured, err = nums(scores); err != nil {
		return p, err
	}
	n, err := nums(seeds)
	if err != nil {
		return p, err
	}
	// Row b is drawn from bH on the left to b1 on the right, facing a1..aH.
	a, b := n[:o.houses], make([]int, o.houses)
	for k := range b {
		b[k] = n[2*o.houses-1-k]
	}
	w := widest(a, b)
	p.board = row("b", b, w) + "\n" + row("a", a, w) + "\n"
	if s.Terminal {
		p.over = true
		p.winner, err = result(s)
		return p, err
	}
	if p.toMove, err = turn(s); err != nil {
		return p, err
	}
	for _, k := range s.Legal {
		t, err := o.house(p.toMove-1, k)
		if err != nil {
			return p, fmt.Errorf("LegalActions(): %v", err)
		}
		p.legal = append(p.legal, t)
	}
	return p, nil
}

func (oware) points() []string { return []string{"O1", "O2", "O3", "O7", "O8"} }

func (o oware) params() []string {
	var out []string
	if o.houses != owareHouses {
		out = append(out, fmt.Sprintf("houses: %d", o.houses))
	}
	if o.seeds != owareSeeds {
		out = append(out, fmt.Sprintf("seeds: %d", o.seeds))
	}
	return out
}
