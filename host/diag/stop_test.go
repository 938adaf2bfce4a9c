package diag

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"
)

func TestStopReason(t *testing.T) {
	canceled, cancel := context.WithCancel(context.Background())
	cancel()
	late, cancelLate := context.WithDeadline(context.Background(), time.Unix(0, 0))
	defer cancelLate()
	caused, cancelCause := context.WithCancelCause(context.Background())
	cancelCause(errors.New("interrupted"))
	timed, cancelTimed := context.WithTimeoutCause(context.Background(), 0, errors.New("the run's time limit of 1s was reached"))
	defer cancelTimed()
	tests := []struct {
		name string
		ctx  context.Context
		want string
	}{
		{"running", context.Background(), ""},
		{"canceled", canceled, "canceled"},
		{"past its deadline", late, "the deadline was reached"},
		{"a cause", caused, "interrupted"},
		{"a time limit's cause", timed, "the run's time limit of 1s was reached"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := StopReason(tt.ctx); got != tt.want {
				t.Errorf("StopReason = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestStoppedBy(t *testing.T) {
	running := context.Background()
	done, cancel := context.WithCancel(context.Background())
	cancel()
	canceled := &CanceledError{Func: CallPlay, Err: context.Canceled}
	tests := []struct {
		name string
		ctx  context.Context
		err  error
		want bool
	}{
		{"a stopped script call", running, fmt.Errorf("playing: %w", canceled), true},
		{"the context's own error", done, fmt.Errorf("loading: %w", context.Canceled), true},
		{"the context's error while it runs", running, context.Canceled, false},
		{"another error of a done context", done, errors.New("a1 is not legal"), false},
		{"no error", done, nil, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := StoppedBy(tt.ctx, tt.err); got != tt.want {
				t.Errorf("StoppedBy = %v, want %v", got, tt.want)
			}
		})
	}
}
