// Package markdown renders the Markdown of rules pages as safe HTML: ATX
// headings, paragraphs, nested ordered and unordered lists, fenced code,
// block quotes, tables, inline code, emphasis, strong emphasis and links.
// All text is escaped and links keep only http, https, mailto, anchor and
// relative targets, so the output can be inserted into a page as it is.
package markdown

import (
	"html"
	"strconv"
	"strings"
)

// Render returns the HTML of a Markdown document.
func Render(src string) string {
	src = strings.ReplaceAll(src, "\r\n", "\n")
	src = strings.ReplaceAll(src, "\t", "    ")
	var b strings.Builder
	blocks(&b, strings.Split(src, "\n"), 0)
	return b.String()
}

// maxDepth bounds the nesting of lists and quotes, so hostile input
// cannot recurse deeply.
const maxDepth = 16

// blocks renders lines as a sequence of blocks.
func blocks(b *strings.Builder, lines []string, depth int) {
	for i := 0; i < len(lines); {
		line := lines[i]
		trim := strings.TrimSpace(line)
		switch {
		case trim == "":
			i++
		case strings.HasPrefix(trim, "```") || strings.HasPrefix(trim, "~~~"):
			i = fence(b, lines, i)
		case heading(trim) > 0:
			n := heading(trim)
			text := strings.TrimSpace(strings.TrimRight(strings.TrimSpace(trim[n:]), "#"))
			b.WriteString("<h" + strconv.Itoa(n) + ` id="` + slug(text) + `">`)
			inline(b, text, 0)
			b.WriteString("</h" + strconv.Itoa(n) + ">\n")
			i++
		case isRule(trim):
			b.WriteString("<hr>\n")
			i++
		case strings.HasPrefix(trim, ">") && depth < maxDepth:
			var inner []string
			for i < len(lines) && strings.HasPrefix(strings.TrimSpace(lines[i]), ">") {
				t := strings.TrimPrefix(strings.TrimSpace(lines[i]), ">")
				inner = append(inner, strings.TrimPrefix(t, " "))
				i++
			}
			b.WriteString("<blockquote>\n")
			blocks(b, inner, depth+1)
			b.WriteString("</blockquote>\n")
		case isTableStart(lines, i):
			i = table(b, lines, i)
		case marker(line) != nil && depth < maxDepth:
			i = list(b, lines, i, depth)
		default:
			i = paragraph(b, lines, i)
		}
	}
}

// heading returns the level of an ATX heading line, 0 when it is none.
func heading(t string) int {
	n := 0
	for n < len(t) && t[n] == '#' {
		n++
	}
	if n == 0 || n > 6 || (n < len(t) && t[n] != ' ') {
		return 0
	}
	return n
}

func isRule(t string) bool {
	if len(t) < 3 {
		return false
	}
	c := t[0]
	if c != '-' && c != '*' && c != '_' {
		return false
	}
	for i := 0; i < len(t); i++ {
		if t[i] != c && t[i] != ' ' {
			return false
		}
	}
	return true
}

// slug makes an anchor id from a heading.
func slug(text string) string {
	var b strings.Builder
	dash := false
	for _, r := range strings.ToLower(text) {
		switch {
		case r >= 'a' && r <= 'z' || r >= '0' && r <= '9':
			b.WriteRune(r)
			dash = false
		case !dash && b.Len() > 0:
			b.WriteByte('-')
			dash = true
		}
	}
	return strings.TrimSuffix(b.String(), "-")
}

// fence renders a fenced code block starting at line i and returns the
// line after it.
func fence(b *strings.Builder, lines []string, i int) int {
	open := strings.TrimSpace(lines[i])
	delim := open[:3]
	indent := len(lines[i]) - len(strings.TrimLeft(lines[i], " "))
	b.WriteString("<pre><code>")
	i++
	for ; i < len(lines); i++ {
		if strings.HasPrefix(strings.TrimSpace(lines[i]), delim) {
			i++
			break
		}
		l := lines[i]
		for k := 0; k < indent && strings.HasPrefix(l, " "); k++ {
			l = l[1:]
		}
		b.WriteString(html.EscapeString(l))
		b.WriteByte('\n')
	}
	b.WriteString("</code></pre>\n")
	return i
}

