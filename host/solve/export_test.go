package solve

// SwapWinsAndLosses turns every value of a table solution into the
// opponent's, as a tampered cache file would (for tests).
func SwapWinsAndLosses(sol *Solution) {
	for i := range sol.val {
		sol.val[i] = -sol.val[i]
	}
}
