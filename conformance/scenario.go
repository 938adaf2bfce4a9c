package conformance

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/matombo/matombo/host"
	"github.com/matombo/matombo/host/diag"
	"github.com/matombo/matombo/host/safefile"
	"gopkg.in/yaml.v3"
)

// File is a parsed scenario file.
type File struct {
	Path      string
	Game      string
	Scenarios []*Scenario
}

// Scenario is one documented case of a game's rules.
type Scenario struct {
	File  string
	Line  int // the line of its name: key (of the scenario when it has none)
	Name  string
	Rules []string
	// RuleLines is the file line of each of Rules: one line for a
	// scalar or a flow list, a line each in a block list.
	RuleLines []int
	Quote     string
	Game      string
	Variants  []string
	Params    []Param // file parameters, then the scenario's
	Start     *Start  // nil: the opening position
	Steps     []*Step
}

// Param is a parameter value given in a scenario file.
type Param struct {
	Name  string
	Value any // int, bool or string
	Line  int
}

// Start is a start position: each field replaces that part of the opening.
type Start struct {
	Line     int            // the line of its name: key (of the scenario when it has none)
	lines    map[string]int // the line of each key given, e.g. "vars"
	Board    *Diagram
	ToMove   *int
	Captured []int
	Hand     []int
	Vars     map[string]int
	// VarSites are the variables given as a site's name (a variable that
	// holds a site, from 1), resolved on the game's board when the
	// scenario runs.
	VarSites map[string]string
	// AnyTotal marks a set-up position whose total of counters differs
	// from the opening's in a game that conserves its counters (see
	// host.AnyTotal); without it such a start is an error.
	AnyTotal bool
}

// Diagram is a board diagram and where its first line is.
type Diagram struct {
	Text string
	Line int // file line of the diagram's first line
}

// Token is a token to play and its line.
type Token struct {
	Text string
	Line int
}

// Step plays tokens, checks a rejection and checks expectations.
type Step struct {
	Line   int
	Name   string
	Play   []Token
	Reject *Token
	Error  string // text the rejection's message must contain
	// Why is text that the reason the players read for the rejection
	// (host.State.WhyNot: the script's why first, then the host's)
	// must contain.
	Why string
	// ErrorCode is the stable code the rejection must have
	// (host.ErrorCode: "illegal-token", "game-over", "budget-steps", ...).
	ErrorCode string
	Expect    *Expect
}

// Expect is what must hold after a step. Nil fields are not checked.
type Expect struct {
	Line          int
	Board         *Diagram
	Sites         []SiteCell
	Captured      []int
	Hand          []int
	ToMove        *int
	Ply           *int
	Legal         *[]string
	LegalIncludes []string
	LegalExcludes []string
	Over          *bool
	Winner        *int
	Notes         *[]string
	Reason        *string
	Vars          map[string]int
	VarSites      map[string]string // variables given as a site's name, as Start's
	Repetitions   *int

	lines map[string]int // file line of each field
}

// SiteCell is an expected site, written as a diagram cell.
type SiteCell struct {
	Name string
	Cell string
	Line int
}

// FileError is a malformed scenario file, with the place of the problem.
type FileError struct {
	Pos host.Pos
	Msg string
}

func (e *FileError) Error() string { return e.Pos.String() + ": " + e.Msg }

// MaxFileBytes bounds the size of a scenario file.
const MaxFileBytes = 1 << 20

// LoadFiles parses scenario files; a directory stands for all *.yaml and
// *.yml files below it, in path order. Each file that cannot be read or
// parsed yields a FileError, and the others are still returned.
func LoadFiles(paths ...string) ([]*File, []error) {
	var files []*File
	var errs []error
	for _, p := range expand(paths, &errs) {
		src, err := safefile.ReadFile(p, MaxFileBytes)
		if err != nil {
			var se *safefile.Error
			if errors.As(err, &se) {
				errs = append(errs, &FileError{Pos: host.Pos{File: p}, Msg: se.Msg})
			} else {
				errs = append(errs, &FileError{Pos: host.Pos{File: p}, Msg: err.Error()})
			}
			continue
		}
		f, err := Parse(p, src)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		files = append(files, f)
	}
	return files, errs
}

