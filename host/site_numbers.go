package host

import (
	"fmt"
	"strconv"
)

// Site numbers in tokens. A template's placeholder written with # ({#1} to
// {#4}, {#from}, {#to}) writes and reads a site by the number of its name
// alone: 11 for the point c11. Boards whose points are numbered once each,
// as the squares of a board numbered square by square, then take the
// numbers players write (11-15) while the sites keep their names (c11) in
// diagrams, scenarios and the state JSON. A kind may use numbers only on
// a board where no two sites share a number.

// enableSiteNumbers indexes the board's sites by the number of their
// names, or says which two sites share one.
func (b *Board) enableSiteNumbers() error {
	if b.byNumber != nil {
		return nil
	}
	byNumber := make(map[int]int32, len(b.sites))
	texts := make([]string, len(b.sites))
	for i, s := range b.sites {
		_, n, ok := splitName(s.Name)
		if !ok {
			return fmt.Errorf("site %s has no number to write", s.Name)
		}
		if j, dup := byNumber[n]; dup {
			return fmt.Errorf("sites %s and %s are both numbered %d: {#...} writes sites by number, which needs each number once", b.sites[j].Name, s.Name, n)
		}
		byNumber[n] = int32(i)
		texts[i] = strconv.Itoa(n)
	}
	b.byNumber, b.numberText = byNumber, texts
	return nil
}

// siteNumber is the number of site i's name, as {#...} writes it.
func (b *Board) siteNumber(i int) string {
	if i < 0 || i >= len(b.numberText) {
		return b.siteName(i)
	}
	return b.numberText[i]
}

// numberOf is the number of site i's name.
func (b *Board) numberOf(i int) int {
	_, n, _ := splitName(b.siteName(i))
	return n
}

// byNumberName returns the name of the site numbered by the digits text,
// or text itself when no site has that number (for messages that say so).
func (b *Board) byNumberName(text string) string {
	n, err := strconv.Atoi(text)
	if err != nil {
		return text
	}
	if i, ok := b.byNumber[n]; ok {
		return b.sites[i].Name
	}
	return text
}

// siteText is how kind k writes site i in a token and in the messages
// about its tokens: its number when the kind writes numbers, else its name.
func (k *MoveKind) siteText(b *Board, i int) string {
	if k.numbers {
		return b.siteNumber(i)
	}
	return b.siteName(i)
}

// numberLen is the length of the site number (digits, without a leading
// zero) at the start of s, 0 when there is none.
func numberLen(s string) int {
	j := 0
	for j < len(s) && s[j] >= '0' && s[j] <= '9' {
		j++
	}
	if j == 0 || j > maxSiteName || s[0] == '0' && j > 1 {
		return 0
	}
	return j
}

// numberRange describes the numbers of a board's sites: "numbered 1 to 32".
func (b *Board) numberRange() string {
	lo, hi := -1, -1
	for n := range b.byNumber {
		if lo < 0 || n < lo {
			lo = n
		}
		hi = max(hi, n)
	}
	if len(b.byNumber) == hi-lo+1 {
		return fmt.Sprintf("its sites are numbered %d to %d", lo, hi)
	}
	return fmt.Sprintf("its sites are numbered from %d to %d, not every number a site", lo, hi)
}