// listMarker is the start of a list item.
type listMarker struct {
	ordered bool
	indent  int // columns before the marker
	content int // columns before the item's text
	start   int // number of the first item of an ordered list
}

// marker parses a list item's marker, nil when line starts none.
func marker(line string) *listMarker {
	indent := len(line) - len(strings.TrimLeft(line, " "))
	rest := line[indent:]
	if rest == "" {
		return nil
	}
	if rest[0] == '-' || rest[0] == '*' || rest[0] == '+' {
		if len(rest) == 1 || rest[1] == ' ' {
			if isRule(strings.TrimSpace(rest)) {
				return nil
			}
			return &listMarker{indent: indent, content: indent + 1 + spaces(rest[1:])}
		}
		return nil
	}
	d := 0
	for d < len(rest) && d < 9 && rest[d] >= '0' && rest[d] <= '9' {
		d++
	}
	if d == 0 || d >= len(rest) || (rest[d] != '.' && rest[d] != ')') || (d+1 < len(rest) && rest[d+1] != ' ') {
		return nil
	}
	n, _ := strconv.Atoi(rest[:d])
	return &listMarker{ordered: true, indent: indent, content: indent + d + 1 + spaces(rest[d+1:]), start: n}
}

// spaces counts the spaces after a marker: 1 to 4, at least 1.
func spaces(s string) int {
	n := len(s) - len(strings.TrimLeft(s, " "))
	if n == 0 || n > 4 || n == len(s) {
		return 1
	}
	return n
}

// list renders a list starting at line i and returns the line after it.
func list(b *strings.Builder, lines []string, i, depth int) int {
	first := marker(lines[i])
	tag := "ul"
	if first.ordered {
		tag = "ol"
	}
	b.WriteString("<" + tag)
	if first.ordered && first.start != 1 {
		b.WriteString(` start="` + strconv.Itoa(first.start) + `"`)
	}
	b.WriteString(">\n")
	for i < len(lines) {
		m := marker(lines[i])
		if m == nil || m.ordered != first.ordered || m.indent > first.indent+3 {
			break
		}
		item := []string{""}
		if m.content < len(lines[i]) {
			item[0] = lines[i][m.content:]
		}
		i++
		for i < len(lines) {
			l := lines[i]
			ind := len(l) - len(strings.TrimLeft(l, " "))
			if strings.TrimSpace(l) == "" {
				// a blank line continues the item only if an indented line follows
				j := i
				for j < len(lines) && strings.TrimSpace(lines[j]) == "" {
					j++
				}
				if j < len(lines) && len(lines[j])-len(strings.TrimLeft(lines[j], " ")) >= m.content {
					for ; i < j; i++ {
						item = append(item, "")
					}
					continue
				}
				break
			}
			if ind >= m.content {
				item = append(item, l[m.content:])
				i++
				continue
			}
			if marker(l) != nil || heading(strings.TrimSpace(l)) > 0 || strings.HasPrefix(strings.TrimSpace(l), "```") {
				break
			}
			item = append(item, strings.TrimSpace(l)) // a lazy continuation line
			i++
		}
		var inner strings.Builder
		blocks(&inner, item, depth+1)
		s := inner.String()
		if p, ok := strings.CutPrefix(s, "<p>"); ok && strings.Count(s, "<p>") == 1 {
			s = strings.Replace(p, "</p>", "", 1)
		}
		b.WriteString("<li>" + strings.TrimSuffix(s, "\n") + "</li>\n")
		for i < len(lines) && strings.TrimSpace(lines[i]) == "" {
			j := i
			for j < len(lines) && strings.TrimSpace(lines[j]) == "" {
				j++
			}
			if j < len(lines) {
				if n := marker(lines[j]); n != nil && n.ordered == first.ordered && n.indent <= first.indent+3 {
					i = j
					break
				}
			}
			return closeList(b, tag, i)
		}
	}
	return closeList(b, tag, i)
}

