//go:build !unix

package sqlite

// unwritable returns "": SQLite's own error is all there is.
func unwritable(string) string { return "" }
