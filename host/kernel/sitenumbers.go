package kernel

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// Site numbers in tokens. A template's placeholder written with # ({#1} to
// {#4}, {#from}, {#to}) writes and reads a site by the number of its name
// alone: 11 for the point c11. Boards whose points are numbered once each,
// as the squares of a board numbered square by square, then take the
// numbers players write (11-15) while the sites keep their names (c11) in
// diagrams, scenarios and the state JSON. A kind may use numbers only on
// a board where no two sites share a number.

// EnableSiteNumbers indexes the board's sites by the number of their
// names, or says which two sites share one.
func (b *Board) EnableSiteNumbers() error {
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

// SiteNumber is the number of site i's name, as {#...} writes it.
func (b *Board) SiteNumber(i int) string {
	if i < 0 || i >= len(b.numberText) {
		return b.SiteName(i)
	}
	return b.numberText[i]
}

// NumberOf is the number of site i's name.
func (b *Board) NumberOf(i int) int {
	_, n, _ := splitName(b.SiteName(i))
	return n
}

// ByNumberName returns the name of the site numbered by the digits text,
// or text itself when no site has that number (for messages that say so).
func (b *Board) ByNumberName(text string) string {
	n, err := strconv.Atoi(text)
	if err != nil {
		return text
	}
	if i, ok := b.byNumber[n]; ok {
		return b.sites[i].Name
	}
	return text
}

// SiteText is how kind k writes site i in a token and in the messages
// about its tokens: its number when the kind writes numbers, else its name.
func (k *MoveKind) SiteText(b *Board, i int) string {
	if k.numbers {
		return b.SiteNumber(i)
	}
	return b.SiteName(i)
}

// NumberLen is the length of the site number (digits, without a leading
// zero) at the start of s, 0 when there is none.
func NumberLen(s string) int {
	j := 0
	for j < len(s) && s[j] >= '0' && s[j] <= '9' {
		j++
	}
	if j == 0 || j > maxSiteName || s[0] == '0' && j > 1 {
		return 0
	}
	return j
}

// NumberRange describes the numbers of a board's sites: "numbered 1 to 32".
func (b *Board) NumberRange() string {
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

// Numbers reports whether the kind's template writes sites by number
// ({#1}).
func (k *MoveKind) Numbers() bool { return k.numbers }

// SiteList writes sites as kind k's tokens do, without repeats: names in
// board order, or numbers from the smallest.
func (k *MoveKind) SiteList(b *Board, sites []int) string {
	sorted := slices.Compact(slices.Sorted(slices.Values(sites)))
	if k.numbers {
		slices.SortFunc(sorted, func(x, y int) int { return b.NumberOf(x) - b.NumberOf(y) })
	}
	names := make([]string, len(sorted))
	for i, x := range sorted {
		names[i] = k.SiteText(b, x)
	}
	return strings.Join(names, " ")
}

// siteToken is site i as a token writes it: its name, or its number.
func siteToken(b *Board, i int, num bool) string {
	if num {
		return b.SiteNumber(i)
	}
	return b.SiteName(i)
}
