// Package conformance runs conformance scenarios: documented cases of a
// game's rules written as YAML data (a start position, tokens to play and
// what must hold afterwards), against a game loaded by the host.
//
// Load parses scenario files strictly, keeping the file and line of every
// part, so a malformed file is reported where it is wrong and never passes
// silently. Run plays each scenario against games from a host.Library and
// returns a Report: per scenario, passed, failed (with the step, the first
// differing field, and the expected and actual values, boards side by side)
// or errored. RunContext bounds a run by a context: a run stopped by its
// time limit or by an interrupt stops the script call in progress and
// reports the scenarios it stopped or did not start as errors, never as
// passes. The format is documented in docs/scenarios.md and described for
// editors by scenario.schema.json.
package conformance
