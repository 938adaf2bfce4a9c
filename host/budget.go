package host

import (
	"context"
	"runtime/metrics"
	"sync"
	"sync/atomic"
	"time"
)

// Limits bound what one call into a script may use. The zero value of a
// field means its default.
type Limits struct {
	Time        time.Duration // wall time of one call (default 1s)
	Memory      uint64        // heap growth during one long call, in bytes (default 256 MiB)
	CallStack   int           // Lua call frames (default 200)
	DataStack   int           // Lua stack slots (default 65536)
	StringBytes int           // largest string a library function may build or scan (default 1 MiB)
	PatternText int           // largest subject of string.find/match/gmatch/gsub (default 64 KiB)
	TableItems  int           // most elements table.concat joins or table.insert grows to (default 65536)
}

func (l Limits) withDefaults() Limits {
	// A legitimate call takes microseconds, but the limit is wall time:
	// on an overloaded machine the thread running a script can wait a
	// long while for a core while the watchdog ticks. A second leaves a
	// wide margin and still stops a runaway script quickly.
	if l.Time <= 0 {
		l.Time = time.Second
	}
	if l.Memory == 0 {
		l.Memory = 256 << 20
	}
	if l.CallStack <= 0 {
		l.CallStack = 200
	}
	if l.DataStack <= 0 {
		l.DataStack = 1 << 16
	}
	if l.StringBytes <= 0 {
		l.StringBytes = 1 << 20
	}
	if l.PatternText <= 0 {
		l.PatternText = 64 << 10
	}
	if l.TableItems <= 0 || l.TableItems >= maxArrayIndex {
		l.TableItems = 1 << 16
	}
	return l
}

// tripwire is the context a machine's Lua state runs under. gopher-lua
// checks the context's Done channel between every two VM instructions;
// Done returns nil while the current call is within budget, which makes that
// check nearly free (one load), and a closed channel once the watchdog has
// tripped the call.
type tripwire struct {
	seq uint64 // number of the latest call; owned by the machine's goroutine

	// call is the number of the call in progress shifted left by one, with
	// the low bit set when the watchdog has tripped it; 0 when idle. The
	// watchdog sets the bit with a compare-and-swap, so it can only trip
	// the call it saw running.
	call   atomic.Uint64
	start  atomic.Int64 // watchdog clock when the call started
	why    atomic.Int32 // which budget: tripTime or tripMemory
	fired  atomic.Uint64
	closed chan struct{}

	// Used by the watchdog goroutine only.
	heapSeq  uint64
	heapBase uint64
}

const (
	tripTime int32 = iota + 1
	tripMemory
)

func newTripwire() *tripwire {
	t := &tripwire{closed: make(chan struct{})}
	close(t.closed)
	return t
}

func (t *tripwire) Deadline() (time.Time, bool) { return time.Time{}, false }
func (t *tripwire) Value(any) any               { return nil }

func (t *tripwire) Done() <-chan struct{} {
	if t.call.Load()&1 != 0 {
		return t.closed
	}
	return nil
}

func (t *tripwire) Err() error {
	if t.Done() == nil {
		return nil
	}
	if t.why.Load() == tripMemory {
		return errMemoryBudget
	}
	return errTimeBudget
}

// trip stops call seq if it is still running.
func (t *tripwire) trip(seq uint64, why int32) {
	t.why.Store(why)
	if t.call.CompareAndSwap(seq<<1, seq<<1|1) {
		t.fired.Store(seq)
	}
}

// firedFor reports which budget stopped call seq, or 0.
func (t *tripwire) firedFor(seq uint64) int32 {
	if t.fired.Load() == seq {
		return t.why.Load()
	}
	return 0
}

type budgetErr string

func (e budgetErr) Error() string { return string(e) }

const (
	errTimeBudget   = budgetErr("matombo: time budget exceeded")
	errMemoryBudget = budgetErr("matombo: memory budget exceeded")
)

