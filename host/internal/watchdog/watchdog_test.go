package watchdog

import (
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
	seq := w.Begin(tw)
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
		seq := w.Begin(tw)
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
	w.Begin(tw)
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
	seq := w.Begin(tw)
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
