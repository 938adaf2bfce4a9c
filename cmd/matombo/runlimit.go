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

// interruptedError is why a run stopped at Ctrl-C, SIGINT or SIGTERM: the
// cause of its context. Its text is "interrupted", whichever the signal;
// exitStatus makes it 128 plus the signal's number, as shells do.
type interruptedError struct{ sig syscall.Signal }

func (e interruptedError) Error() string { return "interrupted" }

// status is the exit status of a run the signal stopped: 130 for SIGINT,
// 143 for SIGTERM.
func (e interruptedError) status() int { return 128 + int(e.sig) }

// runTimeFlag defines --max-time, the time limit of a whole run of conform
// or check, from 1ms to maxDuration.
func (c *cli) runTimeFlag() *time.Duration {
	p := new(time.Duration)
	durationVar(c.fs, p, "max-time", defaultRunTime, time.Millisecond, maxDuration,
		"stop the run after `DURATION` (e.g. 90s, 2h; at most "+maxDuration.String()+"), reporting what it did not do")
	return p
}

// runContext is the context of a whole run of conform or check: done when
// maxTime has passed, or at the first Ctrl-C, SIGINT or SIGTERM (see
// interruptContext), with a cause that says which: "the run's time limit
// of 10m0s was reached" or an interruptedError. stop releases it and gives
// the signals back.
func (e *env) runContext(maxTime time.Duration) (ctx context.Context, stop func()) {
	run, stopSignals := e.interruptContext(context.Background())
	ctx, cancelTimer := context.WithTimeoutCause(run, maxTime, fmt.Errorf("the run's time limit of %v was reached", maxTime))
	return ctx, func() {
		cancelTimer()
		stopSignals()
	}
}

// interruptContext is parent, done too at the first Ctrl-C, SIGINT or
// SIGTERM with an interruptedError as its cause. The signals are caught
// until that first one arrives, so the run can stop cleanly and write
// what it did; a second one ends the process as usual. stop releases the
// context and gives the signals back.
func (e *env) interruptContext(parent context.Context) (ctx context.Context, stop func()) {
	ctx, cancel := context.WithCancelCause(parent)
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	done := make(chan struct{})
	go func() {
		defer close(done)
		select {
		case s := <-sigs:
			signal.Stop(sigs)
			sig, _ := s.(syscall.Signal)
			cancel(interruptedError{sig: sig})
		case <-ctx.Done():
			signal.Stop(sigs)
		}
	}()
	if e.onRun != nil {
		e.onRun()
	}
	return ctx, func() {
		cancel(nil)
		<-done
	}
}

// interruption is the interruptedError that stopped ctx, if one did.
func interruption(ctx context.Context) (interruptedError, bool) {
	var ie interruptedError
	ok := errors.As(context.Cause(ctx), &ie)
	return ie, ok
}

// stoppedStatus is the exit status of a run that ctx stopped: 128 plus the
// signal's number when a signal did (see interruptedError), else exitFail.
func stoppedStatus(ctx context.Context) int {
	if ie, ok := interruption(ctx); ok {
		return ie.status()
	}
	return exitFail
}
