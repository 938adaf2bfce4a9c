// Package testfifo makes the named pipes that tests of hostile paths
// need: a pipe that no program reads, where a command expects a plain
// file, must be refused at once, never waited on. It serves the tests of
// host/..., cmd/ and conformance/ (a package under host/internal could
// not: Go lets only host/... import it) and builds on unix only, as those
// tests do.
package testfifo
