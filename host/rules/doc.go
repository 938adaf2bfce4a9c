// Package rules holds the rule parts games are composed of: small typed
// parts, each a value that fits one or more slots of a turn (what may be
// chosen, what a choice does, when a move continues or pauses, captures,
// the end, the result), in the manner of Ludii's ludemes. A part is made
// from a declaration (a table in a script) by its constructor, runs on a
// kernel.Ctx, and calls the other parts in its slots through their slot
// interfaces, so any part of a slot's type fits the slot: a native part,
// or a script function (a Hook) that an extending script put in its
// place.
//
// Parts register themselves: each file declares its kinds of parts with
// Register, giving each a Spec (its name, the slot it is called as, its
// fields with their types and documentation, and its constructor). The
// Lua API's constructors (matombo.sow_rule, ...), the reference tables of
// docs/lua-api.md and the editor stubs of games/types/matombo.lua are made
// from the registry, so a new kind of part is a new file.
//
// The package imports no Lua: the host's Lua machine decodes a script's
// tables into Args by the fields of each Spec and implements
// kernel.Hooks for the script functions parts call.
package rules
