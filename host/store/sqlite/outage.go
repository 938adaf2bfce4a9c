package sqlite

import (
	"errors"
	"fmt"
	"os"
	"sync"
	"time"

	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"

	"github.com/matombo/matombo/host/store"
)

// outage is what the writer knows of the database's health, so that a
// write during an outage is answered at once instead of waiting, behind
// the others, for the busy timeout of its own: a database that did not
// take the last write (locked by another process for longer than the busy
// timeout, a disk that fails or is full) is tried again by the writes of
// one batch at most every retryOutage, and the writes in between get
// ErrUnavailable with the reason of the last failure. So a request waits
// for the database one busy timeout at most, however many wait with it. A database file that was deleted or
// replaced since Open is lost for good: no write is taken again, since
// what SQLite writes would go to a file nobody can open any more (or mix
// with another file's journal).
type outage struct {
	mu      sync.Mutex
	err     error     // why the last write failed; nil while writes go through
	retryAt time.Time // when a write may try the database again
	lost    error     // the file is not the one opened; nil while it is
}

// check returns the error to answer a write with at once, or nil when the
// write should go to the database.
func (o *outage) check(now time.Time) error {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.lost != nil {
		return o.lost
	}
	if o.err != nil && now.Before(o.retryAt) {
		return o.err
	}
	return nil
}

// failed notes that the database failed a write with err, a store error
// of kind ErrUnavailable, until now+wait.
func (o *outage) failed(err error, now time.Time, wait time.Duration) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.err, o.retryAt = err, now.Add(wait)
}

// ok notes that the database took a write.
func (o *outage) ok() {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.err = nil
}

// lose notes for good that the database file is lost: err says how.
func (o *outage) lose(err error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.lost == nil {
		o.lost = err
	}
}

// lostErr returns the error of a lost database file, nil while it is not.
func (o *outage) lostErr() error {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.lost
}

// unavailable reports whether err is SQLite's way of saying the database
// cannot take writes now: locked, an I/O error, a full disk, a file it
// cannot open or write.
func unavailable(err error) bool {
	var le *sqlite.Error
	if !errors.As(err, &le) {
		return false
	}
	switch le.Code() & 0xff {
	case sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED, sqlite3.SQLITE_IOERR, sqlite3.SQLITE_FULL,
		sqlite3.SQLITE_CANTOPEN, sqlite3.SQLITE_READONLY:
		return true
	}
	return false
}

// sameFile returns nil when path still names the file opened as was, and
// an error of kind ErrGone (so ErrUnavailable) saying what became of it when not.
func sameFile(path string, was os.FileInfo) error {
	now, err := os.Stat(path)
	switch {
	case errors.Is(err, os.ErrNotExist):
		return lostError(path, "was deleted")
	case err != nil:
		return nil // cannot tell (a folder one may not search): SQLite says what fails
	case !os.SameFile(was, now):
		return lostError(path, "was replaced by another file")
	}
	return nil
}

func lostError(path, what string) error {
	return &store.Error{Op: "write", Kind: store.ErrGone,
		Detail: fmt.Sprintf("the SQLite database %s %s while the store was open: nothing more is written to it; restart the server", path, what)}
}
