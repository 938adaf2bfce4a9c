// Package watchdog enforces the budgets of calls into Lua scripts: a
// Tripwire, the context a Lua state runs under, counts the steps of a call
// and stops it once they are spent or once its script holds more memory
// than its budget, and a Watchdog goroutine trips calls that run too long.
//
// The memory a script holds is measured (by the function the Tripwire is
// given, a walk of the script's values) only when the process has
// allocated enough since the last measurement for the script to be over
// its budget: the Tripwire reads the process's allocation counter every
// few thousand steps of its machine, during calls and at their ends.
// Whether the check fires is thus decided by the steps the script runs and
// the bytes allocated, not by a clock, so a script that hoards is stopped
// at the same point on an idle machine and on a loaded one.
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
// the watchdog tripped it, or the memory its script holds is over the
// limit, see MemoryDue).
type Tripwire struct {
	seq uint64 // number of the latest call; owned by the machine's goroutine

	// Owned by the machine's goroutine.
	// Steps counts the steps of the current call: Done counts one for
	// every VM instruction, Charge and the rules kernel (which shares the
	// counter, see kernel.Ctx) the steps of work done in Go.
	Steps    kernel.Steps
	next     int64         // Done calls checkpoint once Steps.Spent is past it
	measure  func() uint64 // bytes the machine's script holds now
	memLimit uint64
	mem      memCheck
	uv       upvalueCheck

	// call is the number of the call in progress shifted left by two, with
	// bit 0 set when the call is stopped; 0 when idle. The watchdog changes
	// bits with compare-and-swap, so it can only touch the call it saw
	// running.
	call   atomic.Uint64
	start  atomic.Int64 // watchdog clock when the call started
	cancel atomic.Pointer[Cancel]
	why    atomic.Int32 // which budget: Time, Memory or Canceled
	fired  atomic.Uint64
	closed chan struct{}
}

// memCheck decides when a machine measures what its script holds. Owned
// by the machine's goroutine.
type memCheck struct {
	every  int64  // steps between two reads of the allocation counter
	due    int64  // Steps.Spent at which the counter is read next
	base   uint64 // bytes the process had allocated when the script was last measured
	room   uint64 // bytes allocated after base that make the script be measured again
	sample []metrics.Sample
}

// upvalueCheck charges the walks of gopher-lua's list of open upvalues
// (see WatchUpvalues). Owned by the machine's goroutine.
type upvalueCheck struct {
	count func(most int) int // the open upvalues of the machine's stack, at most most
	due   int64              // Steps.Spent at which they are counted next
}

// The charge of the open upvalues' walks. gopher-lua walks its list of
// the stack's open upvalues (every local variable of a running function
// that a closure captured) within one instruction: the whole list at
// every return and at the end of every block that closes captured
// variables, and, for each variable a closure captures, the list up to
// that variable. Every UpvalueEvery steps the list is counted, and the
// steps since are charged as if each had walked it: UpvalueEvery steps
// for each UpvaluesPerStep open upvalues past the first UpvalueFree. The
// walks of a new closure are charged by the script's code itself, when
// it makes the closure (see the machine's closure charge): a closure can
// walk the list once for each variable it captures.
const (
	UpvalueEvery    = 256
	UpvalueFree     = 64
	UpvaluesPerStep = 8
)

// allocMetric counts every byte the process has allocated on its heap. It
// only grows: memory a script keeps was allocated after the script was
// last measured, whatever the collector freed meanwhile.
const allocMetric = "/gc/heap/allocs:bytes"

// The steps between two reads of the allocation counter are the memory
// limit over memStepBytes, within minMemEvery and maxMemEvery: a read
// takes about a microsecond, as long as some 40 Lua instructions, and the
// instructions between two reads allocate a small part of the limit (a
// step allocates at most a few hundred bytes on average, 2.7 KiB at most:
// a new table's first field).
const (
	memStepBytes = 16 << 10
	minMemEvery  = 1 << 10
	maxMemEvery  = 1 << 14
)

// minRoomShift bounds how often a script near its limit is measured: at
// most once per limit>>minRoomShift bytes the process allocates, so a
// script that holds nearly its limit and allocates garbage walks what it
// holds once per sixteenth of its limit it allocates.
const minRoomShift = 4

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
	ctx context.Context
}

// NewCancel returns the Cancel of ctx, or nil when ctx is nil or can
// never be done (context.Background): calls with a nil Cancel cost
// nothing more.
func NewCancel(ctx context.Context) *Cancel {
	if ctx == nil {
		return nil
	}
	if ctx.Done() == nil {
		return nil
	}
	return &Cancel{ctx: ctx}
}

// Context is the context of c.
func (c *Cancel) Context() context.Context { return c.ctx }

// Done reports whether c's context is done. A nil Cancel never is. It
// asks the context's Err, which the standard library's contexts answer
// with one atomic load (a receive from the Done channel took about 60
// instructions, a sixtieth of a solver's move).
func (c *Cancel) Done() bool {
	return c != nil && c.ctx.Err() != nil
}

const (
	callStopped = 1
	callShift   = 2
)

// NewTripwire returns a tripwire for calls of at most steps steps whose
// script may hold at most memory bytes, as measure reports them.
func NewTripwire(steps int64, memory uint64, measure func() uint64) *Tripwire {
	t := &Tripwire{closed: make(chan struct{}), Steps: kernel.Steps{Limit: steps}, memLimit: memory, measure: measure}
	t.mem.every = min(max(int64(memory/memStepBytes), minMemEvery), maxMemEvery)
	t.mem.sample = []metrics.Sample{{Name: allocMetric}}
	// The first read sets the base: what the script holds at first is
	// measured once the process has allocated its limit.
	t.mem.room = memory
	t.setNext()
	close(t.closed)
	return t
}

