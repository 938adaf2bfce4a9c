package params

import (
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/matombo/matombo/host/diag"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gopkg.in/yaml.v3"
)

// The guards below are hang guards (hundreds of times the linear cost),
// not measurements: they hold on a loaded machine and under the race
// detector.

// 200000 data keys of one variants file overriding 200000 of another.
func TestHostileLoadMergeManyKeys(t *testing.T) {
	const keys = 200000
	mapping := func(prefix string) *yaml.Node {
		n := &yaml.Node{Kind: yaml.MappingNode}
		for i := 0; i < keys; i++ {
			n.Content = append(n.Content,
				&yaml.Node{Kind: yaml.ScalarNode, Value: "k" + strconv.Itoa(i)},
				&yaml.Node{Kind: yaml.ScalarNode, Value: prefix + strconv.Itoa(i)})
		}
		return n
	}
	a, b := mapping("old"), mapping("new")
	start := time.Now()
	out := mergeNodes(a, b)
	elapsed := time.Since(start)
	t.Logf("merging %d keys over %d: %v", keys, keys, elapsed)
	require.Len(t, out.Content, 2*keys, "every key of the second replaces the first's")
	assert.Equal(t, "new"+strconv.Itoa(keys-1), out.Content[2*keys-1].Value)
	assert.Less(t, elapsed, time.Minute, "merging data is near-linear in its keys")

	// Through the library: a user's variants file overriding a game's.
	src := func(prefix string) string {
		var s strings.Builder
		s.WriteString("data:\n")
		for i := 0; i < keys; i++ {
			fmt.Fprintf(&s, "  k%d: %s%d\n", i, prefix, i)
		}
		return s.String()
	}
	old, err := Parse("a/variants.yaml", []byte(src("old")))
	require.NoError(t, err)
	nw, err := Parse("b/variants.yaml", []byte(src("new")))
	require.NoError(t, err)
	start = time.Now()
	_, data, err := Merge([]*File{old, nw})
	require.NoError(t, err)
	elapsed = time.Since(start)
	require.Len(t, data.Content, 2*keys)
	assert.Less(t, elapsed, time.Minute)
}

// A later file drops an earlier file's variant with NAME: null; dropping
// a variant no earlier file declares is an error at the drop's line.
func TestMergeDrops(t *testing.T) {
	base := "variants:\n  standard: {params: {k: 1}}\n  five: {params: {k: 5}}\n  six: {params: {k: 6}}\n"
	cases := []struct {
		name  string
		files []string
		want  []string // the merged variants' names, in order
		err   string
	}{
		{"nothing dropped", []string{base}, []string{"standard", "five", "six"}, ""},
		{"null drops", []string{base, "variants:\n  five: null\n"}, []string{"standard", "six"}, ""},
		{"tilde and an empty value drop too", []string{base, "variants:\n  five: ~\n  six:\n"}, []string{"standard"}, ""},
		{"dropped and declared again later", []string{base, "variants:\n  five: null\n", "variants:\n  five: {params: {k: 55}}\n"}, []string{"standard", "six", "five"}, ""},
		{"a drop beside a new variant", []string{base, "variants:\n  seven: {params: {k: 7}}\n  standard: null\n"}, []string{"five", "six", "seven"}, ""},
		{"a misspelt name", []string{base, "variants:\n  fiev: null\n"}, nil, "b1/variants.yaml:2:3: fiev: null drops a variant of the files before this one, and none declares fiev (allowed: standard, five, six)"},
		{"dropped twice", []string{base, "variants:\n  five: null\n", "variants:\n  five: null\n"}, nil, "b2/variants.yaml:2:3: five: null drops a variant"},
		{"a drop in the first file", []string{"variants:\n  five: null\n"}, nil, "b0/variants.yaml:2:3: five: null drops a variant of the files before this one, and none declares five"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var files []*File
			for i, src := range c.files {
				f, err := Parse(fmt.Sprintf("b%d/variants.yaml", i), []byte(src))
				require.NoError(t, err)
				files = append(files, f)
			}
			vs, _, err := Merge(files)
			if c.err != "" {
				require.Error(t, err)
				assert.Contains(t, err.Error(), c.err)
				return
			}
			require.NoError(t, err)
			var names []string
			for _, v := range vs {
				names = append(names, v.Name)
			}
			assert.Equal(t, c.want, names)
		})
	}
	f, err := Parse("v.yaml", []byte("variants:\n  five: null\n"))
	require.NoError(t, err)
	assert.Empty(t, f.Variants(), "a drop is no variant of the file")
	assert.Equal(t, []Drop{{Name: "five", Pos: f.Drops()[0].Pos}}, f.Drops())
	assert.Equal(t, 2, f.Drops()[0].Pos.Line)
}

