// The game page: the board, the decisions of the player to move, the record
// by turns, clocks, takebacks, draws, resignations and rematches. It draws
// any game from the data the server sends and names no game.
import { request, url } from "./api.js";
import { Animation, marksOf } from "./animate.js";
import { drawBoard, readsBetterUpright, tagChar, tagText } from "./board.js";
import * as clock from "./clock.js";
import { $, make, playerSpan, showError } from "./dom.js";
import { ending, notAMove, said, seatWords } from "./words.js";
import { invitesOf, orientation, rememberGame, saveSecret, seatFromURL, secretsOf, setOrientation, setSetting, setting } from "./local.js";
import * as mv from "./moves.js";
import { turnAt, turns } from "./record.js";
import { plain, sentence, titled } from "./text.js";

// narrow is a phone-sized screen.
const narrow = window.matchMedia("(max-width: 600px)");
const reduced = window.matchMedia("(prefers-reduced-motion: reduce)");

const ui = {
  id: "",
  live: null, // the latest game view (with board)
  shown: null, // the view on screen: live or an earlier ply; the one source of the ply shown
  secrets: {}, // the seats this page plays: player number -> secret (none for the spectator link)
  held: {}, // the seats this browser holds, whatever the link
  spectator: false, // opened by the game's plain link: it never plays
  opening: null, // site -> owner at the opening
  sel: [], // sites clicked so far for a move of several sites
  choices: [], // moves completed by sel when more than one
  list: "", // the list kind being chosen, "" when none
  chosen: new Set(),
  busy: false,
  want: 0, // counts the changes of the position asked for (stepping the record, back to the game)
  long: false, // the board is much longer than deep: upright on a phone, when it reads better so
  flip: false, // the board is turned round (row 0 at the top)
  effects: new Map(), // ply (1-based) -> the effects of that move, for the live record
  marks: null, // the marks of the position on screen: site -> "sown", "captured", "moved"
  queue: [], // views waiting for their animation: {v, trusted, at}
  draining: false, // drain is at work on the queue
  animating: false,
  animation: null, // the animation running, a promise
  skip: false,
  clock: null, // the clocks of the latest view received
  clockAt: 0, // performance.now() when they were received
  clockPly: 0, // the ply of the view they came with
  shareKey: "", // what the links box shows, to leave it alone when nothing changed
  statusRoom: 0, // the most the status has held at this screen size, in pixels: it keeps that room
  flagAsked: -1, // the ply at which the page last asked the server to look at a clock that ran out
  confirm: "", // an action waiting for its confirmation ("resign")
};

// speed is the animation speed: "off", "slow", "normal", "fast".
function speed() {
  return setting("speed", reduced.matches ? "off" : "normal");
}

// upright reports whether the board is drawn turned upright: a long board
// of holes on a narrow screen, whose holes would be too small across it.
function upright() {
  return narrow.matches && ui.long && readsBetterUpright(ui.live.board, $("board").clientWidth || innerWidth);
}

function isLive() {
  return ui.shown === ui.live;
}

function mine(p) {
  return Boolean(ui.secrets[p]);
}

// held lists the seats this page plays.
function held() {
  return Object.keys(ui.secrets).map(Number).sort();
}

function myTurn() {
  const v = ui.live, st = v.state;
  if (!isLive() || st.over || v.result || ui.busy || ui.animating) return false;
  const seat = v.seats[st.to_move - 1];
  return seat && seat.player === "human" && mine(st.to_move);
}

// northOnly reports whether this page plays only Player 2's seat: then the
// board is turned round so that the player's own side is at the bottom.
function northOnly() {
  const h = held();
  return h.length === 1 && h[0] === 2;
}

function sameStart(a, b) {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return i;
  return n;
}

// noteEffects keeps the effects of the move that led to view v.
function noteEffects(v) {
  if (v.ply > 0 && v.state && Array.isArray(v.state.effects)) ui.effects.set(v.ply, v.state.effects);
}

// turnOf is the turn of the live record holding ply: {player, first, last, tokens}.
function turnOf(v, ply) {
  const ts = turns(v.record, v.movers);
  const i = turnAt(ts, ply);
  return i < 0 ? null : ts[i];
}

// lastText says what the turn that led to the shown position did: every
// decision of it ("Last turn: Player 2 d8 continue xb7 xa3"), not only its
// last token.
function lastText(v) {
  if (!v.last) return "No move yet.";
  const t = turnOf(ui.live, v.ply);
  if (!t || !t.player) return `Last move: ${v.last.token} (move ${v.ply})`;
  const tokens = t.tokens.slice(0, v.ply - t.first + 1).join(" ");
  return `Last turn: Player ${t.player} ${tokens} (move ${v.ply})`;
}

// marksFor returns the marks of the turn that ends at ply of the live
// game (the sites its moves changed), fetching the effects it lacks.
async function marksFor(ply) {
  const t = turnOf(ui.live, ply);
  if (!t) return new Map();
  const plies = [];
  for (let p = t.first; p <= Math.min(ply, t.last); p++) {
    if (!ui.effects.has(p)) {
      try {
        noteEffects(await request("GET", `/api/games/${ui.id}?ply=${p}&board=0`));
      } catch (e) {
        // the marks are a help: without them the board still shows the position
      }
    }
    plies.push(ui.effects.get(p) || []);
  }
  return marksOf(plies);
}

