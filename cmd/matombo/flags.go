package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/matombo/matombo/games"
	"github.com/matombo/matombo/host"
	"github.com/matombo/matombo/host/diag"
	"github.com/matombo/matombo/host/player"
)

// cli is the command line of one subcommand: its flags, its help text and
// how it reports problems.
type cli struct {
	e        *env
	name     string // the subcommand, e.g. "trace"
	synopsis string // the arguments, e.g. "GAME [TOKEN ...]"
	about    string // what the command does, for --help
	fs       *flag.FlagSet
}

// newCLI returns the command line of a subcommand; the caller defines its
// flags on c.fs.
func newCLI(e *env, name, synopsis, about string) *cli {
	fs := flag.NewFlagSet("matombo "+name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	c := &cli{e: e, name: name, synopsis: synopsis, about: about, fs: fs}
	if e.onCLI != nil {
		e.onCLI(c)
	}
	return c
}

// parse parses the arguments, flags anywhere among the positional ones
// (everything after "--" is positional). When it returns ok false the
// command must return status: --help was asked for, or the command line is
// wrong (already reported).
func (c *cli) parse(args []string) (pos []string, status int, ok bool) {
	pos, err := parseInterspersed(c.fs, args)
	if errors.Is(err, flag.ErrHelp) {
		c.writeHelp(c.e.stdout)
		return nil, exitOK, false
	}
	if err != nil {
		return nil, c.usageError("%s", flagMessage(err, args)), false
	}
	return pos, exitOK, true
}

// given reports whether the named flag was on the command line.
func (c *cli) given(name string) bool {
	set := false
	c.fs.Visit(func(f *flag.Flag) { set = set || f.Name == name })
	return set
}

// parseInterspersed parses flags that may come before, between or after
// positional arguments; the standard flag package stops at the first
// positional argument, so this parses again after each one.
func parseInterspersed(fs *flag.FlagSet, args []string) ([]string, error) {
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		rest := fs.Args()
		if used := len(args) - len(rest); used > 0 && args[used-1] == "--" {
			return append(pos, rest...), nil
		}
		if len(rest) == 0 {
			return pos, nil
		}
		pos = append(pos, rest[0])
		args = rest[1:]
	}
}

// flagMessage rewords the flag package's errors: a bad value as
// "--name value: problem", an unknown flag as it was typed in args.
func flagMessage(err error, args []string) string {
	msg := err.Error()
	if rest, ok := strings.CutPrefix(msg, "invalid value "); ok {
		// invalid value "V" for flag -NAME: PROBLEM
		if v, after, err := unquotePrefix(rest); err == nil {
			if name, problem, ok := strings.Cut(strings.TrimPrefix(after, " for flag -"), ": "); ok && strings.HasPrefix(after, " for flag -") {
				dash := "--"
				if len(name) == 1 {
					dash = "-"
				}
				if v == "" {
					v = `""`
				}
				return fmt.Sprintf("%s%s %s: %s", dash, name, v, problem)
			}
		}
	}
	f, ok := strings.CutPrefix(msg, "flag provided but not defined: ")
	if !ok {
		return msg
	}
	name := strings.TrimLeft(f, "-")
	for _, a := range args {
		typed, _, _ := strings.Cut(a, "=")
		if strings.HasPrefix(typed, "-") && strings.TrimLeft(typed, "-") == name {
			return "unknown flag " + typed
		}
	}
	return "unknown flag " + f
}

// unquotePrefix reads the Go-quoted string at the start of s and returns
// it unquoted with what follows it.
func unquotePrefix(s string) (string, string, error) {
	q, err := strconv.QuotedPrefix(s)
	if err != nil {
		return "", "", err
	}
	v, err := strconv.Unquote(q)
	return v, s[len(q):], err
}

// usageError reports a wrong command line and returns exitUsage.
func (c *cli) usageError(format string, args ...any) int {
	fmt.Fprintf(c.e.stderr, "matombo %s: %s (run 'matombo %s --help' for usage)\n", c.name, oneLine(fmt.Sprintf(format, args...)), c.name)
	return exitUsage
}

