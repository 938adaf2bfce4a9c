// Package diagram draws a board as text and reads such text back: the
// diagrams of the terminal, of scenarios and of error messages. It works on
// the kernel's board, so the host and any tool draw alike.
package diagram

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"github.com/matombo/matombo/host/diag"
	"github.com/matombo/matombo/host/kernel"
)

// Options change how a board is drawn.
type Options struct {
	Color bool // colour each site by its owner with ANSI escapes
	// Width is the width of the lines the board should fit in; 0 for no
	// limit. A point board's key goes below the board, after a line
	// "Key:", where the two do not fit side by side. A board wider than
	// Width is drawn whole all the same.
	Width int
	// NoKeyBelow leaves out a point board's key where it would go below
	// the board (where it would fit beside it, it is drawn there): for a
	// reader who has seen the key once, such as a player in a narrow
	// terminal, to whom the same key under every board is noise.
	NoKeyBelow bool
}

// Game is what a diagram needs of a game: its board, its number of
// players, and the owner of each site at the opening (a counts board
// writes an owner only where it differs).
type Game struct {
	Board   *kernel.Board
	Players int
	Opening func(site int) (owner int) // nil: every site's opening owner is 0
}

func (g Game) opening(i int) int {
	if g.Opening == nil {
		return 0
	}
	return g.Opening(i)
}

// Draw draws the board as the players see it: the northernmost row on
// top, Player 1's row a at the bottom, each line starting with its row
// letter. On a "counts" board each site shows its count, then the marks of
// its tags (e.g. * for a head), then @ and the owner when the owner differs
// from the opening; a grid board has a line of column numbers below. On a
// "pieces" board each site shows its owner (repeated for a stack) or .
// when empty; a board of points has its key beside it, or below it (see
// Options.Width). The text can be pasted into a scenario, see Parse.
// count and owner give each site's count and owner.
func Draw(g Game, count, owner func(site int) int, opt Options) string {
	b := g.Board
	cells := make([]string, b.NumSites())
	width := 1
	for i := range cells {
		cells[i] = Cell(g, i, count(i), owner(i))
		if len(cells[i]) > width {
			width = len(cells[i])
		}
	}
	if b.Grid() && width < 2 {
		width = 2
	}
	paint := func(i int, text string) string {
		if !opt.Color {
			return text
		}
		switch owner(i) {
		case 0:
			return text
		case 1:
			return "\x1b[36m" + text + "\x1b[0m"
		case 2:
			return "\x1b[33m" + text + "\x1b[0m"
		default:
			return "\x1b[35m" + text + "\x1b[0m"
		}
	}
	var sb strings.Builder
	if !b.Grid() {
		return pointDiagram(b, cells, width, paint, opt)
	}
	labelW := 0
	for _, l := range b.Rows() {
		if len(l) > labelW {
			labelW = len(l)
		}
	}
	labelW += 4
	minCol, maxCol := int(^uint(0)>>1), 0
	for r := range b.NumRows() {
		for _, i := range b.Drawn(r) {
			minCol = min(minCol, b.Site(int(i)).Col)
			maxCol = max(maxCol, b.Site(int(i)).Col)
		}
	}
	// A site drawn at an end (a store) stands in brackets beside the
	// rows, on a line of its own in the middle of the board.
	west, east := b.Ends()
	endText := func(i int) string { return paint(i, "["+cells[i]+"]") }
	westW := 0
	if west >= 0 {
		westW = len(cells[west]) + 3
	}
	rowsW := (maxCol - minCol + 1) * (width + 1)
	endsLine := func() {
		if west < 0 && east < 0 {
			return
		}
		line := strings.Repeat(" ", labelW)
		if west >= 0 {
			line += endText(west)
		}
		if east >= 0 {
			line += strings.Repeat(" ", westW+rowsW-max(westW-1, 0)) + endText(east)
		}
		sb.WriteString(strings.TrimRight(line, " "))
		sb.WriteByte('\n')
	}
	for r := b.NumRows() - 1; r >= 0; r-- {
		var line strings.Builder
		line.WriteString(pad(b.RowLabel(r), labelW+westW))
		at := 0
		for _, i := range b.Drawn(r) {
			col := (b.Site(int(i)).Col - minCol) * (width + 1)
			if col > at {
				line.WriteString(strings.Repeat(" ", col-at))
				at = col
			}
			line.WriteString(paint(int(i), pad(cells[i], width)))
			at += width
			line.WriteByte(' ')
			at++
		}
		sb.WriteString(strings.TrimRight(line.String(), " "))
		sb.WriteByte('\n')
		if r == b.NumRows()/2 {
			endsLine()
		}
	}
	// Column numbers go below the board, on Player 1's side, as on a chess
	// diagram; a header on top would also break YAML block scalars, whose
	// indentation is taken from their first line.
	sb.WriteString(strings.Repeat(" ", labelW+westW))
	for c := minCol; c <= maxCol; c++ {
		if c > minCol {
			sb.WriteByte(' ')
		}
		sb.WriteString(pad(strconv.Itoa(c), width))
	}
	trimLastLine(&sb)
	return sb.String()
}