func expand(paths []string, errs *[]error) []string {
	var out []string
	for _, p := range paths {
		info, err := os.Stat(p)
		if err != nil || !info.IsDir() {
			// A file, or no folder: reading it says what is wrong, naming
			// the file once (a link that leads nowhere, no such file).
			out = append(out, p)
			continue
		}
		var found []string
		err = filepath.WalkDir(p, func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if !d.IsDir() && (strings.HasSuffix(path, ".yaml") || strings.HasSuffix(path, ".yml")) {
				found = append(found, path)
			}
			return nil
		})
		if err != nil {
			*errs = append(*errs, &FileError{Pos: host.Pos{File: p}, Msg: err.Error()})
		}
		sort.Strings(found)
		out = append(out, found...)
	}
	return out
}

// Parse parses one scenario file.
func Parse(path string, src []byte) (f *File, err error) {
	p := &parser{file: path}
	defer func() {
		if r := recover(); r != nil {
			fe, ok := r.(*FileError)
			if !ok {
				panic(r)
			}
			f, err = nil, fe
		}
	}()
	var doc yaml.Node
	dec := yaml.NewDecoder(bytes.NewReader(src))
	if err := dec.Decode(&doc); err != nil {
		if errors.Is(err, io.EOF) {
			return nil, &FileError{Pos: host.Pos{File: path}, Msg: "the file is empty; it needs game and scenarios"}
		}
		return nil, p.yamlError(src, err)
	}
	var extra yaml.Node
	switch err := dec.Decode(&extra); {
	case err == nil:
		p.fail(&extra, "a scenario file holds one YAML document")
	case !errors.Is(err, io.EOF):
		// A broken second document is not left unread.
		return nil, p.yamlError(src, err)
	}
	return p.file_(doc.Content[0]), nil
}

type parser struct{ file string }

func (p *parser) fail(n *yaml.Node, format string, args ...any) {
	pos := host.Pos{File: p.file}
	if n != nil {
		pos.Line, pos.Col = n.Line, n.Column
	}
	panic(&FileError{Pos: pos, Msg: fmt.Sprintf(format, args...)})
}

func (p *parser) yamlError(src []byte, err error) error {
	msg := err.Error()
	pos := host.Pos{File: p.file}
	if _, e := fmt.Sscanf(msg, "yaml: line %d:", &pos.Line); e == nil {
		// yaml.v3's line is where the broken construct began, often one
		// early: the line of the error is found in src.
		if line, col, what, ok := diag.PlaceYAMLSyntax(src, msg); ok {
			pos.Line, pos.Col, msg = line, col, what
		}
	} else if line, col, what, ok := diag.BadYAMLText(src); ok {
		// yaml.v3 gives no line for invalid UTF-8 or a control character.
		pos.Line, pos.Col, msg = line, col, "YAML: "+what
	} else if line, col, what, ok := diag.PlaceYAMLError(src, msg); ok {
		// Nor for an alias of no anchor, or an error on the first line.
		pos.Line, pos.Col, msg = line, col, what
	}
	return &FileError{Pos: pos, Msg: msg}
}

// fields walks a mapping, calling fn for each key, and rejects unknown keys
// (known nil: any key, as the names of parameters, sites or variables).
// A mapping of 100,000 keys takes linear time.
func (p *parser) fields(n *yaml.Node, what string, known []string, fn func(key string, k, v *yaml.Node)) {
	if n.Kind != yaml.MappingNode {
		if known == nil {
			p.fail(n, "%s must be a mapping of names to values", what)
		}
		p.fail(n, "%s must be a mapping (keys: %s)", what, strings.Join(known, ", "))
	}
	seen := map[string]bool{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		if k.Kind != yaml.ScalarNode {
			p.fail(k, "a key in %s must be a name", what)
		}
		if known == nil {
			p.text(k, k.Value, "a name in "+what, false)
		} else if !slices.Contains(known, k.Value) {
			p.fail(k, "unknown key %q in %s (known: %s)", k.Value, what, strings.Join(known, ", "))
		}
		if seen[k.Value] {
			p.fail(k, "key %q appears twice in %s", k.Value, what)
		}
		seen[k.Value] = true
		fn(k.Value, k, v)
	}
}

func (p *parser) str(n *yaml.Node, what string) string {
	if n.Kind != yaml.ScalarNode || n.ShortTag() == "!!null" {
		p.fail(n, "%s must be text", what)
	}
	p.text(n, n.Value, what, false)
	return n.Value
}

// text refuses a control character (an escape sequence, a carriage
// return) or a bidirectional override in a text of the file: names, rules
// and quotes are printed in reports, on terminals. YAML writes them with
// "\e" and "\u202e" in double quotes.
func (p *parser) text(n *yaml.Node, s, what string, multiline bool) {
	if msg := diag.TextProblem(what, s, multiline); msg != "" {
		p.fail(n, "%s", msg)
	}
}

