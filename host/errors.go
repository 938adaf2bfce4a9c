package host

import (
	"context"

	"github.com/matombo/matombo/host/diag"
)

// The host's errors are those of package diag, under the names embedders
// know them by.

// ErrClosed is the error of a call into the script of a game after
// Game.Close. Its code is "game-closed".
var ErrClosed = diag.ErrClosed

// ErrGameOver is returned by State.Resign and State.AgreeDraw for a
// finished game. Its code is "game-over". errors.Is finds it also in the
// *IllegalMoveError of a move on a finished game (GameOver true), which
// has the same code, and in player.ErrGameOver.
var ErrGameOver = diag.ErrGameOver

// Pos is a place in a source file (see diag.Pos).
type Pos = diag.Pos

// ConfigError reports a problem in a game's configuration (see
// diag.ConfigError).
type ConfigError = diag.ConfigError

// ScriptError reports a Lua error raised while a script ran (see
// diag.ScriptError).
type ScriptError = diag.ScriptError

// BudgetError reports a call stopped by one of the sandbox's budgets (see
// diag.BudgetError).
type BudgetError = diag.BudgetError

// CanceledError reports a call stopped because its context was done (see
// diag.CanceledError).
type CanceledError = diag.CanceledError

// IllegalMoveError reports a token that is not legal in a state (see
// diag.IllegalMoveError).
type IllegalMoveError = diag.IllegalMoveError

// Diagnostics are every problem found at once (see diag.Diagnostics).
type Diagnostics = diag.Diagnostics

// Call names the script function a host call runs (see diag.Call).
type Call = diag.Call

// The script functions the host calls.
const (
	CallLoad     = diag.CallLoad
	CallSetup    = diag.CallSetup
	CallLegal    = diag.CallLegal
	CallPlay     = diag.CallPlay
	CallBlocked  = diag.CallBlocked
	CallRepeated = diag.CallRepeated
	CallResult   = diag.CallResult
	CallEvaluate = diag.CallEvaluate
	CallScore    = diag.CallScore
	CallPrompt   = diag.CallPrompt
	CallWhy      = diag.CallWhy
)

// Budget names one of the sandbox's budgets (see diag.Budget).
type Budget = diag.Budget

// The budgets.
const (
	BudgetSteps      = diag.BudgetSteps
	BudgetTime       = diag.BudgetTime
	BudgetMemory     = diag.BudgetMemory
	BudgetCallStack  = diag.BudgetCallStack
	BudgetDataStack  = diag.BudgetDataStack
	BudgetStringSize = diag.BudgetStringSize
	BudgetTableSize  = diag.BudgetTableSize
	BudgetPattern    = diag.BudgetPattern
	BudgetLoad       = diag.BudgetLoad
)

// The stable codes of the host's errors (see diag.Codes).
const (
	CodeConfig           = diag.CodeConfig
	CodeScript           = diag.CodeScript
	CodeIllegalToken     = diag.CodeIllegalToken
	CodeGameOver         = diag.CodeGameOver
	CodeCanceled         = diag.CodeCanceled
	CodeGameClosed       = diag.CodeGameClosed
	CodeBadPosition      = diag.CodeBadPosition
	CodeBadDiagram       = diag.CodeBadDiagram
	CodeBadEffect        = diag.CodeBadEffect
	CodeBudgetSteps      = diag.CodeBudgetSteps
	CodeBudgetTime       = diag.CodeBudgetTime
	CodeBudgetMemory     = diag.CodeBudgetMemory
	CodeBudgetCallStack  = diag.CodeBudgetCallStack
	CodeBudgetDataStack  = diag.CodeBudgetDataStack
	CodeBudgetStringSize = diag.CodeBudgetStringSize
	CodeBudgetTableSize  = diag.CodeBudgetTableSize
	CodeBudgetPattern    = diag.CodeBudgetPattern
	CodeBudgetLoad       = diag.CodeBudgetLoad
)

// ErrorCodes lists every code of the host's errors, in the order of the
// documentation.
func ErrorCodes() []string { return diag.Codes() }

// ErrorCode returns the stable code of err: that of the first error in its
// chain with a Code method (errors.As), or "" when there is none.
func ErrorCode(err error) string { return diag.CodeOf(err) }

func canceled(ctx context.Context, pos Pos, fn Call) *CanceledError {
	return diag.Canceled(ctx, pos, fn)
}
