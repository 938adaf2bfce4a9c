package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/matombo/matombo/conformance"
	"github.com/matombo/matombo/games"
	"github.com/matombo/matombo/host"
	"github.com/matombo/matombo/host/diag"
	"github.com/matombo/matombo/host/verify"
)

const checkAbout = `
Validates a rule script as its author needs: SCRIPT is a NAME.lua (its
folder is added as a folder of games and the game NAME checked; a
variants.yaml and rules.md beside it count when the folder is the game's
own folder, NAME/NAME.lua; elsewhere nothing reads them, and check notes
it), DIR a game folder or a folder of games (each game in it is
checked). Only those files are used, and the shipped games a script
extends (matombo.extends), wherever the script is.

For each game, in steps reported as ok or FAIL with the problems (with
file:line where there is one):
  loads          the script compiles (syntax, undeclared globals) and its
                 declarations and setup run
  variants       every variant of its variants files loads
  parameters     every allowed value of every parameter loads (all
                 combinations when there are at most 64, else one
                 parameter at a time)
  openings       the opening of each configuration above is sane: legal
                 tokens listed once each without spaces, every one plays,
                 counts and owners in range, the diagram and the JSON read
                 back
  random games   N random games (--games N, default 200; seeds S, S+1, ...)
                 keep the invariants of package verify (thorough checks on
                 the first 5, a replay of every game on a reloaded script)
                 and end within the ply cap; each variant that changes a
                 parameter plays N/10 more
A rules.md that numbers its rules as "- **K1 Board.**" or "## K1 Board",
with no point heading "### K1 Board" for scenarios to cite, gets a note;
it does not fail the check.
With --print, what the scripts print (Lua's print) goes to stderr, each
line after the game's name: a script author's tracing.
The check stops at --max-time (default 30m) or at Ctrl-C (SIGINT,
SIGTERM), in the middle of a script's call if need be: the step it stopped
says "stopped:" and what it did not do, the steps and games after it are
not checked, and the summary says so.
The exit status is 0 only when every step of every game is ok; 130 after
Ctrl-C or SIGINT, 143 after SIGTERM.`

// maxShown caps the problems shown per step.
const maxShown = 10

// gameChecker checks one game of a library with package verify and
// writes what it finds.
type gameChecker struct {
	lib   *host.Library
	name  string
	file  string // the script the user named, "" for a folder
	dir   string // the folder of games, as --games DIR
	games int
	seed  uint64
	extra []host.Option // for every load: --print's log
}

// runCheck is `matombo check SCRIPT|DIR`.
func runCheck(e *env, args []string) int {
	c := newCLI(e, "check", "SCRIPT|DIR [--games N] [--seed S] [--max-time D] [--print]", checkAbout)
	games := 200
	c.fs.Var(countOrDirs{count: &games}, "games", "how many random games `N` to play")
	c.fs.Var(countOrDirs{count: &games}, "n", "the same as --games `N`")
	seed := c.uint64Flag("seed", 1, "seed `S` of the first random game; game i uses S+i")
	printed := c.fs.Bool("print", false, "show what the scripts print (Lua's print), on stderr")
	maxTime := c.runTimeFlag()
	pos, status, ok := c.parse(args)
	if !ok {
		return status
	}
	switch {
	case len(pos) == 0:
		return c.usageError("name a script (NAME.lua) or a folder of games")
	case len(pos) > 1:
		return c.usageError("unexpected argument %q: check takes one script or folder", pos[1])
	}
	lib, names, file, err := checkTargets(pos[0])
	if err != nil {
		return c.fail(err)
	}
	// The report quotes paths and what the scripts declared: shown, never
	// run by the terminal.
	stdout := escaping{e.stdout}
	dir := pos[0]
	if file != "" {
		dir = filepath.Dir(file)
	}
	if note := strayFiles(dir, names); note != "" {
		fmt.Fprintln(stdout, note)
		fmt.Fprintln(stdout)
	}
	ctx, stop := e.runContext(*maxTime)
	defer stop()
	bad, done := 0, 0
	for i, name := range names {
		if ctx.Err() != nil {
			break
		}
		if i > 0 {
			fmt.Fprintln(stdout)
		}
		gc := &gameChecker{lib: lib, name: name, file: file, dir: dir, games: games, seed: *seed}
		if *printed {
			gc.extra = []host.Option{host.WithLog(&lockedWriter{w: e.stderr})}
		}
		ok, stopped := gc.run(ctx, stdout)
		if stopped {
			break
		}
		done++
		if !ok {
			bad++
		}
	}
	fmt.Fprintln(stdout)
	switch {
	case done < len(names):
		reason := diag.StopReason(ctx)
		fmt.Fprintf(stdout, "check: stopped: %s; %d of %s not checked fully (%s)\n", reason, len(names)-done, plural(len(names), "game"), nameList(names[done:]))
		fmt.Fprintf(e.stderr, "matombo check: stopped: %s\n", oneLine(reason))
		return stoppedStatus(ctx)
	case bad == 0:
		fmt.Fprintf(stdout, "check: %s, all ok\n", plural(len(names), "game"))
		return exitOK
	default:
		fmt.Fprintf(stdout, "check: %d of %s with problems\n", bad, plural(len(names), "game"))
		return exitFail
	}
}

