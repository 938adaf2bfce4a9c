package server

import (
	"encoding/json"
	"log/slog"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/matombo/matombo/host"
	"github.com/matombo/matombo/host/diag"
	"github.com/matombo/matombo/host/params"
	"github.com/matombo/matombo/host/store"
)

// boardView is a board's geometry for drawing it: every site with its row
// and column (grid boards) or drawing position (point boards), the tags of
// each site, the lines, and the move kinds with their token templates.
type boardView struct {
	Style string `json:"style"` // "counts" (holes with counters) or "pieces" (points with pieces)
	Grid  bool   `json:"grid"`  // every site is named by its row label and column, like a1
	Cells bool   `json:"cells"` // a grid of pieces, declared as rows and columns: drawn as square cells
	// Checkered: the sites are the dark squares of a checkerboard (style
	// "checkered"), drawn with the light squares between them and no lines.
	Checkered bool       `json:"checkered"`
	Rows      []string   `json:"rows"` // row labels, south to north
	Sites     []siteView `json:"sites"`
	Lines     [][]string `json:"lines"`
	Players   int        `json:"players"`
	Kinds     []kindView `json:"kinds"`
	Tags      []tagView  `json:"tags"` // the tags the sites carry, with what each means
	// ScoreLabel names the players' scores (the state's score) as the
	// script does, e.g. "seeds"; "" for a game without scores.
	ScoreLabel string `json:"score_label"`
	// HandLabel is written before the number of pieces a player holds in
	// hand ("in hand", or the script's words); "" when the hands are not
	// shown.
	HandLabel string `json:"hand_label"`
}

type siteView struct {
	Name string   `json:"name"`
	Row  int      `json:"row"` // 0 = south
	Col  int      `json:"col"`
	Tags []string `json:"tags"`
	End  string   `json:"end,omitempty"` // "west" or "east": drawn at that end of the board, beside all rows (a store)
}

type kindView struct {
	Name     string `json:"name"`
	Template string `json:"template"`
	Sites    int    `json:"sites"`  // how many sites a move names; -1 for a list of sites
	Prompt   string `json:"prompt"` // what a move of the kind does, in the script's words; "" for none
	Doc      string `json:"doc"`    // a move of the kind in words, with the template's placeholders ("Offer {sites}"); "" for none
}

// tagView is a tag of the board and what it means to the players.
type tagView struct {
	Name string `json:"name"`
	Doc  string `json:"doc"` // the script's words; "" for none
}

// newBoardView describes g's board.
func newBoardView(g *host.Game) *boardView {
	b := g.Board()
	v := &boardView{Style: b.Style().String(), Rows: b.Rows(), Players: g.Players(), Lines: [][]string{}, ScoreLabel: g.ScoreLabel(), HandLabel: g.HandLabel(), Tags: []tagView{}}
	v.Checkered = b.Checkered()
	for i := range b.NumSites() {
		site := b.Site(i)
		tags := b.Tags(i)
		if tags == nil {
			tags = []string{}
		}
		for _, t := range tags {
			if !slices.ContainsFunc(v.Tags, func(x tagView) bool { return x.Name == t }) {
				v.Tags = append(v.Tags, tagView{Name: t, Doc: b.TagDoc(t)})
			}
		}
		v.Sites = append(v.Sites, siteView{Name: site.Name, Row: site.Row, Col: site.Col, Tags: tags, End: site.End})
	}
	v.Cells = b.Grid() && b.Style() == host.Pieces
	v.Grid = true
	for _, site := range v.Sites {
		v.Grid = v.Grid && site.Row < len(v.Rows) && site.Name == v.Rows[site.Row]+strconv.Itoa(site.Col)
	}
	for _, l := range b.Lines() {
		names := make([]string, len(l))
		for k, i := range l {
			names[k] = b.Site(i).Name
		}
		v.Lines = append(v.Lines, names)
	}
	for _, k := range g.MoveKinds() {
		v.Kinds = append(v.Kinds, kindView{Name: k.Name, Template: k.Template, Sites: templateSites(k.Template), Prompt: k.Prompt, Doc: k.Doc})
	}
	return v
}

// templateSites counts the sites a token template names: -1 for {sites},
// else the highest numbered placeholder ({from} is 1, {to} is 2).
func templateSites(t string) int {
	n := 0
	for i := 0; i < len(t); i++ {
		if t[i] != '{' {
			continue
		}
		j := i + 1
		for j < len(t) && t[j] != '}' {
			j++
		}
		k := 0
		// {#1}, {#from}: a site written by its number is still a site.
		switch name := strings.TrimPrefix(t[i+1:min(j, len(t))], "#"); name {
		case "sites":
			return -1
		case "from":
			k = 1
		case "to":
			k = 2
		default:
			for _, c := range name {
				k = k*10 + int(c-'0')
			}
		}
		n = max(n, k)
		i = j
	}
	return n
}

