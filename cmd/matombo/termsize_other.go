//go:build !linux

package main

import "os"

// terminalColumns returns false: the terminal's size is read on Linux
// only; elsewhere the COLUMNS environment variable gives it (see
// outputWidth).
func terminalColumns(*os.File) (int, bool) { return 0, false }
