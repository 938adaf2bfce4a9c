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
//
// The primary budget is Steps: a count of Lua instructions, with the host's
// primitives charging steps for the work they do in Go. It does not depend
// on the machine or its load, so the same script, state and move pass or
// fail identically everywhere. Time is only a guard against a hang the step
// count cannot see; Memory is charged to the script that holds the memory
// (see docs/embedding.md, "Budgets").
type Limits struct {
	Steps       int64         // Lua instructions and primitive work per call (default 2,000,000)
	Time        time.Duration // wall time of one call, a guard against hangs (default 30s)
	Memory      uint64        // memory one script may hold during a call, in bytes (default 256 MiB)
	CallStack   int           // Lua call frames (default 200)
	DataStack   int           // Lua stack slots (default 65536)
	StringBytes int           // largest string a library function may build or scan (default 1 MiB)
	PatternText int           // largest subject of string.find/match/gmatch/gsub (default 64 KiB)
	TableItems  int           // most elements table.concat joins or table.insert grows to (default 65536)
}

// DefaultSteps is the default step budget of one call. The longest call of
// the shipped games takes 1,398 steps (loading the largest board; a move
// takes tens to hundreds), so the default leaves a margin of a thousand
// and more, and stops a runaway loop in tens of milliseconds (a second or
// two under the race detector).
const DefaultSteps = 2_000_000

func (l Limits) withDefaults() Limits {
	if l.Steps <= 0 {
		l.Steps = DefaultSteps
	}
	// The wall-clock limit only guards against what the step count cannot
	// see. It must be generous: on an overloaded machine a thread waits a
	// long while for a core, and a legitimate call must not fail then.
	if l.Time <= 0 {
		l.Time = 30 * time.Second
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
// calls the context's Done between every two VM instructions, on the
// machine's goroutine: Done counts the step, and returns nil while the call
// is within budget and a closed channel once it is not (its steps are spent,
// the watchdog tripped it, or the memory it holds is over the limit).
type tripwire struct {
	seq uint64 // number of the latest call; owned by the machine's goroutine

	// Owned by the machine's goroutine.
	steps    int64 // steps spent by the current call
	maxSteps int64
	overStep bool          // the current call ran out of steps
	measure  func() uint64 // bytes the machine's script holds now
	memLimit uint64

	// call is the number of the call in progress shifted left by two, with
	// bit 0 set when the call is stopped and bit 1 while the watchdog asks
	// the call to measure the memory its script holds; 0 when idle. The
	// watchdog changes bits with compare-and-swap, so it can only touch the
	// call it saw running.
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
	tripSteps
)

const (
	callStopped = 1
	callMeasure = 2
	callShift   = 2
)

func newTripwire(l Limits) *tripwire {
	t := &tripwire{closed: make(chan struct{}), maxSteps: l.Steps, memLimit: l.Memory}
	close(t.closed)
	return t
}

func (t *tripwire) Deadline() (time.Time, bool) { return time.Time{}, false }
func (t *tripwire) Value(any) any               { return nil }

// Done is called by gopher-lua before every instruction.
func (t *tripwire) Done() <-chan struct{} {
	t.steps++
	if t.steps > t.maxSteps {
		t.overStep = true
		return t.closed
	}
	if c := t.call.Load(); c&(callStopped|callMeasure) != 0 {
		return t.check(c)
	}
	return nil
}

// check handles a stopped call or a request to measure memory.
func (t *tripwire) check(c uint64) <-chan struct{} {
	if c&callStopped != 0 {
		return t.closed
	}
	seq := c >> callShift
	held := uint64(0)
	if t.measure != nil {
		held = t.measure()
	}
	if held > t.memLimit {
		t.trip(seq, tripMemory)
		return t.closed
	}
	t.call.CompareAndSwap(c, c&^callMeasure)
	return nil
}

// charge spends n steps of the current call; it reports false when the
// call has run out of steps.
func (t *tripwire) charge(n int) bool {
	t.steps += int64(n)
	if t.steps > t.maxSteps {
		t.overStep = true
		return false
	}
	return true
}

func (t *tripwire) Err() error {
	if t.overStep {
		return errStepBudget
	}
	if t.call.Load()&callStopped == 0 {
		return nil
	}
	if t.why.Load() == tripMemory {
		return errMemoryBudget
	}
	return errTimeBudget
}

// trip stops call seq if it is still running.
func (t *tripwire) trip(seq uint64, why int32) {
	for {
		c := t.call.Load()
		if c>>callShift != seq || c&callStopped != 0 {
			return
		}
		t.why.Store(why)
		if t.call.CompareAndSwap(c, c|callStopped) {
			t.fired.Store(seq)
			return
		}
	}
}

// ask requests call seq to measure the memory its script holds.
func (t *tripwire) ask(seq uint64) {
	t.call.CompareAndSwap(seq<<callShift, seq<<callShift|callMeasure)
}

// firedFor reports which budget stopped call seq, or 0.
func (t *tripwire) firedFor(seq uint64) int32 {
	if t.overStep {
		return tripSteps
	}
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
	errStepBudget   = budgetErr("matombo: step budget exceeded")
)

var _ context.Context = (*tripwire)(nil)

// watchdog watches the calls of one game's machines. It trips those that
// run too long, and asks those during which the process heap grew a lot to
// measure the memory their script holds (the heap is shared by every game
// and the embedding program, so its growth alone proves nothing). It runs
// only while calls are being made and stops by itself when the game is
// idle.
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
	t.steps, t.overStep = 0, false
	t.start.Store(w.clock.Load())
	t.call.Store(t.seq << callShift)
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
// Calls are timed from restart at the earliest (see loop). When the process
// heap has grown by half the memory limit since the call began, last
// measured, or the heap was last lower, the call is asked to measure what its own script holds;
// only that measurement can stop it, so one game's (or the embedding
// program's) allocations never fail another game's call.
func (w *watchdog) scan(now, restart int64, sample []metrics.Sample) bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	busy := false
	heapRead := false
	var heap uint64
	for t := range w.wires {
		c := t.call.Load()
		if c == 0 || c&callStopped != 0 {
			continue
		}
		a := c >> callShift
		busy = true
		age := now - max(t.start.Load(), restart)
		if age > w.maxTicks {
			t.trip(a, tripTime)
			continue
		}
		if age < 2 || c&callMeasure != 0 {
			continue // calls that take less than a tick are never suspects
		}
		if !heapRead {
			metrics.Read(sample)
			if sample[0].Value.Kind() == metrics.KindUint64 {
				heap = sample[0].Value.Uint64()
			}
			heapRead = true
		}
		switch {
		case t.heapSeq != a || heap < t.heapBase:
			// A new call, or the heap shrank: growth counts from here.
			t.heapSeq, t.heapBase = a, heap
		case heap-t.heapBase > w.memLimit/2:
			t.heapBase = heap
			t.ask(a)
		}
	}
	return busy
}