// keyGap separates a point board from its key.
const keyGap = 6

// keyLine introduces a point board's key drawn below the board; Parse
// stops reading at it.
const keyLine = "Key:"

// pointDiagram draws a board of points (from its picture, or in rows by
// drawing position) and the same drawing with the number of each point's
// name in place of its cell: the key that tells b1 from b3. The key goes
// to the right of the board, or below it, after keyLine, when the two side
// by side would be wider than opt.Width (0: no limit), unless
// opt.NoKeyBelow leaves it out there.
func pointDiagram(b *kernel.Board, cells []string, width int, paint func(int, string) string, opt Options) string {
	plain := func(_ int, text string) string { return text }
	left := drawPoints(b, cells, width, paint)
	bare := left
	if paint != nil {
		bare = drawPoints(b, cells, width, plain)
	}
	numbers := make([]string, b.NumSites())
	keyW := 1
	for i := range numbers {
		_, n, _ := kernel.SplitName(b.Site(i).Name)
		numbers[i] = strconv.Itoa(n)
		keyW = max(keyW, len(numbers[i]))
	}
	key := drawPoints(b, numbers, keyW, plain)
	var sb strings.Builder
	if opt.Width > 0 && widest(bare)+keyGap+widest(key) > opt.Width {
		below := slices.Concat([]string{keyLine}, key)
		if opt.NoKeyBelow {
			below = nil
		}
		for _, l := range slices.Concat(left, below) {
			sb.WriteString(strings.TrimRight(l, " "))
			sb.WriteByte('\n')
		}
		return sb.String()
	}
	w := widest(bare)
	for j, l := range left {
		line := l
		if k := key[j]; strings.TrimSpace(k) != "" {
			line += strings.Repeat(" ", w-len(bare[j])+keyGap) + k
		}
		sb.WriteString(strings.TrimRight(line, " "))
		sb.WriteByte('\n')
	}
	return sb.String()
}

// widest is the length of the longest of lines.
func widest(lines []string) int {
	w := 0
	for _, l := range lines {
		w = max(w, len(l))
	}
	return w
}

// drawPoints draws the lines of a point board with the given cell texts:
// its picture with a cell in place of each @, or else each row's points at
// their drawing positions, width characters apart.
func drawPoints(b *kernel.Board, cells []string, width int, paint func(int, string) string) []string {
	var lines []string
	if b.Picture() != "" {
		rowOf := map[string]int{}
		for r, l := range b.Rows() {
			rowOf[l] = r
		}
		for _, line := range strings.Split(strings.TrimRight(b.Picture(), "\n"), "\n") {
			f := strings.Fields(line)
			r, ok := -1, false
			if len(f) > 0 {
				r, ok = rowOf[f[0]]
			}
			if !ok {
				lines = append(lines, strings.TrimRight(line, " "))
				continue
			}
			k := 0
			var out strings.Builder
			for _, c := range line {
				if c == '@' && k < len(b.Row(r)) {
					i := int(b.Row(r)[k])
					out.WriteString(paint(i, cells[i]))
					k++
					continue
				}
				out.WriteRune(c)
			}
			lines = append(lines, strings.TrimRight(out.String(), " "))
		}
		return lines
	}
	labelW := 0
	for _, l := range b.Rows() {
		labelW = max(labelW, len(l))
	}
	labelW += 4
	minCol := int(^uint(0) >> 1)
	for i := range b.NumSites() {
		minCol = min(minCol, b.Site(i).Col)
	}
	for r := b.NumRows() - 1; r >= 0; r-- {
		var line strings.Builder
		line.WriteString(pad(b.RowLabel(r), labelW))
		at := 0
		for _, i := range b.Row(r) {
			col := (b.Site(int(i)).Col - minCol) * (width + 1)
			if col > at {
				line.WriteString(strings.Repeat(" ", col-at))
				at = col
			}
			line.WriteString(paint(int(i), pad(cells[i], width)))
			at += width + 1
			line.WriteByte(' ')
		}
		lines = append(lines, strings.TrimRight(line.String(), " "))
	}
	return lines
}

