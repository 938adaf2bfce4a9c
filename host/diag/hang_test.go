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
