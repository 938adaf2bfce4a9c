package luavm

// ValidGameName reports whether n may name a game: 1 to 64 lower-case
// letters, digits, hyphens and underscores.
func ValidGameName(n string) bool {
	if n == "" || len(n) > 64 {
		return false
	}
	for i := 0; i < len(n); i++ {
		c := n[i]
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-' || c == '_') {
			return false
		}
	}
	return true
}