func closeList(b *strings.Builder, tag string, i int) int {
	b.WriteString("</" + tag + ">\n")
	return i
}

// paragraph renders a paragraph starting at line i and returns the line
// after it.
func paragraph(b *strings.Builder, lines []string, i int) int {
	var text []string
	for i < len(lines) {
		t := strings.TrimSpace(lines[i])
		if t == "" || (len(text) > 0 && (heading(t) > 0 || strings.HasPrefix(t, "```") || strings.HasPrefix(t, ">") ||
			marker(lines[i]) != nil || isTableStart(lines, i))) {
			break
		}
		text = append(text, t)
		i++
	}
	b.WriteString("<p>")
	inline(b, strings.Join(text, "\n"), 0)
	b.WriteString("</p>\n")
	return i
}

// isTableStart reports whether a table starts at line i: a row of cells
// and a separator row of dashes.
func isTableStart(lines []string, i int) bool {
	if i+1 >= len(lines) || !strings.Contains(lines[i], "|") {
		return false
	}
	sep := strings.TrimSpace(lines[i+1])
	if !strings.Contains(sep, "-") || !strings.Contains(sep, "|") {
		return false
	}
	for _, c := range sep {
		if c != '|' && c != '-' && c != ':' && c != ' ' {
			return false
		}
	}
	return true
}

// cells splits a table row into its cells.
func cells(line string) []string {
	t := strings.TrimSpace(line)
	t = strings.TrimPrefix(t, "|")
	t = strings.TrimSuffix(t, "|")
	var out []string
	var cur strings.Builder
	code := false
	for i := 0; i < len(t); i++ {
		switch {
		case t[i] == '\\' && i+1 < len(t) && t[i+1] == '|':
			cur.WriteByte('|')
			i++
		case t[i] == '`':
			code = !code
			cur.WriteByte('`')
		case t[i] == '|' && !code:
			out = append(out, strings.TrimSpace(cur.String()))
			cur.Reset()
		default:
			cur.WriteByte(t[i])
		}
	}
	return append(out, strings.TrimSpace(cur.String()))
}

// table renders a table starting at line i and returns the line after it.
func table(b *strings.Builder, lines []string, i int) int {
	head := cells(lines[i])
	var align []string
	for _, c := range cells(lines[i+1]) {
		switch {
		case strings.HasPrefix(c, ":") && strings.HasSuffix(c, ":"):
			align = append(align, "center")
		case strings.HasSuffix(c, ":"):
			align = append(align, "right")
		default:
			align = append(align, "")
		}
	}
	row := func(cs []string, tag string) {
		b.WriteString("<tr>")
		for k, c := range cs {
			b.WriteString("<" + tag)
			if k < len(align) && align[k] != "" {
				b.WriteString(` class="` + align[k] + `"`)
			}
			b.WriteString(">")
			inline(b, c, 0)
			b.WriteString("</" + tag + ">")
		}
		b.WriteString("</tr>\n")
	}
	b.WriteString("<table>\n<thead>\n")
	row(head, "th")
	b.WriteString("</thead>\n<tbody>\n")
	i += 2
	for i < len(lines) && strings.Contains(lines[i], "|") && strings.TrimSpace(lines[i]) != "" {
		row(cells(lines[i]), "td")
		i++
	}
	b.WriteString("</tbody>\n</table>\n")
	return i
}

