package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"syscall"
	"time"
)

// defaultRunTime is the --max-time of conform and check when none is
// given: every shipped scenario runs in seconds and a check of a shipped
// game in a minute or less, so only a run that would go on for hours (a
// file of 100,000 tokens, a script that spends its whole budget on every
// call) reaches it.
const defaultRunTime = 30 * time.Minute

// errInterrupted is why a run stopped at Ctrl-C, SIGINT or SIGTERM.
var errInterrupted = errors.New("interrupted")

// runTimeFlag defines --max-time, the time limit of a whole run of conform
// or check, from 1ms to maxDuration.
func (c *cli) runTimeFlag() *time.Duration {
	p := new(time.Duration)
	durationVar(c.fs, p, "max-time", defaultRunTime, time.Millisecond, maxDuration,
		"stop the run after `DURATION` (e.g. 90s, 2h; at most "+maxDuration.String()+"), reporting what it did not do")
	return p
}

// runContext is the context of a whole run of conform or check: done when
// maxTime has passed, or at the first Ctrl-C, SIGINT or SIGTERM (a second
// one ends the process as usual), with a cause that says which:
// "the run's time limit of 10m0s was reached" or "interrupted". stop
// releases it and gives the signals back.
func (e *env) runContext(maxTime time.Duration) (ctx context.Context, stop func()) {
	run, cancel := context.WithCancelCause(context.Background())
	signals, stopSignals := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	stopWatch := context.AfterFunc(signals, func() {
		cancel(errInterrupted)
		stopSignals()
	})
	ctx, cancelTimer := context.WithTimeoutCause(run, maxTime, fmt.Errorf("the run's time limit of %v was reached", maxTime))
	if e.onRun != nil {
		e.onRun()
	}
	return ctx, func() {
		stopWatch()
		stopSignals()
		cancelTimer()
		cancel(nil)
	}
}