// Restart begins a new call on t without the watchdog: its number and
// a fresh step budget, for a call that runs Go alone (see Watchdog.Watch).
// It touches nothing the watchdog reads.
func (t *Tripwire) Restart() uint64 {
	t.seq++
	t.newSteps()
	return t.seq
}

// newSteps gives the call a fresh step budget; the steps until the
// allocation counter is read next carry over from the calls before.
func (t *Tripwire) newSteps() {
	t.mem.due -= t.Steps.Spent
	t.Steps.Spent, t.Steps.Over = 0, false
	t.uv.due = UpvalueEvery
	t.setNext()
}

// WatchUpvalues makes the calls on t charge the walks of the list of
// open upvalues (see UpvalueEvery), which count reports: the open
// upvalues of the machine's stack, counting at most most. It is called on
// the machine's goroutine, between two instructions.
func (t *Tripwire) WatchUpvalues(count func(most int) int) {
	t.uv.count = count
	t.uv.due = t.Steps.Spent + UpvalueEvery
	t.setNext()
}

// chargeUpvalues charges the steps since the list of open upvalues was
// last counted for its walks (see UpvalueEvery).
func (t *Tripwire) chargeUpvalues() {
	// Counting further than what spends the budget changes nothing.
	room := max(t.Steps.Limit-t.Steps.Spent, 0)
	most := UpvalueFree + int(min(room/UpvalueEvery+1, 1<<24))*UpvaluesPerStep
	if n := t.uv.count(most); n > UpvalueFree {
		t.Steps.Spent += int64(n-UpvalueFree) * UpvalueEvery / UpvaluesPerStep
	}
	// Counted again after the next UpvalueEvery steps run (the charge is
	// for those before).
	t.uv.due = t.Steps.Spent + UpvalueEvery
}

// UpvalueWalkSteps is the charge of walks of n open upvalues in all, as
// the steps charge them (see UpvalueEvery).
func UpvalueWalkSteps(n int) int { return n / UpvaluesPerStep }

// MemoryDue reports whether the machine's script must be measured now:
// its machine has run the steps between two reads of the allocation
// counter since it last read it, and the process has allocated more since
// the script was last measured than the room it then had under its limit
// (and at least a sixteenth of the limit). Only what the script allocated
// can have grown what it holds, so the script cannot be over its limit
// before MemoryDue says so, give or take the bytes of those steps. A
// machine calls it at the end of each call (Done calls it during calls),
// and tells Measured what it found.
func (t *Tripwire) MemoryDue() bool {
	if t.Steps.Spent < t.mem.due {
		return false
	}
	t.mem.due = t.Steps.Spent + t.mem.every
	return t.allocated()-t.mem.base > t.mem.room
}

// Measured records that the machine's script was measured holding held
// bytes (its game's scripts together): it is measured again once the
// process allocates what would take it over its limit.
func (t *Tripwire) Measured(held uint64) {
	t.mem.base = t.allocated() // after the measurement, which allocates too
	t.mem.room = max(t.memLimit>>minRoomShift, t.memLimit-min(held, t.memLimit))
}

// allocated reads the bytes the process has allocated so far.
func (t *Tripwire) allocated() uint64 {
	metrics.Read(t.mem.sample)
	if t.mem.sample[0].Value.Kind() != metrics.KindUint64 {
		return 0
	}
	return t.mem.sample[0].Value.Uint64()
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
	if t.Steps.Spent > t.next && t.checkpoint() {
		return t.closed
	}
	if c := t.call.Load(); c&callStopped != 0 {
		// The call stops here: say which budget stopped it before its
		// error is read (FiredFor), not only once trip, on the watchdog's
		// goroutine, gets to it after stopping the call.
		t.fired.Store(c >> callShift)
		return t.closed
	}
	return nil
}

// checkpoint handles the step at which the call runs out of steps or
// reads the allocation counter (one comparison in Done sees both), and
// reports whether the call ran out of steps.
func (t *Tripwire) checkpoint() bool {
	if t.uv.count != nil && t.Steps.Spent >= t.uv.due {
		t.chargeUpvalues()
	}
	if t.Steps.Spent > t.Steps.Limit {
		t.Steps.Over = true
		return true
	}
	if t.Steps.Spent >= t.mem.due && t.overMemory() {
		t.trip(t.seq, int32(Memory))
	}
	t.setNext()
	return false
}

// setNext sets the step after which Done calls checkpoint.
func (t *Tripwire) setNext() {
	t.next = min(t.Steps.Limit, t.mem.due-1)
	if t.uv.count != nil {
		t.next = min(t.next, t.uv.due-1)
	}
}

// overMemory measures the script when MemoryDue says so, and reports
// whether it holds more than the limit.
func (t *Tripwire) overMemory() bool {
	if t.measure == nil || !t.MemoryDue() {
		return false
	}
	held := t.measure()
	t.Measured(held)
	return held > t.memLimit
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

// Watchdog watches the calls of one game's machines and trips those that
// run too long or whose caller's context is done. It runs only while calls
// are being made and stops by itself when the game is idle.
type Watchdog struct {
	tick     time.Duration
	maxTicks int64

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

// New returns a watchdog that stops calls after limit.
func New(limit time.Duration) *Watchdog {
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
	t.newSteps()
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
		if w.scan(now, restart) {
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

// scan trips overdue calls and calls whose caller's context is done, and
// reports whether any call was in progress. Calls are timed from restart
// at the earliest (see loop).
func (w *Watchdog) scan(now, restart int64) bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	busy := false
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
		if now-max(t.start.Load(), restart) > w.maxTicks {
			t.trip(a, int32(Time))
		}
	}
	return busy
}
