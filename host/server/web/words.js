// What the page tells a player when the server refuses one of its
// requests. The server's messages are written for programs and their
// authors ("the game is at ply 0, not 7", "player 2 has proposed a draw
// already"); the page says each refusal in its own words, by the answer's
// stable code (the server's codes.go and the host's error codes). Every
// code has its words here (TestPageWordsEveryCode); the server's message
// is shown only for a code this page does not know.

import { plain, sentence } from "./text.js";

// refusals are the page's words for each code: one line per code, the
// code in double quotes, so that the test can read them.
export const refusals = {
  // The request itself.
  "bad-request": "The server did not understand the page's request. Reload the page and try again.",
  "body-too-large": "The page sent the server more than it accepts. Reload the page and try again.",
  "headers-too-large": "The browser sent the server more than it accepts. Reload the page and try again.",
  "unsupported-protocol": "The browser spoke to the server in a way it does not accept. Reload the page, or try another browser.",
  "unsupported-media-type": "The server did not understand the page's request. Reload the page and try again.",
  "cross-site": "The server refuses requests from other sites' pages. Open the game from this server's own page.",
  "unknown-host": "This server does not answer at this address. Open it at its usual address.",
  "not-found": "This game is not on this server: the link may be wrong, or the game was removed.",
  "method-not-allowed": "The server does not allow that request. Reload the page and try again.",

  // A new game.
  "unknown-game": "This server has no such game. Choose a game from the list.",
  "config-error": "These variants and settings do not go together. Change them and try again.",
  "bad-seats": "These seats are not possible here. Choose again who plays each side.",
  "bad-clock": "This clock is not possible. Choose another time.",
  "perfect-preparing": "Perfect play for this game is still being prepared. Try again in a few seconds.",
  "perfect-not-offered": "Perfect play is not offered for this game with these settings. Choose another computer player.",

  // A move.
  "illegal-token": "That move is not possible in this position.",
  "stale-ply": "Another move was made first: the board now shows the game as it is.",
  "game-over": "The game is over: the board shows how it ended.",
  "computer-seat": "It is the computer's turn: wait for its move.",
  "seat-waiting": "It is the turn of a player who has not joined yet: wait until they open their invitation link.",
  "not-your-seat": "Only the player of that seat can do this. Open your own seat's link to play.",

  // Seats, proposals, the end of a game.
  "unknown-invite": "This invitation is not one of this game's. Ask for the link again.",
  "seat-taken": "This invitation was used already, by another browser: you are watching the game.",
  "nothing-to-take-back": "You have made no move to take back yet.",
  "request-pending": "A proposal (a takeback or a draw) waits for its answer first: it is shown below the board.",
  "no-request": "That proposal no longer waits for an answer: it was withdrawn or answered.",
  "no-opponent": "A draw is agreed between people, and nobody else plays this game: play on, or resign.",
  "abort-too-late": "Every player has moved, so the game can no longer be aborted. You may resign or offer a draw.",
  "two-players-only": "Resigning ends a game of two players only; this one has more.",
  "game-not-over": "A rematch starts once the game is over.",
  "game-changed": "This game can no longer be opened: the server's games have changed since it was played.",

  // The server.
  "over-quota": "Too many requests from this browser for now. Wait a moment and try again.",
  "over-capacity": "The server is busy. Try again in a moment.",
  "unavailable": "The server cannot do this right now. Try again in a moment.",
  "game-busy": "The server is still busy with another request for this game. Try again in a moment.",
  "server-stopping": "The server is stopping. Try again in a moment.",
  "client-gone": "The request was abandoned before its answer came. Try again.",
  "store-gone": "The server has lost the place where it keeps its games, so it cannot do this until whoever runs it restarts it.",
  "internal": "Something went wrong on the server. Try again, or reload the page.",
  "canceled": "The server stopped working on this. Try again.",
  "game-closed": "The game was closed on the server. Reload the page.",

  // The game's rules (its script) on the server.
  "script-error": "The rules of this game ran into an error on the server, so this cannot be done now.",
  "bad-position": "The server could not read this game's position, so this cannot be done now.",
  "bad-diagram": "The server could not read this game's board, so this cannot be done now.",
  "bad-effect": "The server could not show this move on the board. Reload the page.",
  "budget-steps": "The rules of this game took too long on the server, so this cannot be done now.",
  "budget-time": "The rules of this game took too long on the server, so this cannot be done now.",
  "budget-memory": "The rules of this game needed too much memory on the server, so this cannot be done now.",
  "budget-call-stack": "The rules of this game went too deep on the server, so this cannot be done now.",
  "budget-data-stack": "The rules of this game went too deep on the server, so this cannot be done now.",
  "budget-string-size": "The rules of this game made too much text on the server, so this cannot be done now.",
  "budget-table-size": "The rules of this game needed too much memory on the server, so this cannot be done now.",
  "budget-pattern": "The rules of this game took too long on the server, so this cannot be done now.",
  "budget-load": "The rules of this game took too long to load on the server, so this cannot be done now.",
};

