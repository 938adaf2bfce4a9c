// Package watchdog enforces the budgets of calls into Lua scripts: a
// Tripwire, the context a Lua state runs under, counts the steps of a call
// and stops it once they are spent, and a Watchdog goroutine trips calls
// that run too long and asks those during which the heap grew to measure
// the memory their script holds.
package watchdog

import (
	"context"
	"runtime/metrics"
	"sync"
	"sync/atomic"
	"time"

	"github.com/matombo/matombo/host/kernel"
)

// Tripwire is the context a machine's Lua state runs under. gopher-lua
// calls the context's Done between every two VM instructions, on the
// machine's goroutine: Done counts the step, and returns nil while the call
// is within budget and a closed channel once it is not (its steps are spent,
// the watchdog tripped it, or the memory it holds is over the limit).
type Tripwire struct {
	seq uint64 // number of the latest call; owned by the machine's goroutine

	// Owned by the machine's goroutine.
	// Steps counts the steps of the current call: Done counts one for
	// every VM instruction, Charge and the rules kernel (which shares the
	// counter, see kernel.Ctx) the steps of work done in Go.
	Steps    kernel.Steps
	measure  func() uint64 // bytes the machine's script holds now
	memLimit uint64

	// call is the number of the call in progress shifted left by two, with
	// bit 0 set when the call is stopped and bit 1 while the watchdog asks
	// the call to measure the memory its script holds; 0 when idle. The
	// watchdog changes bits with compare-and-swap, so it can only touch the
	// call it saw running.
	call   atomic.Uint64
	start  atomic.Int64 // watchdog clock when the call started
	cancel atomic.Pointer[Cancel]
	why    atomic.Int32 // which budget: Time, Memory or Canceled
	fired  atomic.Uint64
	closed chan struct{}

	// Used by the watchdog goroutine only.
	heapSeq  uint64
	heapBase uint64
}

// Trip says which budget stopped a call.
type Trip int32

// The budgets that stop a call.
const (
	None     Trip = iota // not stopped
	Time                 // the call ran longer than the time limit
	Memory               // the script held more memory than the limit
	Steps                // the call spent its steps
	Canceled             // the caller's context was done
)

// Cancel carries a caller's context into calls: a call begun with it
// stops between two instructions soon after the context is done (at once
// when it is done already, else within a tick of the watchdog).
type Cancel struct {
	ctx  context.Context
	done <-chan struct{}
}

// NewCancel returns the Cancel of ctx, or nil when ctx is nil or can
// never be done (context.Background): calls with a nil Cancel cost
// nothing more.
func NewCancel(ctx context.Context) *Cancel {
	if ctx == nil {
		return nil
	}
	done := ctx.Done()
	if done == nil {
		return nil
	}
	return &Cancel{ctx: ctx, done: done}
}

// Context is the context of c.
func (c *Cancel) Context() context.Context { return c.ctx }

// Done reports whether c's context is done. A nil Cancel never is.
func (c *Cancel) Done() bool {
	if c == nil {
		return false
	}
	select {
	case <-c.done:
		return true
	default:
		return false
	}
}

const (
	callStopped = 1
	callMeasure = 2
	callShift   = 2
)

// NewTripwire returns a tripwire for calls of at most steps steps whose
// script may hold at most memory bytes, as measure reports them.
func NewTripwire(steps int64, memory uint64, measure func() uint64) *Tripwire {
	t := &Tripwire{closed: make(chan struct{}), Steps: kernel.Steps{Limit: steps}, memLimit: memory, measure: measure}
	close(t.closed)
	return t
}

// Restart begins a new call on t without the watchdog: its number and
// a fresh step budget, for a call that runs Go alone (see Watchdog.Watch).
// It touches nothing the watchdog reads.
func (t *Tripwire) Restart() uint64 {
	t.seq++
	t.Steps.Spent, t.Steps.Over = 0, false
	return t.seq
}

// Seq is the number of the latest call begun on t.
func (t *Tripwire) Seq() uint64 { return t.seq }

// Stopped reports whether the watchdog has stopped the current call (its
// time is up), without counting a step as Done does.
func (t *Tripwire) Stopped() bool { return t.call.Load()&callStopped != 0 }

func (t *Tripwire) Deadline() (time.Time, bool) { return time.Time{}, false }
func (t *Tripwire) Value(any) any               { return nil }

// Done is called by gopher-lua before every instruction.
func (t *Tripwire) Done() <-chan struct{} {
	t.Steps.Spent++
	if t.Steps.Spent > t.Steps.Limit {
		t.Steps.Over = true
		return t.closed
	}
	if c := t.call.Load(); c&(callStopped|callMeasure) != 0 {
		return t.check(c)
	}
	return nil
}