func (p *parser) integer(n *yaml.Node, what string) int {
	if n.Kind != yaml.ScalarNode || n.ShortTag() != "!!int" {
		p.fail(n, "%s must be a whole number, got %q", what, n.Value)
	}
	v, err := strconv.Atoi(n.Value)
	if err != nil {
		p.fail(n, "%s must be a whole number, got %q", what, n.Value)
	}
	return v
}

func (p *parser) boolean(n *yaml.Node, what string) bool {
	if n.Kind != yaml.ScalarNode || n.ShortTag() != "!!bool" {
		p.fail(n, "%s must be true or false, got %q", what, n.Value)
	}
	return n.Value == "true"
}

func (p *parser) list(n *yaml.Node, what string) []*yaml.Node {
	if n.Kind != yaml.SequenceNode {
		p.fail(n, "%s must be a list, e.g. [a1, a2]", what)
	}
	return n.Content
}

func (p *parser) strs(n *yaml.Node, what string) []string {
	out := []string{}
	for _, c := range p.list(n, what) {
		out = append(out, p.str(c, what+" entry"))
	}
	return out
}

func (p *parser) ints(n *yaml.Node, what string) []int {
	var out []int
	for _, c := range p.list(n, what) {
		out = append(out, p.integer(c, what+" entry"))
	}
	return out
}

// strOrList accepts "T7" or [T7, T8].
func (p *parser) strOrList(n *yaml.Node, what string) []string {
	if n.Kind == yaml.ScalarNode {
		return []string{p.str(n, what)}
	}
	return p.strs(n, what)
}

// lines is the line of each of the n values of a scalar or a list node.
func lines(n *yaml.Node, count int) []int {
	out := make([]int, count)
	for i := range out {
		out[i] = n.Line
		if n.Kind == yaml.SequenceNode && i < len(n.Content) {
			out[i] = n.Content[i].Line
		}
	}
	return out
}

// variants is a variant name or a list of at most maxVariants of them.
func (p *parser) variants(n *yaml.Node) []string {
	if n.Kind == yaml.SequenceNode && len(n.Content) > maxVariants {
		p.fail(n, "variant: at most %d variants, got %d", maxVariants, len(n.Content))
	}
	return p.strOrList(n, "variant")
}

func (p *parser) tokens(n *yaml.Node, what string) []Token {
	var out []Token
	for _, c := range p.list(n, what) {
		if c.Kind != yaml.ScalarNode || c.Value == "" {
			p.fail(c, "%s: each token is a word such as a7", what)
		}
		out = append(out, Token{Text: c.Value, Line: c.Line})
	}
	return out
}

// multiline is a text of several lines.
func (p *parser) multiline(n *yaml.Node, what string) string {
	if n.Kind != yaml.ScalarNode || n.ShortTag() == "!!null" {
		p.fail(n, "%s must be text", what)
	}
	p.text(n, n.Value, what, true)
	return n.Value
}

func (p *parser) diagram(n *yaml.Node, what string) *Diagram {
	text := p.multiline(n, what)
	line := n.Line
	if n.Style == yaml.LiteralStyle || n.Style == yaml.FoldedStyle {
		line++
	}
	return &Diagram{Text: text, Line: line}
}

// Bounds of a file's lists of variants and parameters: every scenario
// holds them and the suite's key of its game is made of them, so 50,000
// parameters on a file of 8,000 scenarios took 17 GB. A game declares at
// most 64 parameters; a longer list cannot be right.
const (
	maxVariants = 64
	maxParams   = 64
)

func (p *parser) params(n *yaml.Node) []Param {
	if n.Kind == yaml.MappingNode && len(n.Content)/2 > maxParams {
		p.fail(n, "params: at most %d parameters, got %d (a game declares at most %d)", maxParams, len(n.Content)/2, maxParams)
	}
	var out []Param
	p.fields(n, "params", nil, func(key string, k, v *yaml.Node) {
		if v.Kind != yaml.ScalarNode {
			p.fail(v, "parameter %s must be a single value", key)
		}
		var val any
		switch v.ShortTag() {
		case "!!int":
			val = p.integer(v, "parameter "+key)
		case "!!bool":
			val = p.boolean(v, "parameter "+key)
		case "!!str":
			val = p.str(v, "parameter "+key)
		default:
			p.fail(v, "parameter %s: unsupported value %q", key, v.Value)
		}
		out = append(out, Param{Name: key, Value: val, Line: v.Line})
	})
	return out
}

