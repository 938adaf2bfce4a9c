package host

import "github.com/matombo/matombo/host/kernel"

// The types of the rules kernel (package host/kernel) that the host's API
// uses, under the names embedders know them by.

// Board is the fixed layout of a game: sites, rows, tags, tracks and
// lines. The script declares it while the game loads; it never changes
// afterwards and is shared by every state of the game.
type Board = kernel.Board

// Site is one place on a board that holds counters: a hole or a point.
type Site = kernel.Site

// Track is a named, ordered list of sites, such as a player's sowing
// circuit. A looping track continues from its last site to its first.
type Track = kernel.Track

// DiagramStyle says how a board's sites are shown in diagrams.
type DiagramStyle = kernel.DiagramStyle

// The diagram styles.
const (
	// Counts shows each site's number of counters (mancala boards).
	Counts = kernel.Counts
	// Pieces shows each site's owner: 1, 2, ... or . when empty (alignment boards).
	Pieces = kernel.Pieces
)

// The ends of a board a site can be drawn at (Site.End).
const (
	West = kernel.West
	East = kernel.East
)

// Move is one decision in compact form: a move kind the script declared and
// up to MaxMoveSites sites. See kernel.Move.
type Move = kernel.Move

// MoveKind is a kind of move a script declares, with the template of its
// tokens.
type MoveKind = kernel.MoveKind

// MaxMoveSites is the largest number of sites one move can name.
const MaxMoveSites = kernel.MaxMoveSites

// NoMove is the zero Move: no state lists it as legal.
var NoMove = kernel.NoMove

// Effect is one thing a ply did to the state. See kernel.Effect.
type Effect = kernel.Effect

// EffectKind says what an effect did.
type EffectKind = kernel.EffectKind

// The kinds of effects. Each names the fields of Effect it uses.
const (
	EffectTake     = kernel.EffectTake     // Count counters were picked up from Site
	EffectDrop     = kernel.EffectDrop     // Count counters were dropped on Site
	EffectCapture  = kernel.EffectCapture  // Count counters of Site went to Player's captured total
	EffectOwner    = kernel.EffectOwner    // Site now belongs to Player (0 for nobody)
	EffectPlace    = kernel.EffectPlace    // Player put a piece from their hand on Site, which they now own
	EffectMove     = kernel.EffectMove     // everything on Site (counters and owner) moved to the empty To
	EffectSet      = kernel.EffectSet      // Site now holds Count counters
	EffectHand     = kernel.EffectHand     // Player now has Count pieces in hand
	EffectCaptured = kernel.EffectCaptured // Player's captured total is now Count
	EffectTurn     = kernel.EffectTurn     // the next decision is Player's
)

// MaxEffects is the most effects a ply records one by one (see
// kernel.MaxEffects).
const MaxEffects = kernel.MaxEffects

// Method says which of the script's rule functions ended a game. The
// script's own words are in Outcome.Reason.
type Method = kernel.Method

// The ways a game can end.
const (
	MethodNone       = kernel.MethodNone       // the game goes on
	MethodRule       = kernel.MethodRule       // the script ended it while playing a move (or in setup)
	MethodNoMoves    = kernel.MethodNoMoves    // the script's blocked function: a player had no legal move
	MethodRepetition = kernel.MethodRepetition // the script's repeated function: a position occurred too often
	MethodPosition   = kernel.MethodPosition   // the script's result function judged a set-up position finished
)

// maxCount and maxLegal are the kernel's bounds on a cell and a legal
// list.
const (
	maxCount = kernel.MaxCount
	maxLegal = kernel.MaxLegal
	maxSites = kernel.MaxSites
)

// Position is the board part of a state as plain values (see
// kernel.Position): for building states, comparing them and applying
// effects.
type Position = kernel.Position

// EffectError reports an effect that cannot be applied to a position (see
// kernel.EffectError).
type EffectError = kernel.EffectError