// fail reports an error on one line (several problems one a line each)
// and returns its exit status: exitUsage
// when the error is in what the user typed (an unknown game, variant or
// parameter), exitFail otherwise.
func (c *cli) fail(err error) int {
	var all diag.Diagnostics
	if errors.As(err, &all) && len(all) > 1 && strings.HasSuffix(err.Error(), all.Error()) {
		// Several problems (every bad variant of a file, say), one a
		// line, after what the error says before them.
		head := strings.TrimSpace(strings.TrimSuffix(err.Error(), all.Error()))
		if head == "" {
			head = fmt.Sprintf("%d problems:", len(all))
		}
		fmt.Fprintf(c.e.stderr, "matombo %s: %s\n", c.name, oneLine(head))
		for _, e := range all {
			fmt.Fprintf(c.e.stderr, "  %s\n", oneLine(e.Error()))
		}
		return exitStatus(err)
	}
	fmt.Fprintf(c.e.stderr, "matombo %s: %v\n", c.name, oneLine(err.Error()))
	return exitStatus(err)
}

// oneLine keeps an error message on one line, and bounded: a word longer
// than maxWordText (a token, a number or a name quoted from the input: a
// 100,000-digit number in a shard file, a 500 KB token in a job file)
// keeps its first maxWordText bytes, and the whole line its first
// maxLineText. Every error the command line prints passes here, so no
// input is echoed back in full, however it reached the message, and none
// reaches the terminal with its control characters (a path named with an
// escape sequence): they are escaped.
func oneLine(s string) string {
	fields := strings.Fields(s)
	for i, f := range fields {
		fields[i] = diag.ClipText(f, maxWordText)
	}
	return diag.EscapeControls(diag.ClipText(strings.Join(fields, " "), maxLineText))
}

// escaping writes a report with its control characters escaped, newlines
// kept. Each write is whole lines (fmt.Fprint* writes at once), so no
// character is split between two writes. Not for output that colours on
// purpose (trace, play) or that a program reads (--json, YAML).
type escaping struct{ w io.Writer }

func (e escaping) Write(b []byte) (int, error) {
	if _, err := io.WriteString(e.w, diag.EscapeControls(string(b))); err != nil {
		return 0, err
	}
	return len(b), nil
}

// Bounds of a message of the command line (see oneLine). A word may hold
// what the host already clipped to diag.MaxMessageText, with its "...".
const (
	maxWordText = diag.MaxMessageText + 8
	maxLineText = 4 * diag.MaxMessageText
)

// exitStatus is the exit status for an error: exitUsage for a problem in
// the command line (a bad player spec included), 128 plus the signal's
// number for a run a signal stopped (an interruptedError), exitFail for
// everything else.
func exitStatus(err error) int {
	var ce *host.ConfigError
	if errors.As(err, &ce) && ce.Pos.File == "" {
		return exitUsage // unknown game, unknown variant or a bad --param
	}
	var ue usageErr
	if errors.As(err, &ue) {
		return exitUsage
	}
	var se *player.SpecError
	if errors.As(err, &se) {
		return exitUsage // a player spec typed on the command line
	}
	var ie interruptedError
	if errors.As(err, &ie) {
		return ie.status() // Ctrl-C, SIGINT or SIGTERM: 130 or 143
	}
	return exitFail
}

// usageErr is an error in the command line found after parsing.
type usageErr struct{ msg string }

func (u usageErr) Error() string { return u.msg }

// writeHelp writes the command's help: synopsis, description and flags.
func (c *cli) writeHelp(w io.Writer) {
	fmt.Fprintf(w, "usage: matombo %s %s\n\n%s\n", c.name, c.synopsis, strings.TrimSpace(c.about))
	var lines [][2]string
	width := 0
	c.fs.VisitAll(func(f *flag.Flag) {
		typ, usage := flag.UnquoteUsage(f)
		left := "--" + f.Name
		if len(f.Name) == 1 {
			left = "-" + f.Name
		}
		if typ != "" {
			left += " " + typ
		}
		if f.DefValue != "" && f.DefValue != "0" && f.DefValue != "false" && f.DefValue != "[]" {
			usage += " (default " + f.DefValue + ")"
		}
		width = max(width, len(left), len("-h, --help"))
		lines = append(lines, [2]string{left, usage})
	})
	if len(lines) > 0 {
		fmt.Fprintln(w, "\nflags:")
		for _, l := range lines {
			fmt.Fprintf(w, "  %-*s  %s\n", width, l[0], l[1])
		}
	}
	fmt.Fprintf(w, "  %-*s  show this help\n", width, "-h, --help")
}

// oneGame checks that exactly one positional argument, the game, was given
// (more when extra is true) and returns it.
func (c *cli) oneGame(pos []string, extra bool) (string, bool) {
	switch {
	case len(pos) == 0:
		c.usageError("name a game; 'matombo list' lists them")
		return "", false
	case len(pos) > 1 && !extra:
		c.usageError("unexpected argument %q after the game %s", pos[1], pos[0])
		return "", false
	}
	return pos[0], true
}

