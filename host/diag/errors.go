// Package diag holds the errors of the host and what they say about a
// place in a script or a file: positions, the typed errors with their
// stable codes, and the checks of text a script gives the host.
package diag

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"
)

// The stable codes of the host's errors, one per kind: every error type of
// the host has a Code method returning one of them, and CodeOf finds
// the code of an error wrapped anywhere in a chain. Messages keep
// improving; codes do not change, so a program, a scenario (error_code)
// or a client of the server tells kinds of errors apart by their codes,
// never by their words. New kinds may be added; no code is renamed or
// removed.
const (
	CodeConfig       = "config-error"  // *ConfigError: an unknown game, variant or parameter, a bad value, a broken variants file
	CodeScript       = "script-error"  // *ScriptError: a syntax error, a Lua error, a bad argument to a primitive, a bad return value
	CodeIllegalToken = "illegal-token" // *IllegalMoveError: a token or move that is not legal now
	CodeGameOver     = "game-over"     // *IllegalMoveError, ErrGameOver: a move, a resignation or a draw on a finished game
	CodeCanceled     = "canceled"      // *CanceledError: the caller's context was done
	CodeGameClosed   = "game-closed"   // ErrClosed: a call into the script of a closed game
	CodeBadPosition  = "bad-position"  // *PositionError: a position, encoding or state JSON that does not read
	CodeBadDiagram   = "bad-diagram"   // *DiagramError: a board diagram that does not read
	CodeBadEffect    = "bad-effect"    // *EffectError: an effect that does not apply to a position

	// *BudgetError: a call stopped by one of the sandbox's budgets, by
	// budget (see Budget).
	CodeBudgetSteps      = "budget-steps"
	CodeBudgetTime       = "budget-time"
	CodeBudgetMemory     = "budget-memory"
	CodeBudgetCallStack  = "budget-call-stack"
	CodeBudgetDataStack  = "budget-data-stack"
	CodeBudgetStringSize = "budget-string-size"
	CodeBudgetTableSize  = "budget-table-size"
	CodeBudgetPattern    = "budget-pattern"
	CodeBudgetLoad       = "budget-load"
)

// Codes lists every code of the host's errors, in the order of the
// documentation.
func Codes() []string {
	return []string{CodeConfig, CodeScript, CodeIllegalToken, CodeGameOver, CodeCanceled, CodeGameClosed,
		CodeBadPosition, CodeBadDiagram, CodeBadEffect,
		CodeBudgetSteps, CodeBudgetTime, CodeBudgetMemory, CodeBudgetCallStack, CodeBudgetDataStack,
		CodeBudgetStringSize, CodeBudgetTableSize, CodeBudgetPattern, CodeBudgetLoad}
}

// CodeOf returns the stable code of err: that of the first error in its
// chain with a Code method (errors.As), or "" when there is none.
func CodeOf(err error) string {
	var c interface{ Code() string }
	if errors.As(err, &c) {
		return c.Code()
	}
	return ""
}

// Pos is a place in a source file. Line and Col count from 1; zero means
// unknown. Where the parser gives a range (a syntax error's token, a
// statement over several lines, a YAML scalar) EndLine and EndCol mark its
// last line and column, as hcl's ranges do; they are zero otherwise.
type Pos struct {
	File string
	Line int
	Col  int

	EndLine int // the last line of the range, when there is one
	EndCol  int // the last column of the range, on EndLine, when known
}

// String formats the start of the position as file:line:col, leaving out
// what is unknown.
func (p Pos) String() string {
	switch {
	case p.File == "":
		return ""
	case p.Line == 0:
		return p.File
	case p.Col == 0:
		return fmt.Sprintf("%s:%d", p.File, p.Line)
	default:
		return fmt.Sprintf("%s:%d:%d", p.File, p.Line, p.Col)
	}
}

func PrefixPos(p Pos, msg string) string {
	// A message may quote anything a script passed: its control
	// characters are shown as escapes, never sent to a terminal.
	msg = ClipText(msg, 2*MaxMessageText) // a message of several parts, each clipped where it is made
	if s := p.String(); s != "" {
		return EscapeControls(s + ": " + msg)
	}
	return EscapeControls(msg)
}