// trimLastLine ends the builder's last line without trailing spaces.
func trimLastLine(sb *strings.Builder) {
	t := strings.TrimRight(sb.String(), " ")
	sb.Reset()
	sb.WriteString(t)
	sb.WriteByte('\n')
}

func pad(s string, w int) string {
	if len(s) >= w {
		return s
	}
	return s + strings.Repeat(" ", w-len(s))
}

// Cell writes what a diagram shows for site i holding count counters owned
// by owner: e.g. "3", "2*", "12@2" on a counts board, "1" or "." on a
// pieces board.
func Cell(g Game, i, count, owner int) string {
	b := g.Board
	marks := b.MarkOf(i)
	if b.Style() == kernel.Pieces {
		if count == 0 {
			return "." + marks
		}
		return stackCell(count, owner) + marks
	}
	t := strconv.Itoa(count) + marks
	if owner != g.opening(i) {
		t += "@" + strconv.Itoa(owner)
	}
	return t
}

// ParseCell reads one diagram cell for site i, as Parse does.
func ParseCell(g Game, i int, cell string) (count, owner int, err error) {
	if i < 0 || i >= g.Board.NumSites() {
		return 0, 0, fmt.Errorf("site %d is not on the board", i)
	}
	return parseCell(g, i, cell)
}

// Error reports a problem in a board diagram; Line counts from 1 within
// the diagram's text.
type Error struct {
	Line int
	Msg  string
}

// Code returns "bad-diagram" (see CodeBadDiagram).
func (e *Error) Code() string { return diag.CodeBadDiagram }

func (e *Error) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("diagram line %d: %s", e.Line, diag.EscapeControls(e.Msg))
	}
	return "diagram: " + diag.EscapeControls(e.Msg)
}

