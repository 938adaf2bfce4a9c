//go:build unix

package sqlite_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/matombo/matombo/host/store/sqlite"
)

// TestOpenUnwritable: a database this process cannot write is refused at
// Open with the cause, not SQLite's "unable to open database file"; a
// folder that cannot be written to does when the database's three files
// are there already.
func TestOpenUnwritable(t *testing.T) {
	ctx := t.Context()
	if os.Geteuid() == 0 {
		t.Skip("root writes to read-only files and folders")
	}
	ro := t.TempDir()
	existing := filepath.Join(ro, "games.db")
	st, err := sqlite.Open(ctx, existing)
	require.NoError(t, err)
	require.NoError(t, st.Close())
	ready := t.TempDir()
	withJournal := filepath.Join(ready, "games.db")
	st, err = sqlite.Open(ctx, withJournal)
	require.NoError(t, err)
	for _, f := range []string{withJournal + "-wal", withJournal + "-shm"} {
		require.NoError(t, os.WriteFile(f, nil, 0o644))
	}
	require.NoError(t, st.Close())
	for _, dir := range []string{ro, ready} {
		require.NoError(t, os.Chmod(dir, 0o555))
		t.Cleanup(func() { os.Chmod(dir, 0o755) })
	}
	roFile := filepath.Join(t.TempDir(), "ro.db")
	st, err = sqlite.Open(ctx, roFile)
	require.NoError(t, err)
	require.NoError(t, st.Close())
	require.NoError(t, os.Chmod(roFile, 0o444))

	for _, tc := range []struct{ name, path, want string }{
		{"new file in a read-only folder", filepath.Join(ro, "new.db"), "its folder " + ro + " cannot be written to (permission denied)"},
		{"database in a read-only folder", existing, "its folder " + ro + " cannot be written to"},
		{"read-only file", roFile, "the file cannot be written to (permission denied)"},
		{"read-only folder with the journal files", withJournal, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			st, err := sqlite.Open(ctx, tc.path)
			if tc.want == "" {
				require.NoError(t, err)
				require.NoError(t, st.Close())
				return
			}
			require.ErrorContains(t, err, tc.want)
			assert.ErrorContains(t, err, "SQLite database "+tc.path)
		})
	}
}