// moveView is one move: its token, kind and the sites it names.
type moveView struct {
	Token string   `json:"token"`
	Kind  string   `json:"kind"`
	Sites []string `json:"sites"`
}

func newMoveView(g *host.Game, m host.Move) moveView {
	b := g.Board()
	v := moveView{Token: g.Token(m), Kind: g.MoveKinds()[m.Kind].Name, Sites: []string{}}
	for k := range int(m.N) {
		v.Sites = append(v.Sites, b.Site(m.Site(k)).Name)
	}
	return v
}

// movesView lists the legal moves of s.
func movesView(s *host.State) []moveView {
	out := []moveView{}
	for _, m := range s.Moves() {
		out = append(out, newMoveView(s.Game(), m))
	}
	return out
}

// seatView is a seat as the API shows it. URL, the link with the seat's
// secret, is only in the answers to its holder (creating the game,
// claiming the seat, a rematch); Invite, the link a person claims the
// seat with, only in the answer that created the game (or the rematch).
type seatView struct {
	Player  string `json:"player"`            // "human" or the computer's spec
	Name    string `json:"name"`              // the seat in a player's words: "a person", "Computer (strong, 2 s a move)"
	Waiting bool   `json:"waiting,omitempty"` // a person's seat that nobody holds yet: its invitation is not claimed
	URL     string `json:"url,omitempty"`
	Invite  string `json:"invite,omitempty"`
}

// gameView is the API's JSON for a game at one ply of its record.
type gameView struct {
	ID       string   `json:"id"`
	Game     string   `json:"game"`
	Title    string   `json:"title"`
	Variants []string `json:"variants"`
	// VariantTitles are the variants in a player's words, one for each
	// of Variants: their titles, or their names made into words.
	VariantTitles []string       `json:"variant_titles"`
	Params        map[string]any `json:"params"`
	Seats         []seatView     `json:"seats"`
	Record        []string       `json:"record"`
	Movers        []int          `json:"movers"` // the player who made each move of record
	// RecordFrom is the number of moves of the record left out of Record
	// and Movers: those the client said it holds (?since=N, see
	// since.go), or those the event stream's last event carried (see
	// handleEvents); 0, and left out, in every other answer.
	RecordFrom int             `json:"record_from,omitempty"`
	Ply        int             `json:"ply"` // the ply shown: record_from plus len(record) unless an earlier one was asked for
	State      json.RawMessage `json:"state"`
	Moves      []moveView      `json:"moves"` // the legal moves of state, with their sites
	Last       *moveView       `json:"last"`  // the move that led to state, null at the opening
	// Result is how the game ended, null while it goes on: the rules'
	// outcome, or a loss on time (method "time"), which the state does
	// not show.
	Result  *store.Result  `json:"result"`
	Clock   *clockView     `json:"clock"`   // the time control, null for an untimed game
	Request *store.Request `json:"request"` // a pending proposal: {"kind": "takeback", "seat", "to"}, or null
	// Rematch is the ID of the rematch of this game once one is made;
	// RematchOf the game this one is a rematch of.
	Rematch   string `json:"rematch,omitempty"`
	RematchOf string `json:"rematch_of,omitempty"`
	// RulesChanged: the game's rules have changed since it was created
	// (its fingerprint differs); its record is replayed by the new ones.
	RulesChanged bool       `json:"rules_changed,omitempty"`
	Board        *boardView `json:"board,omitempty"`
	// Updated is when the game last changed, in microseconds since 1970:
	// of two views of a game, the one with the later Updated is the newer
	// (an answer may reach a page after an event that followed it).
	Updated int64 `json:"updated_us"`
}

// clockView is a game's clocks as the API shows them.
type clockView struct {
	Initial   int64   `json:"initial_ms"`   // each seat's time at the start
	Increment int64   `json:"increment_ms"` // added after each of a seat's turns
	Left      []int64 `json:"left_ms"`      // each seat's time left when the answer was made
	Running   int     `json:"running"`      // the seat whose time runs down, 0 for none
	// StartsIn is how long, from the answer, until the running seat's
	// time runs down: the pages show the last move meanwhile; 0 once it
	// runs.
	StartsIn int64 `json:"starts_in_ms"`
}

func newClockView(c *store.Clock, now time.Time) *clockView {
	if c == nil {
		return nil
	}
	v := &clockView{Initial: c.Initial.Milliseconds(), Increment: c.Increment.Milliseconds(), Running: c.Running, Left: make([]int64, len(c.Remaining))}
	if c.Running > 0 && c.Since.After(now) {
		v.StartsIn = c.Since.Sub(now).Milliseconds()
	}
	for i := range c.Remaining {
		v.Left[i] = max(c.Left(i+1, now), 0).Milliseconds()
	}
	return v
}

