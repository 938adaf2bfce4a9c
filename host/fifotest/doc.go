// Package fifotest makes named pipes for tests, as net/http/httptest
// makes servers: a pipe that no program reads, where a command expects a
// plain file, must be refused at once, never waited on. It serves the
// tests of host/..., cmd/ and conformance/ (so it cannot be internal to
// host) and builds on unix only, as those tests do.
package fifotest