// check handles a stopped call or a request to measure memory.
func (t *Tripwire) check(c uint64) <-chan struct{} {
	if c&callStopped != 0 {
		// The call stops here: say which budget stopped it before its
		// error is read (FiredFor), not only once trip, on the watchdog's
		// goroutine, gets to it after stopping the call.
		t.fired.Store(c >> callShift)
		return t.closed
	}
	seq := c >> callShift
	held := uint64(0)
	if t.measure != nil {
		held = t.measure()
	}
	if held > t.memLimit {
		t.trip(seq, int32(Memory))
		return t.closed
	}
	t.call.CompareAndSwap(c, c&^callMeasure)
	return nil
}

// Counter is the counter of the steps of the current call, which a rules
// kernel's Ctx charges directly.
func (t *Tripwire) Counter() *kernel.Steps { return &t.Steps }

// Charge spends n steps of the current call; it reports false when the
// call has run out of steps.
func (t *Tripwire) Charge(n int) bool {
	t.Steps.Spent += int64(n)
	if t.Steps.Spent > t.Steps.Limit {
		t.Steps.Over = true
		return false
	}
	return true
}

func (t *Tripwire) Err() error {
	if t.Steps.Over {
		return errStepBudget
	}
	if t.call.Load()&callStopped == 0 {
		return nil
	}
	switch Trip(t.why.Load()) {
	case Memory:
		return errMemoryBudget
	case Canceled:
		return errCanceled
	}
	return errTimeBudget
}