// setLive takes a new view of the game: from the event stream (in order,
// trusted) or from an answer (which may be older than what the events
// brought: a shorter record that the live one extends is dropped). It
// queues the animation of the view's move when it is the next one. The
// clocks shown are the latest received at once, animation or not.
function setLive(v, trusted) {
  const at = performance.now();
  if (trusted || !ui.clockPly || v.ply >= ui.clockPly) {
    ui.clock = v.clock;
    ui.clockAt = at;
    ui.clockPly = v.ply;
  }
  ui.queue.push({ v, trusted, at });
  if (!ui.draining) drain();
}

// drain shows the queued views in order, animating each next move; one
// drain at a time.
async function drain() {
  ui.draining = true;
  try {
    await drainQueue();
  } finally {
    ui.draining = false;
  }
}

// budget is how long the animation of a queued view may take in a timed
// game: the time before the clock of the last view queued starts, shared
// by the views still to show, so that no one is charged for an animation.
function budget(item) {
  if (!item.v.clock || !item.v.clock.running) return undefined;
  const last = ui.queue.length ? ui.queue[ui.queue.length - 1] : item;
  const c = last.v.clock;
  if (!c || !c.running) return undefined;
  const left = clock.startsAt(c, last.at) - performance.now() - 300;
  return Math.max(0, left / (1 + ui.queue.length));
}

async function drainQueue() {
  while (ui.queue.length) {
    const item = ui.queue.shift();
    const { v, trusted } = item;
    const prev = ui.live;
    v.board = v.board || (prev && prev.board);
    // The moves both know: an event's view may be a step on the way to the
    // end of its record (its ply), the record being the whole game's.
    const common = prev ? Math.min(sameStart(prev.record, v.record), prev.ply, v.ply) : 0;
    // An answer older than what the events brought (a shorter record the
    // live one extends, or a change before the latest): only the page's
    // own state changed.
    if (prev && ((!trusted && v.ply < prev.ply && common === v.ply) || v.updated_us < prev.updated_us)) {
      render();
      continue;
    }
    if (prev) for (const p of [...ui.effects.keys()]) if (p > common) ui.effects.delete(p);
    noteEffects(v);
    const wasLive = !prev || isLive();
    const want = ui.want;
    const next = prev && v.ply === prev.ply + 1 && common === prev.ply;
    if (!prev || v.ply !== prev.ply || common !== v.ply) resetChoice();
    if (ui.confirm && (!prev || v.ply !== prev.ply)) ui.confirm = "";
    ui.live = v;
    if (wasLive) ui.shown = v;
    if (next && wasLive && Array.isArray(v.state.effects) && v.state.effects.length && speed() !== "off") {
      await animateMoves(prev.state, [v.state.effects], [v.state], budget(item));
    }
    if (ui.live !== v) continue;
    if (wasLive && want === ui.want) {
      ui.shown = v;
      ui.marks = await marksFor(v.ply);
    }
    if (ui.live !== v) continue; // a newer view came meanwhile
    render();
    if (next || !prev) scrollRecord();
    if (prev && isLive() && result(v) && !result(prev)) showEnd();
    if (next && narrow.matches && isLive() && $("actions").classList.contains("bar")) {
      // A decision about where the last move ended (continue or stop):
      // the place in view above the bar.
      const last = document.querySelector("#board .site.last");
      if (last) last.scrollIntoView({ block: "center" });
    }
  }
}

// animateMoves animates plies (their effects) from the position before,
// each ending in the state of afters, within limit milliseconds when
// given; clicks skip to the end.
function animateMoves(before, plies, afters, limit) {
  const run = async () => {
    ui.animating = true;
    ui.skip = false;
    const board = ui.live.board;
    const view = drawBoard($("board"), board, before, {
      targets: new Set(), selected: new Set(), last: new Set(), opening: ui.opening,
      flip: ui.flip, rotate: upright(), names: setting("names", false),
      marks: null, onSite: () => {},
    });
    const box = $("board");
    box.dataset.animating = "true";
    // A timed game's animation ends by then (performance.now()), before
    // the next clock starts.
    if (limit !== undefined) box.dataset.until = String(performance.now() + limit);
    $("skip").hidden = false;
    render();
    const skip = () => (ui.skip = true);
    box.addEventListener("click", skip);
    try {
      await new Animation(view, before, { speed: speed(), skipped: () => ui.skip, budget: limit }).run(plies, afters);
    } finally {
      box.removeEventListener("click", skip);
      delete box.dataset.animating;
      delete box.dataset.until;
      $("skip").hidden = true;
      ui.animating = false;
      ui.animation = null;
    }
  };
  ui.animation = run();
  return ui.animation;
}

// showEnd brings the result into view when the game ends while the page
// is scrolled past it (down a long board on a phone): the last move has
// been shown; who won, and why, is what matters now.
function showEnd() {
  const s = $("status");
  if (s.getBoundingClientRect().top < 0) s.scrollIntoView({ block: "start" });
}

// stopAnimation skips the animation running, if any, and waits for its end.
async function stopAnimation() {
  if (!ui.animation) return;
  ui.skip = true;
  try {
    await ui.animation;
  } catch (e) {
    // drawn again below
  }
}

function resetChoice() {
  ui.sel = [];
  ui.choices = [];
  ui.list = "";
  ui.chosen = new Set();
}

async function send(path, body) {
  ui.busy = true;
  render();
  try {
    const v = await request("POST", path, body);
    showError("");
    ui.busy = false;
    setLive(v, !path.endsWith("/moves"));
    return v;
  } catch (e) {
    ui.busy = false;
    if (e.status === 409) {
      // A request the game changed under (a stale ply, a proposal
      // already waiting, the game over): the page has the game again at
      // once, and its words say so.
      showError(said(e));
      setLive(await request("GET", `/api/games/${ui.id}`), true);
    } else {
      showError(said(e));
      resetChoice();
      render();
    }
    return null;
  }
}

