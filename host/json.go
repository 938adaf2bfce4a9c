package host

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"reflect"
	"slices"
	"strconv"

	"github.com/matombo/matombo/host/diag"
	"github.com/matombo/matombo/host/internal/strictjson"
	"github.com/matombo/matombo/host/kernel"
	"github.com/matombo/matombo/host/params"
)

// MarshalJSON writes the state in the format of docs/state-json.md: game, variant
// (every parameter), ply, to_move, sites (name, count, owner in board
// order), captured, hand, score (the script's scores, null without a
// score function), legal, prompt (what the decision asks, "" for nothing
// or when the game is over), over, winner, notes; then reason (how the game
// ended, "" while it goes on), result_sites (the sites that made the
// result, when the script names them), method (once the game is over),
// vars (the script's variables), history: the
// position keys (Key, 16 hex digits) of every position since the opening
// or the position the state was made from, oldest first, the current one
// last; and effects, what the ply that made the state did (null when it
// was not recorded). The history is what repetition rules count, so a
// state read back with StateFromJSON continues exactly as this one would.
// It fails only when the script's score or prompt function fails, or
// when listing the legal moves of an unlisted state (see
// Runner.ApplyToUnlisted), which it lists first, fails.
func (s *State) MarshalJSON() ([]byte, error) {
	if err := s.list(nil); err != nil {
		return nil, err
	}
	score, err := s.Score()
	if err != nil {
		return nil, err
	}
	prompt, err := s.Prompt()
	if err != nil {
		return nil, err
	}
	var b bytes.Buffer
	// Room for what most states need, so that the buffer grows once: the
	// sites, the history's keys, the legal tokens and the effects. Sized by
	// what the state holds, never by its ply count, which a state read
	// from JSON may set far beyond its history.
	b.Grow(256 + 40*s.g.def.Board.NumSites() + 19*s.k.Hist.Len() + 12*len(s.k.Moves) + 48*s.effectCount())
	s.writeJSON(&b, score, prompt)
	return b.Bytes(), nil
}

// effectCount is the number of effects the state carries.
func (s *State) effectCount() int {
	if s.k.Effects == nil {
		return 0
	}
	return len(s.k.Effects.List())
}

func writeJSONString(b *bytes.Buffer, str string) {
	for i := 0; i < len(str); i++ {
		if c := str[i]; c < 0x20 || c >= 0x7f || c == '"' || c == '\\' || c == '<' || c == '>' || c == '&' {
			q, _ := json.Marshal(str) // escapes as encoding/json does
			b.Write(q)
			return
		}
	}
	b.WriteByte('"') // plain printable ASCII: as it is, without an allocation
	b.WriteString(str)
	b.WriteByte('"')
}

// writeJSONInt writes n in decimal.
func writeJSONInt(b *bytes.Buffer, n int) {
	var buf [20]byte
	b.Write(strconv.AppendInt(buf[:0], int64(n), 10))
}