// ConfigError reports a problem in a game's configuration: its variants
// file, a parameter value, a declaration the script made while loading, or a
// game that cannot be found.
type ConfigError struct {
	Pos     Pos      // where the problem is, when it is in a file
	Param   string   // the parameter concerned, if any
	Msg     string   // what is wrong
	Allowed []string // what would be accepted, if there is a short list
	Err     error    // the underlying error (of the file system, YAML or a number's syntax), if any
}

// Unwrap returns the underlying error, so that errors.Is(err,
// fs.ErrNotExist) and errors.As work through a ConfigError.
func (e *ConfigError) Unwrap() error { return e.Err }

// Code returns "config-error" (see CodeConfig).
func (e *ConfigError) Code() string { return CodeConfig }

func (e *ConfigError) Error() string {
	msg := e.Msg
	if e.Param != "" && !strings.Contains(msg, e.Param) {
		msg = fmt.Sprintf("parameter %s: %s", e.Param, msg)
	}
	if len(e.Allowed) > 0 {
		msg += " (allowed: " + strings.Join(e.Allowed, ", ") + ")"
	}
	return PrefixPos(e.Pos, msg)
}

// ScriptError reports a Lua error raised while a script ran: a syntax
// error, a runtime error, a bad argument to a primitive or a rule the host
// enforces on scripts.
type ScriptError struct {
	Pos       Pos    // the script line where it happened, when known
	Func      Call   // the script function that was running
	Msg       string // the message without the position
	Traceback string // the Lua stack traceback, when there is one
	Err       error  // gopher-lua's error (*lua.ApiError, *parse.Error, *lua.CompileError), when there is one
}

// Unwrap returns gopher-lua's error, when there is one.
func (e *ScriptError) Unwrap() error { return e.Err }

// Call names the script function a host call runs.
type Call string

// The script functions the host calls.
const (
	CallLoad     Call = "load"     // the script's chunk, declaring the game
	CallSetup    Call = "setup"    // setting up the opening
	CallLegal    Call = "legal"    // listing the legal moves
	CallPlay     Call = "play"     // playing a move
	CallBlocked  Call = "blocked"  // ending the game of a player without moves
	CallRepeated Call = "repeated" // ending the game on a repeated position
	CallResult   Call = "result"   // deciding the result of a set-up position
	CallEvaluate Call = "evaluate" // scoring a position for a search
	CallScore    Call = "score"    // the players' scores of a position
	CallPrompt   Call = "prompt"   // what the decision of a position asks
	CallWhy      Call = "why"      // a move kind's why function: why a move is not possible
)

// Code returns "script-error" (see CodeScript).
func (e *ScriptError) Code() string { return CodeScript }

func (e *ScriptError) Error() string {
	msg := e.Msg
	if e.Func != "" {
		msg = fmt.Sprintf("%s (in %s)", msg, e.Func)
	}
	return PrefixPos(e.Pos, msg)
}

// BudgetError reports a script call stopped because it exceeded one of the
// sandbox's budgets.
type BudgetError struct {
	Pos    Pos    // the script line where it was stopped, when known
	Func   Call   // the script function that was running
	Budget Budget // which budget
	Limit  string // the limit, e.g. "2000000 steps"
	Detail string // what the script was doing, when known
	Err    error  // the error gopher-lua raised in the script (*lua.ApiError), when there is one
}

// Unwrap returns the error gopher-lua raised, when there is one.
func (e *BudgetError) Unwrap() error { return e.Err }

// Budget names one of the sandbox's budgets. BudgetSteps and the size
// budgets are deterministic: a call exceeds them on every machine or on
// none. BudgetTime depends on the machine and its load (it guards against
// hangs only), and BudgetMemory on what the script holds when measured,
// which is when the process has allocated enough: sooner when other code
// in the process allocates too.
type Budget string

// The budgets of a call (see Limits).
const (
	BudgetSteps      Budget = "step"        // Lua instructions and primitive work
	BudgetTime       Budget = "time"        // wall time, a guard against hangs
	BudgetMemory     Budget = "memory"      // memory the script holds
	BudgetCallStack  Budget = "call stack"  // Lua call frames
	BudgetDataStack  Budget = "data stack"  // Lua stack slots
	BudgetStringSize Budget = "string size" // strings library functions build or scan
	BudgetTableSize  Budget = "table size"  // tables library functions grow or join
	BudgetPattern    Budget = "pattern"     // backtracking of pattern matching
	BudgetLoad       Budget = "load"        // work while loading a game
)

