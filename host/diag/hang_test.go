package diag

import (
	"errors"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestHang: only a call the time budget stopped is a hang, wrapped or not.
func TestHang(t *testing.T) {
	timeout := &BudgetError{Budget: BudgetTime, Limit: "30s"}
	for _, c := range []struct {
		name string
		err  error
		want *BudgetError
	}{
		{"the time budget", timeout, timeout},
		{"wrapped", fmt.Errorf("loading: %w", timeout), timeout},
		{"the step budget", &BudgetError{Budget: BudgetSteps}, nil},
		{"the memory budget", &BudgetError{Budget: BudgetMemory}, nil},
		{"a script error", &ScriptError{Msg: "boom"}, nil},
		{"another error", errors.New("no"), nil},
		{"none", nil, nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			assert.Same(t, c.want, Hang(c.err))
		})
	}
}

// TestScriptFailed: a script's error or budget, wrapped or not, and
// nothing else.
func TestScriptFailed(t *testing.T) {
	for _, c := range []struct {
		name string
		err  error
		want bool
	}{
		{"a script error", &ScriptError{Msg: "boom"}, true},
		{"a budget", fmt.Errorf("play: %w", &BudgetError{Budget: BudgetSteps}), true},
		{"an illegal token", &IllegalMoveError{Token: "x"}, false},
		{"a configuration error", &ConfigError{Msg: "no"}, false},
		{"another error", errors.New("no"), false},
		{"none", nil, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			assert.Equal(t, c.want, ScriptFailed(c.err))
		})
	}
}
