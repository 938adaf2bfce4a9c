package main

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/matombo/matombo/games"
	"github.com/stretchr/testify/require"
)

// TestDocExamples runs the command examples of the documentation and
// compares their output, so that an example cannot go stale.
//
// Every Markdown file docs/*.md and README.md is read (a new page is
// included by being there). A fenced code block whose lines include one
// starting with "$ matombo" is a command example and must be marked by an
// HTML comment on the line just before its opening fence:
//
//	<!-- example -->                      run it and compare its output
//	<!-- example: not run, REASON -->     leave it (the reason is required)
//
// A block of any kind marked <!-- file: PATH --> (PATH from the repository's
// root) must be the whole content of that file, so a script shown in a doc
// is the one the examples run. A block marked <!-- excerpt: PATH --> shows
// some lines of that file: each of its lines must be one of the file's,
// in the file's order, so an excerpt cannot go stale either.
//
// In a block that is run, each "$ matombo ARGS" line is run in-process from
// the repository's root (ARGS split as a shell would: quotes and # comments;
// "$ NAME=VALUE matombo ARGS" sets an environment variable for the run),
// with standard output and standard error together, and the lines up to the
// next "$" line are its expected output. Its standard input is what the
// output shows typed after prompts ("P1> a3" types "a3"). "$ echo $?" expects
// the exit status of the command before it on the next line. In the
// expected output, a line "..." stands for any number of lines (none too)
// and "..." inside a line for any text; trailing spaces do not count. Other
// "$" commands (mkdir, cp) cannot be run: mark such a block not run.
//
// To change an example: edit the doc, run go test ./cmd/matombo -run
// TestDocExamples, and read the difference it prints.
func TestDocExamples(t *testing.T) {
	root, err := filepath.Abs(filepath.Join("..", ".."))
	require.NoError(t, err)
	files, err := filepath.Glob(filepath.Join(root, "docs", "*.md"))
	require.NoError(t, err)
	files = append(files, filepath.Join(root, "README.md"))
	t.Chdir(root)
	total := 0
	for _, file := range files {
		rel, _ := filepath.Rel(root, file)
		blocks, err := docExamples(root, rel)
		require.NoError(t, err)
		for _, b := range blocks {
			if b.skip != "" {
				continue
			}
			total++
			t.Run(fmt.Sprintf("%s:%d", rel, b.line), func(t *testing.T) {
				for _, problem := range runExample(b) {
					t.Error(problem)
				}
			})
		}
	}
	require.NotZero(t, total, "no examples found")
}

// docExample is a marked fenced block of a doc.
type docExample struct {
	file  string
	line  int      // of the first line inside the fence
	lines []string // inside the fence
	skip  string   // the reason it is not run, "" when it is run
}

var fileMark = regexp.MustCompile(`^<!--\s*file:\s*(\S+)\s*-->$`)

var excerptMark = regexp.MustCompile(`^<!--\s*excerpt:\s*(\S+)\s*-->$`)

var exampleMark = regexp.MustCompile(`^<!--\s*example(?::\s*not run,\s*(\S.*?))?\s*-->$`)