// writeJSON writes the state with the scores the script gives it (nil
// for a game without a score) and the prompt of its decision.
func (s *State) writeJSON(b *bytes.Buffer, score []int, prompt string) {
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
			b.WriteString(params.FormatValue(v))
		}
	}
	b.WriteString(`},"ply":`)
	writeJSONInt(b, s.k.Ply)
	b.WriteString(`,"to_move":`)
	writeJSONInt(b, s.ToMove())
	b.WriteString(`,"sites":[`)
	for i := range g.def.Board.NumSites() {
		site := g.def.Board.Site(i)
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(`{"name":`)
		writeJSONString(b, site.Name)
		b.WriteString(`,"count":`)
		writeJSONInt(b, s.Count(i))
		b.WriteString(`,"owner":`)
		writeJSONInt(b, s.Owner(i))
		b.WriteByte('}')
	}
	b.WriteString(`],"captured":`)
	writeInts(b, g.players, s.Captured)
	b.WriteString(`,"hand":`)
	writeInts(b, g.players, s.Hand)
	b.WriteString(`,"score":`)
	if score == nil {
		b.WriteString("null")
	} else {
		writeInts(b, len(score), func(p int) int { return score[p-1] })
	}
	b.WriteString(`,"legal":[`)
	for i, m := range s.moves() {
		if i > 0 {
			b.WriteByte(',')
		}
		writeJSONString(b, g.Token(m))
	}
	b.WriteString(`],"prompt":`)
	writeJSONString(b, prompt)
	b.WriteString(`,"over":`)
	b.WriteString(strconv.FormatBool(s.k.Result.Over))
	b.WriteString(`,"winner":`)
	writeJSONInt(b, s.k.Result.Winner)
	b.WriteString(`,"notes":[`)
	for i, n := range s.k.Result.Notes {
		if i > 0 {
			b.WriteByte(',')
		}
		writeJSONString(b, n)
	}
	b.WriteString(`],"reason":`)
	writeJSONString(b, s.k.Result.Reason)
	b.WriteString(`,"result_sites":[`)
	for i, x := range s.k.Result.Sites {
		if i > 0 {
			b.WriteByte(',')
		}
		writeJSONString(b, g.def.Board.SiteName(x))
	}
	b.WriteByte(']')
	if s.k.Result.Over {
		b.WriteString(`,"method":`)
		writeJSONString(b, s.k.Result.Method.String())
	}
	b.WriteString(`,"vars":{`)
	for i, v := range g.def.Vars {
		if i > 0 {
			b.WriteByte(',')
		}
		writeJSONString(b, v.Name)
		b.WriteByte(':')
		b.WriteString(strconv.Itoa(int(s.k.Cells[v.Cell])))
	}
	b.WriteString(`},"history":[`)
	for i, k := range s.k.Hist.AppendKeys(nil) {
		if i > 0 {
			b.WriteByte(',')
		}
		var buf [18]byte // "%016x", without fmt: a long game has many keys
		buf[0], buf[17] = '"', '"'
		for j := 16; j > 0; j-- {
			buf[j] = "0123456789abcdef"[k&15]
			k >>= 4
		}
		b.Write(buf[:])
	}
	b.WriteString(`],"effects":`)
	if s.k.Effects == nil {
		b.WriteString("null")
	} else {
		buf := []byte{'['}
		for i, e := range s.k.Effects.List() {
			if i > 0 {
				buf = append(buf, ',')
			}
			buf = g.appendEffectJSON(buf, e)
		}
		b.Write(append(buf, ']'))
	}
	b.WriteByte('}')
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
	Score    *[]int         `json:"score"`
	Legal    []string       `json:"legal"`
	Prompt   string         `json:"prompt"` // recomputed, as the script words it now
	Over     bool           `json:"over"`
	Winner   int            `json:"winner"`
	Notes    []string       `json:"notes"`
	Reason   string         `json:"reason"`
	Won      []string       `json:"result_sites"`
	Method   string         `json:"method"`
	Vars     map[string]int `json:"vars"`
	History  []string       `json:"history"`
	Effects  *[]effectJSON  `json:"effects"`
}

type siteJSON struct {
	Name  string `json:"name"`
	Count int    `json:"count"`
	Owner int    `json:"owner"`
}