// Parse reads a board diagram in the style Diagram draws and returns
// the count and owner of every site in board order. Rows may come in any
// order but each once and complete; column headers and lines of picture
// connectors (- | / \) are skipped; connectors between cells are ignored;
// a line "Key:" ends the board (a point board's key drawn below it).
// On a counts board a site's owner is the opening's unless the cell says
// @N; on a pieces board the cell is the owner (count 1) or . (empty).
// Marks after a cell must be marks of the site's tags.
func Parse(g Game, text string) (counts, owners []int, err error) {
	b := g.Board
	n := b.NumSites()
	counts, owners = make([]int, n), make([]int, n)
	seen := make([]bool, b.NumRows())
	var endSeen [2]bool // the site drawn at the west, east end was given
	lines := strings.Split(text, "\n")
	for ln, raw := range lines {
		line := strings.TrimRight(raw, " \t\r")
		fields := strings.Fields(line)
		if len(fields) == 0 {
			continue
		}
		if strings.TrimSpace(line) == keyLine {
			break
		}
		if fields[0][0] == '[' {
			if err := parseEnds(g, line, counts, owners, &endSeen); err != nil {
				return nil, nil, &Error{Line: ln + 1, Msg: err.Error()}
			}
			continue
		}
		r := b.RowIndex(fields[0])
		if r < 0 {
			if isHeader(fields) || isConnectors(line) {
				continue
			}
			return nil, nil, &Error{Line: ln + 1, Msg: fmt.Sprintf("%q does not start with a row label (rows are %s)", firstN(line, 30), strings.Join(b.Rows(), ", "))}
		}
		if seen[r] {
			return nil, nil, &Error{Line: ln + 1, Msg: fmt.Sprintf("row %s appears twice", fields[0])}
		}
		seen[r] = true
		if !b.Grid() {
			// A point board's key follows the row, starting with its label again.
			for k := 1; k < len(fields); k++ {
				if fields[k] == fields[0] {
					line = cutAtField(line, k)
					break
				}
			}
		}
		rest := strings.TrimSpace(line)[len(fields[0]):]
		if b.Style() == kernel.Counts {
			for k, f := range strings.Fields(rest) {
				if len(f) > 1 && f[0] == '-' && f[1] >= '0' && f[1] <= '9' {
					where := "row " + fields[0]
					if k < len(b.Row(r)) {
						where = b.Site(int(b.Row(r)[k])).Name
					}
					return nil, nil, &Error{Line: ln + 1, Msg: fmt.Sprintf("%s: %q: counts cannot be negative", where, f)}
				}
			}
		}
		rest = strings.Map(func(c rune) rune {
			if strings.ContainsRune("-|/\\", c) {
				return ' '
			}
			return c
		}, rest)
		cells := strings.Fields(rest)
		sites := b.Drawn(r)
		if len(cells) != len(sites) && len(cells) == len(b.Row(r)) {
			// The row with the sites of its ends in it, in column order,
			// as a board without ends draws it.
			sites = b.Row(r)
			for _, i := range sites {
				if k := endOf(b, int(i)); k >= 0 {
					if endSeen[k] {
						return nil, nil, &Error{Line: ln + 1, Msg: fmt.Sprintf("%s is given twice (in its row and at its end)", b.Site(int(i)).Name)}
					}
					endSeen[k] = true
				}
			}
		}
		if len(cells) != len(sites) {
			return nil, nil, &Error{Line: ln + 1, Msg: fmt.Sprintf("row %s has %d sites, the line gives %d%s", fields[0], len(sites), len(cells), endsHint(b, r))}
		}
		for k, cell := range cells {
			i := int(sites[k])
			c, o, err := parseCell(g, i, cell)
			if err != nil {
				return nil, nil, &Error{Line: ln + 1, Msg: fmt.Sprintf("%s: %v", b.Site(int(i)).Name, err)}
			}
			counts[i], owners[i] = c, o
		}
	}
	for r, ok := range seen {
		if !ok {
			return nil, nil, &Error{Msg: fmt.Sprintf("row %s is missing (a diagram gives every row: %s)", b.RowLabel(r), strings.Join(b.Rows(), ", "))}
		}
	}
	for k, i := range boardEnds(b) {
		if i >= 0 && !endSeen[k] {
			return nil, nil, &Error{Msg: fmt.Sprintf("%s, the site at the %s end, is missing: a line of its own gives the ends in brackets, west first (%s)", b.Site(int(i)).Name, b.Site(int(i)).End, endsExample(b))}
		}
	}
	return counts, owners, nil
}

// parseEnds reads the line of a diagram that gives the sites at the ends
// of the board in brackets, the west one first: "[0]    [12]".
func parseEnds(g Game, line string, counts, owners []int, seen *[2]bool) error {
	b := g.Board
	if west, east := b.Ends(); west < 0 && east < 0 {
		return fmt.Errorf("%q: brackets give the sites at the ends of a board, and this board has none", firstN(strings.TrimSpace(line), 30))
	}
	var cells []string
	rest := strings.TrimSpace(line)
	for rest != "" {
		if rest[0] != '[' {
			return fmt.Errorf("%q: the line of the ends gives each site in brackets, west first (%s)", firstN(strings.TrimSpace(line), 30), endsExample(b))
		}
		j := strings.IndexByte(rest, ']')
		if j < 0 {
			return fmt.Errorf("%q: a [ without its ]", firstN(strings.TrimSpace(line), 30))
		}
		cells = append(cells, strings.TrimSpace(rest[1:j]))
		rest = strings.TrimSpace(rest[j+1:])
	}
	var sites []int
	for _, i := range boardEnds(b) {
		if i >= 0 {
			sites = append(sites, i)
		}
	}
	if len(cells) != len(sites) {
		return fmt.Errorf("the board has %d sites at its ends, the line gives %d (%s)", len(sites), len(cells), endsExample(b))
	}
	for k, i := range sites {
		e := endOf(b, i)
		if seen[e] {
			return fmt.Errorf("%s is given twice (in its row and at its end)", b.Site(int(i)).Name)
		}
		seen[e] = true
		c, o, err := parseCell(g, i, cells[k])
		if err != nil {
			return fmt.Errorf("%s: %v", b.Site(int(i)).Name, err)
		}
		counts[i], owners[i] = c, o
	}
	return nil
}

