//go:build !unix

package safefile

// openFlags: other systems have no named pipes that block an open.
const openFlags = 0