// trip stops call seq if it is still running.
func (t *Tripwire) trip(seq uint64, why int32) {
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
func (t *Tripwire) ask(seq uint64) {
	t.call.CompareAndSwap(seq<<callShift, seq<<callShift|callMeasure)
}

// FiredFor reports which budget stopped call seq, or None.
func (t *Tripwire) FiredFor(seq uint64) Trip {
	if t.Steps.Over {
		return Steps
	}
	if t.fired.Load() == seq {
		return Trip(t.why.Load())
	}
	return None
}

type budgetErr string

func (e budgetErr) Error() string { return string(e) }

const (
	errTimeBudget   = budgetErr("matombo: time budget exceeded")
	errMemoryBudget = budgetErr("matombo: memory budget exceeded")
	errStepBudget   = budgetErr("matombo: step budget exceeded")
	errCanceled     = budgetErr("matombo: the call's context is done")
)

var _ context.Context = (*Tripwire)(nil)

// Watchdog watches the calls of one game's machines. It trips those that
// run too long, and asks those during which the process heap grew a lot to
// measure the memory their script holds (the heap is shared by every game
// and the embedding program, so its growth alone proves nothing). It runs
// only while calls are being made and stops by itself when the game is
// idle.
type Watchdog struct {
	tick     time.Duration
	maxTicks int64
	memLimit uint64

	clock   atomic.Int64 // ticks since epoch, from the wall clock
	epoch   time.Time
	running atomic.Bool
	stopped atomic.Bool   // Stop was called: end as soon as no call runs
	wake    chan struct{} // wakes the goroutine to notice Stop

	mu    sync.Mutex
	wires map[*Tripwire]struct{}
	done  chan struct{} // closed when the goroutine started last ends
}

// Tick is the watchdog's clock, in ticks: it moves while calls are made
// (and a while after). A caller that does something at most once a tick
// compares it with the tick it last did it.
func (w *Watchdog) Tick() int64 { return w.clock.Load() }

// HeapGrowth watches the process heap for one script machine: at the end
// of its calls, at most once a tick, it reads the heap, and reports
// growth by a quarter of the memory limit since the machine last measured
// what its script holds (or since the heap was last lower). Memory a
// script keeps between calls is then measured within a quarter of the
// limit and a tick of allocation, however short its calls, and a machine
// that makes no calls reads nothing.
type HeapGrowth struct {
	tick   int64
	base   uint64
	sample []metrics.Sample
}

// Grown reports whether the heap grew by a quarter of w's memory limit
// since the last growth reported; it reads the heap at most once per tick
// of w.
func (h *HeapGrowth) Grown(w *Watchdog) bool {
	now := w.Tick()
	if now == h.tick && h.sample != nil {
		return false
	}
	h.tick = now
	if h.sample == nil {
		h.sample = []metrics.Sample{{Name: heapMetric}}
	}
	metrics.Read(h.sample)
	if h.sample[0].Value.Kind() != metrics.KindUint64 {
		return false
	}
	heap := h.sample[0].Value.Uint64()
	switch {
	case heap < h.base:
		h.base = heap
	case heap-h.base > w.memLimit/4:
		h.base = heap
		return true
	}
	return false
}

// heapMetric is the live and not yet swept heap, in bytes.
const heapMetric = "/memory/classes/heap/objects:bytes"

// New returns a watchdog that stops calls after limit and measures the
// memory of scripts when the heap grows by half of memory.
func New(limit time.Duration, memory uint64) *Watchdog {
	tick := 10 * time.Millisecond
	if limit < 100*time.Millisecond {
		tick = limit / 10
		if tick < time.Millisecond {
			tick = time.Millisecond
		}
	}
	return &Watchdog{
		epoch:    time.Now(),
		tick:     tick,
		maxTicks: int64(limit / tick),
		memLimit: memory,
		wires:    map[*Tripwire]struct{}{},
		wake:     make(chan struct{}, 1),
	}
}

// Stop makes the watchdog's goroutine end as soon as no call is in
// progress, rather than after a second of idleness, and when none is,
// waits for it to end. Calls begun later still run under the watchdog
// (its goroutine starts again, and ends again as soon as they do).
func (w *Watchdog) Stop() {
	w.stopped.Store(true)
	select {
	case w.wake <- struct{}{}:
	default:
	}
	if w.anyActive() {
		return
	}
	w.mu.Lock()
	done := w.done
	w.mu.Unlock()
	if done != nil {
		<-done
	}
}

// Add watches the calls of t.
func (w *Watchdog) Add(t *Tripwire) {
	w.mu.Lock()
	w.wires[t] = struct{}{}
	w.mu.Unlock()
}

// Remove stops watching t.
func (w *Watchdog) Remove(t *Tripwire) {
	w.mu.Lock()
	delete(w.wires, t)
	w.mu.Unlock()
}

// Begin marks the start of a call on t and makes sure the watchdog runs.
// The call stops when c (nil for none) is done. It returns the number of
// the call.
func (w *Watchdog) Begin(t *Tripwire, c *Cancel) uint64 {
	t.seq++
	t.Steps.Spent, t.Steps.Over = 0, false
	w.arm(t, c)
	return t.seq
}

// End marks the end of the call on t.
func (w *Watchdog) End(t *Tripwire) { t.call.Store(0) }

// Watch starts watching the call on t that Restart began, as Begin
// would have, keeping the steps it spent so far: a call that runs Go
// alone, bounded by its steps, is watched only once it runs a script.
func (w *Watchdog) Watch(t *Tripwire, c *Cancel) { w.arm(t, c) }

// arm watches the current call on t from now on, starting the watchdog's
// goroutine when it is not running.
func (w *Watchdog) arm(t *Tripwire, c *Cancel) {
	t.start.Store(w.clock.Load())
	t.cancel.Store(c)
	t.call.Store(t.seq << callShift)
	if c.Done() {
		t.trip(t.seq, int32(Canceled))
	}
	if !w.running.Load() && w.running.CompareAndSwap(false, true) {
		done := make(chan struct{})
		w.mu.Lock()
		w.done = done
		w.mu.Unlock()
		go w.loop(done)
	}
}

const idleTicks = 100

func (w *Watchdog) loop(done chan struct{}) {
	defer close(done)
	ticker := time.NewTicker(w.tick)
	defer ticker.Stop()
	sample := []metrics.Sample{{Name: heapMetric}}
	// The clock comes from the wall clock, not from counting ticks: a
	// ticker drops ticks when this goroutine is late, and the budget would
	// stretch. While the watchdog was stopped the clock stood still, so a
	// call that began meanwhile read an old time; the watchdog only stops
	// when no call runs, so every such call began at the earliest now.
	restart := int64(time.Since(w.epoch) / w.tick)
	w.clock.Store(restart)
	idle := 0
	for {
		select {
		case <-ticker.C:
		case <-w.wake:
		}
		now := int64(time.Since(w.epoch) / w.tick)
		w.clock.Store(now)
		if w.scan(now, restart, sample) {
			idle = 0
			continue
		}
		idle++
		if idle < idleTicks && !w.stopped.Load() {
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

func (w *Watchdog) anyActive() bool {
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
func (w *Watchdog) scan(now, restart int64, sample []metrics.Sample) bool {
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
		if t.cancel.Load().Done() {
			t.trip(a, int32(Canceled))
			continue
		}
		age := now - max(t.start.Load(), restart)
		if age > w.maxTicks {
			t.trip(a, int32(Time))
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