// docExamples finds the command examples of a Markdown file; an unmarked
// one is an error.
func docExamples(root, rel string) ([]docExample, error) {
	src, err := os.ReadFile(filepath.Join(root, rel))
	if err != nil {
		return nil, err
	}
	lines := strings.Split(string(src), "\n")
	var out []docExample
	for i := 0; i < len(lines); i++ {
		fence := strings.TrimSpace(lines[i])
		if !strings.HasPrefix(fence, "```") {
			continue
		}
		j := i + 1
		for j < len(lines) && strings.TrimSpace(lines[j]) != "```" {
			j++
		}
		b := docExample{file: rel, line: i + 2, lines: lines[i+1 : min(j, len(lines))]}
		mark := ""
		if i > 0 {
			mark = strings.TrimSpace(lines[i-1])
		}
		isCommand := false
		for _, l := range b.lines {
			isCommand = isCommand || strings.HasPrefix(l, "$ matombo")
		}
		m := exampleMark.FindStringSubmatch(mark)
		if f := fileMark.FindStringSubmatch(mark); f != nil {
			b.skip = "a file"
			content, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(f[1])))
			if err != nil {
				return nil, fmt.Errorf("%s:%d: %v", rel, i, err)
			}
			if got := strings.Join(b.lines, "\n") + "\n"; got != string(content) {
				return nil, fmt.Errorf("%s:%d: the block is not the content of %s; copy the file into the doc", rel, i+2, f[1])
			}
		}
		if e := excerptMark.FindStringSubmatch(mark); e != nil {
			b.skip = "an excerpt"
			content, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(e[1])))
			if err != nil {
				return nil, fmt.Errorf("%s:%d: %v", rel, i, err)
			}
			if k := notExcerpt(b.lines, strings.Split(string(content), "\n")); k >= 0 {
				return nil, fmt.Errorf("%s:%d: the line is not in %s (after the block's lines before it); copy it from the file", rel, i+2+k, e[1])
			}
		}
		switch {
		case m != nil:
			b.skip = m[1]
			out = append(out, b)
		case isCommand:
			return nil, fmt.Errorf("%s:%d: a command example needs <!-- example --> or <!-- example: not run, REASON --> on the line before its fence", rel, i+1)
		}
		i = j
	}
	return out, nil
}

// notExcerpt returns the index of the first line of block that is not a
// line of file after those of the lines before it, -1 when every one is.
func notExcerpt(block, file []string) int {
	at := 0
	for k, line := range block {
		for at < len(file) && file[at] != line {
			at++
		}
		if at == len(file) {
			return k
		}
		at++
	}
	return -1
}

// runExample runs the commands of a block and returns what differs.
func runExample(b docExample) []string {
	var problems []string
	lastCode := -1
	for i := 0; i < len(b.lines); {
		cmd, ok := strings.CutPrefix(b.lines[i], "$ ")
		if !ok {
			return append(problems, fmt.Sprintf("%s:%d: expected a \"$ \" command line, got %q", b.file, b.line+i, b.lines[i]))
		}
		j := i + 1
		for j < len(b.lines) && !strings.HasPrefix(b.lines[j], "$ ") {
			j++
		}
		want := b.lines[i+1 : j]
		where := fmt.Sprintf("%s:%d: %s", b.file, b.line+i, cmd)
		args, err := shellWords(cmd)
		args, restore := setenvPrefix(args)
		switch {
		case err != nil:
			problems = append(problems, fmt.Sprintf("%s: %v", where, err))
		case len(args) == 2 && args[0] == "echo" && args[1] == "$?":
			if got := strconv.Itoa(lastCode); len(want) != 1 || want[0] != got {
				problems = append(problems, fmt.Sprintf("%s: the exit status is %s, the doc says %q", where, got, strings.Join(want, "\n")))
			}
		case len(args) > 0 && args[0] == "matombo":
			var out bytes.Buffer
			lastCode = run(args[1:], strings.NewReader(typedInput(want)), &out, &out)
			if diff := compareOutput(want, strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")); diff != "" {
				problems = append(problems, fmt.Sprintf("%s: the output differs from the doc: %s\nthe whole output:\n%s", where, diff, out.String()))
			}
		default:
			problems = append(problems, fmt.Sprintf("%s: only matombo and echo $? can be run; mark the block <!-- example: not run, REASON -->", where))
		}
		restore()
		i = j
	}
	return problems
}

// setenvPrefix sets the environment variables a command line starts with
// (COLUMNS=40 matombo ...) and returns the rest of the line and a function
// that sets them back as they were.
func setenvPrefix(args []string) (rest []string, restore func()) {
	var undo []func()
	for len(args) > 0 {
		name, value, ok := strings.Cut(args[0], "=")
		if !ok || name == "" || strings.ContainsAny(name, "-/.") {
			break
		}
		old, had := os.LookupEnv(name)
		os.Setenv(name, value)
		undo = append(undo, func() {
			if had {
				os.Setenv(name, old)
			} else {
				os.Unsetenv(name)
			}
		})
		args = args[1:]
	}
	return args, func() {
		for i := len(undo) - 1; i >= 0; i-- {
			undo[i]()
		}
	}
}

var promptLine = regexp.MustCompile(`^P\d+> ?(.*)$`)

