package diag

import (
	"fmt"
	"strings"
)

// ShortList writes a list briefly, inline: its items joined with ", "
// when there are at most limit, else the first limit of them and how
// many more: "a, b, c and 4 more". A limit below 1 counts as 1.
func ShortList(items []string, limit int) string {
	n := min(len(items), max(limit, 1))
	return ShortListOf(items[:n], len(items))
}

// ShortListOf is ShortList of a list of total items, of which first are
// the first few to show: for a list too long to make in full (the shards
// missing from a billion). A total below len(first) counts as
// len(first).
func ShortListOf(first []string, total int) string {
	shown := strings.Join(first, ", ")
	more := total - len(first)
	switch {
	case more <= 0:
		return shown
	case len(first) == 0:
		return fmt.Sprintf("%d more", more)
	}
	return fmt.Sprintf("%s and %d more", shown, more)
}

// AndList writes items as a sentence lists them: "a", "a and b", "a, b
// and c"; "" for none.
func AndList(items []string) string {
	return sentenceList(items, " and ")
}

// OrList writes items as a sentence offers them as choices: "a", "a or
// b", "a, b or c"; "" for none.
func OrList(items []string) string {
	return sentenceList(items, " or ")
}

// sentenceList joins items with ", " but the last two, which conj joins.
func sentenceList(items []string, conj string) string {
	if len(items) <= 1 {
		return strings.Join(items, "")
	}
	return strings.Join(items[:len(items)-1], ", ") + conj + items[len(items)-1]
}
