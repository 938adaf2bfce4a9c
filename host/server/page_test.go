package server

import (
	"io/fs"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestPageNamesNoGame: the page draws every game from the data the server
// sends; none of its files names a game of the library, by name or title,
// or a word of one game's rules.
func TestPageNamesNoGame(t *testing.T) {
	l := lib()
	words := []string{"mancala", "heads", "musoro", "morris", "kichwa"} // words of one game's rules

	for _, name := range l.Games() {
		words = append(words, name)
		if g, err := l.Load(name); err == nil {
			words = append(words, g.Title())
		}
	}
	require.NotEmpty(t, words)
	files, err := fs.Sub(web, "web")
	require.NoError(t, err)
	n := 0
	err = fs.WalkDir(files, ".", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := fs.ReadFile(files, path)
		if err != nil {
			return err
		}
		n++
		text := strings.ToLower(string(b))
		for _, w := range words {
			re := regexp.MustCompile(`(^|[^\p{L}\p{N}])` + regexp.QuoteMeta(strings.ToLower(w)) + `($|[^\p{L}\p{N}])`)
			if loc := re.FindStringIndex(text); loc != nil {
				t.Errorf("web/%s names the game %q: %q", path, w, text[max(0, loc[0]-30):min(len(text), loc[1]+30)])
			}
		}
		return nil
	})
	require.NoError(t, err)
	require.Greater(t, n, 5, "the page's files were read")
}
