package kernel

import (
	"errors"
	"fmt"
)

// Meter charges the steps of a call against its budget: the step meter
// every rule part and primitive charges for the work it does in Go, so a
// script pays for what it makes the host do.
type Meter interface {
	// Charge spends n steps and reports whether the budget still holds.
	Charge(n int) bool
	// Stopped reports whether the call was stopped (its time budget ran
	// out, or its caller gave up).
	Stopped() bool
}

// Steps counts the steps of a call against its limit. A Meter shares its
// counter with the Ctx (Ctx.Steps) by a method Counter() *Steps, so that
// charging a step costs no call through the Meter interface; the steps a
// Ctx charges are counted there, not by the Meter's Charge.
type Steps struct {
	Spent, Limit int64
	Over         bool // the call spent more than its limit
}

// Unmetered is a Meter without a budget.
type Unmetered struct{}

// Charge always succeeds.
func (Unmetered) Charge(int) bool { return true }

// Stopped is always false.
func (Unmetered) Stopped() bool { return false }

// ErrSteps is the error of a call whose step budget ran out.
var ErrSteps = errors.New("matombo: step budget exceeded")

// RuleError is the failure of a rule: what the rule was asked to do is
// not possible on this state (a site to sow from is empty, a count would
// overflow). The host reports it as a script error.
type RuleError struct {
	Msg  string
	Hook int // the script function (a hook's ID + 1) whose result the rule refused; 0 for none
}

func (e *RuleError) Error() string { return e.Msg }

// Failf makes a RuleError.
func Failf(format string, args ...any) error {
	return &RuleError{Msg: fmt.Sprintf(format, args...)}
}

// BudgetStep is the name of the step budget.
const BudgetStep = "step"

// BudgetExceeded is a rule that went over a budget other than the step
// meter's, such as the work bound of one sowing.
type BudgetExceeded struct {
	Budget string // e.g. "steps"
	Limit  string // the limit, e.g. "4194304 site visits in one sowing call"
	Detail string
}

func (e *BudgetExceeded) Error() string {
	return fmt.Sprintf("%s budget exceeded (limit %s): %s", e.Budget, e.Limit, e.Detail)
}
