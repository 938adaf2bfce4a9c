package params

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/matombo/matombo/host/diag"
	"gopkg.in/yaml.v3"
)

// File is a parsed variants.yaml: named parameter sets and free data
// for the script.
// File is a variants file as read.
type File struct {
	file       string
	src        []byte
	titleLines map[int]bool // lines (from 1) that hold only a variant's title
	lineStarts []int        // the offset of each line of src, made at the first title
	variants   []Variant
	drops      []Drop     // variants of earlier files this one takes away
	data       *yaml.Node // a mapping node, or nil
}

// Drop is a variant a variants file takes away from the files before it
// (NAME: null): a game that extends another, or a folder of games,
// leaving out a variant that means nothing for it.
type Drop struct {
	Name string
	Pos  diag.Pos // where the file drops it
}

// Drops returns the variants the file takes away, in file order.
func (f *File) Drops() []Drop { return f.drops }

// Variants returns the file's variants, in file order.
func (f *File) Variants() []Variant { return f.variants }

// Fingerprinted returns the file's text as a game's fingerprint covers
// it: all of it but the lines that hold only a variant's title. A title
// is words for players, not a rule: writing or changing one leaves the
// games stored, solved and analysed with the file as they were.
func (f *File) Fingerprinted() []byte {
	if len(f.titleLines) == 0 {
		return f.src
	}
	out := make([]byte, 0, len(f.src))
	for n, rest := 1, f.src; len(rest) > 0; n++ {
		line := rest
		if i := bytes.IndexByte(rest, '\n'); i >= 0 {
			line = rest[:i+1]
		}
		rest = rest[len(line):]
		if !f.titleLines[n] {
			out = append(out, line...)
		}
	}
	return out
}

// Parse reads a variants file: its variants and its data.
func Parse(file string, src []byte) (*File, error) {
	vf := &File{file: file, src: src}
	var doc yaml.Node
	dec := yaml.NewDecoder(bytes.NewReader(src))
	if err := dec.Decode(&doc); err != nil {
		if errors.Is(err, io.EOF) {
			return vf, nil
		}
		return nil, YAMLErrorIn(file, src, err)
	}
	var extra yaml.Node
	switch err := dec.Decode(&extra); {
	case err == nil:
		return nil, &diag.ConfigError{Pos: NodePos(file, &extra), Msg: "a variants file holds one YAML document: this second one would be left unread"}
	case !errors.Is(err, io.EOF):
		return nil, YAMLErrorIn(file, src, err)
	}
	if len(doc.Content) == 0 {
		return vf, nil
	}
	root := doc.Content[0]
	if root.Kind == yaml.ScalarNode && root.ShortTag() == "!!null" {
		return vf, nil // a file holding only "---" or a comment
	}
	if root.Kind != yaml.MappingNode {
		return nil, &diag.ConfigError{Pos: NodePos(file, root), Msg: "a variants file is a mapping with the keys variants and data"}
	}
	for i := 0; i+1 < len(root.Content); i += 2 {
		k, v := root.Content[i], root.Content[i+1]
		switch k.Value {
		case "variants":
			if err := vf.parseVariantList(v); err != nil {
				return nil, err
			}
		case "data":
			if v.Kind != yaml.MappingNode {
				return nil, &diag.ConfigError{Pos: NodePos(file, v), Msg: "data must be a mapping"}
			}
			vf.data = v
		default:
			return nil, &diag.ConfigError{Pos: NodePos(file, k), Msg: fmt.Sprintf("unknown key %q", k.Value), Allowed: []string{"variants", "data"}}
		}
	}
	// After the checks above, which name a variant or a parameter given
	// twice in their own words: every other key given twice.
	if err := DuplicateKey(file, &doc); err != nil {
		return nil, err
	}
	return vf, nil
}

// maxProblems bounds the bad variants one file or game reports.
const maxProblems = 20

