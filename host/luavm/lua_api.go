package luavm

import (
	"github.com/matombo/matombo/host/diag"
	lua "github.com/yuin/gopher-lua"
)

// The table of primitives scripts call as matombo.NAME, gathered by family:
// lua_args.go (reading arguments), lua_declare.go (declarations), lua_board.go
// (the board), lua_state.go (the state), sow.go (sowing and capture),
// filter.go (filters and emitters) and lua_end.go (the end of a game).

// installAPI creates the read-only global table matombo with the
// primitives. See docs/lua-api.md; games/types/matombo.lua is the same list for
// editors.
func (vm *Machine) installAPI() error {
	L := vm.L
	api := L.NewTable()
	fns := map[string]lua.LGFunction{
		// Declarations, while the script loads.
		"declare": vm.apiDeclare, "board": vm.apiBoard, "tag": vm.apiTag, "mark": vm.apiMark,
		"track": vm.apiTrack, "move": vm.apiMove, "var": vm.apiVar, "filter": vm.apiFilterOrProblem,
		"max_plies": vm.apiMaxPlies, "repetition": vm.apiRepetition, "data_error": vm.apiDataError,
		"extends": vm.apiExtends, "rule": vm.apiRule, "param": vm.apiParam,
		// The board.
		"site": vm.apiSite, "name": vm.apiName, "row": vm.apiRow, "col": vm.apiCol, "size": vm.apiSize,
		"has_tag": vm.apiHasTag, "next": vm.apiNext, "prev": vm.apiPrev, "on_track": vm.apiOnTrack,
		"opposite": vm.apiOpposite, "adjacent": vm.apiAdjacent, "jumps": vm.apiJumps, "lines": vm.apiLines,
		"players": vm.apiPlayers, "next_player": vm.apiNextPlayer,
		// The state.
		"count": vm.apiCount, "set_count": vm.apiSetCount, "add": vm.apiAdd, "take": vm.apiTake,
		"owner": vm.apiOwner, "set_owner": vm.apiSetOwner,
		"captured": vm.apiCaptured, "capture": vm.apiCapture, "pay": vm.apiPay,
		"hand": vm.apiHand, "set_hand": vm.apiSetHand, "place": vm.apiPlace, "move_piece": vm.apiMovePiece,
		"to_move": vm.apiToMove, "set_to_move": vm.apiSetToMove, "ply": vm.apiPly,
		"get": vm.apiGet, "set": vm.apiSet,
		// Sowing and capturing.
		"sow": vm.apiSow, "relay": vm.apiRelay, "relay_ends": vm.apiRelayEnds,
		"capture_run": vm.apiCaptureRun, "sweep": vm.apiSweep,
		"sow_skip": vm.apiSowSkip, "capture_count": vm.apiCaptureCount,
		// Filters and lines.
		"count_sites": vm.apiCountSites, "sum": vm.apiSum, "first": vm.apiFirst, "sites": vm.apiSites,
		"in_a_row": vm.apiInARow, "row_sites": vm.apiRowSites, "open_lines": vm.apiOpenLines,
		// Legal moves.
		"emit": vm.apiEmit, "emit_each": vm.apiEmitEach, "emit_subsets": vm.apiEmitSubsets,
		"emit_steps": vm.apiEmitSteps, "emit_jumps": vm.apiEmitJumps, "emit_sowings": vm.apiEmitSowings,
		// Repetition and the end.
		"repetitions": vm.apiRepetitions, "key": vm.apiKey, "finish": vm.apiFinish, "over": vm.apiOver,
		"irreversible": vm.apiIrreversible, // lua_irreversible.go
		"try":          vm.apiTry,          // lua_try.go
		"emit_pairs":   vm.apiEmitPairs,
	}
	for name, fn := range fns {
		api.RawSetString(name, L.NewFunction(fn))
	}
	vm.installParts(api) // the rule parts (lua_parts.go)
	for name, fn := range vm.g.Extra {
		api.RawSetString(name, L.NewFunction(fn))
	}
	vm.dataPos = map[*lua.LTable]diag.Pos{}
	var data lua.LValue = L.NewTable()
	if vm.g.Data != nil {
		count := 0
		d, err := vm.yamlToLua(vm.g.Data, 0, &count)
		if err != nil {
			return err
		}
		data = d
	}
	api.RawSetString("data", data)
	strictFields(L, api, missingPrimitive(api))
	globals := L.Get(lua.GlobalsIndex).(*lua.LTable)
	globals.RawSetString("matombo", vm.readOnly(L, api, "matombo"))
	return nil
}