// detailed are the codes whose words are followed by the server's
// message: what the new-game form asked that does not go (which variants,
// which seat, which time), which the page's words alone cannot name.
const detailed = new Set(["config-error", "bad-seats", "bad-clock"]);

// said is what the page tells a player of error e: the words of the
// server's code (with its message, for a detailed code; with the rule the
// move breaks, for a move refused); for a request that never reached the
// server, that it cannot be reached; else the server's own message, with
// a capital.
export function said(e) {
  if (e && Object.hasOwn(refusals, e.code)) {
    if (detailed.has(e.code) && e.message) return `${refusals[e.code]} (${e.message})`;
    if (e.code === "illegal-token") {
      // "That move is not possible in this position: b1 is occupied."
      const why = moveWhy(e.body);
      if (why) return `${refusals[e.code].replace(/\.$/, "")}: ${why}.`;
    }
    return refusals[e.code];
  }
  if (e && e.status === 0) return "The server cannot be reached. Check the connection and try again.";
  return sentence(String((e && e.message) || "Something went wrong. Reload the page and try again."));
}

// notAMove says why a click on site at, which is no move now, plays
// nothing: from, the sites selected before it ("" for none), and noun,
// what the board's sites are called, say where the moves are.
export function notAMove(at, from, noun) {
  if (from) return `${from} cannot go to ${at} now: click a ${noun} ringed in green.`;
  return `Nothing to play at ${at} now: click a ${noun} ringed in green.`;
}

