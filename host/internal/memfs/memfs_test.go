package memfs

import (
	"testing"
	"testing/fstest"
)

// The folder behaves as io/fs requires of a file system: its files open,
// read, stat and list as fstest checks them.
func TestFS(t *testing.T) {
	for _, files := range []FS{
		{"game.lua": []byte("-- a script\n")},
		{"game.lua": []byte("return 1\n"), "variants.yaml": []byte("variants: {}\n")},
		{},
	} {
		var names []string
		for n := range files {
			names = append(names, n)
		}
		if err := fstest.TestFS(files, names...); err != nil {
			t.Errorf("%v: %v", names, err)
		}
	}
}
