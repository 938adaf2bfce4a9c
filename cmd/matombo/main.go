// Command matombo plays traditional board games whose rules are Lua scripts,
// and helps authors of such scripts trace, test, validate and measure them.
//
// Usage:
//
//	matombo <command> [arguments] [flags]
//
// The commands are list, rules, play, trace, selfplay, check, conform,
// bench, import, match, move, analyze, solve, hint and serve; `matombo help`
// lists them and `matombo help <command>` (or `matombo <command> --help`)
// describes one. docs/cli.md has the details and example sessions.
//
// Exit status: 0 when all went well, 1 when the work failed (an illegal
// token, a broken script, a problem found by check or conform), 2 when the
// command line is wrong (an unknown command, flag, game, variant or
// parameter), 130 or 143 when Ctrl-C, SIGINT (130) or SIGTERM (143)
// interrupted a run (docs/cli.md, "Interrupts", says what each command
// writes then; serve shuts down gracefully and exits with 0).
package main

import (
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
)

// Exit statuses.
const (
	exitOK    = 0 // all went well
	exitFail  = 1 // the work failed: illegal token, broken script, failed check
	exitUsage = 2 // the command line is wrong
	// A run interrupted by a signal exits with 128 plus its number: 130
	// for SIGINT, 143 for SIGTERM (see interruptedError).
)

func main() { os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr)) }

// env is what a command works with: its input and outputs and whether boards
// may be drawn in colour. Commands get everything through it, so that tests
// can run them with buffers.
type env struct {
	stdin  io.Reader
	stdout io.Writer
	stderr io.Writer
	color  bool       // stdout is a terminal and NO_COLOR is not set
	width  int        // the width of stdout's lines: prose is wrapped and boards fitted to it (outputWidth)
	echo   bool       // stdin is not a terminal: echo what is read after prompts
	onCLI  func(*cli) // tests: sees every command line made
	onRun  func()     // tests: called once a run's signals are caught (interruptContext)
}

// command is one subcommand of matombo.
type command struct {
	name    string
	summary string // one line for `matombo help`
	run     func(e *env, args []string) int
}

// commands returns the subcommands in the order `matombo help` lists them.
func commands() []command {
	return []command{
		{"list", "list the games with their parameters and variants", runList},
		{"rules", "show a game's rules page", runRules},
		{"play", "play a game in the terminal", runPlay},
		{"trace", "show the states a game goes through for some tokens", runTrace},
		{"selfplay", "play random games and summarize them", runSelfplay},
		{"check", "validate a rule script or a folder of games", runCheck},
		{"conform", "run conformance scenarios against the games", runConform},
		{"bench", "measure the speed of random playouts", runBench},
		{"import", "convert another program's games into conformance scenarios", runImport},
		{"match", "play games between two computer players and rate them", runMatch},
		{"move", "print the move a computer player chooses after some tokens", runMove},
		{"analyze", "measure a game and its variants over many games", runAnalyze},
		{"solve", "solve a game exactly: retrograde analysis, or a search with endgame databases", runSolve},
		{"hint", "value every legal token under perfect play", runHint},
		{"serve", "play in the browser: a web server with stored games", runServe},
	}
}

// run runs matombo with the arguments after the program name and returns
// the exit status.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	e := &env{stdin: stdin, stdout: stdout, stderr: stderr, color: colorOutput(stdout), width: outputWidth(stdout), echo: !isTerminal(stdin)}
	if len(args) == 0 {
		writeUsage(stderr)
		return exitUsage
	}
	name := args[0]
	switch name {
	case "help", "-h", "-help", "--help":
		return runHelp(e, args[1:])
	}
	for _, c := range commands() {
		if c.name == name {
			return c.run(e, args[1:])
		}
	}
	if strings.HasPrefix(name, "-") {
		fmt.Fprintf(stderr, "matombo: a command comes first, before the flag %s (run 'matombo help' for the commands)\n", name)
	} else {
		fmt.Fprintf(stderr, "matombo: unknown command %q (commands: %s; run 'matombo help')\n", name, strings.Join(commandNames(), ", "))
	}
	return exitUsage
}

// commandNames lists the subcommands' names.
func commandNames() []string {
	var out []string
	for _, c := range commands() {
		out = append(out, c.name)
	}
	return out
}

// runHelp is `matombo help [COMMAND]`.
func runHelp(e *env, args []string) int {
	if len(args) == 0 {
		writeUsage(e.stdout)
		return exitOK
	}
	if len(args) > 1 {
		fmt.Fprintln(e.stderr, "matombo help: name one command, e.g. 'matombo help play'")
		return exitUsage
	}
	for _, c := range commands() {
		if c.name == args[0] {
			return c.run(e, []string{"--help"})
		}
	}
	fmt.Fprintf(e.stderr, "matombo help: unknown command %q (commands: %s)\n", args[0], strings.Join(commandNames(), ", "))
	return exitUsage
}

// writeUsage writes the overview of the commands.
func writeUsage(w io.Writer) {
	fmt.Fprint(w, `matombo plays traditional board games whose rules are Lua scripts.

usage: matombo <command> [arguments] [flags]

commands:
`)
	for _, c := range commands() {
		fmt.Fprintf(w, "  %-9s %s\n", c.name, c.summary)
	}
	fmt.Fprint(w, `
Flags may come before or after the arguments. Commands that name a game
accept --games DIR (add or override games from a folder; repeatable),
--variant NAME and --param key=value (both repeatable).

Run 'matombo help <command>' or 'matombo <command> --help' for a command's
arguments and flags. Try: matombo play tsoro
`)
}

// isTerminal reports whether f is a terminal (a character device).
func isTerminal(f any) bool {
	file, ok := f.(*os.File)
	if !ok {
		return false
	}
	info, err := file.Stat()
	return err == nil && info.Mode()&os.ModeCharDevice != 0
}

// colorOutput reports whether boards written to w may use colours: only
// when w is a terminal and the NO_COLOR environment variable is not set
// (see noColor).
func colorOutput(w io.Writer) bool {
	return !noColor() && isTerminal(w)
}

// outputWidth is the width of the lines written to w: the columns of the
// terminal w is, else the COLUMNS environment variable when it is a
// positive number, else maxWidth; never more than maxWidth, the width
// prose reads best at.
func outputWidth(w io.Writer) int {
	if f, ok := w.(*os.File); ok {
		if cols, ok := terminalColumns(f); ok {
			return min(cols, maxWidth)
		}
	}
	if cols, err := strconv.Atoi(os.Getenv("COLUMNS")); err == nil && cols > 0 {
		return min(cols, maxWidth)
	}
	return maxWidth
}

// noColor reports whether the NO_COLOR environment variable asks for no
// colours: set to any value but the empty string, as no-color.org
// defines it (an empty NO_COLOR, as a shell's NO_COLOR= leaves, asks for
// nothing).
func noColor() bool { return os.Getenv("NO_COLOR") != "" }
