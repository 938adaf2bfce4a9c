package host

import (
	"testing"
	"time"
)

// A call that begins while the watchdog is stopped reads the clock as it
// stood when the watchdog stopped; after the watchdog restarts, that call
// must not look as old as the pause.
func TestWatchdogRestartDoesNotTripNewCalls(t *testing.T) {
	w := newWatchdog(Limits{Time: 50 * time.Millisecond}.withDefaults())
	tw := newTripwire()
	w.add(tw)
	// A call, then a long idle spell: the watchdog stops by itself.
	w.begin(tw)
	w.end(tw)
	deadline := time.Now().Add(idleTicks*w.tick + 2*time.Second)
	for w.running.Load() && time.Now().Before(deadline) {
		time.Sleep(w.tick)
	}
	if w.running.Load() {
		t.Fatal("the watchdog did not stop when idle")
	}
	time.Sleep(2 * time.Duration(w.maxTicks) * w.tick) // the clock now lags the wall clock
	seq := w.begin(tw)
	time.Sleep(5 * w.tick)
	if tw.Done() != nil || tw.firedFor(seq) != 0 {
		t.Fatal("a call that just began was tripped after the watchdog restarted")
	}
	// A call that really runs too long is still stopped.
	time.Sleep(3 * time.Duration(w.maxTicks) * w.tick)
	if tw.Done() == nil {
		t.Fatal("an overdue call was not tripped")
	}
	w.end(tw)
}
