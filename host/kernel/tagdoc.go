package kernel

// What a board's tags mean to the players, in the script's words
// (matombo.tag's doc), and the marks diagrams write for them.

// TagDoc is what tag name means to the players, in the script's words,
// or "" when the script says nothing or there is no such tag.
func (b *Board) TagDoc(name string) string {
	if t, ok := b.TagIndex(name); ok && t < len(b.tagDocs) {
		return b.tagDocs[t]
	}
	return ""
}

// SetTagDoc keeps the doc of tag t.
func (b *Board) SetTagDoc(t int, doc string) {
	for len(b.tagDocs) <= t {
		b.tagDocs = append(b.tagDocs, "")
	}
	b.tagDocs[t] = doc
}

// TagMark is the character diagrams write after the count of a site that
// carries tag name (matombo.mark), or "" when the tag has none.
func (b *Board) TagMark(name string) string {
	for _, m := range b.marks {
		if m.tag < len(b.tags) && b.tags[m.tag] == name {
			return string(m.mark)
		}
	}
	return ""
}