// parseVariantList reads the variants mapping: every bad variant is
// reported (diag.Diagnostics, the first maxProblems), each with its first
// problem.
func (vf *File) parseVariantList(n *yaml.Node) error {
	if n.Kind != yaml.MappingNode {
		return &diag.ConfigError{Pos: NodePos(vf.file, n), Msg: "variants must be a mapping from variant names to their settings"}
	}
	var problems diag.Diagnostics
	seen := map[string]bool{}
	for i := 0; i+1 < len(n.Content) && len(problems) < maxProblems; i += 2 {
		if err := vf.parseVariant(n.Content[i], n.Content[i+1], seen); err != nil {
			problems = append(problems, err)
		}
	}
	return problems.Err()
}

// parseVariant reads the variant named by k with the settings v, or its
// drop (v null), and returns its first problem.
func (vf *File) parseVariant(k, v *yaml.Node, seen map[string]bool) error {
	if k.Kind != yaml.ScalarNode || k.Value == "" {
		return &diag.ConfigError{Pos: NodePos(vf.file, k), Msg: "a variant name must be a non-empty string"}
	}
	if msg := diag.TextProblem("a variant name", k.Value, false); msg != "" {
		return &diag.ConfigError{Pos: NodePos(vf.file, k), Msg: msg}
	}
	if seen[k.Value] {
		return &diag.ConfigError{Pos: NodePos(vf.file, k), Msg: fmt.Sprintf("variant %s is declared twice", k.Value)}
	}
	seen[k.Value] = true
	if v.Kind == yaml.ScalarNode && v.ShortTag() == "!!null" {
		vf.drops = append(vf.drops, Drop{Name: k.Value, Pos: NodePos(vf.file, k)})
		return nil
	}
	variant := Variant{Name: k.Value, Pos: NodePos(vf.file, k), paramPos: map[string]diag.Pos{}}
	if v.Kind != yaml.MappingNode {
		return &diag.ConfigError{Pos: NodePos(vf.file, v), Msg: fmt.Sprintf("variant %s must be a mapping with title, description and params (or null, to drop a variant of the files before it)", k.Value)}
	}
	for j := 0; j+1 < len(v.Content); j += 2 {
		fk, fv := v.Content[j], v.Content[j+1]
		switch fk.Value {
		case "description":
			if fv.Kind != yaml.ScalarNode {
				return &diag.ConfigError{Pos: NodePos(vf.file, fv), Msg: "description must be text"}
			}
			if msg := diag.TextProblem("the description of variant "+k.Value, fv.Value, true); msg != "" {
				return &diag.ConfigError{Pos: NodePos(vf.file, fv), Msg: msg}
			}
			variant.Description = fv.Value
		case "title":
			title, err := vf.parseTitle(k.Value, fv)
			if err != nil {
				return err
			}
			variant.Title = title
			// A title alone in its variant stays: without it the
			// variant would read as a drop (NAME: with nothing).
			if v.Style&yaml.FlowStyle == 0 && len(v.Content) > 2 && vf.titleAlone(fk, fv) {
				if vf.titleLines == nil {
					vf.titleLines = map[int]bool{}
				}
				vf.titleLines[fk.Line] = true
			}
		case "params":
			if fv.Kind != yaml.MappingNode {
				return &diag.ConfigError{Pos: NodePos(vf.file, fv), Msg: fmt.Sprintf("params of variant %s must be a mapping from parameter names to values", k.Value)}
			}
			for p := 0; p+1 < len(fv.Content); p += 2 {
				pk, pv := fv.Content[p], fv.Content[p+1]
				if _, dup := variant.paramPos[pk.Value]; dup {
					return &diag.ConfigError{Pos: NodePos(vf.file, pk), Param: pk.Value, Msg: fmt.Sprintf("variant %s sets parameter %s twice", k.Value, pk.Value)}
				}
				if msg := diag.TextProblem("a parameter name", pk.Value, false); msg != "" {
					return &diag.ConfigError{Pos: NodePos(vf.file, pk), Msg: msg}
				}
				if msg := diag.TextProblem("the value of parameter "+pk.Value, pv.Value, false); pv.Kind == yaml.ScalarNode && msg != "" {
					return &diag.ConfigError{Pos: NodePos(vf.file, pv), Msg: msg}
				}
				val, err := ScalarValue(pv)
				if err != nil {
					return &diag.ConfigError{Pos: NodePos(vf.file, pv), Param: pk.Value, Msg: fmt.Sprintf("variant %s: parameter %s: %v", k.Value, pk.Value, err), Err: err}
				}
				variant.Params = append(variant.Params, Value{Name: pk.Value, Value: val})
				variant.paramPos[pk.Value] = NodePos(vf.file, pv)
			}
		default:
			return &diag.ConfigError{Pos: NodePos(vf.file, fk), Msg: fmt.Sprintf("unknown key %q in variant %s", fk.Value, k.Value), Allowed: []string{"title", "description", "params"}}
		}
	}
	vf.variants = append(vf.variants, variant)
	return nil
}