function play(token) {
  const st = ui.live.state;
  return send(`/api/games/${ui.id}/moves`, { token, ply: ui.live.ply, seat: ui.secrets[st.to_move] });
}

// result is how the live game ended: the stored result (which also knows
// losses on time, resignations, draws agreed and aborts), else the state's.
function result(v) {
  if (v.result) return v.result;
  if (v.state.over) return { winner: v.state.winner, method: v.state.method || "", reason: v.state.reason, notes: v.state.notes };
  return null;
}

// resultText writes how a game ended: the headline ("Player 2 wins",
// "Draw by agreement"), then why in sentences, on a line of its own
// ("Player 1 resigned.", "Three in a row").
function resultText(s, r) {
  const e = ending(r);
  if (e.winner) s.append(playerSpan(e.winner), e.head);
  else s.append(e.head);
  s.dataset.method = r.method || "";
  if (e.why) s.append(" ", make("span", { class: "reason" }, e.why));
}

// statusLine says, from the position on screen: how the game ended or
// whose turn it is (a computer thinking, a person still to join, you and
// what the decision asks), or which earlier position is shown.
function statusLine() {
  const v = ui.shown, live = ui.live, s = $("status");
  s.replaceChildren();
  delete s.dataset.method;
  if (!isLive()) {
    s.append(`Record: viewing the position after move ${v.ply} of ${live.ply}`);
    if (!v.state.over) s.append(" (", playerSpan(v.state.to_move), " to move there)");
  } else {
    const r = result(live);
    const st = live.state;
    if (r) {
      resultText(s, r);
    } else {
      s.append(playerSpan(st.to_move), " to move");
      const seat = live.seats[st.to_move - 1];
      if (seat && seat.player !== "human") s.append(`: ${seat.name} is thinking…`);
      else if (seat && seat.waiting) s.append(": waiting for them to open their invitation link");
      else if (mine(st.to_move)) {
        s.append(" (you)");
        const p = myTurn() ? plain(promptOf(live.board, live)) : "";
        if (p) s.append(make("span", { class: "asks" }, p));
      }
    }
  }
  $("ruleschanged").hidden = !live.rules_changed;
  s.dataset.ply = String(live.ply);
  s.dataset.shown = String(v.ply);
  s.dataset.over = String(Boolean(result(live)));
  s.dataset.myturn = String(myTurn());
}

// keepRoom keeps the room the status s has needed at this screen size, so
// that the board under it does not move when its words get shorter: the
// turn passing from one's own (what the decision asks, on a phone on a
// line of its own) to the opponent's would lift the board, and the next
// turn drop it again. The status grows when it needs more room; the board
// moves down then, once. It is measured as the page shows it, once the
// decision bar has come or gone (render): on a phone, what a bar of the
// turn's own choices asks is not in the status, and the room of words the
// status never showed would be an empty band above the board.
function keepRoom(s) {
  s.style.minHeight = "";
  ui.statusRoom = Math.max(ui.statusRoom, s.getBoundingClientRect().height);
  s.style.minHeight = ui.statusRoom ? `${ui.statusRoom}px` : "";
}

function render() {
  const v = ui.shown;
  if (!v) return;
  statusLine();
  renderRecord();
  renderClocks();
  if (ui.animating) return keepRoom($("status")); // the board is the animation's; the rest follows after it
  const board = ui.live.board;
  const parts = mv.classify(myTurn() ? v.moves : [], board.kinds);
  let targets = new Set();
  let selected = new Set(ui.sel);
  if (ui.list) {
    targets = mv.listSites(parts.lists.get(ui.list) || []);
    selected = ui.chosen;
  } else {
    targets = mv.nextSites(parts.fixed, ui.sel);
    for (const s of ui.sel) targets.add(s);
  }
  const view = drawBoard($("board"), board, v.state, {
    targets, selected,
    last: new Set(v.last ? v.last.sites : []),
    goesOn: goesOn(v.state),
    opening: ui.opening,
    flip: ui.flip,
    rotate: upright(),
    names: setting("names", false),
    marks: ui.marks,
    won: new Set(v.state.over && Array.isArray(v.state.result_sites) ? v.state.result_sites : []),
    onSite: (site) => onSite(parts, site),
    onOther: (site) => onOther(parts, board, site),
  });
  renderLegend(view.tags, board);
  keepFocus($("actions"), () => renderActions(parts, board));
  $("last").textContent = lastText(v);
  renderScores(v, board);
  keepFocus($("around"), renderAround);
  renderShare();
  keepFocus($("tokens"), () => renderTokens(myTurn() ? v.moves : []));
  keepRoom($("status"));
}

// keepFocus runs draw, which draws the buttons of box anew, and keeps the
// keyboard's focus in box when it was there (or was lost when box was
// drawn last): on the same button when it is there again, else on box
// itself (tabindex -1, not a stop of Tab), which remembers the button for
// a later drawing. Another button is never focused in its place, where
// Enter pressed again would do what was not asked. Focus elsewhere is
// left alone.
function keepFocus(box, draw) {
  if (!box.dataset.keeps) {
    box.dataset.keeps = "true";
    box.addEventListener("focusout", (ev) => {
      // Focus taken elsewhere (not lost with a button drawn anew): forget it.
      if (!ev.relatedTarget && ev.target.isConnected) delete box.dataset.focus;
    });
  }
  const a = document.activeElement;
  let key = null;
  if (a && a !== box && box.contains(a)) key = buttonKey(a);
  else if ((a && a === box) || ((!a || a === document.body) && box.dataset.focus !== undefined)) key = box.dataset.focus || "";
  draw();
  if (key === null) {
    delete box.dataset.focus;
    return;
  }
  const same = [...box.querySelectorAll("button:not([disabled])")].find((b) => buttonKey(b) === key);
  if (same) {
    delete box.dataset.focus;
    same.focus({ preventScroll: true });
    return;
  }
  box.dataset.focus = key;
  box.tabIndex = -1;
  if (document.activeElement !== box) box.focus({ preventScroll: true });
}

