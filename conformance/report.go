package conformance

import (
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/matombo/matombo/host"
	"github.com/matombo/matombo/host/diag"
)

// WriteText writes the report for people: every failure and error with its
// place and details, passes too when verbose, then the summary line. A game
// that does not load, or whose rules page has no points for the labels to
// name, is written once, at its first scenario, with the number of other
// scenarios that could not run for the same error; so are the
// scenarios a stopped run did not start (see Suite.RunContext). The
// report's notes come before the summary, each on a line "note: ...".
//
// Every line is written with its control characters escaped (diag.EscapeControls):
// a file's path, or a game's message, is shown, never run by the terminal.
func (r *Report) WriteText(w io.Writer, verbose bool) {
	w = escaping{w}
	repeats := map[string]int{}
	for _, res := range r.Results {
		if res.grouped() {
			repeats[res.Error]++
		}
	}
	written := map[string]bool{}
	for _, res := range r.Results {
		if res.Status == Passed && !verbose {
			continue
		}
		if res.grouped() {
			if written[res.Error] {
				continue
			}
			written[res.Error] = true
		}
		fmt.Fprintln(w, res.headline())
		if res.Status == Passed || res.Name == "" {
			continue
		}
		for _, l := range res.explain() {
			fmt.Fprintln(w, "    "+l)
		}
		n, noun := repeats[res.Error]-1, "scenarios"
		if n == 1 {
			noun = "scenario"
		}
		switch {
		case n <= 0:
		case res.loadError(), res.pointless():
			fmt.Fprintf(w, "    (the same error in %d more %s)\n", n, noun)
		case res.notRun():
			fmt.Fprintf(w, "    (and %d more %s not run)\n", n, noun)
		}
	}
	for _, n := range r.Notes {
		fmt.Fprintln(w, "note: "+n)
	}
	fmt.Fprintln(w, r.Summary())
}

// loadError tells whether the scenario could not run because its game did
// not load.
func (res Result) loadError() bool {
	return res.Status == Errored && strings.HasPrefix(res.Error, loadingPrefix)
}

// notRun tells whether a stopped run did not start the scenario.
func (res Result) notRun() bool {
	return res.stopped() && strings.HasSuffix(res.Error, notRunSuffix)
}

// grouped tells whether the result is written once for all the results
// with the same error: a game that did not load, a scenario not run.
func (res Result) grouped() bool { return res.loadError() || res.notRun() || res.pointless() }

// pointless tells whether the scenario's rule labels name nothing because
// its game's rules page has no points: one error of the page, not of each
// scenario.
func (res Result) pointless() bool {
	return res.Status == Errored && strings.HasSuffix(res.Error, noPoints)
}

// WriteJSON writes the report as one JSON object.
func (r *Report) WriteJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(r)
}

func (res Result) headline() string {
	var sb strings.Builder
	pos := host.Pos{File: res.File, Line: res.Line, Col: res.Col}
	if res.Name == "" {
		// A file that could not be parsed: one line, as a compiler says it.
		return fmt.Sprintf("%-5s %s: %s", res.Status, pos, res.Error)
	}
	// A name or a list of rules of a megabyte is not written back in full.
	fmt.Fprintf(&sb, "%-5s %s", res.Status, pos)
	if res.Name != "" {
		fmt.Fprintf(&sb, ": %s", diag.ClipText(res.Name, diag.MaxTokenText))
	}
	if len(res.Rules) > 0 {
		fmt.Fprintf(&sb, " [%s]", diag.ClipText(strings.Join(res.Rules, ", "), diag.MaxTokenText))
	}
	return sb.String()
}

// explain describes a failure or error in a few lines, each quoting at
// most diag.MaxMessageText of what the scenario or the game gave (a
// scenario's 500 KB token or a list of 100,000 counts is not written back
// in full).
func (res Result) explain() []string {
	res.Error = diag.ClipText(res.Error, diag.MaxMessageText)
	res.Want = diag.ClipText(res.Want, diag.MaxMessageText)
	res.Got = diag.ClipText(res.Got, diag.MaxMessageText)
	var out []string
	where := ""
	if res.Step > 0 {
		where = fmt.Sprintf("step %d", res.Step)
		if res.StepName != "" {
			where += " (" + diag.ClipText(res.StepName, diag.MaxTokenText) + ")"
		}
		if res.Token != "" {
			where += ", token " + diag.ClipText(strconv.Quote(res.Token), diag.MaxTokenText)
		}
		where += ": "
	}
	if res.Error != "" && res.Field == "" {
		// An error of several lines (several rule labels) is indented whole.
		return append(out, strings.Split(where+res.Error, "\n")...)
	}
	if res.Error != "" {
		return append(out, fmt.Sprintf("%s%s: %s", where, res.Field, res.Error))
	}
	switch {
	case res.Field == "board":
		out = append(out, where+"board differs: "+res.Want)
	case res.Got == "":
		out = append(out, fmt.Sprintf("%s%s: want %s", where, res.Field, res.Want))
	default:
		out = append(out, fmt.Sprintf("%s%s differs", where, res.Field), "  want: "+res.Want, "  got:  "+res.Got)
	}
	if res.Detail != "" {
		out = append(out, strings.Split(strings.TrimRight(res.Detail, "\n"), "\n")...)
	}
	return out
}

// loadingPrefix starts the error of a scenario whose game does not load.
const loadingPrefix = "loading the game: "

// escaping writes text with its control characters escaped, newlines
// kept. Each write is a whole line (fmt.Fprint* writes at once), so no
// character is split between two writes.
type escaping struct{ w io.Writer }

func (e escaping) Write(b []byte) (int, error) {
	if _, err := io.WriteString(e.w, diag.EscapeControls(string(b))); err != nil {
		return 0, err
	}
	return len(b), nil
}
