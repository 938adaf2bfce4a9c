package watchdog

import (
	"context"
	"runtime"
	"testing"
	"time"
)

// The watchdog's decisions are tested through scan with a clock the test
// sets, so nothing here depends on how fast the machine is.

// A call that began while the watchdog was stopped read the clock as it
// stood then; after a restart it must be timed from the restart, not look
// as old as the pause. A call that really runs too long is still stopped.
func TestWatchdogTimesCallsFromRestart(t *testing.T) {
	w := New(50 * time.Millisecond)
	tw := NewTripwire(2_000_000, 256<<20, nil)
	w.Add(tw)
	w.clock.Store(10) // the clock stood at 10 when the watchdog stopped
	w.running.Store(true)
	seq := w.Begin(tw, nil)
	restart := int64(1000)
	if !w.scan(restart+5, restart) {
		t.Fatal("scan did not see the call in progress")
	}
	if tw.Done() != nil || tw.FiredFor(seq) != None {
		t.Fatal("a call that just began was tripped after the watchdog restarted")
	}
	w.scan(restart+w.maxTicks+1, restart)
	if tw.Done() == nil || tw.FiredFor(seq) != Time {
		t.Fatal("an overdue call was not tripped")
	}
	w.End(tw)
	if w.scan(restart+2*w.maxTicks, restart) {
		t.Fatal("scan saw a call after it ended")
	}
}

// The step budget counts instructions and stops a call exactly when they
// are spent; a new call starts with a fresh count.
func TestTripwireSteps(t *testing.T) {
	w := New(30 * time.Second)
	tw := NewTripwire(100, 256<<20, nil)
	w.Add(tw)
	for call := 0; call < 2; call++ {
		seq := w.Begin(tw, nil)
		for i := 0; i < 100; i++ {
			if tw.Done() != nil {
				t.Fatalf("call %d stopped after %d steps, want 100", call, i)
			}
		}
		if tw.Done() == nil || tw.FiredFor(seq) != Steps || tw.Err() != errStepBudget {
			t.Fatalf("call %d was not stopped at its 101st step", call)
		}
		w.End(tw)
	}
	w.Begin(tw, nil)
	if !tw.Charge(60) || tw.Charge(41) {
		t.Fatal("charge did not spend steps exactly")
	}
	w.End(tw)
}

// The script is measured only when the machine reads the allocation
// counter, once per mem.every steps of its calls, and the process has
// allocated more than the room the script had under its limit when last
// measured; the call stops only when the measurement is over the limit.
// The steps between two reads carry over from one call to the next.
func TestMemoryIsMeasuredAfterAllocation(t *testing.T) {
	w := New(30 * time.Second)
	const limit = 1 << 20
	held, measured := uint64(0), 0
	tw := NewTripwire(1<<40, limit, func() uint64 { measured++; return held })
	w.Add(tw)
	run := func(n int64) bool {
		for range n {
			if tw.Done() != nil {
				return true
			}
		}
		return false
	}
	var keep [][]byte
	seq := w.Begin(tw, nil)
	tw.Measured(0)
	if run(1) || measured != 0 {
		t.Fatal("measured before anything was allocated")
	}
	keep = append(keep, make([]byte, 2*limit))
	if run(tw.mem.every-1) || measured != 0 {
		t.Fatal("measured before the steps between two reads were run")
	}
	if run(1) || measured != 1 {
		t.Fatalf("not measured once after allocating twice the limit (%d measurements)", measured)
	}
	w.End(tw)

	seq = w.Begin(tw, nil)
	held = 2 * limit
	keep = append(keep, make([]byte, 2*limit))
	if run(tw.mem.every-1) || measured != 1 {
		t.Fatal("measured before the steps between two reads, carried over from the last call, were run")
	}
	if !run(1) || measured != 2 || tw.FiredFor(seq) != Memory || tw.Err() != errMemoryBudget {
		t.Fatal("a call whose script holds more than the limit was not stopped")
	}
	w.End(tw)
	runtime.KeepAlive(keep)
}

// A call begun with a context that is done stops at its first step; one
// whose context is done while it runs is stopped by the watchdog's next
// scan, between two steps; a call without a context never is.
func TestCancel(t *testing.T) {
	w := New(30 * time.Second)
	tw := NewTripwire(1<<40, 256<<20, nil)
	w.Add(tw)
	if NewCancel(context.Background()) != nil || NewCancel(nil) != nil {
		t.Fatal("a context that is never done needs no Cancel")
	}

	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	seq := w.Begin(tw, NewCancel(ctx))
	if tw.Done() == nil || tw.FiredFor(seq) != Canceled || tw.Err() != errCanceled {
		t.Fatal("a call begun with a done context was not stopped at once")
	}
	w.End(tw)

	ctx, cancel = context.WithCancel(context.Background())
	seq = w.Begin(tw, NewCancel(ctx))
	w.scan(1, 0)
	if tw.Done() != nil {
		t.Fatal("a call was stopped before its context was done")
	}
	cancel()
	if tw.Done() != nil {
		t.Fatal("the call was stopped before the watchdog saw the context")
	}
	w.scan(2, 0)
	if tw.Done() == nil || tw.FiredFor(seq) != Canceled {
		t.Fatal("the watchdog did not stop a call whose context is done")
	}
	w.End(tw)

	seq = w.Begin(tw, nil)
	w.scan(3, 0)
	if tw.Done() != nil || tw.FiredFor(seq) != None {
		t.Fatal("a call without a context was stopped")
	}
	w.End(tw)
}

// The open upvalues are counted every UpvalueEvery steps of a call, and
// those steps are charged their walks past the first UpvalueFree; a call
// with no more than those is charged nothing, and a long list stops a
// call before its budget's instructions run.
func TestOpenUpvaluesAreCharged(t *testing.T) {
	for _, c := range []struct {
		open  int
		steps int // the instructions a call of 100,000 steps runs
	}{
		{0, 100_000},
		{UpvalueFree, 100_000},
		// 4*UpvalueEvery steps charged for every UpvalueEvery
		// instructions: a fifth of the budget's instructions run.
		{UpvalueFree + 4*UpvaluesPerStep, 100_000 / 5},
	} {
		w := New(30 * time.Second)
		tw := NewTripwire(100_000, 256<<20, nil)
		w.Add(tw)
		counts := 0
		tw.WatchUpvalues(func(most int) int { counts++; return min(c.open, most) })
		w.Begin(tw, nil)
		ran := 0
		for tw.Done() == nil {
			ran++
		}
		w.End(tw)
		if ran < c.steps-UpvalueEvery || ran > c.steps+UpvalueEvery {
			t.Errorf("%d open upvalues: a call ran %d instructions, want %d (within %d)", c.open, ran, c.steps, UpvalueEvery)
		}
		if want := ran / UpvalueEvery; counts < want-1 || counts > want+1 {
			t.Errorf("%d open upvalues: counted %d times in %d instructions", c.open, counts, ran)
		}
	}
}