// Deterministic reports whether the budget gives the same verdict on every
// machine under any load, so that a caller can tell a script bug from an
// overloaded machine.
func (b Budget) Deterministic() bool { return b != BudgetTime && b != BudgetMemory }

// ScriptFailed reports whether err is a game's script failing: an error
// the script raised or made (a *ScriptError), or a budget it ran out of
// (a *BudgetError); not the caller's input, a context, or the host's own.
func ScriptFailed(err error) bool {
	var se *ScriptError
	var be *BudgetError
	return errors.As(err, &se) || errors.As(err, &be)
}

// Hang returns err's budget error when err is a call the time budget
// stopped, else nil: a hang the step count cannot see, which the same
// call meets again, each time taking the whole budget. Tools that call a
// script many times (check, conform, a server) stop calling it then.
func Hang(err error) *BudgetError {
	var be *BudgetError
	if errors.As(err, &be) && be.Budget == BudgetTime {
		return be
	}
	return nil
}

// Code returns the code of the budget: "budget-steps", "budget-time",
// "budget-memory", ... (see CodeBudgetSteps).
func (e *BudgetError) Code() string { return e.Budget.Code() }

// Code is the stable error code of a BudgetError for the budget b.
func (b Budget) Code() string {
	switch b {
	case BudgetSteps:
		return CodeBudgetSteps
	case BudgetTime:
		return CodeBudgetTime
	case BudgetMemory:
		return CodeBudgetMemory
	case BudgetCallStack:
		return CodeBudgetCallStack
	case BudgetDataStack:
		return CodeBudgetDataStack
	case BudgetStringSize:
		return CodeBudgetStringSize
	case BudgetTableSize:
		return CodeBudgetTableSize
	case BudgetPattern:
		return CodeBudgetPattern
	case BudgetLoad:
		return CodeBudgetLoad
	}
	return "budget-" + strings.ReplaceAll(string(b), " ", "-")
}

func (e *BudgetError) Error() string {
	msg := fmt.Sprintf("%s budget exceeded", e.Budget)
	if e.Limit != "" {
		msg += " (limit " + e.Limit + ")"
	}
	if e.Detail != "" {
		msg += ": " + e.Detail
	}
	if e.Func != "" {
		msg += " (in " + string(e.Func) + ")"
	}
	return PrefixPos(e.Pos, msg)
}

// CanceledError reports a script call stopped because its caller's
// context was done (see Runner.SetContext, State.ApplyContext and
// Library.LoadContext): the call stopped between two instructions, or did
// not start. errors.Is(err, context.Canceled) or errors.Is(err,
// context.DeadlineExceeded) holds, as the context's Err says, and
// errors.Is with the context's cause when it was canceled with one.
type CanceledError struct {
	Pos   Pos   // the script line where it was stopped, when known
	Func  Call  // the script function that was running, when one was
	Err   error // the context's Err: context.Canceled or context.DeadlineExceeded
	Cause error // context.Cause of the context, when it differs from Err
}

// Code returns "canceled" (see CodeCanceled).
func (e *CanceledError) Code() string { return CodeCanceled }

func (e *CanceledError) Error() string {
	msg := "script call canceled: " + e.Err.Error()
	if e.Cause != nil {
		msg += " (" + e.Cause.Error() + ")"
	}
	if e.Func != "" {
		msg += " (in " + string(e.Func) + ")"
	}
	return PrefixPos(e.Pos, msg)
}

// Unwrap returns the context's error and its cause.
func (e *CanceledError) Unwrap() []error {
	if e.Cause != nil {
		return []error{e.Err, e.Cause}
	}
	return []error{e.Err}
}

// Canceled is the error of a call stopped because ctx is done.
func Canceled(ctx context.Context, pos Pos, fn Call) *CanceledError {
	e := &CanceledError{Pos: pos, Func: fn, Err: ctx.Err()}
	if e.Err == nil {
		e.Err = context.Canceled
	}
	if c := context.Cause(ctx); c != nil && c != e.Err {
		e.Cause = c
	}
	return e
}

// IllegalMoveError reports a token that is not legal in a state. The state
// is left unchanged.
type IllegalMoveError struct {
	Token    string   // the token as given
	Legal    []string // the legal tokens of the state, in order
	Reason   string   // why: which part of the token is wrong and what is possible there, e.g. "a7 is not possible for a sow now (possible: a1 a2)"
	GameOver bool     // the game is over: no token is legal
}