// buttonKey names a button so that it is found again when drawn anew: by
// the move or action it makes, else by its words.
function buttonKey(e) {
  return e.dataset.token || e.dataset.action || e.dataset.kind || e.textContent;
}

// goesOn is the piece a turn goes on with (a chain of jumps, one decision
// each): the site the last move of the ply before state moved a piece to,
// when that piece is the player's whose decision is next. Empty at the
// end, at the opening, and when the turn passed.
function goesOn(state) {
  const fx = Array.isArray(state.effects) ? state.effects.filter((e) => e.kind === "move") : [];
  if (state.over || !fx.length) return new Set();
  const to = fx[fx.length - 1].to;
  const site = state.sites.find((s) => s.name === to);
  return site && site.count > 0 && site.owner === state.to_move ? new Set([to]) : new Set();
}

// renderLegend says what the tags' marks mean, in the script's words.
function renderLegend(tags, board) {
  const l = $("legend");
  l.replaceChildren();
  for (const t of tags) l.append(make("span", { class: "tagdoc", "data-tag": t }, tagChar(board, t) + " " + plain(tagText(board, t))));
}

function renderScores(v, board) {
  const sc = $("scores");
  const opened = sc.querySelector("details.specs[open]") !== null; // drawn anew, kept open
  sc.replaceChildren();
  const score = Array.isArray(v.state.score) ? v.state.score : null;
  const specs = [];
  for (let p = 1; p <= board.players; p++) {
    const d = make("span", { "data-player": String(p) });
    const seat = v.seats[p - 1];
    d.append(playerSpan(p), ": " + seatWords(seat, mine(p)));
    if (seat.player !== "human") {
      const spec = make("li", {}, `Player ${p}: `);
      spec.append(make("code", {}, seat.player));
      specs.push(spec);
    }
    const bits = [];
    if (score && board.score_label) bits.push(`${sentence(board.score_label)}: ${score[p - 1]}`);
    if (board.hand_label && v.state.hand[p - 1]) bits.push(`${sentence(board.hand_label)}: ${v.state.hand[p - 1]}`);
    if (bits.length) {
      d.append(" — ");
      const b = make("span", { class: "score" }, bits.join(", "));
      if (score) b.dataset.score = String(score[p - 1]);
      d.append(b);
    }
    sc.appendChild(d);
  }
  if (specs.length) {
    const det = make("details", { class: "specs" });
    det.open = opened;
    const list = make("ul", { class: "hint" });
    list.append(...specs);
    det.append(make("summary", {}, "The computer's settings"), make("span", { class: "hint" }, "As a computer seat is written for the command line and the API:"), list);
    sc.appendChild(det);
  }
}

// renderClocks shows each seat's time, counting down the running one from
// the server's latest answer; it runs during animations too.
function renderClocks() {
  const box = $("clocks");
  const c = ui.clock;
  box.hidden = !c;
  if (!c) return;
  const left = clock.left(c, ui.clockAt, performance.now());
  box.dataset.starts = String(clock.startsAt(c, ui.clockAt)); // when the running bank starts to run down
  if (box.children.length !== left.length) {
    box.replaceChildren();
    left.forEach((_, i) => {
      const d = make("div", { class: "clock", "data-player": String(i + 1) });
      d.append(playerSpan(i + 1), make("span", { class: "time" }));
      box.appendChild(d);
    });
  }
  const over = Boolean(ui.live && result(ui.live));
  left.forEach((ms, i) => {
    const d = box.children[i];
    d.classList.toggle("running", !over && c.running === i + 1);
    d.classList.toggle("low", ms < 10000);
    d.classList.toggle("out", ms <= 0);
    d.querySelector(".time").textContent = clock.format(ms);
  });
  // The server decides a loss on time; ask it once the running clock is out.
  if (ui.live && !over && c.running && left[c.running - 1] <= -300 && ui.flagAsked !== ui.clockPly) {
    ui.flagAsked = ui.clockPly;
    request("GET", `/api/games/${ui.id}?board=0`).then((v) => setLive(v, true), () => {});
  }
}

// aroundButton is a button of what goes around the game.
function aroundButton(text, action, f) {
  const b = make("button", { type: "button", "data-action": action }, text);
  b.addEventListener("click", f);
  return b;
}