// TestParseRefusesLostText checks the classes of variants files whose text
// yaml.v3 reads without a word while part of it would be lost, and of
// text it refuses without a line: each is an error at its file, line and
// column.
func TestParseRefusesLostText(t *testing.T) {
	for _, c := range []struct{ name, src, want string }{
		{"a top-level key twice", "variants:\n  big: {params: {holes: 6}}\nvariants:\n  small: {params: {holes: 4}}\n",
			`v.yaml:3:1: key "variants" appears twice in one mapping (first on line 1): one of them would be silently lost`},
		{"a data key twice", "data:\n  boards:\n    a: 1\n    a: 2\n",
			`v.yaml:4:5: key "a" appears twice in one mapping (first on line 3)`},
		{"a key twice in a variant", "variants:\n  big:\n    description: x\n    description: y\n",
			`v.yaml:4:5: key "description" appears twice in one mapping (first on line 3)`},
		{"a second document", "variants:\n  big: {params: {holes: 6}}\n---\nvariants:\n  small: {params: {holes: 4}}\n",
			"v.yaml:3:1: a variants file holds one YAML document: this second one would be left unread"},
		{"a broken second document", "variants:\n  big: {params: {holes: 6}}\n---\nvariants: [\n",
			"v.yaml:4: YAML syntax"},
		// yaml.v3 gives the lines the constructs began on, counted from 0.
		{"a key indented wrongly", "variants:\n  big:\n    params: {holes: 6}\n  small:\n    params: {holes: 4}\n   description: x\n",
			"v.yaml:6: YAML syntax: did not find expected key"},
		{"a flow mapping left open", "variants:\n  big:\n    params: {holes: 6\n  small: {}\n",
			"v.yaml:3: YAML syntax: did not find expected ',' or '}'"},
		{"a NUL byte", "variants:\n  big: {params: {holes: 6}}\n  x\x00: 1\n",
			"v.yaml:3:4: YAML: the character U+0000, which a YAML file may not hold"},
		{"an escape character", "variants:\n  big:\n    description: \x1b]0;title\x07\n",
			"v.yaml:3:18: YAML: the character U+001B"},
		{"invalid UTF-8", "variants:\n  big:\n    description: caf\xe9\n",
			"v.yaml:3:21: YAML: the byte 0xE9, which is not UTF-8"},
		// yaml.v3 gives these without a line.
		{"an error on the first line", "variants: a: b\n",
			"v.yaml:1: YAML syntax: mapping values are not allowed in this context"},
		{"an alias of no anchor", "variants:\n  big: *nope\n",
			"v.yaml:2:8: YAML: the alias *nope names no anchor (&nope) before it"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := Parse("v.yaml", []byte(c.src))
			require.Error(t, err)
			assert.Contains(t, err.Error(), c.want)
		})
	}
	// The same key in different mappings, and a key and its alias, are not
	// duplicates; nor is a UTF-16 file with its byte-order mark.
	for _, src := range []string{
		"variants:\n  a: {params: {holes: 6}}\n  b: {params: {holes: 6}}\ndata:\n  x: &v {k: 1}\n  y: *v\n",
		"\xff\xfev\x00a\x00r\x00i\x00a\x00n\x00t\x00s\x00:\x00 \x00{\x00}\x00\n\x00",
	} {
		_, err := Parse("v.yaml", []byte(src))
		assert.NoError(t, err, "%q", src)
	}
}