// StateFromJSON reads a state written by MarshalJSON. The game and its
// parameters must match g. The ply count, result and history are taken as
// written (the ply at most 2^53; the history's last key must be this
// position's, and it may hold at most ply+1 keys); without a history the history starts afresh at this
// position, so repetitions count from here. Integers must be whole numbers
// in range, and a game that conserves its counters must have the opening's
// total. The legal tokens are recomputed and must match those written.
func (g *Game) StateFromJSON(data []byte) (*State, error) {
	var j stateJSON
	if err := oneReading(data); err != nil {
		return nil, &PositionError{Source: "state JSON", Msg: err.Error(), Err: err}
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&j); err != nil {
		return nil, &PositionError{Source: "state JSON", Msg: err.Error(), Err: err}
	}
	if !j.Over && (j.Reason != "" || len(j.Notes) > 0 || len(j.Won) > 0 || j.Method != "") {
		return nil, &PositionError{Source: "state JSON", Msg: "a game that goes on has no reason, notes, result_sites or method"}
	}
	if err := checkResultText(j.Reason, j.Notes); err != nil {
		return nil, err
	}
	if j.Game != g.name {
		return nil, &PositionError{Source: "state JSON", Msg: fmt.Sprintf("the state is of game %q, not %q", j.Game, g.name)}
	}
	for _, p := range g.params {
		v, ok := j.Variant[p.Name]
		if !ok {
			return nil, &PositionError{Source: "state JSON", Msg: fmt.Sprintf("variant lacks parameter %s", p.Name)}
		}
		if f, isNum := v.(float64); isNum {
			if f != math.Trunc(f) || math.Abs(f) > 1<<53 {
				return nil, &PositionError{Source: "state JSON", Msg: fmt.Sprintf("parameter %s is %v, not a whole number", p.Name, f)}
			}
			v = int(f)
		}
		if v != p.Value {
			return nil, &PositionError{Source: "state JSON", Msg: fmt.Sprintf("parameter %s is %v, the game is loaded with %v", p.Name, v, p.Value)}
		}
	}
	if len(j.Variant) != len(g.params) {
		return nil, &PositionError{Source: "state JSON", Msg: fmt.Sprintf("variant has %d parameters, the game has %d", len(j.Variant), len(g.params))}
	}
	if len(j.Sites) != g.def.Board.NumSites() {
		return nil, &PositionError{Source: "state JSON", Msg: fmt.Sprintf("want %d sites, got %d", g.def.Board.NumSites(), len(j.Sites))}
	}
	pos := Position{ToMove: j.ToMove, Captured: j.Captured, Hand: j.Hand, Vars: j.Vars}
	for i, site := range j.Sites {
		if site.Name != g.def.Board.Site(i).Name {
			return nil, &PositionError{Source: "state JSON", Msg: fmt.Sprintf("site %d is %q, want %q", i+1, site.Name, g.def.Board.Site(i).Name)}
		}
		pos.Counts = append(pos.Counts, site.Count)
		pos.Owners = append(pos.Owners, site.Owner)
	}
	if j.Ply < 0 {
		return nil, &PositionError{Source: "state JSON", Msg: "negative ply"}
	}
	if j.Ply > kernel.MaxPly { // no move is played from a state at it, so none goes past it
		return nil, &PositionError{Source: "state JSON", Field: "ply", Msg: fmt.Sprintf("ply %d is above the most a state may have, %d", j.Ply, kernel.MaxPly)}
	}
	if j.Winner < 0 || j.Winner > g.players || j.Winner != 0 && !j.Over {
		return nil, &PositionError{Source: "state JSON", Msg: fmt.Sprintf("winner %d is not possible here", j.Winner)}
	}
	var s *State
	var err error
	if j.Over {
		s, err = g.positionState(pos, true)
		if err == nil {
			s.k.Key = s.computeKey()
			s.k.Hist.Push(s.k.Key)
			s.k.Result.Over, s.k.Result.Winner, s.k.Result.Reason, s.k.Result.Notes = true, j.Winner, j.Reason, append([]string(nil), j.Notes...)
			if len(j.Won) > g.def.Board.NumSites() {
				return nil, &PositionError{Source: "state JSON", Field: "result_sites", Msg: fmt.Sprintf("%d sites, the board has %d", len(j.Won), g.def.Board.NumSites())}
			}
			for _, name := range j.Won {
				i, ok := g.def.Board.Index(name)
				if !ok {
					return nil, &PositionError{Source: "state JSON", Field: "result_sites", Msg: fmt.Sprintf("no site %q on the board", name)}
				}
				s.k.Result.Sites = append(s.k.Result.Sites, i)
			}
			s.k.Result.Method = MethodRule // a state written before there were methods
			if j.Method != "" {
				s.k.Result.Method = MethodNone
				for m := MethodRule; m <= MethodAgreement; m++ {
					if m.String() == j.Method {
						s.k.Result.Method = m
					}
				}
				if s.k.Result.Method == MethodNone {
					return nil, &PositionError{Source: "state JSON", Field: "method", Msg: fmt.Sprintf("no method %q", j.Method)}
				}
			}
		}
	} else {
		s, err = g.NewState(pos)
	}
	if err != nil {
		return nil, err
	}
	s.k.Ply = j.Ply
	if j.History != nil {
		if err := s.readHistory(j.History); err != nil {
			return nil, err
		}
	}
	s.k.Effects = nil
	if j.Effects != nil {
		list, err := g.readEffects(*j.Effects)
		if err != nil {
			return nil, err
		}
		s.k.Effects = kernel.NewEffectList(list)
	}
	if j.Score != nil {
		score, err := s.Score()
		if err != nil {
			return nil, err
		}
		if !slices.Equal(score, *j.Score) {
			return nil, &PositionError{Source: "state JSON", Field: "score", Msg: fmt.Sprintf("the script gives the score %v here, the JSON %v", score, *j.Score)}
		}
	}
	legal := s.Legal()
	if len(legal) != len(j.Legal) {
		return nil, &PositionError{Source: "state JSON", Msg: fmt.Sprintf("the script lists %d legal tokens here, the JSON %d", len(legal), len(j.Legal))}
	}
	for i := range legal {
		if legal[i] != j.Legal[i] {
			return nil, &PositionError{Source: "state JSON", Msg: fmt.Sprintf("legal token %d is %q here, %q in the JSON", i+1, legal[i], j.Legal[i])}
		}
	}
	return s, nil
}