func (p *parser) file_(n *yaml.Node) *File {
	f := &File{Path: p.file}
	var variants []string
	var params []Param
	var scen *yaml.Node
	p.fields(n, "the file", []string{"game", "variant", "params", "scenarios"}, func(key string, k, v *yaml.Node) {
		switch key {
		case "game":
			f.Game = p.str(v, "game")
		case "variant":
			variants = p.variants(v)
		case "params":
			params = p.params(v)
		case "scenarios":
			scen = v
		}
	})
	if f.Game == "" {
		p.fail(n, "the file needs a game")
	}
	if scen == nil {
		p.fail(n, "the file needs scenarios")
	}
	items := p.list(scen, "scenarios")
	if len(items) == 0 {
		p.fail(scen, "scenarios is empty")
	}
	for _, item := range items {
		f.Scenarios = append(f.Scenarios, p.scenario(item, f.Game, variants, params))
	}
	return f
}

var stepKeys = []string{"name", "play", "reject", "error", "error_code", "why", "expect"}

func (p *parser) scenario(n *yaml.Node, game string, variants []string, params []Param) *Scenario {
	s := &Scenario{File: p.file, Line: n.Line, Game: game, Variants: variants, Params: append([]Param(nil), params...)}
	top := &Step{Line: n.Line}
	hasTop := false
	var steps *yaml.Node
	p.fields(n, "a scenario", []string{"name", "rule", "quote", "variant", "params", "start", "play", "expect", "reject", "error", "error_code", "why", "steps"}, func(key string, k, v *yaml.Node) {
		switch key {
		case "name":
			s.Name = p.str(v, "name")
			s.Line = k.Line // cite a scenario at its name, whatever key comes first
		case "rule":
			s.Rules = p.strOrList(v, "rule")
			s.RuleLines = lines(v, len(s.Rules))
		case "quote":
			s.Quote = p.multiline(v, "quote")
		case "variant":
			s.Variants = p.variants(v)
		case "params":
			at := map[string]int{} // the index of each file parameter
			for i, fp := range s.Params {
				at[fp.Name] = i
			}
			for _, np := range p.params(v) {
				if i, ok := at[np.Name]; ok {
					s.Params[i] = np
				} else {
					s.Params = append(s.Params, np)
				}
			}
		case "start":
			s.Start = p.start(v)
		case "steps":
			steps = v
		default:
			hasTop = true
			p.stepField(top, key, v)
		}
	})
	if s.Name == "" {
		p.fail(n, "a scenario needs a name")
	}
	if len(s.Rules) == 0 || slices.Contains(s.Rules, "") {
		p.fail(n, "scenario %q needs a rule (the ruling point it documents, e.g. T7)", s.Name)
	}
	if steps != nil && hasTop {
		p.fail(steps, "scenario %q: use either steps or play/expect/reject/error, not both", s.Name)
	}
	if steps != nil {
		if len(p.list(steps, "steps")) == 0 {
			// A scenario that checks nothing must not pass.
			p.fail(steps, "scenario %q: steps is empty", s.Name)
		}
		for _, sn := range p.list(steps, "steps") {
			st := &Step{Line: sn.Line}
			p.fields(sn, "a step", stepKeys, func(key string, k, v *yaml.Node) { p.stepField(st, key, v) })
			p.checkStep(sn, st)
			s.Steps = append(s.Steps, st)
		}
	} else {
		p.checkStep(n, top)
		s.Steps = []*Step{top}
	}
	return s
}

func (p *parser) checkStep(n *yaml.Node, st *Step) {
	// A step that plays nothing and checks nothing (play: [] alone,
	// expect: {}) would pass whatever the game does.
	if len(st.Play) == 0 && st.Reject == nil && (st.Expect == nil || len(st.Expect.lines) == 0) {
		p.fail(n, "a step needs a token to play, a reject or an expectation")
	}
	if st.Error != "" && st.Reject == nil {
		p.fail(n, "error goes with reject: the token whose rejection should say it")
	}
	if st.ErrorCode != "" && st.Reject == nil {
		p.fail(n, "error_code goes with reject: the token whose rejection should have it")
	}
	if st.Why != "" && st.Reject == nil {
		p.fail(n, "why goes with reject: the token whose refusal the players should read it for")
	}
}