// TestParseTitle: a variant's title is one line of text of at most
// MaxTitle characters; anything else is an error at its file, line and
// column. A variant without a title is labelled by its name.
func TestParseTitle(t *testing.T) {
	long := strings.Repeat("x", MaxTitle+1)
	for _, c := range []struct {
		name, src string
		want      string // the title read, when err is ""
		label     string // Label()
		err       string
	}{
		{"a title", "variants:\n  4x6:\n    title: 4 by 6\n", "4 by 6", "4 by 6", ""},
		{"quoted", "variants:\n  4x6: {title: \"4 by 6\", params: {holes: 6}}\n", "4 by 6", "4 by 6", ""},
		{"spaces around", "variants:\n  big:\n    title: '  Big board '\n", "Big board", "Big board", ""},
		{"just long enough", "variants:\n  big:\n    title: " + long[1:] + "\n", long[1:], long[1:], ""},
		{"sixty letters of several bytes", "variants:\n  big:\n    title: " + strings.Repeat("é", MaxTitle) + "\n", strings.Repeat("é", MaxTitle), strings.Repeat("é", MaxTitle), ""},
		{"none", "variants:\n  bonus-1:\n    params: {bonus: 1}\n", "", "Bonus 1", ""},
		{"too long", "variants:\n  big:\n    title: " + long + "\n", "", "",
			"v.yaml:3:12: the title of variant big has 61 characters, more than 60"},
		{"a number", "variants:\n  big:\n    title: 2048\n", "", "",
			`v.yaml:3:12: the title of variant big must be text: write it in quotes ("2048")`},
		{"a boolean", "variants:\n  big:\n    title: true\n", "", "",
			`v.yaml:3:12: the title of variant big must be text: write it in quotes ("true")`},
		{"a list", "variants:\n  big:\n    title: [a, b]\n", "", "",
			"v.yaml:3:12: the title of variant big must be text, not a list"},
		{"a mapping", "variants:\n  big:\n    title: {a: b}\n", "", "",
			"v.yaml:3:12: the title of variant big must be text, not a mapping"},
		{"empty", "variants:\n  big:\n    title: \"\"\n", "", "",
			"v.yaml:3:12: the title of variant big is empty"},
		{"null", "variants:\n  big:\n    title:\n", "", "",
			"v.yaml:3:11: the title of variant big must be text: write it in quotes"},
		{"two lines", "variants:\n  big:\n    title: |\n      Big\n      board\n", "", "",
			"v.yaml:3:12: the title of variant big contains the control character U+000A"},
		{"misspelt key", "variants:\n  big:\n    titel: Big\n", "", "",
			`v.yaml:3:5: unknown key "titel" in variant big (allowed: title, description, params)`},
	} {
		t.Run(c.name, func(t *testing.T) {
			f, err := Parse("v.yaml", []byte(c.src))
			if c.err != "" {
				require.Error(t, err)
				assert.Contains(t, err.Error(), c.err)
				return
			}
			require.NoError(t, err)
			require.Len(t, f.Variants(), 1)
			assert.Equal(t, c.want, f.Variants()[0].Title)
			assert.Equal(t, c.label, f.Variants()[0].Label())
		})
	}
}

// TestNameTitle: a variant's name made into a title, for a variant
// without one.
func TestNameTitle(t *testing.T) {
	for _, c := range []struct{ name, want string }{
		{"bonus-1", "Bonus 1"},
		{"no_trading", "No trading"},
		{"4x6", "4x6"},
		{"standard", "Standard"},
		{"nine-mens-morris", "Nine mens morris"},
		{"a--b", "A b"},
		{"-", "-"},
		{"éte", "Éte"},
	} {
		assert.Equal(t, c.want, NameTitle(c.name), c.name)
	}
}