// renderAround shows what goes around a game for the seats this page
// plays: a pending proposal (takeback or draw) and its answers, undo or a
// takeback, a draw offer, an abort before every player has moved, a
// resignation (confirmed), and the rematch once the game is over. Past
// positions and spectators get none of them.
function renderAround() {
  const a = $("around");
  a.replaceChildren();
  const v = ui.live;
  const h = held();
  if (!h.length || !isLive()) return;
  const r = result(v);
  const ply = v.record.length;
  const post = (what, body) => send(`/api/games/${ui.id}/${what}`, { ply, ...body });
  const q = v.request;
  const persons = v.seats.map((s, i) => (s.player === "human" && !s.waiting ? i + 1 : 0)).filter(Boolean);
  const others = persons.filter((p) => !mine(p)); // persons of other browsers
  const alone = others.length === 0; // nobody else to ask: every person's seat held is this page's
  if (!r && q) {
    const what = q.kind === "draw" ? "a draw" : `to take back ${v.record.length - q.to} move${v.record.length - q.to === 1 ? "" : "s"}`;
    const answerer = h.find((p) => p !== q.seat && v.seats[p - 1].player === "human");
    if (answerer) {
      a.append(make("span", { class: "request" }, q.kind === "draw" ? `Player ${q.seat} offers a draw.` : `Player ${q.seat} proposes ${what}.`));
      const kind = q.kind === "draw" ? "draw" : "takeback";
      a.append(aroundButton(q.kind === "draw" ? "Accept the draw" : "Accept", "accept", () => post(kind, { seat: ui.secrets[answerer], accept: true })));
      a.append(aroundButton("Decline", "decline", () => post(kind, { seat: ui.secrets[answerer], accept: false })));
    } else if (mine(q.seat)) {
      a.append(make("span", { class: "request" }, q.kind === "draw" ? "You offered a draw; waiting for the answer." : `You proposed ${what}; waiting for the answer.`));
      a.append(aroundButton("Withdraw", "withdraw", () => post(q.kind === "draw" ? "draw" : "takeback", { seat: ui.secrets[q.seat], accept: false })));
    }
  }
  if (!r) {
    // The seat of this page that moved last may take its turn back:
    // at once against the computer or alone, else proposed.
    const last = [...(v.movers || [])].reverse().find((p) => mine(p));
    const vsComputer = last && v.seats.every((s, i) => i + 1 === last || s.player !== "human" || s.waiting);
    if (last && !q) {
      const label = vsComputer || alone ? "Undo" : "Propose a takeback";
      a.append(aroundButton(label, "takeback", async () => {
        const asked = await post("takeback", { seat: ui.secrets[last] });
        const other = h.find((p) => p !== last && v.seats[p - 1].player === "human");
        if (asked && asked.request && alone && other) {
          await send(`/api/games/${ui.id}/takeback`, { seat: ui.secrets[other], ply: asked.record.length, accept: true });
        }
      }));
    }
    // Which seat of this page acts: the one to move, else the first.
    const acting = h.includes(v.state.to_move) ? v.state.to_move : h[0];
    if (!alone && !q) a.append(aroundButton("Offer a draw", "draw", () => post("draw", { seat: ui.secrets[acting] })));
    const moved = new Set(v.movers || []);
    if (moved.size < v.seats.length) a.append(aroundButton("Abort the game", "abort", () => post("abort", { seat: ui.secrets[acting] })));
    else if (v.seats.length === 2) {
      if (ui.confirm === "resign") {
        a.append(make("span", { class: "request" }, `Resign as Player ${acting}?`));
        a.append(aroundButton("Yes, resign", "resign-confirm", () => {
          ui.confirm = "";
          post("resign", { seat: ui.secrets[acting] });
        }));
        a.append(aroundButton("No, play on", "resign-cancel", () => {
          ui.confirm = "";
          render();
        }));
      } else {
        a.append(aroundButton("Resign", "resign", () => {
          ui.confirm = "resign";
          render();
        }));
      }
    }
  } else {
    a.append(aroundButton(v.rematch ? "Play the rematch" : "Rematch (sides swapped)", "rematch", () => rematch(h)));
  }
}

// rematch starts (or joins) the rematch with every seat this page holds,
// keeps the new seats' secrets and the board's orientation, and goes there.
async function rematch(h) {
  let go = null;
  for (const p of h) {
    try {
      const v = await request("POST", `/api/games/${ui.id}/rematch`, { seat: ui.secrets[p] });
      v.seats.forEach((s, i) => {
        if (!s.url) return;
        saveSecret(v.id, i + 1, seatFromURL(s.url).seat);
        go = go || s.url;
      });
      // A player keeps the board the way they saw it, whichever side
      // they play now.
      setOrientation(v.id, ui.flip);
      rememberGame(v.id, v.title);
      go = go || url("/g/" + v.id);
    } catch (e) {
      showError(said(e));
      return;
    }
  }
  if (go) location.href = go;
}

function onSite(parts, site) {
  showError("");
  if (ui.list) {
    if (ui.chosen.has(site)) ui.chosen.delete(site);
    else ui.chosen.add(site);
    render();
    return;
  }
  const r = mv.click(parts.fixed, ui.sel, site);
  if (r.play) {
    resetChoice();
    play(r.play);
    return;
  }
  ui.sel = r.sel;
  ui.choices = r.choices;
  render();
}

// onOther answers a click, on the player's turn, on a site that is no
// move now, rather than let it pass unsaid. When moves of a kind written
// as the site alone (a hole to sow) are what the turn offers, the site is
// asked of the server, which says why not, in the game's words when its
// rules say it ("b5 is not one of your pits"); else the page says where
// the moves are.
function onOther(parts, board, site) {
  if (!myTurn() || ui.busy || ui.list) return;
  const n = mv.noun(board);
  const alone = new Set(board.kinds.filter((k) => k.template === "{1}").map((k) => k.name));
  if (!ui.sel.length && parts.fixed.some((m) => alone.has(m.kind))) {
    play(site);
    return;
  }
  const from = ui.sel.map((s) => mv.siteText(board, s)).join(" → ");
  showError(notAMove(mv.siteText(board, site), from, n.one));
}

