package host

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
)

// MarshalJSON writes the state in the format of RULINGS.md: game, variant
// (every parameter), ply, to_move, sites (name, count, owner in board
// order), captured, hand, legal, over, winner, notes; then reason (how the
// game ended, "" while it goes on) and vars (the script's variables).
func (s *State) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	s.writeJSON(&b)
	return b.Bytes(), nil
}

func writeJSONString(b *bytes.Buffer, str string) {
	q, _ := json.Marshal(str)
	b.Write(q)
}

func (s *State) writeJSON(b *bytes.Buffer) {
	g := s.g
	b.WriteString(`{"game":`)
	writeJSONString(b, g.name)
	b.WriteString(`,"variant":{`)
	for i, p := range g.params {
		if i > 0 {
			b.WriteByte(',')
		}
		writeJSONString(b, p.Name)
		b.WriteByte(':')
		switch v := p.Value.(type) {
		case string:
			writeJSONString(b, v)
		default:
			b.WriteString(formatValue(v))
		}
	}
	fmt.Fprintf(b, `},"ply":%d,"to_move":%d,"sites":[`, s.ply, s.ToMove())
	for i, site := range g.board.sites {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(`{"name":`)
		writeJSONString(b, site.Name)
		fmt.Fprintf(b, `,"count":%d,"owner":%d}`, s.Count(i), s.Owner(i))
	}
	b.WriteString(`],"captured":`)
	writeInts(b, g.players, s.Captured)
	b.WriteString(`,"hand":`)
	writeInts(b, g.players, s.Hand)
	b.WriteString(`,"legal":[`)
	for i, m := range s.moves {
		if i > 0 {
			b.WriteByte(',')
		}
		writeJSONString(b, g.Token(m))
	}
	fmt.Fprintf(b, `],"over":%t,"winner":%d,"notes":[`, s.over, s.winner)
	for i, n := range s.notes {
		if i > 0 {
			b.WriteByte(',')
		}
		writeJSONString(b, n)
	}
	b.WriteString(`],"reason":`)
	writeJSONString(b, s.reason)
	if s.over {
		b.WriteString(`,"method":`)
		writeJSONString(b, s.method.String())
	}
	b.WriteString(`,"vars":{`)
	for i, v := range g.vars {
		if i > 0 {
			b.WriteByte(',')
		}
		writeJSONString(b, v.name)
		b.WriteByte(':')
		b.WriteString(strconv.Itoa(int(s.cells[v.cell])))
	}
	b.WriteString("}}")
}

func writeInts(b *bytes.Buffer, n int, get func(int) int) {
	b.WriteByte('[')
	for p := 1; p <= n; p++ {
		if p > 1 {
			b.WriteByte(',')
		}
		b.WriteString(strconv.Itoa(get(p)))
	}
	b.WriteByte(']')
}

// stateJSON is the JSON form of a state, for reading one back.
type stateJSON struct {
	Game     string         `json:"game"`
	Variant  map[string]any `json:"variant"`
	Ply      int            `json:"ply"`
	ToMove   int            `json:"to_move"`
	Sites    []siteJSON     `json:"sites"`
	Captured []int          `json:"captured"`
	Hand     []int          `json:"hand"`
	Legal    []string       `json:"legal"`
	Over     bool           `json:"over"`
	Winner   int            `json:"winner"`
	Notes    []string       `json:"notes"`
	Reason   string         `json:"reason"`
	Method   string         `json:"method"`
	Vars     map[string]int `json:"vars"`
}

type siteJSON struct {
	Name  string `json:"name"`
	Count int    `json:"count"`
	Owner int    `json:"owner"`
}

// StateFromJSON reads a state written by MarshalJSON. The game and its
// parameters must match g. The ply count and result are taken as written;
// the history starts afresh at this position, so repetitions count from
// here. The legal tokens are recomputed and must match those written.
func (g *Game) StateFromJSON(data []byte) (*State, error) {
	var j stateJSON
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&j); err != nil {
		return nil, fmt.Errorf("state JSON: %w", err)
	}
	if j.Game != g.name {
		return nil, fmt.Errorf("state JSON: the state is of game %q, not %q", j.Game, g.name)
	}
	for _, p := range g.params {
		v, ok := j.Variant[p.Name]
		if !ok {
			return nil, fmt.Errorf("state JSON: variant lacks parameter %s", p.Name)
		}
		if f, isNum := v.(float64); isNum {
			v = int(f)
		}
		if v != p.Value {
			return nil, fmt.Errorf("state JSON: parameter %s is %v, the game is loaded with %v", p.Name, v, p.Value)
		}
	}
	if len(j.Variant) != len(g.params) {
		return nil, fmt.Errorf("state JSON: variant has %d parameters, the game has %d", len(j.Variant), len(g.params))
	}
	if len(j.Sites) != len(g.board.sites) {
		return nil, fmt.Errorf("state JSON: want %d sites, got %d", len(g.board.sites), len(j.Sites))
	}
	pos := Position{ToMove: j.ToMove, Captured: j.Captured, Hand: j.Hand, Vars: j.Vars}
	for i, site := range j.Sites {
		if site.Name != g.board.sites[i].Name {
			return nil, fmt.Errorf("state JSON: site %d is %q, want %q", i+1, site.Name, g.board.sites[i].Name)
		}
		pos.Counts = append(pos.Counts, site.Count)
		pos.Owners = append(pos.Owners, site.Owner)
	}
	if j.Ply < 0 {
		return nil, fmt.Errorf("state JSON: negative ply")
	}
	if j.Winner < 0 || j.Winner > g.players || j.Winner != 0 && !j.Over {
		return nil, fmt.Errorf("state JSON: winner %d is not possible here", j.Winner)
	}
	var s *State
	var err error
	if j.Over {
		s, err = g.positionState(pos)
		if err == nil {
			s.key = s.computeKey()
			s.hist.push(s.key)
			s.over, s.winner, s.reason, s.notes = true, j.Winner, j.Reason, append([]string(nil), j.Notes...)
			s.method = MethodRule
			for m, name := range methodNames {
				if name == j.Method && m > 0 {
					s.method = Method(m)
				}
			}
		}
	} else {
		s, err = g.NewState(pos)
	}
	if err != nil {
		return nil, err
	}
	s.ply = j.Ply
	legal := s.Legal()
	if len(legal) != len(j.Legal) {
		return nil, fmt.Errorf("state JSON: the script lists %d legal tokens here, the JSON %d", len(legal), len(j.Legal))
	}
	for i := range legal {
		if legal[i] != j.Legal[i] {
			return nil, fmt.Errorf("state JSON: legal token %d is %q here, %q in the JSON", i+1, legal[i], j.Legal[i])
		}
	}
	return s, nil
}