var _ context.Context = (*tripwire)(nil)

// watchdog watches the calls of one game's machines and trips those that
// run too long or grow the heap too much. It runs only while calls are being
// made and stops by itself when the game is idle.
type watchdog struct {
	tick     time.Duration
	maxTicks int64
	memLimit uint64

	clock   atomic.Int64 // ticks since epoch, from the wall clock
	epoch   time.Time
	running atomic.Bool

	mu    sync.Mutex
	wires map[*tripwire]struct{}
}

func newWatchdog(l Limits) *watchdog {
	tick := 10 * time.Millisecond
	if l.Time < 100*time.Millisecond {
		tick = l.Time / 10
		if tick < time.Millisecond {
			tick = time.Millisecond
		}
	}
	return &watchdog{
		epoch:    time.Now(),
		tick:     tick,
		maxTicks: int64(l.Time / tick),
		memLimit: l.Memory,
		wires:    map[*tripwire]struct{}{},
	}
}

func (w *watchdog) add(t *tripwire) {
	w.mu.Lock()
	w.wires[t] = struct{}{}
	w.mu.Unlock()
}

func (w *watchdog) remove(t *tripwire) {
	w.mu.Lock()
	delete(w.wires, t)
	w.mu.Unlock()
}

// begin marks the start of a call on t and makes sure the watchdog runs.
func (w *watchdog) begin(t *tripwire) uint64 {
	t.seq++
	t.start.Store(w.clock.Load())
	t.call.Store(t.seq << 1)
	if !w.running.Load() && w.running.CompareAndSwap(false, true) {
		go w.loop()
	}
	return t.seq
}

func (w *watchdog) end(t *tripwire) { t.call.Store(0) }

const idleTicks = 100

func (w *watchdog) loop() {
	ticker := time.NewTicker(w.tick)
	defer ticker.Stop()
	sample := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	// The clock comes from the wall clock, not from counting ticks: a
	// ticker drops ticks when this goroutine is late, and the budget would
	// stretch. While the watchdog was stopped the clock stood still, so a
	// call that began meanwhile read an old time; the watchdog only stops
	// when no call runs, so every such call began at the earliest now.
	restart := int64(time.Since(w.epoch) / w.tick)
	w.clock.Store(restart)
	idle := 0
	for range ticker.C {
		now := int64(time.Since(w.epoch) / w.tick)
		w.clock.Store(now)
		if w.scan(now, restart, sample) {
			idle = 0
			continue
		}
		idle++
		if idle < idleTicks {
			continue
		}
		// Stop, unless a call began while we were deciding to.
		w.running.Store(false)
		if !w.anyActive() || !w.running.CompareAndSwap(false, true) {
			return
		}
		idle = 0
		restart = now
	}
}

func (w *watchdog) anyActive() bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	for t := range w.wires {
		if t.call.Load() != 0 {
			return true
		}
	}
	return false
}

// scan trips overdue calls and reports whether any call was in progress.
// Calls are timed from restart at the earliest (see loop).
func (w *watchdog) scan(now, restart int64, sample []metrics.Sample) bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	busy := false
	heapRead := false
	var heap uint64
	for t := range w.wires {
		c := t.call.Load()
		if c == 0 || c&1 != 0 {
			continue
		}
		a := c >> 1
		busy = true
		age := now - max(t.start.Load(), restart)
		if age > w.maxTicks {
			t.trip(a, tripTime)
			continue
		}
		if age < 2 {
			continue // calls that take less than a tick are never suspects
		}
		if !heapRead {
			metrics.Read(sample)
			if sample[0].Value.Kind() == metrics.KindUint64 {
				heap = sample[0].Value.Uint64()
			}
			heapRead = true
		}
		if t.heapSeq != a {
			t.heapSeq, t.heapBase = a, heap
		} else if heap > t.heapBase && heap-t.heapBase > w.memLimit {
			t.trip(a, tripMemory)
		}
	}
	return busy
}