// MaxTitle is the most characters a variant's title may have: a few
// words, which fit a line of a form or a list.
const MaxTitle = 60

// parseTitle reads the title of variant name from the value n: one line
// of text, not empty, of at most MaxTitle characters.
func (vf *File) parseTitle(name string, n *yaml.Node) (string, error) {
	what := "the title of variant " + name
	fail := func(msg string) (string, error) {
		return "", &diag.ConfigError{Pos: NodePos(vf.file, n), Msg: msg}
	}
	if n.Kind != yaml.ScalarNode {
		return fail(fmt.Sprintf("%s must be text, not %s", what, kindName(n.Kind)))
	}
	if n.ShortTag() != "!!str" {
		// title: 2048, title: yes: YAML reads them as a number or a
		// boolean, which the author did not mean as words.
		return fail(fmt.Sprintf("%s must be text: write it in quotes (%q)", what, n.Value))
	}
	if msg := diag.TextProblem(what, n.Value, false); msg != "" {
		return fail(msg)
	}
	t := strings.TrimSpace(n.Value)
	if t == "" {
		return fail(what + " is empty: leave the key out for a title made from the name")
	}
	if c := utf8.RuneCountInString(n.Value); c > MaxTitle {
		return fail(fmt.Sprintf("%s has %d characters, more than %d: a title is a few words; the description says more", what, c, MaxTitle))
	}
	return t, nil
}

// titleAlone reports whether the line of the title key k holds the
// title v and nothing else: read alone, it is the mapping of title to v.
func (vf *File) titleAlone(k, v *yaml.Node) bool {
	if k.Line != v.Line || k.Line < 1 {
		return false
	}
	line, ok := vf.line(k.Line)
	if !ok {
		return false
	}
	var alone map[string]any
	if err := yaml.Unmarshal(bytes.TrimSpace(line), &alone); err != nil {
		return false
	}
	t, ok := alone[k.Value].(string)
	return len(alone) == 1 && ok && t == v.Value
}

// line returns line n (from 1) of the file's text, indexing the lines
// once: a file may give thousands of titles.
func (vf *File) line(n int) ([]byte, bool) {
	if vf.lineStarts == nil {
		vf.lineStarts = []int{0}
		for i, b := range vf.src {
			if b == '\n' {
				vf.lineStarts = append(vf.lineStarts, i+1)
			}
		}
	}
	if n < 1 || n > len(vf.lineStarts) {
		return nil, false
	}
	end := len(vf.src)
	if n < len(vf.lineStarts) {
		end = vf.lineStarts[n]
	}
	return vf.src[vf.lineStarts[n-1]:end], true
}

// ScalarValue converts a YAML scalar to int, bool or string by its tag.
func ScalarValue(n *yaml.Node) (any, error) {
	if n.Kind != yaml.ScalarNode {
		return nil, fmt.Errorf("want a single value, got %s", kindName(n.Kind))
	}
	switch n.ShortTag() {
	case "!!int":
		v, err := strconv.ParseInt(n.Value, 0, 32)
		if err != nil {
			return nil, fmt.Errorf("integer %s is out of range: the limit is %d to %d", diag.ClipText(n.Value, 100), math.MinInt32, math.MaxInt32)
		}
		return int(v), nil
	case "!!bool":
		var b bool
		if err := n.Decode(&b); err != nil {
			return nil, err
		}
		return b, nil
	case "!!str":
		return n.Value, nil
	case "!!float":
		if wholeNumber(n.Value) {
			// yaml.v3 reads a whole number past 64 bits as a float.
			return nil, fmt.Errorf("integer %s is out of range: the limit is %d to %d", diag.ClipText(n.Value, 100), math.MinInt32, math.MaxInt32)
		}
		return nil, fmt.Errorf("want an integer, boolean or string, got the number %s", diag.ClipText(n.Value, 100))
	case "!!null":
		return nil, fmt.Errorf("missing value")
	}
	return nil, fmt.Errorf("unsupported value %q", n.Value)
}