// A file of many titled variants reads in time linear in its length:
// each title's line was found by splitting the whole text again, and a
// 1 MB file of 20,000 titles took 21 s. Measured by how the time grows:
// four times the variants take about four times as long (sixteen, were
// it quadratic), the fastest of three parses of each.
func TestManyTitlesParseInLinearTime(t *testing.T) {
	file := func(n int) []byte {
		var b strings.Builder
		b.WriteString("variants:\n")
		for i := range n {
			fmt.Fprintf(&b, "  v%d:\n    title: T%d\n    params: {seeds: 3}\n", i, i)
		}
		return []byte(b.String())
	}
	parse := func(n int) time.Duration {
		src := file(n)
		best := time.Duration(1<<63 - 1)
		for range 3 {
			start := time.Now()
			f, err := Parse("v.yaml", src)
			best = min(best, time.Since(start))
			require.NoError(t, err)
			require.Len(t, f.Variants(), n)
		}
		return best
	}
	small, large := parse(2500), parse(10000)
	assert.Less(t, large, 10*small, "2,500 variants took %v, 10,000 %v", small, large)
}

// TestEveryBadVariantIsReported: an author with several bad variants sees
// each in one run, at its own line, whether the file's shape is wrong
// (Parse) or a value is wrong for the game's parameters (Resolve); the
// good variants are not reported, and the reports stop at maxProblems.
func TestEveryBadVariantIsReported(t *testing.T) {
	src := "variants:\n" +
		"  big: {params: {holes: 6}}\n" +
		"  odd: [holes]\n" + // line 3: not a mapping
		"  small: {params: {holes: 4}}\n" +
		"  quiet: {colour: red}\n" // line 5: an unknown key
	_, err := Parse("v.yaml", []byte(src))
	require.Error(t, err)
	var d diag.Diagnostics
	require.ErrorAs(t, err, &d)
	require.Len(t, d, 2, "%v", err)
	assert.Contains(t, d[0].Error(), "v.yaml:3:")
	assert.Contains(t, d[0].Error(), "variant odd must be a mapping")
	assert.Contains(t, d[1].Error(), "v.yaml:5:")
	assert.Contains(t, d[1].Error(), `unknown key "colour" in variant quiet`)

	src = "variants:\n" +
		"  big: {params: {holes: 6}}\n" +
		"  huge: {params: {holes: 99}}\n" + // line 3
		"  small: {params: {holes: 4}}\n" +
		"  wide: {params: {rows: 3}}\n" // line 5
	f, err := Parse("v.yaml", []byte(src))
	require.NoError(t, err)
	specs := []Spec{{Name: "holes", Kind: Int, Default: 6, Values: []any{4, 6}}}
	_, err = Resolve(specs, f.Variants(), nil, nil)
	require.Error(t, err)
	require.ErrorAs(t, err, &d)
	require.Len(t, d, 2, "%v", err)
	assert.Contains(t, d[0].Error(), "v.yaml:3:")
	assert.Contains(t, d[0].Error(), "variant huge: parameter holes")
	assert.Contains(t, d[1].Error(), "v.yaml:5:")
	assert.Contains(t, d[1].Error(), "variant wide sets unknown parameter rows")
	var ce *diag.ConfigError
	assert.ErrorAs(t, err, &ce, "each problem is a ConfigError")

	var many strings.Builder
	many.WriteString("variants:\n")
	for i := range 3 * maxProblems {
		fmt.Fprintf(&many, "  v%d: [x]\n", i)
	}
	_, err = Parse("v.yaml", []byte(many.String()))
	require.ErrorAs(t, err, &d)
	assert.Len(t, d, maxProblems)
}