// moveButton is the button of a move, saying it in words ("Offer hole
// a3", "Continue sowing").
function moveButton(m, board) {
  const kind = board.kinds.find((k) => k.name === m.kind);
  const b = make("button", { type: "button", class: "move", "data-token": m.token }, mv.moveText(m, kind, board));
  b.title = m.token;
  b.addEventListener("click", () => {
    resetChoice();
    play(m.token);
  });
  return b;
}

// promptOf is what the script says about the decision at hand: the
// state's prompt, else the prompts of the move kinds offered.
function promptOf(board, v) {
  if (typeof v.state.prompt === "string" && v.state.prompt) return v.state.prompt;
  const kinds = new Set(v.moves.map((m) => m.kind));
  const prompts = [];
  for (const k of board.kinds) if (kinds.has(k.name) && k.prompt) prompts.push(k.prompt);
  return prompts.join(" ");
}

// renderActions shows the decision of this page's turn: what it asks, and
// the buttons of the choices that are not a click on the board. On a
// phone they stay in view, in a bar at the bottom of the screen.
function renderActions(parts, board) {
  const a = $("actions");
  a.replaceChildren();
  // The bar of the turn's own choices (buttons from its start) takes what
  // the turn asks from the status; a bar that comes with a selection (the
  // sites chosen and Cancel) leaves the words' room there, so that the
  // board does not move (style.css).
  const turnBar = parts.buttons.length > 0 || parts.lists.size > 0;
  const bar = () => {
    const on = a.querySelector("button") !== null;
    a.classList.toggle("bar", on);
    document.body.classList.toggle("has-bar", on);
    document.body.classList.toggle("bar-asks", on && turnBar);
  };
  if (!myTurn()) return bar();
  const p = plain(promptOf(board, ui.shown));
  if (p) a.append(make("p", { class: "prompt" }, p));
  const cancel = () => {
    const c = make("button", { type: "button", "data-action": "cancel" }, "Cancel");
    c.addEventListener("click", () => {
      resetChoice();
      render();
    });
    return c;
  };
  if (ui.list) {
    const moves = parts.lists.get(ui.list) || [];
    const kind = board.kinds.find((k) => k.name === ui.list);
    const m = mv.listMatch(moves, ui.chosen);
    const chosen = [...ui.chosen].sort().map((s) => mv.siteText(board, s)).join(", ");
    a.append(make("span", { class: "hint" }, `${mv.kindText(kind, board)}: choose on the board, then confirm. ${chosen ? `Chosen: ${chosen}.` : "None chosen yet."}`));
    if (m) a.append(moveButton(m, board));
    else {
      const why = ui.chosen.size ? mv.whyNot(moves, ui.chosen) : "choose at least one";
      a.append(make("button", { type: "button", disabled: "" }, "Not a move yet"), make("span", { class: "why" }, sentence(why) + "."));
    }
    a.append(cancel());
    return bar();
  }
  if (ui.sel.length) {
    // A move may go on to a site already selected (from a hole to the
    // same hole): its green ring is under the selection's, so say it.
    const next = mv.nextSites(parts.fixed, ui.sel);
    const again = [...new Set(ui.sel)].filter((s) => next.has(s));
    const say = (sites) => sites.map((s) => mv.siteText(board, s));
    const tail = again.length ? ` (click ${say(again).join(" or ")} again for the move that goes there)` : "";
    a.append(make("span", { class: "hint", "data-again": again.join(" ") }, `Selected ${say(ui.sel).join(" → ")}${tail}`));
    for (const m of ui.choices) a.append(moveButton(m, board));
    a.append(cancel());
  }
  for (const m of parts.buttons) a.append(moveButton(m, board));
  if (!p && !ui.sel.length && parts.fixed.length) {
    // No words from the script: how to make a move on the board.
    const n = mv.noun(board);
    const one = parts.fixed.every((m) => m.sites.length === 1);
    a.append(make("span", { class: "hint" }, one ? `Click a ${n.one} ringed in green.` : `Click where your move starts (ringed in green), then where it goes.`));
  }
  for (const [kind] of parts.lists) {
    const k = board.kinds.find((x) => x.name === kind);
    const b = make("button", { type: "button", "data-kind": kind }, mv.kindText(k, board) + "…");
    b.addEventListener("click", () => {
      resetChoice();
      ui.list = kind;
      render();
    });
    a.append(b);
  }
  bar();
}

function renderTokens(moves) {
  const t = $("tokens");
  t.replaceChildren();
  for (const m of moves) {
    const b = make("button", { type: "button", "data-token": m.token }, m.token);
    b.addEventListener("click", () => {
      resetChoice();
      play(m.token);
    });
    t.appendChild(b);
  }
  if (!moves.length) t.textContent = "None for you now.";
}

// renderRecord lists the record by turns: one line per player's turn; the
// turn and move shown, the slider and its label all follow the position
// on screen.
function renderRecord() {
  const v = ui.live;
  const ol = $("record");
  ol.replaceChildren();
  const ts = turns(v.record, v.movers);
  const cur = turnAt(ts, ui.shown.ply);
  ts.forEach((t, i) => {
    const li = make("li", { "data-turn": String(i), "data-first": String(t.first), "data-last": String(t.last) });
    if (t.player) li.append(make("span", { class: "who p" + t.player, "data-ply": String(t.last) }, `Player ${t.player}`), " ");
    t.tokens.forEach((tok, k) => {
      const s = make("span", { class: "tok", "data-ply": String(t.first + k) }, tok);
      if (t.first + k === ui.shown.ply) s.classList.add("current");
      li.append(s, " ");
    });
    if (i === cur) li.classList.add("current");
    ol.appendChild(li);
  });
  const slider = $("ply");
  slider.max = String(v.record.length);
  slider.value = String(ui.shown.ply);
  $("plylabel").textContent = `Move ${ui.shown.ply} of ${v.record.length}`;
  $("live").hidden = isLive();
  const li = ol.querySelector("li.current");
  if (li && (li.offsetTop + li.offsetHeight > ol.scrollTop + ol.clientHeight || li.offsetTop < ol.scrollTop)) {
    ol.scrollTop = li.offsetTop - ol.clientHeight + li.offsetHeight + 4;
  }
  $("prevturn").disabled = ui.shown.ply === 0;
  $("nextturn").disabled = isLive();
}