// checkTargets makes the library of a SCRIPT or DIR argument and lists the
// games to check; file is the script when one was named.
func checkTargets(path string) (lib *host.Library, names []string, file string, err error) {
	info, err := os.Stat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil, "", fmt.Errorf("%s: no such script or folder", path)
	}
	if err != nil {
		return nil, nil, "", err
	}
	lib = host.NewLibrary()
	lib.SetBases(games.Library()) // a script may extend a shipped game
	if !info.IsDir() {
		name, ok := strings.CutSuffix(filepath.Base(path), ".lua")
		if !ok || name == "" {
			return nil, nil, "", usageErr{fmt.Sprintf("%s is neither a rule script (NAME.lua) nor a folder", path)}
		}
		if err := lib.AddDir(filepath.Dir(path)); err != nil {
			return nil, nil, "", err
		}
		return lib, []string{name}, path, nil
	}
	if err := lib.AddDir(path); err != nil {
		return nil, nil, "", err
	}
	return lib, lib.Games(), "", nil // AddDir refuses a folder without a game
}

// strayFiles is a note naming the variants.yaml and rules.md of dir when
// dir is not a game's own folder (NAME/NAME.lua), where nothing reads
// them: the game in such a folder has no variants and no rules page, and
// its author should know why. "" when there are none.
func strayFiles(dir string, names []string) string {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return ""
	}
	if _, err := os.Lstat(filepath.Join(abs, filepath.Base(abs)+".lua")); err == nil {
		return "" // the game's own folder: both files count
	}
	var stray []string
	for _, f := range []string{"variants.yaml", "rules.md"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err == nil {
			stray = append(stray, filepath.Join(dir, f))
		}
	}
	if len(stray) == 0 {
		return ""
	}
	own := "NAME/NAME.lua"
	if len(names) == 1 {
		own = names[0] + "/" + names[0] + ".lua"
	}
	verb := "is"
	if len(stray) > 1 {
		verb = "are"
	}
	return fmt.Sprintf("note: %s %s not read: a game's variants.yaml and rules.md count only in its own folder, named after its script (%s)",
		strings.Join(stray, " and "), verb, own)
}

// nameList writes names briefly: "a, b, c" or "a, b, ..., h and 7 more".
func nameList(names []string) string { return diag.ShortList(names, 8) }

// run checks the game, writing each step as it is done, and returns
// whether all were ok, and whether ctx stopped it (see
// verify.CheckContext).
func (gc *gameChecker) run(ctx context.Context, w io.Writer) (ok, stopped bool) {
	fmt.Fprintf(w, "checking %s\n", gc.name)
	note := ""
	r := verify.CheckContext(ctx, gc.lib, gc.name, verify.CheckOptions{
		Games:  gc.games,
		Seed:   gc.seed,
		File:   gc.file,
		OnStep: func(st verify.Step) { gc.writeStep(w, st) },
		OnLoad: func(g *host.Game) { note = rulesNote(g) }, // the check's own load, not another
		Extra:  gc.extra,
	})
	if note != "" && loadedCleanly(r) {
		fmt.Fprintln(w, "  note  "+note)
	}
	verdict := "ok"
	switch {
	case r.Stopped != "":
		verdict = "STOPPED"
	case !r.OK():
		verdict = "PROBLEMS"
	}
	fmt.Fprintf(w, "%s: %s\n", gc.name, verdict)
	return r.OK(), r.Stopped != ""
}

// loadedCleanly reports whether the check ran to its end and its game
// loaded without a problem: a rules page note is worth reading then.
func loadedCleanly(r verify.Report) bool {
	return r.Stopped == "" && len(r.Steps) > 0 && !r.Steps[0].Skipped && len(r.Steps[0].Findings) == 0
}

