package main

import (
	"strings"
	"testing"

	"github.com/matombo/matombo/docs"
	"github.com/matombo/matombo/games"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Every shipped game has its rules page, and every page is a shipped
// game's.
func TestRulesShipped(t *testing.T) {
	shipped := games.Library().Games()
	for _, name := range shipped {
		r := matombo(t, "", "rules", name)
		require.Equal(t, exitOK, r.code, r.stderr)
		page, ok := docs.Rules(name)
		require.True(t, ok)
		assert.Equal(t, page, r.stdout)
		assert.True(t, strings.HasPrefix(r.stdout, "# "))
	}
	assert.Equal(t, shipped, docs.RulesGames())
	_, ok := docs.Rules("../go.mod")
	assert.False(t, ok)
}

func TestRulesFromFolder(t *testing.T) {
	r := matombo(t, "", "rules", "kalah", "--games", kalahGames)
	assert.Equal(t, exitFail, r.code)
	assert.Contains(t, r.stderr, "has no rules page")
	assert.Contains(t, r.stderr, "rules.md")

	dir := writeFiles(t, map[string]string{
		"kalah/kalah.lua": kalahScript(t, "kalah"),
		"kalah/rules.md":  "# Kalah\n\nSow and capture.\n",
		// The shipped variant sets a parameter this copy does not have.
		"kalah/variants.yaml": "variants:\n  empty-capture: {params: {}}\n",
	})
	r = matombo(t, "", "rules", "--games", dir, "kalah")
	require.Equal(t, exitOK, r.code, r.stderr)
	assert.Equal(t, "# Kalah\n\nSow and capture.\n", r.stdout)
}