// scrollRecord shows the latest turn.
function scrollRecord() {
  const ol = $("record");
  ol.scrollTop = ol.scrollHeight;
}

// viewPly shows the position after move p (the live game at its end),
// with the marks of the turn that led there, after any animation.
async function viewPly(p) {
  const want = ++ui.want;
  await stopAnimation();
  if (want !== ui.want) return;
  resetChoice();
  if (p >= ui.live.ply) {
    ui.shown = ui.live;
    ui.marks = await marksFor(ui.live.ply);
    if (want === ui.want) render();
    return;
  }
  try {
    const v = await request("GET", `/api/games/${ui.id}?ply=${p}&board=0`);
    if (want !== ui.want) return;
    noteEffects(v);
    ui.shown = v;
    ui.marks = await marksFor(p);
    if (want === ui.want) render();
  } catch (e) {
    showError(said(e));
  }
}

// viewTurn shows the position after turn i, replaying its moves' effects
// from the position before it.
async function viewTurn(i) {
  const ts = turns(ui.live.record, ui.live.movers);
  const t = ts[i];
  if (!t) return;
  const want = ++ui.want;
  await stopAnimation();
  if (want !== ui.want) return;
  try {
    const before = await request("GET", `/api/games/${ui.id}?ply=${t.first - 1}&board=0`);
    const views = [];
    for (let p = t.first; p <= t.last; p++) views.push(await request("GET", `/api/games/${ui.id}?ply=${p}&board=0`));
    if (want !== ui.want) return;
    views.forEach(noteEffects);
    const end = t.last === ui.live.ply ? ui.live : views[views.length - 1];
    resetChoice();
    ui.shown = end;
    if (speed() !== "off" && views.every((v) => Array.isArray(v.state.effects))) {
      await animateMoves(before.state, views.map((v) => v.state.effects), views.map((v) => v.state));
    }
    if (want !== ui.want) return;
    ui.marks = marksOf(views.map((v) => v.state.effects));
    render();
  } catch (e) {
    showError(said(e));
  }
}

// renderShare shows the links of the game: an invitation for each
// person's seat this browser made and nobody has claimed yet, who has
// joined, and the spectator link; on the spectator link, the way back to
// the seats this browser holds.
function renderShare() {
  const box = $("share");
  const v = ui.live;
  const invites = ui.spectator ? {} : invitesOf(v.id);
  // Drawn again only when it changes, so that a link being selected or
  // copied stays as it is.
  const key = JSON.stringify([v.seats.map((s) => s.waiting), invites, ui.spectator]);
  if (key === ui.shareKey) return;
  ui.shareKey = key;
  box.replaceChildren();
  v.seats.forEach((seat, i) => {
    const p = i + 1;
    if (seat.player !== "human" || mine(p) || !invites[p]) return;
    if (seat.waiting) {
      box.append(make("div", { class: "hint" }, `Invitation for Player ${p}: send this link to your opponent. The first browser that opens it plays Player ${p}.`));
      const input = make("input", { readonly: "", value: new URL(invites[p], location.href).href, "data-share": String(p), "aria-label": `Invitation link for Player ${p}` });
      box.append(input, copyButton(input));
    } else {
      box.append(make("div", { class: "hint", "data-joined": String(p) }, `Player ${p} has joined.`));
    }
  });
  if (ui.spectator) {
    const mineHere = Object.entries(ui.held).sort((a, b) => Number(a[0]) - Number(b[0]));
    if (mineHere.length) {
      const [p, secret] = mineHere[0];
      const back = make("div", { class: "hint" }, "You are watching. ");
      back.append(make("a", { href: url(`/g/${v.id}#player=${p}&seat=${secret}`), "data-action": "play-seat" }, `Play your seat (Player ${p})`));
      box.append(back);
    } else {
      box.append(make("div", { class: "hint" }, "You are watching this game."));
    }
  }
  const watch = make("div", { class: "hint" }, "To watch: ");
  watch.append(make("a", { href: url(`/g/${v.id}`) }, "spectator link"));
  box.append(watch);
}

// copyButton copies the link of input (an invitation) for the player to
// paste in a message: on a phone, selecting the text of a field is
// fiddly. Where the browser refuses the clipboard (a page not served over
// HTTPS), the link is selected, and the button says to copy it.
function copyButton(input) {
  const b = make("button", { type: "button", class: "copy", "data-action": "copy-invite" }, "Copy the link");
  b.addEventListener("click", async () => {
    try {
      await navigator.clipboard.writeText(input.value);
      b.textContent = "Copied";
    } catch (e) {
      input.focus();
      input.select();
      b.textContent = "Selected: copy it";
    }
  });
  return b;
}