// rulesNote is a note on the game's rules.md when its points are all in
// another shape than the "### K1 Title" headings scenarios cite
// (conformance.Lookalikes), "" otherwise. It does not fail the check: a
// page need not number its rules, but one that numbers them as
// "- **K1 Board.**" was meant to. The check writes it only when the game
// loaded cleanly and the check was not stopped (loadedCleanly).
func rulesNote(g *host.Game) string {
	page := g.Rules()
	if len(conformance.Points(page)) > 0 {
		return ""
	}
	look := conformance.Lookalikes(page)
	if len(look) == 0 {
		return ""
	}
	which := "a line numbers a rule"
	if len(look) > 1 {
		which = plural(len(look), "line") + " number rules"
	}
	return fmt.Sprintf("rules page: %s has no rule points for scenarios to cite, but %s in another shape, such as line %d: %q; a point is a heading \"### %s Title\" (docs/scenarios.md#rule-labels)",
		rulesPath(g), which, look[0].Line, diag.ClipText(strings.TrimSpace(look[0].Title), diag.MaxTokenText), look[0].Label)
}

// writeStep writes one step: ok, FAIL with its problems, or skipped.
func (gc *gameChecker) writeStep(w io.Writer, st verify.Step) {
	switch {
	case len(st.Findings) > 0:
		fmt.Fprintf(w, "  FAIL  %s\n", st.Name)
		for i, f := range st.Findings {
			if i == maxShown {
				fmt.Fprintf(w, "        ... and %d more\n", len(st.Findings)-maxShown)
				break
			}
			for j, line := range strings.Split(gc.findingText(f), "\n") {
				indent := "        "
				if j > 0 {
					indent += "  "
				}
				fmt.Fprintln(w, indent+strings.TrimSpace(line))
			}
		}
	case st.Skipped:
		fmt.Fprintf(w, "  --    %s: %s\n", st.Name, st.Summary)
	default:
		fmt.Fprintf(w, "  ok    %s: %s\n", st.Name, st.Summary)
	}
}

// findingText writes a finding; a script failure in a random game comes
// with the command that reproduces it and the seeds of the other games
// that ran into it.
func (gc *gameChecker) findingText(f verify.Finding) string {
	text := f.String()
	if p := f.Problem; p != nil && p.Cause != "" {
		text += "\n  reproduce: " + gc.reproduce(f.Config, *p)
	}
	if s := f.Repeats; len(s) > 0 {
		text += fmt.Sprintf("\n  the same failure in %d more %s (%s)", len(s), map[bool]string{true: "game", false: "games"}[len(s) == 1], seedList(s))
	}
	return text
}

// reproduce is the command line that plays into a script failure again:
// the seed's random game when the failure is on its path, else a trace of
// its record and the failing token.
func (gc *gameChecker) reproduce(c *verify.Config, p verify.Problem) string {
	var flags []string
	if c.Variant != "" {
		flags = append(flags, "--variant", c.Variant)
	}
	for _, o := range c.Overrides {
		flags = append(flags, "--param", fmt.Sprintf("%s=%v", o.Name, o.Value))
	}
	args := []string{"matombo"}
	if p.OnPath {
		args = append(args, "selfplay", gc.name, "--games", gc.dir)
		args = append(args, flags...)
		args = append(args, "--seed", strconv.FormatUint(p.Seed, 10), "-n", "1")
	} else {
		args = append(args, "trace", gc.name, "--games", gc.dir)
		args = append(args, flags...)
		args = append(args, strings.Join(append(append([]string(nil), p.Record...), p.Token), " "))
	}
	for i, a := range args {
		args[i] = shellQuote(a)
	}
	return strings.Join(args, " ")
}

// shellQuote quotes a word for a POSIX shell when it needs it.
func shellQuote(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_=./:,@+") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// seedList writes seeds briefly: "seeds 2, 3, 4" or "seeds 2, 3, ... 20".
func seedList(seeds []uint64) string {
	var parts []string
	for i, s := range seeds {
		if i == 3 && len(seeds) > 4 {
			parts = append(parts, "...", strconv.FormatUint(seeds[len(seeds)-1], 10))
			break
		}
		parts = append(parts, strconv.FormatUint(s, 10))
	}
	word := "seeds "
	if len(seeds) == 1 {
		word = "seed "
	}
	return word + strings.Join(parts, ", ")
}
