package kernel

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Form writes a kind's tokens without naming a site: what each site
// stands for, in angle brackets; Abstract writes its doc so.
func TestMoveKindForm(t *testing.T) {
	for _, c := range []struct{ template, want, doc, wantDoc string }{
		{"{1}", "<site>", "Sow from {1}", "Sow from <site>"},
		{"x{1}", "x<site>", "", ""},
		{"{#1}", "<site>", "", ""},
		{"{from}-{to}", "<from>-<to>", "Move {from} to {to}", "Move <from> to <to>"},
		{"{1}x{2}", "<from>x<to>", "", ""},
		{"{#from}x{#to}", "<from>x<to>", "", ""},
		{"{2}-{1}", "<to>-<from>", "", ""},
		{"{1}-{2}-{3}", "<site1>-<site2>-<site3>", "{from} by {2} to {3}", "<site1> by <site2> to <site3>"},
		{"offer:{sites}", "offer:<sites>", "Offer {sites}", "Offer <sites>"},
		{"at:{#sites}", "at:<sites>", "At {#sites}", "At <sites>"},
		{"pass", "pass", "", ""},
	} {
		k, err := NewMoveKind("k", c.template, "")
		require.NoError(t, err, c.template)
		assert.Equal(t, c.want, k.Form(), c.template)
		assert.Equal(t, c.wantDoc, k.Abstract(c.doc), c.doc)
	}
}