// catalogGame is one game of the catalog.
type catalogGame struct {
	Name        string        `json:"name"`
	Title       string        `json:"title"`
	Description string        `json:"description"`
	Players     int           `json:"players"`
	Variants    []variantView `json:"variants"`
	Params      []paramView   `json:"params"`
	HasRules    bool          `json:"has_rules"`
	Error       string        `json:"error,omitempty"` // the game does not load
}

type variantView struct {
	Name string `json:"name"`
	// Title is the variant in a player's words: its variants file's
	// title, or its name made into words.
	Title       string         `json:"title"`
	Description string         `json:"description"`
	Params      map[string]any `json:"params"`
}

type paramView struct {
	Name    string   `json:"name"`
	Kind    string   `json:"kind"` // integer, boolean or string
	Default any      `json:"default"`
	Allowed []string `json:"allowed"` // empty when any value of the kind is accepted
	Doc     string   `json:"doc"`
}

// catalog is the list of games, built once.
type catalog struct {
	Games     []catalogGame `json:"games"`
	Default   string        `json:"default"`        // the game the new-game form starts with
	Human     string        `json:"human"`          // the seat spec of a person
	Computers []string      `json:"computers"`      // computer players to offer (their names)
	Seats     []string      `json:"computer_seats"` // the computer seats allowed, with their caps

	rules map[string]*rulesPage
	// hung holds the games whose script ran into the time budget while
	// loading with their defaults: a hang, which every load would meet
	// again, for the whole budget each time (see Server.loadGame).
	hung map[string]error
	// loaded is the first game that loaded (nil for none), for the check
	// of the computer seats (see checkSeats).
	loaded *host.Game
	opts   []host.Option // every game's options (see WithGameOptions)
	// shapes holds what a request for a new game is checked against
	// before its game is loaded, for each game that loaded.
	shapes map[string]gameShape
}

// gameShape is what the catalog keeps of a game that loaded: what a
// request for a new game of it can be checked against without loading it
// again (see Server.checkConfig).
type gameShape struct {
	title    string
	players  int
	specs    []host.ParamSpec
	variants []host.Variant
}

func newCatalog(lib *host.Library, opts []host.Option, extra func(string) (string, bool), computers []string, first string, log *slog.Logger) *catalog {
	c := &catalog{Games: []catalogGame{}, Human: humanSeat, Computers: append([]string{}, computers...), rules: map[string]*rulesPage{}, hung: map[string]error{}, opts: opts,
		shapes: map[string]gameShape{}}
	names := lib.Games()
	sort.Strings(names)
	for _, name := range names {
		g, err := lib.Load(name, opts...)
		if err != nil {
			log.Warn("a game that does not load: listed with its error, and no game of it can start", "game", name, "err", err)
			if diag.Hang(err) != nil {
				c.hung[name] = err
			}
			c.Games = append(c.Games, catalogGame{Name: name, Title: name, Error: err.Error(), Variants: []variantView{}, Params: []paramView{}})
			continue
		}
		if c.loaded == nil {
			c.loaded = g
		}
		c.shapes[name] = gameShape{title: g.Title(), players: g.Players(), specs: g.ParamSpecs(), variants: g.Variants()}
		cg := catalogGame{Name: name, Title: g.Title(), Description: g.Description(), Players: g.Players(),
			Variants: []variantView{}, Params: []paramView{}}
		for _, v := range g.Variants() {
			ps := map[string]any{}
			for _, p := range v.Params {
				ps[p.Name] = p.Value
			}
			cg.Variants = append(cg.Variants, variantView{Name: v.Name, Title: v.Label(), Description: v.Description, Params: ps})
		}
		for _, p := range g.ParamSpecs() {
			allowed := p.Allowed()
			if allowed == nil {
				allowed = []string{}
			}
			cg.Params = append(cg.Params, paramView{Name: p.Name, Kind: p.Kind.String(), Default: p.Default, Allowed: allowed, Doc: p.Doc})
		}
		page := g.Rules()
		if page == "" && extra != nil {
			page, _ = extra(name)
		}
		switch shape := rulesShape(page); {
		case page == "":
		case shape != "":
			log.Warn("rules page left out: out of the shape the server serves", "game", name, "problem", shape)
		default:
			c.rules[name] = &rulesPage{markdown: page}
			cg.HasRules = true
		}
		c.Games = append(c.Games, cg)
		if c.Default == "" || name == first {
			c.Default = name
		}
	}
	return c
}

// variantTitles returns the variants chosen of g in a player's words, in
// the order of chosen.
func variantTitles(g *host.Game, chosen []string) []string {
	all := g.Variants()
	out := make([]string, 0, len(chosen))
	for _, name := range chosen {
		i := slices.IndexFunc(all, func(v host.Variant) bool { return v.Name == name })
		if i < 0 {
			out = append(out, params.NameTitle(name)) // a game whose rules have changed
			continue
		}
		out = append(out, all[i].Label())
	}
	return out
}