// inline renders the inline elements of text.
func inline(b *strings.Builder, text string, depth int) {
	for i := 0; i < len(text); {
		c := text[i]
		switch {
		case c == '\\' && i+1 < len(text) && strings.IndexByte("\\`*_[]()#+-.!|<>", text[i+1]) >= 0:
			b.WriteString(html.EscapeString(text[i+1 : i+2]))
			i += 2
			continue
		case c == '`':
			n := run(text[i:], '`')
			if end := strings.Index(text[i+n:], strings.Repeat("`", n)); end >= 0 {
				code := text[i+n : i+n+end]
				if len(code) > 1 && code[0] == ' ' && code[len(code)-1] == ' ' {
					code = code[1 : len(code)-1]
				}
				b.WriteString("<code>" + html.EscapeString(code) + "</code>")
				i += n + end + n
				continue
			}
			b.WriteString(text[i : i+n])
			i += n
			continue
		case (c == '*' || c == '_') && depth < maxDepth:
			if n := emphasis(b, text, i, depth); n > 0 {
				i += n
				continue
			}
		case c == '[' && depth < maxDepth:
			if n := link(b, text, i, depth); n > 0 {
				i += n
				continue
			}
		case c == '\n':
			b.WriteString("\n")
			i++
			continue
		}
		b.WriteString(html.EscapeString(text[i : i+1]))
		i++
	}
}

// run counts the characters c at the start of s.
func run(s string, c byte) int {
	n := 0
	for n < len(s) && s[n] == c {
		n++
	}
	return n
}

// emphasis renders *em*, _em_ or **strong** starting at text[i] and
// returns the bytes it used, 0 when there is none.
func emphasis(b *strings.Builder, text string, i, depth int) int {
	c := text[i]
	n := min(run(text[i:], c), 2)
	open := i + n
	if open >= len(text) || text[open] == ' ' || text[open] == '\n' {
		return 0
	}
	if c == '_' && i > 0 && isWord(text[i-1]) {
		return 0
	}
	delim := strings.Repeat(string(c), n)
	for k := open + 1; k+n <= len(text); k++ {
		if text[k] == '`' { // skip code spans
			if end := strings.IndexByte(text[k+1:], '`'); end >= 0 {
				k += end + 1
				continue
			}
		}
		if text[k:k+n] != delim || text[k-1] == ' ' || text[k-1] == '\n' {
			continue
		}
		if n == 1 && k+1 < len(text) && text[k+1] == c {
			k++
			continue
		}
		if c == '_' && k+n < len(text) && isWord(text[k+n]) {
			continue
		}
		tag := "em"
		if n == 2 {
			tag = "strong"
		}
		b.WriteString("<" + tag + ">")
		inline(b, text[open:k], depth+1)
		b.WriteString("</" + tag + ">")
		return k + n - i
	}
	return 0
}

func isWord(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// link renders [text](target) starting at text[i] and returns the bytes it
// used, 0 when there is none. Unsafe targets keep only the text.
func link(b *strings.Builder, text string, i, depth int) int {
	close := strings.Index(text[i:], "](")
	if close < 0 {
		return 0
	}
	label := text[i+1 : i+close]
	if strings.ContainsAny(label, "[]") {
		return 0
	}
	rest := text[i+close+2:]
	end, depth2 := -1, 0
	for k := 0; k < len(rest) && end < 0; k++ {
		switch rest[k] {
		case '(':
			depth2++
		case ')':
			if depth2 == 0 {
				end = k
			}
			depth2--
		case '\n':
			return 0
		}
	}
	if end < 0 {
		return 0
	}
	target := strings.TrimSpace(rest[:end])
	if safeTarget(target) {
		b.WriteString(`<a href="` + html.EscapeString(target) + `">`)
		inline(b, label, depth+1)
		b.WriteString("</a>")
	} else {
		inline(b, label, depth+1)
	}
	return close + 2 + end + 1
}

// safeTarget reports whether a link target is http, https, mailto, an
// anchor or a relative path.
func safeTarget(t string) bool {
	if t == "" || strings.ContainsAny(t, " \n<>\"'`") {
		return false
	}
	lower := strings.ToLower(t)
	for _, p := range []string{"http://", "https://", "mailto:"} {
		if strings.HasPrefix(lower, p) {
			return true
		}
	}
	colon := strings.IndexByte(t, ':')
	return colon < 0 || strings.IndexAny(t[:colon], "/?#") >= 0
}
