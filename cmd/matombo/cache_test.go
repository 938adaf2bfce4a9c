package main

import (
	"fmt"
	"os"
	"testing"
)

// TestMain keeps the tests from writing solutions into the user's cache:
// every test of the package (the documentation examples too) caches into a
// fresh folder, unless a test isolates itself further. It also unsets
// COLUMNS, so that the text is wrapped to the same width (maxWidth) in
// every test whatever the terminal running them, unless a test sets it.
func TestMain(m *testing.M) {
	os.Unsetenv("COLUMNS")
	dir, err := os.MkdirTemp("", "matombo-test-cache")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	os.Setenv("XDG_CACHE_HOME", dir)
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}