// Code returns "game-over" for a move on a finished game, else
// "illegal-token" (see CodeIllegalToken).
func (e *IllegalMoveError) Code() string {
	if e.GameOver {
		return CodeGameOver
	}
	return CodeIllegalToken
}

// Is reports whether target is ErrGameOver for a move on a finished game,
// which has its code, so that errors.Is tells a finished game whether the
// error came from a move, a resignation or a draw.
func (e *IllegalMoveError) Is(target error) bool { return e.GameOver && target == ErrGameOver }

// Error says which token, why, and the legal tokens. It always contains
// the words "not a legal token", which scenarios written before the
// reasons were given match on.
func (e *IllegalMoveError) Error() string {
	reason := ClipText(e.Reason, MaxMessageText)
	if reason == "" {
		reason = "not a legal token here"
	}
	tok := strconv.Quote(e.Token)
	if len(e.Token) > MaxTokenText {
		tok = ClipText(tok, MaxTokenText)
	}
	msg := fmt.Sprintf("illegal token %s: %s", tok, reason)
	if len(e.Legal) == 0 {
		msg += "; there are no legal tokens"
	} else {
		msg += "; legal tokens: " + ClipText(strings.Join(e.Legal, " "), MaxLegalText)
	}
	if e.Reason != "" {
		if len(e.Token) > MaxTokenText {
			tok = "the token"
		}
		msg += "; " + tok + " is not a legal token here"
	}
	return msg
}

// NotLegalHere is the sentence a person reads for a refused token: the
// token quoted (its first MaxTokenText bytes), then why, when there is a
// reason. The terminal and the browser board say it alike; the error's own
// text (IllegalMoveError.Error) stays for programs and scenarios.
func NotLegalHere(token, why string) string {
	msg := ClipText(strconv.Quote(token), MaxTokenText) + " is not a legal move here"
	if why != "" {
		msg += ": " + why
	}
	return msg
}

// Bounds of the text an error quotes from its input, so that a message
// stays readable (and a megabyte of input is not sent back in full).
const (
	MaxTokenText   = 1 << 10 // a token quoted by IllegalMoveError
	MaxLegalText   = 4 << 10 // the legal tokens listed by IllegalMoveError
	MaxMessageText = 4 << 10 // a script's error message (and what a host error quotes)
	MaxTraceText   = 4 << 10 // a Lua traceback
)

// ClipText cuts s to at most max bytes (at a character boundary) and says
// how much was cut.
func ClipText(s string, max int) string {
	if len(s) <= max {
		return s
	}
	cut := max
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return fmt.Sprintf("%s... (%d more bytes cut)", s[:cut], len(s)-cut)
}

// Diagnostics are the problems found at once in a script or a file, in
// the order they were found (a load reports every problem it can, not
// only the first, as hcl's diagnostics do). It is an error; errors.As
// finds each of its errors.
type Diagnostics []error

// Error lists the problems, one a line.
func (d Diagnostics) Error() string {
	lines := make([]string, len(d))
	for i, e := range d {
		lines[i] = e.Error()
	}
	return strings.Join(lines, "\n")
}

// Unwrap returns the problems, for errors.Is and errors.As.
func (d Diagnostics) Unwrap() []error { return d }

// Code is the code of the first problem.
func (d Diagnostics) Code() string {
	if len(d) == 0 {
		return ""
	}
	return CodeOf(d[0])
}

// Err returns nil for no problem, the problem itself for one, and the
// Diagnostics for more.
func (d Diagnostics) Err() error {
	switch len(d) {
	case 0:
		return nil
	case 1:
		return d[0]
	}
	return d
}

// ErrClosed is the error of a call into the script of a game after it was
// closed. Its code is "game-closed".
var ErrClosed error = closedError{}

type closedError struct{}

func (closedError) Error() string { return "host: the game is closed" }

// Code returns "game-closed" (see CodeGameClosed).
func (closedError) Code() string { return CodeGameClosed }

// ErrGameOver is the error of an ending the players decide (a
// resignation, a draw by agreement) asked of a finished game. Its code is
// "game-over".
var ErrGameOver error = gameOverError{}

type gameOverError struct{}

func (gameOverError) Error() string { return "the game is over" }

// Code returns "game-over" (see CodeGameOver).
func (gameOverError) Code() string { return CodeGameOver }