// typedInput is what the transcript shows typed after prompts.
func typedInput(lines []string) string {
	var sb strings.Builder
	for _, l := range lines {
		if m := promptLine.FindStringSubmatch(l); m != nil {
			sb.WriteString(m[1] + "\n")
		}
	}
	return sb.String()
}

// compareOutput matches the actual lines against the expected ones, where
// a line "..." matches any lines and "..." in a line any text; it returns
// "" when they match, else where they part.
func compareOutput(want, got []string) string {
	pats := make([]*regexp.Regexp, len(want))
	for i, w := range want {
		w = strings.TrimRight(w, " ")
		if w != "..." {
			parts := strings.Split(w, "...")
			for k := range parts {
				parts[k] = regexp.QuoteMeta(parts[k])
			}
			pats[i] = regexp.MustCompile("^" + strings.Join(parts, ".*") + "$")
		}
	}
	// best is the furthest expected line any attempt matched, for the message.
	bestW, bestG := 0, 0
	var match func(wi, gi int) bool
	memo := map[[2]int]bool{}
	match = func(wi, gi int) bool {
		key := [2]int{wi, gi}
		if v, ok := memo[key]; ok {
			return v
		}
		if wi > bestW || wi == bestW && gi > bestG {
			bestW, bestG = wi, gi
		}
		var ok bool
		switch {
		case wi == len(want):
			ok = gi == len(got)
		case pats[wi] == nil:
			ok = match(wi+1, gi) || gi < len(got) && match(wi, gi+1)
		default:
			ok = gi < len(got) && pats[wi].MatchString(strings.TrimRight(got[gi], " ")) && match(wi+1, gi+1)
		}
		memo[key] = ok
		return ok
	}
	if match(0, 0) {
		return ""
	}
	w, g := "(the end)", "(the end)"
	if bestW < len(want) {
		w = fmt.Sprintf("%q", want[bestW])
	}
	if bestG < len(got) {
		g = fmt.Sprintf("%q", got[bestG])
	}
	return fmt.Sprintf("expected line %d of the example, %s, the output has %s", bestW+1, w, g)
}

// shellWords splits a command line as a shell would for the examples:
// words separated by spaces, '...' and "..." quoting, and a # comment.
func shellWords(line string) ([]string, error) {
	var words []string
	var cur strings.Builder
	inWord := false
	sc := bufio.NewReader(strings.NewReader(line))
	for {
		r, _, err := sc.ReadRune()
		if err != nil {
			break
		}
		switch {
		case r == '\'' || r == '"':
			inWord = true
			for {
				q, _, err := sc.ReadRune()
				if err != nil {
					return nil, fmt.Errorf("unclosed quote %c", r)
				}
				if q == r {
					break
				}
				cur.WriteRune(q)
			}
		case r == ' ' || r == '\t':
			if inWord {
				words = append(words, cur.String())
				cur.Reset()
				inWord = false
			}
		case r == '#' && !inWord:
			return words, nil
		case r == '|' || r == '>' || r == '<' || r == ';' || r == '&':
			return nil, fmt.Errorf("pipes and redirections cannot be run")
		default:
			inWord = true
			cur.WriteRune(r)
		}
	}
	if inWord {
		words = append(words, cur.String())
	}
	return words, nil
}

func TestNotExcerpt(t *testing.T) {
	file := []string{"a", "b", "c", "d"}
	for _, c := range []struct {
		block []string
		want  int
	}{
		{[]string{"b", "d"}, -1},
		{[]string{"a", "b", "c", "d"}, -1},
		{[]string{"d", "b"}, 1},
		{[]string{"b", "b"}, 1},
		{[]string{"x"}, 0},
	} {
		require.Equal(t, c.want, notExcerpt(c.block, file), "%q", c.block)
	}
}