// checkResultText refuses a result's reason and notes with control
// characters, as m.finish does: they reach terminals and web pages.
func checkResultText(reason string, notes []string) error {
	if p := diag.TextProblem("the reason", reason, false); p != "" {
		return &PositionError{Source: "state JSON", Field: "reason", Msg: p}
	}
	for i, n := range notes {
		if p := diag.TextProblem(fmt.Sprintf("note %d", i+1), n, false); p != "" {
			return &PositionError{Source: "state JSON", Field: "notes", Msg: p}
		}
	}
	return nil
}

// readHistory replaces the state's history with the keys of a state JSON.
func (s *State) readHistory(keys []string) error {
	if len(keys) == 0 || len(keys) > s.k.Ply+1 {
		return &PositionError{Source: "state JSON", Msg: fmt.Sprintf("history has %d keys; it needs 1 to ply+1 = %d", len(keys), s.k.Ply+1)}
	}
	s.k.Hist.Reset()
	for i, k := range keys {
		v, err := strconv.ParseUint(k, 16, 64)
		if err != nil || len(k) != 16 {
			return &PositionError{Source: "state JSON", Msg: fmt.Sprintf("history key %d is %q, not 16 hex digits", i+1, k)}
		}
		s.k.Hist.Push(v)
	}
	if last := keys[len(keys)-1]; last != fmt.Sprintf("%016x", s.Key()) {
		return &PositionError{Source: "state JSON", Msg: fmt.Sprintf("the last history key %s is not the key of the position, %016x", last, s.Key())}
	}
	return nil
}

// oneReading checks that data reads one way only, as every reader of the
// same bytes would read it (package strictjson): UTF-8, no key given
// twice, every key of the state and its sites and effects spelled exactly
// as MarshalJSON writes it, nesting no deeper than a state's, and nothing
// after the state's object.
func oneReading(data []byte) error {
	return strictjson.Check(data, reflect.TypeFor[stateJSON](), maxStateDepth)
}

// maxStateDepth is how deeply a state JSON's arrays and objects may nest:
// a state's are 3 deep (the state, its sites, a site).
const maxStateDepth = 8
