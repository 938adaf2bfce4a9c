package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"strconv"
	"strings"

	"github.com/matombo/matombo/games"
	"github.com/matombo/matombo/host"
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
	return &cli{e: e, name: name, synopsis: synopsis, about: about, fs: fs}
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

// flagMessage rewords the flag package's errors, naming an unknown flag as
// it was typed in args.
func flagMessage(err error, args []string) string {
	msg := err.Error()
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

// usageError reports a wrong command line and returns exitUsage.
func (c *cli) usageError(format string, args ...any) int {
	fmt.Fprintf(c.e.stderr, "matombo %s: %s (run 'matombo %s --help' for usage)\n", c.name, fmt.Sprintf(format, args...), c.name)
	return exitUsage
}

// fail reports an error on one line and returns its exit status: exitUsage
// when the error is in what the user typed (an unknown game, variant or
// parameter), exitFail otherwise.
func (c *cli) fail(err error) int {
	fmt.Fprintf(c.e.stderr, "matombo %s: %v\n", c.name, oneLine(err.Error()))
	return exitStatus(err)
}

// oneLine keeps an error message on one line.
func oneLine(s string) string {
	return strings.Join(strings.Fields(s), " ")
}

// exitStatus is the exit status for an error: exitUsage for a problem in
// the command line, exitFail for everything else.
func exitStatus(err error) int {
	var ce *host.ConfigError
	if errors.As(err, &ce) && ce.Pos.File == "" {
		return exitUsage // unknown game, unknown variant or a bad --param
	}
	var ue usageErr
	if errors.As(err, &ue) {
		return exitUsage
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
	return lib.Load(name, opts...)
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
	if n, err := strconv.Atoi(v); err == nil {
		if n < 1 {
			return fmt.Errorf("the number of games must be at least 1")
		}
		*f.count = n
		return nil
	}
	if f.dirs == nil {
		return fmt.Errorf("want a number of games, got %q", v)
	}
	return f.dirs.Set(v)
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