// moveWhy is why the server refused a move, from its answer's body b
// (rule: the rule the move breaks, in the game's words, when its rules
// say it; reason: the host's words, which part of the token is wrong and
// what is possible), in words a player can read; "" when it gives none.
// The game's words are said; the host's only when there are none and
// they say more than that the move is not possible ("z9 is not a site of
// this board"), without the list of what is possible (the board rings
// it); nothing written as code (a pattern of tokens, a kind's name). It
// is text: the page shows it as text, never as HTML.
export function moveWhy(b) {
  let why = String((b && b.rule) || "");
  if (!why) {
    // The host's words only: what they add to "not possible", if anything.
    why = String((b && b.reason) || "");
    if (/\bis not possible\b/.test(why)) return "";
    why = why.replace(/\s*\((?:possible|its sites)\b[^()]*\)/g, "");
  }
  why = asWritten(why).replace(/[.\s]+$/, "");
  return /[{}`_]/.test(why) ? "" : why;
}


// endings are the page's words for how a game ended, by the result's
// method (the host's, and the server's "time", "aborted" and "failed"): a
// line per method, the method in double quotes, so that the test can read
// them. {p} is the player the words are about (who resigned, ran out of
// time or aborted, or whose move the rules failed on). The ends the rules decide ("rule", "no moves", "repetition",
// "position") are said in the rules' own words, the reason the game's
// script gives; these words are said only when it gives none. A draw
// agreed says so in its headline: no more words.
export const endings = {
  "rule": "",
  "no moves": "A player had no move left.",
  "repetition": "The same position came again too often.",
  "position": "",
  "resignation": "Player {p} resigned.",
  "agreement": "",
  "time": "Player {p} ran out of time.",
  "aborted": "Player {p} aborted the game before every player had moved.",
  "failed": "The game's rules failed on Player {p}'s move, so the game cannot go on.",
};

// ruled are the methods whose reason is the rules' own words.
const ruled = new Set(["rule", "no moves", "repetition", "position"]);

// ending says how a game ended, for a player: a headline ({winner, text}:
// winner is the player who won, 0 for none, text what follows the
// winner's name or stands alone) and why, in sentences. r is the game's
// result ({winner, method, reason, notes, scores}).
export function ending(r) {
  const method = r.method || "rule";
  let head = r.winner ? " wins" : "Draw";
  if (method === "time") head = r.winner ? " wins on time" : "Over on time";
  if (method === "agreement") head = "Draw by agreement";
  if (method === "aborted") head = "Game aborted";
  if (method === "failed") head = "Game stopped";
  const winner = method === "agreement" || method === "aborted" || method === "failed" ? 0 : r.winner || 0;
  return { winner, head, why: whyOf(r, method) };
}

// whyOf is why game r ended, in sentences; the notes the rules attach
// follow, in brackets, as they wrote them.
function whyOf(r, method) {
  const notes = (Array.isArray(r.notes) ? r.notes : []).map(asWritten).filter(Boolean);
  const more = notes.length ? ` (${notes.join("; ")})` : "";
  if (ruled.has(method) || !Object.hasOwn(endings, method)) {
    // The rules' words as they wrote them (a capital first), else the
    // page's for the kind of end.
    const reason = plain(r.reason || "") || endings[method] || "";
    return reason ? reason + more : sentence(notes.join("; "));
  }
  const p = about(r, method);
  const words = endings[method];
  if (!words) return sentence(notes.join("; "));
  return (p ? words.replace("{p}", String(p)) : words.replace("Player {p}", "A player")) + more;
}

// asWritten is a script's text without its citations of rule points, its
// first letter as the script wrote it.
function asWritten(text) {
  const t = plain(text), first = String(text || "").trimStart().charAt(0);
  return first && t.charAt(0) === first.toUpperCase() ? first + t.slice(1) : t;
}

// about is the player a result is about: who resigned, ran out of time
// or aborted (the result's seat; for a game stored before results named
// it, as the server's reason names them: "player 2 resigned"), else the
// one that did not win of two, or the only one that scored nothing; 0
// when unknown.
function about(r, method) {
  if (Number.isInteger(r.seat) && r.seat > 0) return r.seat;
  // A game stored before results named their seat: the server's words.
  const verb = { resignation: "resigned", time: "ran out of time", aborted: "aborted" }[method];
  const m = verb && new RegExp(`^player (\\d+) ${verb}`, "i").exec(String(r.reason || ""));
  if (m) return Number(m[1]);
  if (method === "aborted" || method === "failed") return 0;
  const scores = Array.isArray(r.scores) ? r.scores : [];
  if (r.winner && scores.length === 2) return 3 - r.winner;
  const lost = scores.map((s, i) => (s === 0 ? i + 1 : 0)).filter(Boolean);
  return lost.length === 1 ? lost[0] : 0;
}

// seatWords says who plays a seat, for the line of the players under the
// board ("Player 2: A person"): the page's words for a person's seat
// (the server's name for it, "a person", is the API's, in no sentence),
// the server's name of a computer ("Computer (strong, 2 s a move)"),
// which says how it plays in a player's words. yours: this page plays
// the seat.
export function seatWords(seat, yours) {
  if (yours) return "You";
  if (!seat || seat.player === "human") return seat && seat.waiting ? "Invited, not here yet" : "A person";
  return sentence(seat.name || "Computer");
}