// parseGame parses the arguments of a command about one game: the flags,
// then the game's name and, when extra is true, more positional arguments
// (returned in rest). When ok is false the command returns status.
func (c *cli) parseGame(args []string, extra bool) (name string, rest []string, status int, ok bool) {
	pos, status, ok := c.parse(args)
	if !ok {
		return "", nil, status, false
	}
	if name, ok = c.oneGame(pos, extra); !ok {
		return "", nil, exitUsage, false
	}
	return name, pos[1:], 0, true
}

// splitTokens returns the tokens of the positional arguments of trace,
// move and hint: an argument may hold several tokens separated by spaces,
// so that a game record can be pasted as one argument.
func splitTokens(args []string) []string {
	var tokens []string
	for _, a := range args {
		tokens = append(tokens, strings.Fields(a)...)
	}
	return tokens
}

// stringList is a repeatable string flag.
type stringList []string

func (l *stringList) String() string { return strings.Join(*l, ",") }

// Set adds one value.
func (l *stringList) Set(v string) error {
	*l = append(*l, v)
	return nil
}

// gameFlags are the flags of every command that names a game.
type gameFlags struct {
	dirs     stringList    // --games: folders of games, in order
	variants stringList    // --variant
	params   stringList    // --param key=value
	extra    []host.Option // options of the command's own, e.g. trace --print
}

// register defines --games (unless the command defines its own), --variant
// and --param.
func (gf *gameFlags) register(fs *flag.FlagSet, games bool) {
	if games {
		fs.Var(&gf.dirs, "games", "add or override games from the folder `DIR` (repeatable)")
	}
	fs.Var(&gf.variants, "variant", "play the variant `NAME` (repeatable)")
	fs.Var(&gf.params, "param", "set the parameter `key=value`, after the variants (repeatable)")
}

// library returns the shipped games with the --games folders added.
func (gf *gameFlags) library() (*host.Library, error) {
	return libraryWith(gf.dirs)
}

// libraryWith returns the shipped games with folders added in order.
func libraryWith(dirs []string) (*host.Library, error) {
	lib := games.Library()
	for _, d := range dirs {
		if d == "" {
			return nil, usageErr{`--games "": name a folder of games`}
		}
		if _, err := os.Stat(d); errors.Is(err, fs.ErrNotExist) {
			return nil, fmt.Errorf("games folder %s: no such folder", d)
		}
		if err := lib.AddDir(d); err != nil {
			return nil, err
		}
	}
	return lib, nil
}

// options returns the load options of --variant and --param.
func (gf *gameFlags) options() ([]host.Option, error) {
	var opts []host.Option
	if len(gf.variants) > 0 {
		opts = append(opts, host.WithVariant(gf.variants...))
	}
	for _, p := range gf.params {
		k, v, ok := strings.Cut(p, "=")
		if !ok || strings.TrimSpace(k) == "" {
			return nil, usageErr{fmt.Sprintf("--param %s: want key=value, e.g. --param holes=8", p)}
		}
		opts = append(opts, host.WithOverride(host.Override{Name: strings.TrimSpace(k), Value: v, Source: "--param " + p}))
	}
	return append(opts, gf.extra...), nil
}

// load loads the named game from the library with --variant and --param.
func (gf *gameFlags) load(lib *host.Library, name string) (*host.Game, error) {
	opts, err := gf.options()
	if err != nil {
		return nil, err
	}
	g, err := lib.Load(name, opts...)
	var ce *host.ConfigError
	if errors.As(err, &ce) && strings.HasPrefix(ce.Msg, "unknown game") {
		if hint := pathHint(name); hint != "" {
			return nil, usageErr{hint}
		}
	}
	return g, err
}

// pathHint says how to play a game named by its folder or script rather
// than by its name (matombo bench ./mygames/dakon), which commands other
// than check do not take: "" when name is no such path.
func pathHint(name string) string {
	info, err := os.Stat(name)
	if err != nil {
		return ""
	}
	dir, game := name, filepath.Base(filepath.Clean(name))
	switch {
	case !info.IsDir() && strings.HasSuffix(name, ".lua"):
		dir, game = filepath.Dir(name), strings.TrimSuffix(filepath.Base(name), ".lua")
	case !info.IsDir():
		return ""
	}
	if _, err := os.Stat(filepath.Join(dir, game+".lua")); err != nil && info.IsDir() {
		return fmt.Sprintf("%q is a folder, not a game: add it with --games %s and name one of its games", name, name)
	}
	return fmt.Sprintf("%q is a path, not a game: name the game and add its folder with --games (%s --games %s)", name, game, dir)
}

