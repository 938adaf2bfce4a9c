package rules

import "github.com/matombo/matombo/host/kernel"

// Slot is a typed place of a turn that a part fits: its Go interface and
// the way a script calls a function standing in the slot.
type Slot uint8

// The slots. Each names its Go interface and, after the colon, how a
// script calls a function in it (sites count from 1 in Lua).
const (
	SlotNone     Slot = iota
	SlotEmit          // Emitter: (p) -> moves emitted
	SlotPlay          // Player: (p, kind, sites...), the play of a decision
	SlotKindPlay      // Player: (p, sites...), the play of a decision of one kind
	SlotSow           // Sower: (p, from) -> last, was_empty
	SlotRelay         // Relayer: (p, from) -> last, how ("empty", "stop", "laps")
	SlotCapture       // Capturer: (p, last, was_empty) -> counters captured
	SlotSiteTest      // SiteTester: (p, site) -> boolean
	SlotUnless        // SiteTester: (last, owner) -> boolean (p is the owner)
	SlotAfter         // Follower: (p, n)
	SlotResult        // Resulter: (reason)
	SlotChoices       // ChoiceEmitter: (p, at) -> moves emitted, at a site where a decision waits
	SlotCount         // ChoiceEmitter: (p, k) -> moves emitted, while k choices are left
	SlotCond          // Condition: (p) -> boolean
	SlotAmount        // Amount: (p) -> a whole number
	SlotLap           // LapRule: (p, last, track, laps) -> how the relay goes on
	SlotMoveTest      // MoveTester: (p, kind, sites...) -> boolean
	SlotArrive        // Arriver: (p, s) -> whether it acted, after a piece arrived on s
	SlotScore         // Scorer: (over) -> one whole number per player, the rules table's score
	numSlots
)

var slotNames = [...]string{"", "emit", "play", "kind play", "sow", "relay", "capture", "site test", "unless", "after", "result", "choices", "count", "condition", "amount", "lap", "move test", "arrive", "score"}

// String names the slot.
func (s Slot) String() string {
	if int(s) < len(slotNames) {
		return slotNames[s]
	}
	return "slot?"
}

// Call is how a script calls a function in the slot, e.g. "(p, from) → last, was_empty".
func (s Slot) Call() string {
	switch s {
	case SlotEmit:
		return "(p) → moves emitted"
	case SlotPlay:
		return "play(p, kind, ...)"
	case SlotKindPlay:
		return "(p, sites...)"
	case SlotSow:
		return "(p, from) → last, was_empty"
	case SlotRelay:
		return "(p, from) → last, how, laps"
	case SlotCapture:
		return "(p, last, was_empty) → counters captured"
	case SlotSiteTest:
		return "(p, site) → boolean"
	case SlotUnless:
		return "(last, owner) → boolean"
	case SlotAfter:
		return "(p, n)"
	case SlotResult:
		return "(reason)"
	case SlotChoices:
		return "(p, at) → moves emitted"
	case SlotCount:
		return "(p, k) → moves emitted"
	case SlotCond:
		return "(p) → boolean"
	case SlotAmount:
		return "(p) → number"
	case SlotLap:
		return "(p, last, track, laps) → how the relay goes on"
	case SlotMoveTest:
		return "(p, kind, sites...) → boolean"
	case SlotArrive:
		return "(p, s) → whether it acted"
	case SlotScore:
		return "(over) → one number per player"
	}
	return ""
}

