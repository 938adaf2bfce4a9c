package host

// AppendCounts appends the number of counters on every site, in site
// index order (0 to NumSites-1), to dst and returns the extended slice:
// Count of each site at once, for a loop that reads them all (a search
// reading every position it plays), without allocating when dst has room.
func (s *State) AppendCounts(dst []int) []int {
	for _, c := range s.k.Cells[:s.g.def.Layout.Sites] {
		dst = append(dst, int(c))
	}
	return dst
}

// AppendOwners appends the owner of every site (0 for nobody), in site
// index order, to dst and returns the extended slice: Owner of each site
// at once.
func (s *State) AppendOwners(dst []int) []int {
	l := &s.g.def.Layout
	for _, o := range s.k.Cells[l.Owners : l.Owners+l.Sites] {
		dst = append(dst, int(o))
	}
	return dst
}