// open makes the library and loads the named game.
func (gf *gameFlags) open(name string) (*host.Game, error) {
	lib, err := gf.library()
	if err != nil {
		return nil, err
	}
	return gf.load(lib, name)
}

// countOrDirs is the --games flag of commands where it may also be a number
// of games: a value of digits sets the count, anything else is a folder.
type countOrDirs struct {
	count *int
	max   int         // the most games allowed (maxGames when 0)
	dirs  *stringList // nil when folders are not accepted
}

func (f countOrDirs) String() string {
	if f.count == nil {
		return ""
	}
	return strconv.Itoa(*f.count)
}

// Set takes a number of games or a folder.
func (f countOrDirs) Set(v string) error {
	if looksNumeric(strings.TrimSpace(v)) {
		limit := f.max
		if limit == 0 {
			limit = maxGames
		}
		n, err := diag.ParseBounded(v, 1, int64(limit))
		if err != nil {
			return err
		}
		*f.count = int(n)
		return nil
	}
	if f.dirs == nil {
		// check: its games come from its argument, a script or a folder.
		return fmt.Errorf("want a number of games, got %q (the games to check are the argument: a script or a folder)", v)
	}
	if _, err := os.Stat(v); err != nil && numberLike(v) {
		// Not a folder, but a number written otherwise (1e6, 0x10, 1_000,
		// " 5", 1.5, NaN): a count, refused as one, not "no such folder".
		limit := f.max
		if limit == 0 {
			limit = maxGames
		}
		return fmt.Errorf("want a whole number of games from 1 to %d, or a folder", limit)
	}
	return f.dirs.Set(v)
}

// numberLike reports whether v is a number in some notation the flags do
// not take for a count of games: with spaces, a fraction, an exponent, a
// base prefix, underscores, NaN or Inf.
func numberLike(v string) bool {
	t := strings.TrimSpace(v)
	if t == "" {
		return false
	}
	if looksNumeric(t) {
		return true
	}
	if _, err := strconv.ParseFloat(t, 64); err == nil || errors.Is(err, strconv.ErrRange) {
		return true
	}
	_, err := strconv.ParseInt(t, 0, 64)
	return err == nil || errors.Is(err, strconv.ErrRange)
}

// paramText writes a game's parameter values as key=value pairs.
func paramText(g *host.Game) string {
	var parts []string
	for _, p := range g.Params() {
		parts = append(parts, fmt.Sprintf("%s=%v", p.Name, p.Value))
	}
	return strings.Join(parts, " ")
}

// paramMap returns a game's parameter values by name, for JSON.
func paramMap(g *host.Game) map[string]any {
	m := map[string]any{}
	for _, p := range g.Params() {
		m[p.Name] = p.Value
	}
	return m
}

// gameLabel names a loaded game with its parameters, e.g.
// "Tsoro [tsoro: holes=8 bonus=2 heads=2]".
func gameLabel(g *host.Game) string {
	if p := paramText(g); p != "" {
		return fmt.Sprintf("%s [%s: %s]", g.Title(), g.Name(), p)
	}
	return fmt.Sprintf("%s [%s]", g.Title(), g.Name())
}

// Limits of the numeric flags. Every number a flag takes is bounded, so
// that no value wraps around, allocates without bound or starts a
// goroutine per unit; a value beyond its limit is a usage error naming
// the limit.
const (
	maxGames     = 1_000_000_000 // games of a run whose memory does not grow with them
	maxListGames = 1_000_000     // games of a run that keeps a result per game (match)
	maxParallel  = 64            // games played at once, benchmark goroutines
	maxWorkers   = 64            // serve's computer workers
	maxPliesFlag = 1_000_000     // a ply cap
	maxPositions = 1<<31 - 1     // positions a solve may explore (int32 ids)
	maxSeconds   = 24 * 3600     // a measuring time in seconds
)

