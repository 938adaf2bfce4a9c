package server

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
)

// A client that holds a game's record asks for the moves it has not got:
// GET /api/games/{id}?since=N&prefix=HASH, where N is the number of moves
// it holds and HASH their recordHash. When the game's first N moves are
// the client's, the answer's record (and movers) are the moves from N on,
// and record_from is N; otherwise (a takeback rewrote them, or the client
// holds more moves than the game has) the answer carries the whole record,
// and record_from is 0, as in every other answer. Either way the client
// has the record in one answer: its own first record_from moves, then the
// answer's. A long game's reads then cost what its new moves cost, not
// its whole record each time.

// recordHash is the hash of a record that a client gives as prefix: the
// SHA-256, in lower-case hex, of its tokens, each followed by a line feed
// (no token holds one).
func recordHash(tokens []string) string {
	h := sha256.New()
	for _, t := range tokens {
		h.Write([]byte(t))
		h.Write([]byte{'\n'})
	}
	return hex.EncodeToString(h.Sum(nil))
}

// readSince reads since and prefix from query: since is -1 when the query
// has neither. It answers 400 and returns false when one is given without
// the other, or either is not well formed.
func readSince(w http.ResponseWriter, query url.Values) (since int, prefix string, ok bool) {
	q, prefix := query.Get("since"), query.Get("prefix")
	if q == "" && prefix == "" {
		return -1, "", true
	}
	since, err := strconv.Atoi(q)
	if err != nil || since < 0 {
		writeError(w, http.StatusBadRequest, apiError{Error: fmt.Sprintf("since %q: want the number of moves of the record you hold, a whole number from 0, with prefix, their hash", q), Code: codeBadRequest})
		return 0, "", false
	}
	if b, err := hex.DecodeString(prefix); err != nil || len(b) != sha256.Size {
		writeError(w, http.StatusBadRequest, apiError{Error: fmt.Sprintf("prefix %q: want the SHA-256 of the %d moves you hold, in hex (64 digits): each token followed by a line feed", prefix, since), Code: codeBadRequest})
		return 0, "", false
	}
	return since, strings.ToLower(prefix), true
}

// sinceHeld leaves in v, the view of a game whose record is record, the
// moves from since on, when the first since moves of record are those
// whose hash is prefix: the client holds them.
func sinceHeld(v *gameView, record []string, since int, prefix string) {
	if since <= 0 || since > len(record) || recordHash(record[:since]) != prefix {
		return
	}
	leaveOut(v, since)
}

// leaveOut leaves the first from moves of its record (and their movers)
// out of v, which says so in record_from: the client holds them. The
// event streams send their moves so (see handleEvents).
func leaveOut(v *gameView, from int) {
	if from <= 0 {
		return
	}
	v.RecordFrom = from
	v.Record = v.Record[from:]
	v.Movers = v.Movers[min(from, len(v.Movers)):]
}
