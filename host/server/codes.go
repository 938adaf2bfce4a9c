package server

import "github.com/matombo/matombo/host"

// Every error answer is {"error": "...", "code": "..."}: the message is
// for people and may be reworded, the code is stable, for programs. An
// error of package host answers with its own code (host.ErrorCode:
// "illegal-token", "game-over", "budget-steps", "script-error", ...,
// host.ErrorCodes lists them); the server's own refusals have these, the
// host's where they mean the same. The page says every code in a
// player's words (web/words.js, TestPageWordsEveryCode): a new code needs
// its words there.
const (
	codeBadRequest    = "bad-request"            // 400: malformed JSON, an unknown field, a key given twice, a body not UTF-8, a missing ply, a bad query
	codeBodyTooLarge  = "body-too-large"         // 413: a body over the server's limit
	codeBigHeaders    = "headers-too-large"      // 431: request headers over the server's limit
	codeBadProtocol   = "unsupported-protocol"   // 501, 505: a transfer coding or an HTTP version the server does not speak
	codeMediaType     = "unsupported-media-type" // 415: a change not sent as JSON
	codeCrossSite     = "cross-site"             // 403: a request from a page of another site
	codeUnknownHost   = "unknown-host"           // 421: a Host the server does not answer for
	codeNotFound      = "not-found"              // 404: no such game, rules page, endpoint, page or file
	codeBadMethod     = "method-not-allowed"     // 405: a method a page, file or endpoint is not served with
	codeUnknownGame   = "unknown-game"           // 422: no game of that name in the library
	codeBadConfig     = host.CodeConfig          // 422: an unknown variant or parameter, a bad value
	codeScriptError   = host.CodeScript          // 422 or 500: the game's script fails
	codeBadSeats      = "bad-seats"              // 422: seats the server does not allow, a wrong number of them, a bad hold
	codeBadClock      = "bad-clock"              // 422: a time control out of bounds
	codeIllegalToken  = host.CodeIllegalToken    // 422: a token that is not legal here
	codeStalePly      = "stale-ply"              // 409: the game is at another ply than the request's
	codeGameOver      = host.CodeGameOver        // 409: the game has ended
	codeGameNotOver   = "game-not-over"          // 409: a rematch of a game that goes on
	codeGameChanged   = "game-changed"           // 409: a stored game the server's games can no longer open (its game, variant or parameter is gone, or its record no longer plays)
	codeNotYourSeat   = "not-your-seat"          // 403: no seat's secret, or not the seat the request needs
	codeComputerSeat  = "computer-seat"          // 403: a move for a computer's seat
	codeSeatWaiting   = "seat-waiting"           // 403: a move for a person's seat nobody has claimed yet
	codeUnknownInvite = "unknown-invite"         // 403: no seat of the game has that invitation
	codeSeatTaken     = "seat-taken"             // 409: the invitation's seat was claimed already
	codeNothingToTake = "nothing-to-take-back"   // 422: a takeback by a seat that has not moved
	codeRequestOpen   = "request-pending"        // 409: a proposal (takeback, draw) waits for its answer already
	codeNoRequest     = "no-request"             // 409: an answer to no proposal, or the proposer accepting their own
	codeNoOpponent    = "no-opponent"            // 422: a draw offered where no other person can accept it
	codeAbortTooLate  = "abort-too-late"         // 409: an abort after every player has moved
	codeTwoPlayers    = "two-players-only"       // 422: a resignation in a game of more than two
	codeOverQuota     = "over-quota"             // 429: a client's quota (games, requests, streams, thinking)
	codeOverCapacity  = "over-capacity"          // 503: the server's cap (event streams, connections, games stored)
	codePerfectWait   = "perfect-preparing"      // 503: perfect play is being prepared; try again
	codePerfectNo     = "perfect-not-offered"    // 422: perfect play cannot be offered for the game
	codeUnavailable   = "unavailable"            // 503: the store does not answer, or the request's own deadline passed
	codeGameBusy      = "game-busy"              // 503: another request held the game longer than a request waits (see waitLock)
	codeStopping      = "server-stopping"        // 503: the server is shutting down; a restarted one answers
	codeClientGone    = "client-gone"            // 499: the client left before its answer; nobody reads it, the server logs it
	codeStoreGone     = "store-gone"             // 503: the store's database is gone for good (its file deleted or replaced): only a restart by the operator helps
	codeInternal      = "internal"               // 500: a failure of the server
)

// errorCode is the code of err when it (or an error it wraps) has one,
// else fallback.
func errorCode(err error, fallback string) string {
	if code := host.ErrorCode(err); code != "" {
		return code
	}
	return fallback
}