// looksNumeric reports whether v is written as a number (an optional sign
// and digits), so that a flag taking a number or a folder reads it as a
// number.
func looksNumeric(v string) bool {
	v = strings.TrimPrefix(strings.TrimPrefix(v, "-"), "+")
	if v == "" {
		return false
	}
	for _, c := range v {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// intValue is a whole-number flag bounded to [lo, hi].
type intValue struct {
	p      *int
	lo, hi int
}

func (v intValue) String() string {
	if v.p == nil {
		return ""
	}
	return strconv.Itoa(*v.p)
}

// Set parses a bounded whole number.
func (v intValue) Set(s string) error {
	n, err := diag.ParseBounded(s, int64(v.lo), int64(v.hi))
	if err != nil {
		return err
	}
	*v.p = int(n)
	return nil
}

// intFlag defines a whole-number flag from lo to hi.
func (c *cli) intFlag(name string, value, lo, hi int, usage string) *int {
	p := new(int)
	intVar(c.fs, p, name, value, lo, hi, usage)
	return p
}

// intVar defines a whole-number flag from lo to hi on fs, stored in p.
func intVar(fs *flag.FlagSet, p *int, name string, value, lo, hi int, usage string) {
	*p = value
	fs.Var(intValue{p: p, lo: lo, hi: hi}, name, usage)
}

// maxDuration is the longest duration a flag takes.
const maxDuration = 1000 * time.Hour

// durationValue is a duration flag bounded to [lo, hi].
type durationValue struct {
	p      *time.Duration
	lo, hi time.Duration
}

func (v durationValue) String() string {
	if v.p == nil {
		return ""
	}
	return v.p.String()
}

// Set parses a bounded duration such as 90s or 10m; a duration too long
// even for time.Duration is "too large" like any other.
func (v durationValue) Set(s string) error {
	d, err := time.ParseDuration(strings.TrimSpace(s))
	if err != nil {
		if tooLongDuration(s) {
			return diag.TooLarge(v.hi)
		}
		return fmt.Errorf("want a duration such as 90s or 10m, from %s to %s", v.lo, v.hi)
	}
	switch {
	case d > v.hi:
		return diag.TooLarge(v.hi)
	case d < v.lo:
		return fmt.Errorf("want a duration from %s to %s", v.lo, v.hi)
	}
	*v.p = d
	return nil
}

// durationSyntax is what time.ParseDuration accepts, for positive values.
var durationSyntax = regexp.MustCompile(`^\+?([0-9]*(\.[0-9]*)?(ns|us|µs|μs|ms|s|m|h))+$`)

// tooLongDuration tells whether s is a well-formed duration that
// time.ParseDuration refused only because it overflows.
func tooLongDuration(s string) bool {
	return durationSyntax.MatchString(strings.TrimSpace(s))
}

// durationVar defines a duration flag from lo to hi on fs, stored in p.
func durationVar(fs *flag.FlagSet, p *time.Duration, name string, value, lo, hi time.Duration, usage string) {
	*p = value
	fs.Var(durationValue{p: p, lo: lo, hi: hi}, name, usage)
}

// uint64Value is a flag taking any whole number of 64 bits (a seed).
type uint64Value struct{ p *uint64 }

func (v uint64Value) String() string {
	if v.p == nil {
		return ""
	}
	return strconv.FormatUint(*v.p, 10)
}

// Set parses a whole number from 0 to 2^64-1.
func (v uint64Value) Set(s string) error {
	n, err := strconv.ParseUint(strings.TrimSpace(s), 10, 64)
	var ne *strconv.NumError
	switch {
	case errors.As(err, &ne) && errors.Is(ne.Err, strconv.ErrRange):
		return diag.TooLarge(uint64(math.MaxUint64))
	case err != nil:
		return fmt.Errorf("want a whole number from 0 to %d", uint64(math.MaxUint64))
	}
	*v.p = n
	return nil
}

// uint64Flag defines a flag taking any 64-bit whole number.
func (c *cli) uint64Flag(name string, value uint64, usage string) *uint64 {
	p := new(uint64)
	*p = value
	c.fs.Var(uint64Value{p: p}, name, usage)
	return p
}

// floatValue is a number flag bounded to (lo, hi] that refuses NaN and
// infinities.
type floatValue struct {
	p      *float64
	lo, hi float64
}

func (v floatValue) String() string {
	if v.p == nil {
		return ""
	}
	return strconv.FormatFloat(*v.p, 'g', -1, 64)
}

// Set parses a bounded number.
func (v floatValue) Set(s string) error {
	f, err := diag.ParseDecimal(strings.TrimSpace(s))
	switch {
	case math.IsInf(f, 1) || err == nil && f > v.hi:
		return diag.TooLarge(v.hi)
	case err != nil || math.IsNaN(f) || !(f > v.lo):
		return fmt.Errorf("want a number above %g and at most %g", v.lo, v.hi)
	}
	*v.p = f
	return nil
}

// floatFlag defines a number flag from above lo to hi.
func (c *cli) floatFlag(name string, value, lo, hi float64, usage string) *float64 {
	p := new(float64)
	*p = value
	c.fs.Var(floatValue{p: p, lo: lo, hi: hi}, name, usage)
	return p
}

// sizeUnits are the units of a size, all counted in 1024s: each as a
// shift of bits.
var sizeUnits = map[string]uint{"": 0, "B": 0,
	"K": 10, "KB": 10, "KIB": 10, "M": 20, "MB": 20, "MIB": 20, "G": 30, "GB": 30, "GIB": 30,
	"T": 40, "TB": 40, "TIB": 40, "P": 50, "PB": 50, "PIB": 50, "E": 60, "EB": 60, "EIB": 60}

// parseSize reads a size: a whole number with an optional unit (B, KiB,
// MiB, GiB, TiB, PiB, EiB, or KB, MB, ..., K, M, ..., all counted in
// 1024s), from 1 byte to hi. A size beyond hi, however large (16EiB does
// not fit in 64 bits), is "too large", naming the limit.
func parseSize(s string, hi int64) (int64, error) {
	t := strings.TrimSpace(s)
	i := 0
	for i < len(t) && t[i] >= '0' && t[i] <= '9' {
		i++
	}
	if i == 0 {
		return 0, fmt.Errorf("want a size such as 512MiB or 8GiB, from 1 byte to %s", sizeText(hi))
	}
	sh, ok := sizeUnits[strings.ToUpper(strings.TrimSpace(t[i:]))]
	if !ok {
		return 0, fmt.Errorf("unknown unit %q (B, KiB, MiB, GiB, TiB, PiB, EiB)", t[i:])
	}
	n, err := strconv.ParseUint(t[:i], 10, 64)
	switch {
	case err != nil || n > uint64(hi)>>sh:
		return 0, diag.TooLarge(sizeText(hi))
	case n == 0:
		return 0, fmt.Errorf("want a size from 1 byte to %s", sizeText(hi))
	}
	return int64(n << sh), nil
}

// sizeText writes a size in the largest unit that divides it: 1TiB.
func sizeText(n int64) string {
	units := []string{"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"}
	u := 0
	for u+1 < len(units) && n >= 1024 && n%1024 == 0 {
		n /= 1024
		u++
	}
	return strconv.FormatInt(n, 10) + units[u]
}

// sizeValue is a size flag (512MiB, 8GiB) of at most hi bytes. It keeps
// the text as given, which parseSize reads again where it is used; ""
// (the flag's default only) means unset.
type sizeValue struct {
	p  *string
	hi int64
}

func (v sizeValue) String() string {
	if v.p == nil {
		return ""
	}
	return *v.p
}

// Set checks the size and keeps its text.
func (v sizeValue) Set(s string) error {
	if _, err := parseSize(s, v.hi); err != nil {
		return err
	}
	*v.p = s
	return nil
}

// sizeVar defines a size flag of at most hi bytes on fs, stored as text
// in p.
func sizeVar(fs *flag.FlagSet, p *string, name, value string, hi int64, usage string) {
	*p = value
	fs.Var(sizeValue{p: p, hi: hi}, name, usage)
}

// textValue is a string flag that refuses an empty value: --out "" (or a
// shell variable that expanded to nothing) would otherwise read as the
// flag not given, and the command do what the flag's absence means (write
// to standard output, store games in the default database, play the whole
// run instead of a shard) without a word.
type textValue struct {
	p    *string
	want string // what a value is, e.g. "name a file"
}

func (v textValue) String() string {
	if v.p == nil {
		return ""
	}
	return *v.p
}

// Set takes any value but the empty one.
func (v textValue) Set(s string) error {
	if s == "" {
		return fmt.Errorf("empty: %s", v.want)
	}
	*v.p = s
	return nil
}

// textVar defines a string flag on fs, stored in p, that refuses an
// empty value with want, which says what a value is.
func textVar(fs *flag.FlagSet, p *string, name, value, want, usage string) {
	*p = value
	fs.Var(textValue{p: p, want: want}, name, usage)
}

// textFlag defines a string flag that refuses an empty value (see
// textVar).
func (c *cli) textFlag(name, value, want, usage string) *string {
	p := new(string)
	textVar(c.fs, p, name, value, want, usage)
	return p
}
