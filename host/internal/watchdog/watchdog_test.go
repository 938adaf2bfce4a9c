package watchdog

import (
	"context"
	"runtime/metrics"
	"testing"
	"time"
)

// The watchdog's decisions are tested through scan with a clock the test
// sets, so nothing here depends on how fast the machine is.

// A call that began while the watchdog was stopped read the clock as it
// stood then; after a restart it must be timed from the restart, not look
// as old as the pause. A call that really runs too long is still stopped.
func TestWatchdogTimesCallsFromRestart(t *testing.T) {
	w := New(50*time.Millisecond, 256<<20)
	tw := NewTripwire(2_000_000, 256<<20, nil)
	w.Add(tw)
	w.clock.Store(10) // the clock stood at 10 when the watchdog stopped
	w.running.Store(true)
	seq := w.Begin(tw, nil)
	restart := int64(1000)
	sample := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	if !w.scan(restart+5, restart, sample) {
		t.Fatal("scan did not see the call in progress")
	}
	if tw.Done() != nil || tw.FiredFor(seq) != None {
		t.Fatal("a call that just began was tripped after the watchdog restarted")
	}
	w.scan(restart+w.maxTicks+1, restart, sample)
	if tw.Done() == nil || tw.FiredFor(seq) != Time {
		t.Fatal("an overdue call was not tripped")
	}
	w.End(tw)
	if w.scan(restart+2*w.maxTicks, restart, sample) {
		t.Fatal("scan saw a call after it ended")
	}
}

// The step budget counts instructions and stops a call exactly when they
// are spent; a new call starts with a fresh count.
func TestTripwireSteps(t *testing.T) {
	w := New(30*time.Second, 256<<20)
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

// A heap that grows during a call only asks the call to measure what its
// script holds; the call stops only when the measurement is over the limit.
func TestWatchdogMemoryIsChargedToTheScript(t *testing.T) {
	w := New(30*time.Second, 1024)
	held := uint64(0)
	tw := NewTripwire(2_000_000, 1024, func() uint64 { return held })
	w.Add(tw)
	seq := w.Begin(tw, nil)
	sample := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	w.scan(3, 0, sample) // records the heap at the start
	tw.heapBase = 0      // pretend the heap grew by everything it holds since
	w.scan(4, 0, sample)
	if tw.call.Load()&callMeasure == 0 {
		t.Fatal("the watchdog did not ask the call to measure after the heap grew")
	}
	if tw.Done() != nil {
		t.Fatal("a call whose script holds nothing was stopped")
	}
	if tw.call.Load()&callMeasure != 0 {
		t.Fatal("the request to measure was not cleared")
	}
	held = 4096
	tw.heapBase = 0
	w.scan(5, 0, sample)
	if tw.Done() == nil || tw.FiredFor(seq) != Memory {
		t.Fatal("a call whose script holds more than the limit was not stopped")
	}
	w.End(tw)
}

// A call begun with a context that is done stops at its first step; one
// whose context is done while it runs is stopped by the watchdog's next
// scan, between two steps; a call without a context never is.
func TestCancel(t *testing.T) {
	w := New(30*time.Second, 256<<20)
	tw := NewTripwire(1<<40, 256<<20, nil)
	w.Add(tw)
	sample := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
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
	w.scan(1, 0, sample)
	if tw.Done() != nil {
		t.Fatal("a call was stopped before its context was done")
	}
	cancel()
	if tw.Done() != nil {
		t.Fatal("the call was stopped before the watchdog saw the context")
	}
	w.scan(2, 0, sample)
	if tw.Done() == nil || tw.FiredFor(seq) != Canceled {
		t.Fatal("the watchdog did not stop a call whose context is done")
	}
	w.End(tw)

	seq = w.Begin(tw, nil)
	w.scan(3, 0, sample)
	if tw.Done() != nil || tw.FiredFor(seq) != None {
		t.Fatal("a call without a context was stopped")
	}
	w.End(tw)
}

// A machine's heap watch reads the heap at most once a tick, and reports
// growth by a quarter of the memory limit since it last did, not
// otherwise.
func TestHeapGrowth(t *testing.T) {
	w := New(30*time.Second, 1024)
	var h HeapGrowth
	w.clock.Store(1)
	if !h.Grown(w) { // from 0: the heap has grown by far more than 256 bytes
		t.Fatal("no growth reported from an empty heap")
	}
	h.base = 0
	if h.Grown(w) {
		t.Fatal("the heap was read twice in one tick")
	}
	w.clock.Store(2)
	h.base += 1 << 40 // the heap is far below the base: the base follows it down
	if h.Grown(w) || h.base >= 1<<40 {
		t.Fatalf("growth reported, or base %d kept, after the heap shrank", h.base)
	}
	w.clock.Store(3)
	if h.Grown(w) {
		t.Fatal("growth reported without growth")
	}
}