// wholeNumber reports whether s is written as a whole number: a sign
// and digits.
func wholeNumber(s string) bool {
	s = strings.TrimLeft(s, "+-")
	return s != "" && strings.Trim(s, "0123456789") == ""
}

func kindName(k yaml.Kind) string {
	switch k {
	case yaml.MappingNode:
		return "a mapping"
	case yaml.SequenceNode:
		return "a list"
	case yaml.AliasNode:
		return "an alias (*name): write the value itself"
	default:
		return "a value"
	}
}

// NodePos is where a YAML node is: for a plain scalar on one line, the
// range of its text.
func NodePos(file string, n *yaml.Node) diag.Pos {
	p := diag.Pos{File: file, Line: n.Line, Col: n.Column}
	if n.Kind == yaml.ScalarNode && n.Style == 0 && n.Line > 0 && n.Column > 0 && n.Value != "" && !strings.ContainsAny(n.Value, "\n\r") {
		p.EndLine, p.EndCol = n.Line, n.Column+len(n.Value)-1
	}
	return p
}

// YAMLErrorIn is YAMLError for the text src that was parsed: a syntax
// error is placed on the line of src it is about (yaml.v3 gives the line
// where the broken construct began, often one early), and an error
// yaml.v3 gives without a line (invalid UTF-8, a control character, an
// alias of no anchor, any error on the first line) is placed in src, and
// says what it is.
func YAMLErrorIn(file string, src []byte, err error) error {
	ye := YAMLError(file, err)
	var ce *diag.ConfigError
	if errors.As(ye, &ce) && ce.Pos.Line > 0 {
		// yaml.v3's line is where the broken construct began, often
		// one early: the line of the error is found in src.
		if line, col, what, ok := diag.PlaceYAMLSyntax(src, err.Error()); ok {
			ce.Pos.Line, ce.Pos.Col, ce.Msg = line, col, what
		}
	}
	if errors.As(ye, &ce) && ce.Pos.Line == 0 {
		if line, col, what, ok := diag.BadYAMLText(src); ok {
			return &diag.ConfigError{Pos: diag.Pos{File: file, Line: line, Col: col}, Msg: "YAML: " + what, Err: err}
		}
		if line, col, what, ok := diag.PlaceYAMLError(src, err.Error()); ok {
			return &diag.ConfigError{Pos: diag.Pos{File: file, Line: line, Col: col}, Msg: what, Err: err}
		}
	}
	return ye
}

// DuplicateKey reports the first key that a mapping of the YAML document
// n holds twice, at the second one with the line of the first: yaml.v3
// keeps both in its nodes, and whichever a reader took, the other would
// be silently lost. Aliases are not followed (each mapping is checked
// where it is written).
func DuplicateKey(file string, n *yaml.Node) error {
	stack := []*yaml.Node{n}
	for len(stack) > 0 {
		n := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if n.Kind == yaml.MappingNode {
			first := make(map[[2]string]*yaml.Node, len(n.Content)/2)
			for i := 0; i+1 < len(n.Content); i += 2 {
				k := n.Content[i]
				if k.Kind != yaml.ScalarNode {
					continue
				}
				id := [2]string{k.ShortTag(), k.Value}
				if f, dup := first[id]; dup {
					return &diag.ConfigError{Pos: NodePos(file, k), Msg: fmt.Sprintf("key %s appears twice in one mapping (first on line %d): one of them would be silently lost", diag.ClipText(strconv.Quote(k.Value), 100), f.Line)}
				}
				first[id] = k
			}
		}
		stack = append(stack, n.Content...)
	}
	return nil
}

