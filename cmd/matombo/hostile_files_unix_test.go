//go:build unix

package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestHostileGameFolders runs the command line on game folders whose
// files are there but are no files: a folder, or a link that leads
// nowhere or to itself, in place of the script, the variants file or the
// rules page. Each run fails naming the file and what it is. They used to
// be taken for absent: trace played the shipped script of the same name
// with the folder's variants (exit 0), and check reported "0 games, all
// ok" (exit 0) for a folder it had not checked.
func TestHostileGameFolders(t *testing.T) {
	variants := "variants:\n  small:\n    params: {board: triangle}\n"
	script, err := os.ReadFile(filepath.Join("..", "..", "games", "yematatu", "yematatu.lua"))
	require.NoError(t, err)
	folder := func(p string) error { return os.Mkdir(p, 0o755) }
	dangling := func(p string) error { return os.Symlink("/nonexistent/gone", p) }
	loop := func(p string) error { return os.Symlink(filepath.Base(p), p) }
	for _, c := range []struct {
		name string
		file string // the file of yematatu/ made by make; the others are plain
		make func(path string) error
		args []string // {dir} is the games folder, {game} its game folder
		want string   // after the file's path
	}{
		{"trace, script a link to nothing", "yematatu.lua", dangling,
			[]string{"trace", "yematatu", "--games", "{dir}"}, "a symbolic link to /nonexistent/gone, which does not exist"},
		{"trace, script a folder", "yematatu.lua", folder,
			[]string{"trace", "yematatu", "--games", "{dir}"}, "not a regular file (a folder)"},
		{"trace, script a link to itself", "yematatu.lua", loop,
			[]string{"trace", "yematatu", "--games", "{dir}"}, "too many levels of symbolic links"},
		{"check, script a link to nothing", "yematatu.lua", dangling,
			[]string{"check", "{game}", "-n", "1"}, "a symbolic link to /nonexistent/gone, which does not exist"},
		{"check, script a folder", "yematatu.lua", folder,
			[]string{"check", "{game}", "-n", "1"}, "not a regular file (a folder)"},
		{"list, variants a link to nothing", "variants.yaml", dangling,
			[]string{"list", "--games", "{dir}"}, "a symbolic link to /nonexistent/gone, which does not exist"},
		{"trace, variants a folder", "variants.yaml", folder,
			[]string{"trace", "yematatu", "--games", "{dir}"}, "not a regular file (a folder)"},
		{"rules, rules page a link to itself", "rules.md", loop,
			[]string{"rules", "yematatu", "--games", "{dir}"}, "too many levels of symbolic links"},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			game := filepath.Join(dir, "yematatu")
			require.NoError(t, os.Mkdir(game, 0o755))
			for name, text := range map[string]string{"yematatu.lua": string(script), "variants.yaml": variants} {
				if name != c.file {
					require.NoError(t, os.WriteFile(filepath.Join(game, name), []byte(text), 0o644))
				}
			}
			path := filepath.Join(game, c.file)
			require.NoError(t, c.make(path))
			var args []string
			for _, a := range c.args {
				switch a {
				case "{dir}":
					a = dir
				case "{game}":
					a = game
				}
				args = append(args, a)
			}
			r := matombo(t, "", args...)
			assert.Equal(t, exitFail, r.code, "stdout:\n%s\nstderr:\n%s", r.stdout, r.stderr)
			assert.Contains(t, r.stdout+r.stderr, path+": "+c.want)
		})
	}
}

// TestHostileScenarioPaths: a scenario file that is a link leading
// nowhere, or no file at all, is named once with what is wrong (it was
// "stat PATH: no such file or directory" after the path).
func TestHostileScenarioPaths(t *testing.T) {
	dir := t.TempDir()
	dangling := filepath.Join(dir, "dangling.yaml")
	require.NoError(t, os.Symlink("/nonexistent/gone.yaml", dangling))
	missing := filepath.Join(dir, "missing.yaml")
	r := matombo(t, "", "conform", dangling, missing)
	assert.Equal(t, exitFail, r.code, r.stderr)
	assert.Contains(t, r.stdout, "ERROR "+dangling+": a symbolic link to /nonexistent/gone.yaml, which does not exist\n")
	assert.Contains(t, r.stdout, "ERROR "+missing+": no such file or directory\n")
}