// settings wires the page's settings: animation speed, the board's
// orientation, point names.
function settings(v) {
  const sp = $("speed");
  sp.value = speed();
  sp.addEventListener("change", () => setSetting("speed", sp.value));
  const names = $("names");
  names.checked = setting("names", false);
  $("namestext").textContent = `Show the ${mv.noun(v.board).many}' names`;
  $("nameslabel").hidden = v.board.style === "counts"; // holes off a grid have their names written anyway
  names.addEventListener("change", () => {
    setSetting("names", names.checked);
    render();
  });
  $("turn").addEventListener("click", () => {
    ui.flip = !ui.flip;
    setOrientation(ui.id, ui.flip);
    render();
  });
  $("skip").addEventListener("click", () => (ui.skip = true));
  document.addEventListener("keydown", (e) => {
    if (e.key !== "Escape") return;
    if (ui.animating) ui.skip = true;
    else if (ui.sel.length || ui.list) {
      // As Cancel: the selection, or the choice of sites, dropped.
      resetChoice();
      render();
    }
  });
}

// takeSeat reads the seat of the page's link: a seat link's secret is
// kept; an invitation is claimed once, for this browser, and the address
// becomes the seat's link. It returns whether the link names a seat (the
// plain game link does not: a spectator's).
async function takeSeat(id) {
  const from = seatFromURL(location.href);
  if (from.seat && from.player) {
    saveSecret(id, from.player, from.seat);
    return true;
  }
  if (!from.invite || !from.player) return false;
  try {
    const v = await request("POST", `/api/games/${id}/claim`, { invite: from.invite });
    const s = v.seats[from.player - 1];
    const secret = seatFromURL(s.url).seat;
    saveSecret(id, from.player, secret);
    history.replaceState(null, "", url(`/g/${id}#player=${from.player}&seat=${secret}`));
    return true;
  } catch (e) {
    const had = secretsOf(id)[from.player];
    if (e.code === "seat-taken" && had) {
      // This browser claimed it before: its seat link is kept.
      history.replaceState(null, "", url(`/g/${id}#player=${from.player}&seat=${had}`));
      return true;
    }
    showError(said(e));
    history.replaceState(null, "", url(`/g/${id}`));
    return false;
  }
}

export async function gamePage(id) {
  ui.id = id;
  $("play").hidden = false;
  const seated = await takeSeat(id);
  ui.held = secretsOf(id);
  ui.spectator = !seated;
  ui.secrets = seated ? ui.held : {};
  const v = await request("GET", `/api/games/${id}`);
  const opening = await request("GET", `/api/games/${id}?ply=0&board=0`);
  ui.opening = Object.fromEntries(opening.state.sites.map((s) => [s.name, s.owner]));
  if (seated) rememberGame(id, titled(v));
  const chosen = orientation(id);
  ui.flip = chosen === null ? northOnly() : chosen;
  $("title").textContent = titled(v);
  document.title = v.title + " — Matombo";
  // A wide board gets the whole width; the record goes below it. A long
  // board of holes stands upright on a narrow screen.
  const cols = new Set(v.board.sites.map((s) => s.col)).size, rows = new Set(v.board.sites.map((s) => s.row)).size;
  $("play").classList.toggle("wide", cols > 10);
  ui.long = v.board.style === "counts" && cols > 2 * rows;
  narrow.addEventListener("change", () => {
    ui.statusRoom = 0; // the words wrap otherwise at another size
    render();
  });
  settings(v);
  setLive(v, true);
  $("ply").addEventListener("input", (e) => viewPly(Number(e.target.value)));
  $("live").addEventListener("click", () => viewPly(ui.live.ply));
  $("prevturn").addEventListener("click", () => {
    // A turn back: the position after the turn before the one shown
    // (or the opening).
    const ts = turns(ui.live.record, ui.live.movers);
    const t = ts[turnAt(ts, ui.shown.ply)];
    if (t) viewPly(t.first - 1);
  });
  $("nextturn").addEventListener("click", () => {
    const ts = turns(ui.live.record, ui.live.movers);
    const i = turnAt(ts, ui.shown.ply);
    const t = ts[i];
    // The turn after the position shown, replayed.
    viewTurn(ui.shown.ply === 0 ? 0 : t && ui.shown.ply < t.last ? i : i + 1);
  });
  $("record").addEventListener("click", (e) => {
    const tok = e.target.closest(".tok");
    if (tok) return viewPly(Number(tok.dataset.ply));
    const li = e.target.closest("li");
    if (li) viewTurn(Number(li.dataset.turn));
  });
  setInterval(() => {
    if (ui.clock) renderClocks();
  }, 100);
  request("GET", `/api/catalog/${v.game}/rules`).then(
    (r) => ($("rules").innerHTML = r.html), // safe: rendered by the server, all text escaped
    () => ($("rules").textContent = "This game has no rules page."),
  );
  follow(id);
}

// follow opens the game's event stream and takes its views. An event
// after the stream's first may carry only the moves the stream's last
// event lacked, after its first record_from moves: the last event's
// record completes it. A stream that cannot (no such event: never sent
// by the server) is opened again, its first event whole; so is one the
// browser reopens by itself.
function follow(id) {
  const es = new EventSource(url(`/api/games/${id}/events`));
  let held = null; // the stream's last view, its record whole
  es.addEventListener("state", (e) => {
    const v = JSON.parse(e.data);
    const from = v.record_from || 0;
    if (from > 0) {
      if (!held || held.record.length < from) {
        es.close();
        follow(id);
        return;
      }
      v.record = held.record.slice(0, from).concat(v.record);
      v.movers = (held.movers || []).slice(0, from).concat(v.movers || []);
      delete v.record_from;
    }
    held = v;
    setLive(v, true);
  });
}