func (p *parser) stepField(st *Step, key string, v *yaml.Node) {
	switch key {
	case "name":
		st.Name = p.str(v, "name")
	case "play":
		st.Play = p.tokens(v, "play")
		if st.Play == nil {
			st.Play = []Token{}
		}
	case "reject":
		if v.Kind != yaml.ScalarNode || v.Value == "" {
			p.fail(v, "reject is one token")
		}
		st.Reject = &Token{Text: v.Value, Line: v.Line}
	case "error":
		st.Error = p.str(v, "error")
	case "why":
		st.Why = p.str(v, "why")
	case "error_code":
		st.ErrorCode = p.str(v, "error_code")
		if !slices.Contains(host.ErrorCodes(), st.ErrorCode) {
			p.fail(v, "error_code: unknown code %q (codes: %s)", st.ErrorCode, strings.Join(host.ErrorCodes(), ", "))
		}
	case "expect":
		st.Expect = p.expect(v)
	}
}

func (p *parser) start(n *yaml.Node) *Start {
	st := &Start{Line: n.Line, lines: map[string]int{}}
	p.fields(n, "start", []string{"board", "to_move", "captured", "hand", "vars", "any_total"}, func(key string, k, v *yaml.Node) {
		st.lines[key] = k.Line
		switch key {
		case "board":
			st.Board = p.diagram(v, "board")
		case "to_move":
			x := p.integer(v, "to_move")
			st.ToMove = &x
		case "captured":
			st.Captured = p.ints(v, "captured")
		case "hand":
			st.Hand = p.ints(v, "hand")
		case "vars":
			st.Vars, st.VarSites = p.vars(v)
		case "any_total":
			st.AnyTotal = p.boolean(v, "any_total")
		}
	})
	return st
}

// vars reads variables by name: each a whole number, or the name of a
// site for a variable that holds a site (from 1).
func (p *parser) vars(n *yaml.Node) (nums map[string]int, sites map[string]string) {
	nums = map[string]int{}
	p.fields(n, "vars", nil, func(key string, k, v *yaml.Node) {
		if v.Kind == yaml.ScalarNode && v.ShortTag() == "!!str" {
			if sites == nil {
				sites = map[string]string{}
			}
			sites[key] = p.str(v, "variable "+key)
			return
		}
		nums[key] = p.integer(v, "variable "+key)
	})
	return nums, sites
}

var expectKeys = []string{"board", "sites", "captured", "hand", "to_move", "ply", "legal", "legal_includes",
	"legal_excludes", "over", "winner", "notes", "reason", "vars", "repetitions"}

func (p *parser) expect(n *yaml.Node) *Expect {
	e := &Expect{Line: n.Line, lines: map[string]int{}}
	p.fields(n, "expect", expectKeys, func(key string, k, v *yaml.Node) {
		e.lines[key] = v.Line
		intp := func() *int { x := p.integer(v, key); return &x }
		switch key {
		case "board":
			e.Board = p.diagram(v, "board")
		case "sites":
			p.fields(v, "sites", nil, func(name string, _, c *yaml.Node) {
				if c.Kind != yaml.ScalarNode {
					p.fail(c, "site %s: write the cell as in a diagram, e.g. 3, 2*, 12@2 or .", name)
				}
				p.text(c, c.Value, "site "+name, false)
				e.Sites = append(e.Sites, SiteCell{Name: name, Cell: c.Value, Line: c.Line})
			})
		case "captured":
			e.Captured = p.ints(v, key)
		case "hand":
			e.Hand = p.ints(v, key)
		case "to_move":
			e.ToMove = intp()
		case "ply":
			e.Ply = intp()
		case "winner":
			e.Winner = intp()
		case "repetitions":
			e.Repetitions = intp()
		case "legal":
			l := p.strs(v, key)
			e.Legal = &l
		case "legal_includes":
			e.LegalIncludes = p.strs(v, key)
		case "legal_excludes":
			e.LegalExcludes = p.strs(v, key)
		case "over":
			b := p.boolean(v, key)
			e.Over = &b
		case "notes":
			l := p.strs(v, key)
			e.Notes = &l
		case "reason":
			r := p.str(v, key)
			e.Reason = &r
		case "vars":
			e.Vars, e.VarSites = p.vars(v)
		}
	})
	if n.Kind == yaml.MappingNode && len(n.Content) == 0 {
		// Beside tokens to play it would read as a check that is not
		// there (the schema refuses it everywhere too).
		p.fail(n, "expect: {} checks nothing: name what to check, or leave it out")
	}
	return e
}