// boardEnds returns the sites drawn at the west and east ends, -1 for none.
func boardEnds(b *kernel.Board) [2]int {
	w, e := b.Ends()
	return [2]int{w, e}
}

// endOf returns 0 for the site at the west end, 1 for the east one, -1
// for a site drawn in its row.
func endOf(b *kernel.Board, i int) int {
	for k, e := range boardEnds(b) {
		if e == i {
			return k
		}
	}
	return -1
}

// endsExample shows the ends line of the board, e.g. "[b7] ... [a7]".
func endsExample(b *kernel.Board) string {
	var parts []string
	for _, i := range boardEnds(b) {
		if i >= 0 {
			parts = append(parts, "["+b.Site(int(i)).Name+"]")
		}
	}
	return strings.Join(parts, " ... ")
}

// endsHint explains, for a row with a site at an end, that the site is
// given on the line of the ends.
func endsHint(b *kernel.Board, r int) string {
	if len(b.Drawn(r)) == len(b.Row(r)) {
		return ""
	}
	return fmt.Sprintf(" (without %s, given on the line of the ends in brackets, or with it in column order)", endsExample(b))
}

// cutAtField returns line up to its k-th field (from 0), fields being
// separated by spaces as strings.Fields sees them.
func cutAtField(line string, k int) string {
	n, in := -1, false
	for i, c := range line {
		space := unicode.IsSpace(c) // as strings.Fields splits the fields counted
		if !space && !in {
			n++
			if n == k {
				return strings.TrimRightFunc(line[:i], unicode.IsSpace)
			}
		}
		in = !space
	}
	return line
}

func firstN(s string, n int) string {
	if len(s) > n {
		return s[:n] + "..."
	}
	return s
}

func isHeader(fields []string) bool {
	for i, f := range fields {
		if f != strconv.Itoa(i+1) {
			return false
		}
	}
	return true
}

func isConnectors(line string) bool {
	return strings.Trim(line, " \t-|/\\") == ""
}

// parseCell reads one cell of a diagram for site i.
func parseCell(g Game, i int, cell string) (count, owner int, err error) {
	b := g.Board
	body := cell
	ownerText := ""
	if at := strings.IndexByte(cell, '@'); at >= 0 && b.Style() != kernel.Pieces {
		body, ownerText = cell[:at], cell[at+1:]
	}
	j := len(body)
	for j > 0 && !(body[j-1] >= '0' && body[j-1] <= '9' || body[j-1] == '.') {
		j--
	}
	value, marks := body[:j], body[j:]
	for k := 0; k < len(marks); k++ {
		ok := false
		tags, ms := b.MarkedTags()
		for j, t := range tags {
			if ms[j] == marks[k] {
				if b.TagMask(i)&(1<<uint(t)) == 0 {
					return 0, 0, fmt.Errorf("%q: mark %c means %s, which this site is not", cell, ms[j], b.TagName(t))
				}
				ok = true
			}
		}
		if !ok {
			return 0, 0, fmt.Errorf("%q: unknown mark %q", cell, marks[k])
		}
	}
	if b.Style() == kernel.Pieces {
		return parseStack(g, value)
	}
	owner = g.opening(i)
	if value == "." {
		count = 0
	} else {
		count, err = strconv.Atoi(value)
		if err != nil || count < 0 || count > 1<<30 {
			return 0, 0, fmt.Errorf("%q: want a count, then marks, then @owner if the owner changed", cell)
		}
	}
	if ownerText != "" {
		owner, err = strconv.Atoi(ownerText)
		if err != nil || owner < 0 || owner > g.Players {
			return 0, 0, fmt.Errorf("%q: owner after @ must be 0-%d", cell, g.Players)
		}
	}
	return count, owner, nil
}
