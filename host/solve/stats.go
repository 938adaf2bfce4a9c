package solve

// SearchStats counts what the search engine did, summed over its
// goroutines: where the work went, to compare settings and programs.
type SearchStats struct {
	Nodes      int64 `json:"nodes"`       // positions searched: their moves played and looked at
	Children   int64 `json:"children"`    // positions reached by those moves (each looked at once)
	Passes     int64 `json:"passes"`      // null-window searches of the root (MTD(f))
	Probes     int64 `json:"probes"`      // transposition table probes
	TableHits  int64 `json:"table_hits"`  // probes that found the position
	Ends       int64 `json:"ends"`        // finished games scored by the script
	Cuts       int64 `json:"cuts"`        // searches cut by a move searched
	FirstCuts  int64 `json:"first_cuts"`  // of them, by the first move searched
	KnownCuts  int64 `json:"known_cuts"`  // searches cut by a move known to cut without searching it (enhanced transposition cutoffs, the database, futility)
	KnownMoves int64 `json:"known_moves"` // moves not searched: known exactly, or known not to matter

	EndgameHits      int64 `json:"endgame_hits"`      // positions found in the database
	EndgameCounters  int   `json:"endgame_counters"`  // the database's counters in play (0: none)
	EndgamePositions int64 `json:"endgame_positions"` // its positions
}

func (s *SearchStats) add(o *SearchStats) {
	s.Nodes += o.Nodes
	s.Children += o.Children
	s.Passes += o.Passes
	s.Probes += o.Probes
	s.TableHits += o.TableHits
	s.Ends += o.Ends
	s.Cuts += o.Cuts
	s.FirstCuts += o.FirstCuts
	s.KnownCuts += o.KnownCuts
	s.KnownMoves += o.KnownMoves
	s.EndgameHits += o.EndgameHits
}

// addStats adds a searcher's counts to the engine's.
func (e *engine) addStats(s *SearchStats) {
	e.statsMu.Lock()
	defer e.statsMu.Unlock()
	e.stats.add(s)
}

// statistics returns the engine's counts so far.
func (e *engine) statistics() SearchStats {
	e.statsMu.Lock()
	defer e.statsMu.Unlock()
	return e.stats
}

// SearchStats returns what the search engine did (zero for the table
// engine and for a solution read from a file).
func (sol *Solution) SearchStats() SearchStats {
	if sol.search == nil {
		return SearchStats{}
	}
	return sol.search.stats
}