func TestShellWords(t *testing.T) {
	tests := []struct {
		line string
		want []string
		err  bool
	}{
		{`matombo trace tsoro "a10 stop d11"`, []string{"matombo", "trace", "tsoro", "a10 stop d11"}, false},
		{`matombo list   # a comment`, []string{"matombo", "list"}, false},
		{`echo $?`, []string{"echo", "$?"}, false},
		{`matombo play 'x y'z`, []string{"matombo", "play", "x yz"}, false},
		{`matombo "x`, nil, true},
		{`matombo list | head`, nil, true},
	}
	for _, tt := range tests {
		got, err := shellWords(tt.line)
		if tt.err {
			require.Error(t, err, tt.line)
			continue
		}
		require.NoError(t, err, tt.line)
		require.Equal(t, tt.want, got, tt.line)
	}
}

func TestCompareOutput(t *testing.T) {
	tests := []struct {
		want, got string
		ok        bool
	}{
		{"a\nb", "a\nb", true},
		{"a\n...\nd", "a\nb\nc\nd", true},
		{"a\n...\nb", "a\nb", true},
		{"x...z", "xyyz", true},
		{"a\nb", "a\nc", false},
		{"a", "a\nb", false},
		{"a  ", "a", true},
	}
	for _, tt := range tests {
		diff := compareOutput(strings.Split(tt.want, "\n"), strings.Split(tt.got, "\n"))
		require.Equal(t, tt.ok, diff == "", "%q vs %q: %s", tt.want, tt.got, diff)
	}
}

// TestRulePointsDocumented checks that docs/extending.md lists the rule
// points of every shipped game, in its section "### Title (`NAME`)", one
// table row "| `POINT` | ..." each, in the order the script declares them.
func TestRulePointsDocumented(t *testing.T) {
	src, err := os.ReadFile(filepath.Join("..", "..", "docs", "extending.md"))
	require.NoError(t, err)
	documented := map[string][]string{}
	sections := map[string]bool{}
	section := ""
	row := regexp.MustCompile("^\\| `([A-Za-z0-9_]+)` \\|")
	heading := regexp.MustCompile("^### .*\\(`([a-z0-9_-]+)`\\)")
	for _, line := range strings.Split(string(src), "\n") {
		if m := heading.FindStringSubmatch(line); m != nil {
			section = m[1]
			sections[section] = true
			continue
		}
		if strings.HasPrefix(line, "#") {
			section = ""
		}
		if m := row.FindStringSubmatch(line); m != nil && section != "" {
			documented[section] = append(documented[section], m[1])
		}
	}
	lib := games.Library()
	for _, name := range lib.Games() {
		g, err := lib.Load(name)
		require.NoError(t, err)
		require.True(t, sections[name], "docs/extending.md has no section for %s", name)
		require.Equal(t, g.RulePoints(), documented[name], "the rule points of %s in docs/extending.md", name)
	}
}

// TestDocumentedLimits: the limits docs/cli.md states for the numeric
// flags are the ones the flags enforce (it said 2,147,483,647 for
// --max-positions, whose limit is 4,294,967,294).
func TestDocumentedLimits(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("..", "..", "docs", "cli.md"))
	require.NoError(t, err)
	text := strings.Join(strings.Fields(string(b)), " ")
	commas := func(n int64) string {
		s := strconv.FormatInt(n, 10)
		for i := len(s) - 3; i > 0; i -= 3 {
			s = s[:i] + "," + s[i:]
		}
		return s
	}
	for _, want := range []string{
		"games of a run at most " + commas(maxGames),
		"(`match`, which keeps every game's result, " + commas(maxListGames) + ")",
		"`--parallel` and `--workers` at most " + commas(maxParallel),
		"`--max-plies` at most " + commas(maxPliesFlag),
		"`--seconds` at most " + commas(maxSeconds),
		"`--max-positions` at most " + commas(int64(maxPositionsLimit)),
		"(`serve --perfect-positions` " + commas(maxPositions) + ")",
		"`--table-memory` at most " + sizeText(maxMemoryLimit),
		"`--max-time` at most " + strings.TrimSuffix(maxDuration.String(), "0m0s"),
		"`serve --expire` from " + strings.TrimSuffix(minExpiry.String(), "0s") + " to " + strings.TrimSuffix(maxExpiry.String(), "0m0s"),
		"`serve --lock-wait` from " + minLockWait.String() + " to " + strings.TrimSuffix(maxLockWait.String(), "0s"),
	} {
		require.Contains(t, text, want)
	}
}