// The slots' Go interfaces. A part fits every slot whose interface it
// implements.
type (
	// Emitter lists legal moves of player p into c.S.Moves.
	Emitter interface {
		Emit(c *kernel.Ctx, p int) (int, error)
	}
	// Player plays move m of player p.
	Player interface {
		Play(c *kernel.Ctx, p int, m kernel.Move) error
	}
	// Sower sows from a site: the last site sown and whether it was empty.
	Sower interface {
		Sow(c *kernel.Ctx, p, from int) (last int, wasEmpty bool, err error)
	}
	// Relayer sows and relays from a site.
	Relayer interface {
		Relay(c *kernel.Ctx, p, from int) (last int, how kernel.How, laps int, err error)
	}
	// Capturer captures after a sowing that ended on last.
	Capturer interface {
		Capture(c *kernel.Ctx, p, last int, wasEmpty bool) (int, error)
	}
	// SiteTester tests a site for player p (in SlotUnless, p is the
	// site's owner).
	SiteTester interface {
		TestSite(c *kernel.Ctx, p, site int) (bool, error)
	}
	// Follower runs after a stage, with what it counted (captures, bonus
	// captures left).
	Follower interface {
		After(c *kernel.Ctx, p, n int) error
	}
	// Resulter ends the game with a reason.
	Resulter interface {
		Result(c *kernel.Ctx, reason string) error
	}
	// ChoiceEmitter lists the moves of a decision that waits at a site.
	ChoiceEmitter interface {
		EmitAt(c *kernel.Ctx, p, at int) (int, error)
	}
	// Condition is a predicate of the position, for player p.
	Condition interface {
		Holds(c *kernel.Ctx, p int) (bool, error)
	}
	// Amount is a whole number of the position, for player p.
	Amount interface {
		Value(c *kernel.Ctx, p int) (int, error)
	}
	// Scorer appends the players' scores (player 1 first) to dst: the
	// final ones when over is true.
	Scorer interface {
		Score(c *kernel.Ctx, over bool, dst []int) ([]int, error)
	}
	// MoveTester tests a move of player p (a move of the decision being
	// listed, as yet unplayed).
	MoveTester interface {
		TestMove(c *kernel.Ctx, p int, m kernel.Move) (bool, error)
	}
	// LapRule says how a relay goes on after a lap that ended on last.
	LapRule interface {
		Lap(c *kernel.Ctx, p, last int, t *kernel.Track, laps int) (kernel.LapEnd, error)
	}
	// Arriver is a consequence of player p's piece arriving on site at
	// (dropped or moved there): it reports whether it acted.
	Arriver interface {
		Arrive(c *kernel.Ctx, p, at int) (bool, error)
	}
)

// DirectedSower is a Sower that can sow in a direction the move names by
// the first site it sows (a move "b3-b4" sows from b3 towards b4).
type DirectedSower interface {
	SowToward(c *kernel.Ctx, p, from, first int) (last int, wasEmpty bool, err error)
}

// DirectedRelayer is a Relayer that relays in a direction the move names
// by its first site.
type DirectedRelayer interface {
	RelayToward(c *kernel.Ctx, p, from, first int) (last int, how kernel.How, laps int, err error)
}

// AsChoices returns the part in a choices or count slot as a
// ChoiceEmitter: an Emitter there ignores the site or the count.
func AsChoices(x any) ChoiceEmitter {
	switch e := x.(type) {
	case ChoiceEmitter:
		return e
	case Emitter:
		return emitIgnoring{e}
	}
	return nil
}

type emitIgnoring struct{ Emitter }

func (e emitIgnoring) EmitAt(c *kernel.Ctx, p, _ int) (int, error) { return e.Emit(c, p) }

// SiteNamer is a SiteTester that can name the sites that made a test
// hold (the three on a line), for a result.
type SiteNamer interface {
	TestSiteNamed(c *kernel.Ctx, p, site int) (bool, []int, error)
}

// Fits reports whether part x fits slot s.
func Fits(x any, s Slot) bool {
	switch s {
	case SlotEmit:
		_, ok := x.(Emitter)
		return ok
	case SlotPlay, SlotKindPlay:
		_, ok := x.(Player)
		return ok
	case SlotSow:
		_, ok := x.(Sower)
		return ok
	case SlotRelay:
		_, ok := x.(Relayer)
		return ok
	case SlotCapture:
		_, ok := x.(Capturer)
		return ok
	case SlotSiteTest, SlotUnless:
		_, ok := x.(SiteTester)
		return ok
	case SlotAfter:
		_, ok := x.(Follower)
		return ok
	case SlotResult:
		_, ok := x.(Resulter)
		return ok
	case SlotChoices, SlotCount:
		_, ok := x.(ChoiceEmitter)
		_, emits := x.(Emitter)
		return ok || emits // an emitter ignores the site or count
	case SlotCond:
		_, ok := x.(Condition)
		return ok
	case SlotAmount:
		_, ok := x.(Amount)
		return ok
	case SlotLap:
		_, ok := x.(LapRule)
		return ok
	case SlotMoveTest:
		_, ok := x.(MoveTester)
		return ok
	case SlotArrive:
		_, ok := x.(Arriver)
		return ok
	case SlotScore:
		_, ok := x.(Scorer)
		return ok
	}
	return false
}

// followAll runs each of the parts fs after a stage, in order, with p and
// n, until one of them ends the game.
func followAll(c *kernel.Ctx, fs []Follower, p, n int) error {
	for _, f := range fs {
		if c.S.Result.Over {
			break
		}
		if err := f.After(c, p, n); err != nil {
			return err
		}
	}
	return nil
}