// YAMLError turns a yaml.v3 error ("yaml: line 3: ...") into a diag.ConfigError.
func YAMLError(file string, err error) error {
	msg := err.Error()
	pos := diag.Pos{File: file}
	var rest string
	if n, _ := fmt.Sscanf(msg, "yaml: line %d:", &pos.Line); n == 1 {
		if i := bytes.IndexByte([]byte(msg), ':'); i >= 0 {
			rest = msg[i+1:]
			if j := bytes.IndexByte([]byte(rest), ':'); j >= 0 {
				rest = rest[j+1:]
			}
		}
		msg = "YAML syntax:" + rest
	} else {
		msg = "YAML: " + msg
	}
	return &diag.ConfigError{Pos: pos, Msg: msg, Err: err}
}

// Merge layers variants files: a later file's variant replaces an
// earlier one of the same name, a later file's drop (NAME: null) takes it
// away, and data mappings merge key by key. Dropping a variant no earlier
// file declares is an error at the drop's line: a misspelt name would
// otherwise drop nothing silently.
func Merge(files []*File) ([]Variant, *yaml.Node, error) {
	var out []Variant
	var gone []bool // out[i] was dropped
	index := map[string]int{}
	var data *yaml.Node
	for _, f := range files {
		for _, d := range f.drops {
			i, ok := index[d.Name]
			if !ok {
				var names []string
				for j, v := range out {
					if !gone[j] {
						names = append(names, v.Name)
					}
				}
				return nil, nil, &diag.ConfigError{Pos: d.Pos, Msg: fmt.Sprintf("%s: null drops a variant of the files before this one, and none declares %s", d.Name, d.Name), Allowed: names}
			}
			gone[i] = true
			delete(index, d.Name)
		}
		for _, v := range f.variants {
			if i, ok := index[v.Name]; ok {
				out[i] = v
				continue
			}
			index[v.Name] = len(out)
			out = append(out, v)
			gone = append(gone, false)
		}
		if f.data != nil {
			data = mergeNodes(data, f.data)
		}
	}
	kept := out[:0]
	for i, v := range out {
		if !gone[i] {
			kept = append(kept, v)
		}
	}
	return kept, data, nil
}

// mergeNodes merges mapping b over mapping a without changing either.
func mergeNodes(a, b *yaml.Node) *yaml.Node {
	if a == nil || a.Kind != yaml.MappingNode || b.Kind != yaml.MappingNode {
		return b
	}
	out := &yaml.Node{Kind: yaml.MappingNode, Tag: a.Tag, Line: a.Line, Column: a.Column}
	out.Content = append(out.Content, a.Content...)
	// An index of the keys, not a search of the list: a file of many keys
	// must not make loading quadratic.
	at := make(map[string]int, len(out.Content)/2)
	for j := 0; j+1 < len(out.Content); j += 2 {
		if _, dup := at[out.Content[j].Value]; !dup {
			at[out.Content[j].Value] = j
		}
	}
	for i := 0; i+1 < len(b.Content); i += 2 {
		k, v := b.Content[i], b.Content[i+1]
		if j, ok := at[k.Value]; ok {
			out.Content[j+1] = mergeNodes(out.Content[j+1], v)
			continue
		}
		at[k.Value] = len(out.Content)
		out.Content = append(out.Content, k, v)
	}
	return out
}

// DataFiles maps every node of the merged data to the file it came from.
func DataFiles(files []*File, merged *yaml.Node) map[*yaml.Node]string {
	m := map[*yaml.Node]string{}
	var walk func(n *yaml.Node, file string)
	walk = func(n *yaml.Node, file string) {
		if n == nil {
			return
		}
		if _, ok := m[n]; !ok {
			m[n] = file
		}
		for _, c := range n.Content {
			walk(c, file)
		}
	}
	for _, f := range files {
		walk(f.data, f.file)
	}
	if len(files) > 0 {
		walk(merged, files[len(files)-1].file)
	}
	return m
}
