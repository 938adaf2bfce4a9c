package solve

// SwapWinsAndLosses turns every value of a table solution into the
// opponent's, as a tampered cache file would (for tests).
func SwapWinsAndLosses(sol *Solution) {
	for i := int32(0); int(i) < sol.val.len(); i++ {
		*sol.val.at(i) = -*sol.val.at(i)
	}
}
