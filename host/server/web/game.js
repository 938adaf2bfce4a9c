// The game page: the board, the decisions of the player to move, the record
// by turns, clocks, takebacks and rematches. It draws any game from the
// data the server sends and names no game.
import { request } from "./api.js";
import { Animation, marksOf } from "./animate.js";
import { drawBoard } from "./board.js";
import * as clock from "./clock.js";
import { $, make, playerSpan, showError } from "./dom.js";
import { rememberGame, saveSecret, seatFromURL, secretsOf, setSetting, setting } from "./local.js";
import * as mv from "./moves.js";
import { turnAt, turns } from "./record.js";

// narrow is a phone-sized screen.
const narrow = window.matchMedia("(max-width: 600px)");
const reduced = window.matchMedia("(prefers-reduced-motion: reduce)");

const ui = {
  id: "",
  live: null, // the latest game view (with board)
  shown: null, // the view on screen: live or an earlier ply
  secrets: {},
  opening: null, // site -> owner at the opening
  sel: [], // sites clicked so far for a move of several sites
  choices: [], // moves completed by sel when more than one
  list: "", // the list kind being chosen, "" when none
  chosen: new Set(),
  busy: false,
  want: 0, // counter of requests for earlier plies
  long: false, // the board is much longer than deep: upright on a phone
  effects: new Map(), // ply (1-based) -> the effects of that move, for the live record
  marks: null, // the marks of the position on screen: site -> "sown", "captured", "moved"
  queue: [], // views waiting for their animation
  draining: false, // drain is at work on the queue
  animating: false,
  skip: false,
  clockAt: 0, // performance.now() when the live view's clock was read
  flagAsked: -1, // the ply at which the page last asked the server to look at a clock that ran out
};

// speed is the animation speed: "off", "slow", "normal", "fast".
function speed() {
  return setting("speed", reduced.matches ? "off" : "normal");
}

function isLive() {
  return ui.shown === ui.live;
}

function mine(p) {
  return Boolean(ui.secrets[p]);
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
  const held = Object.keys(ui.secrets).map(Number);
  return held.length === 1 && held[0] === 2;
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

// lastTurn is the turn of the live record's last move: {first, last} plies.
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
// queues the animation of the view's move when it is the next one.
function setLive(v, trusted) {
  ui.queue.push({ v, trusted });
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

async function drainQueue() {
  while (ui.queue.length) {
    const { v, trusted } = ui.queue.shift();
    const prev = ui.live;
    v.board = v.board || (prev && prev.board);
    // The moves both know: an event's view may be a step on the way to the
    // end of its record (its ply), the record being the whole game's.
    const common = prev ? Math.min(sameStart(prev.record, v.record), prev.ply, v.ply) : 0;
    if (prev && !trusted && v.ply < prev.ply && common === v.ply) {
      render(); // an answer older than what the events brought: only the page's own state changed
      continue;
    }
    if (prev) for (const p of [...ui.effects.keys()]) if (p > common) ui.effects.delete(p);
    noteEffects(v);
    const wasLive = !prev || isLive();
    const next = prev && v.ply === prev.ply + 1 && common === prev.ply;
    if (!prev || v.ply !== prev.ply || common !== v.ply) resetChoice();
    ui.live = v;
    ui.clockAt = performance.now();
    if (next && wasLive && Array.isArray(v.state.effects) && v.state.effects.length && speed() !== "off") {
      ui.shown = v;
      await animateMoves(prev.state, [v.state.effects], [v.state]);
    }
    if (ui.live !== v) continue;
    if (wasLive) {
      ui.shown = v;
      ui.marks = await marksFor(v.ply);
    }
    if (ui.live !== v) continue; // a newer view came meanwhile
    render();
    if (next || !prev) scrollRecord();
  }
}

// animateMoves animates plies (their effects) from the position before,
// each ending in the state of afters; clicks skip to the end.
async function animateMoves(before, plies, afters) {
  ui.animating = true;
  ui.skip = false;
  const board = ui.live.board;
  const view = drawBoard($("board"), board, before, {
    targets: new Set(), selected: new Set(), last: new Set(), opening: ui.opening,
    flip: northOnly(), rotate: narrow.matches && ui.long, names: setting("names", false),
    marks: null, onSite: () => {},
  });
  const box = $("board");
  box.dataset.animating = "true";
  $("skip").hidden = false;
  render();
  const skip = () => (ui.skip = true);
  box.addEventListener("click", skip);
  try {
    await new Animation(view, before, { speed: speed(), skipped: () => ui.skip }).run(plies, afters);
  } finally {
    box.removeEventListener("click", skip);
    delete box.dataset.animating;
    $("skip").hidden = true;
    ui.animating = false;
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
    setLive(v, path.endsWith("/takeback"));
    return v;
  } catch (e) {
    ui.busy = false;
    if (e.status === 409) {
      showError(e.message);
      setLive(await request("GET", `/api/games/${ui.id}`), true);
    } else {
      showError(e.message);
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
// losses on time), else the state's.
function result(v) {
  if (v.result) return v.result;
  if (v.state.over) return { winner: v.state.winner, method: "", reason: v.state.reason, notes: v.state.notes };
  return null;
}

function statusLine(v) {
  const st = v.state, s = $("status");
  s.replaceChildren();
  const r = isLive() ? result(ui.live) : st.over ? result(v) : null;
  if (r) {
    if (r.winner) s.append(playerSpan(r.winner), r.method === "time" ? " wins on time" : " wins");
    else s.append("Draw");
    const why = [r.method === "time" ? "" : r.reason, ...(r.notes || [])].filter(Boolean).join("; ");
    if (why) s.append(` (${why})`);
  } else {
    s.append(playerSpan(st.to_move), " to move");
    const seat = v.seats[st.to_move - 1];
    if (seat && seat.player !== "human") s.append(` (computer: ${seat.player}, thinking…)`);
    else if (mine(st.to_move) && isLive()) s.append(" (you)");
  }
  if (!isLive()) s.append(` — viewing the position after move ${v.ply} of ${ui.live.ply}`);
  s.dataset.ply = String(ui.live.ply);
  s.dataset.over = String(Boolean(result(ui.live)));
  s.dataset.myturn = String(myTurn());
}

function render() {
  const v = ui.shown;
  if (!v) return;
  if (ui.animating) {
    // The board is the animation's; the rest follows after it.
    statusLine(ui.live);
    renderRecord();
    return;
  }
  const board = ui.live.board;
  statusLine(v);
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
    opening: ui.opening,
    flip: northOnly(),
    rotate: narrow.matches && ui.long,
    names: setting("names", false),
    marks: ui.marks,
    won: new Set(v.state.over && Array.isArray(v.state.result_sites) ? v.state.result_sites : []),
    onSite: (site) => onSite(parts, site),
  });
  $("legend").textContent = view.tags.length ? "◆ marks sites tagged: " + view.tags.join(", ") : "";
  renderActions(parts, board);
  $("last").textContent = lastText(v);
  renderScores(v, board);
  renderClocks();
  renderAround();
  renderRecord();
  renderTokens(myTurn() ? v.moves : []);
}

function renderScores(v, board) {
  const sc = $("scores");
  sc.replaceChildren();
  const score = Array.isArray(v.state.score) ? v.state.score : null;
  for (let p = 1; p <= board.players; p++) {
    const d = make("span", { "data-player": String(p) });
    const seat = v.seats[p - 1];
    d.append(playerSpan(p), ` (${mine(p) ? "you" : seat.player === "human" ? "a person" : "computer " + seat.player})`);
    const bits = [];
    if (score && board.score_label) bits.push(`${board.score_label} ${score[p - 1]}`);
    if (v.state.hand[p - 1]) bits.push(`in hand ${v.state.hand[p - 1]}`);
    if (bits.length) {
      d.append(": ");
      const b = make("span", { class: "score" }, bits.join(", "));
      if (score) b.dataset.score = String(score[p - 1]);
      d.append(b);
    }
    sc.appendChild(d);
  }
}

// renderClocks shows each seat's time, counting down the running one.
function renderClocks() {
  const box = $("clocks");
  const c = ui.live.clock;
  box.hidden = !c;
  if (!c) return;
  const left = clock.left(c, ui.clockAt, performance.now());
  if (box.children.length !== left.length) {
    box.replaceChildren();
    left.forEach((_, i) => {
      const d = make("div", { class: "clock", "data-player": String(i + 1) });
      d.append(playerSpan(i + 1), make("span", { class: "time" }));
      box.appendChild(d);
    });
  }
  const over = Boolean(result(ui.live));
  left.forEach((ms, i) => {
    const d = box.children[i];
    d.classList.toggle("running", !over && c.running === i + 1);
    d.classList.toggle("low", ms < 10000);
    d.classList.toggle("out", ms <= 0);
    d.querySelector(".time").textContent = clock.format(ms);
  });
  // The server decides a loss on time; ask it once the running clock is out.
  if (!over && c.running && left[c.running - 1] <= -300 && ui.flagAsked !== ui.live.ply) {
    ui.flagAsked = ui.live.ply;
    request("GET", `/api/games/${ui.id}?board=0`).then((v) => setLive(v, true), () => {});
  }
}

// renderAround shows what goes around a game: a pending takeback, the
// takeback or undo button, the rematch.
function renderAround() {
  const a = $("around");
  a.replaceChildren();
  const v = ui.live;
  const held = Object.keys(ui.secrets).map(Number);
  if (!held.length || !isLive()) return;
  const r = result(v);
  const q = v.request;
  if (q && q.kind === "takeback") {
    const n = v.record.length - q.to;
    const what = `take back ${n} move${n === 1 ? "" : "s"}`;
    const other = held.find((p) => p !== q.seat);
    if (other) {
      a.append(make("span", { class: "request" }, `Player ${q.seat} proposes to ${what}.`));
      a.append(aroundButton("Accept", "accept", () => send(`/api/games/${ui.id}/takeback`, { seat: ui.secrets[other], ply: v.record.length, accept: true })));
      a.append(aroundButton("Decline", "decline", () => send(`/api/games/${ui.id}/takeback`, { seat: ui.secrets[other], ply: v.record.length, accept: false })));
    } else {
      a.append(make("span", { class: "request" }, `You proposed to ${what}; waiting for the answer.`));
      a.append(aroundButton("Withdraw", "withdraw", () => send(`/api/games/${ui.id}/takeback`, { seat: ui.secrets[q.seat], ply: v.record.length, accept: false })));
    }
  } else if (!(r && r.method === "time")) {
    // The seat of this page that moved last may take its turn back.
    const movers = v.movers || [];
    const last = [...movers].reverse().find((p) => mine(p));
    const vsComputer = last && v.seats.every((s, i) => i + 1 === last || s.player !== "human");
    // A page holding every person's seat answers its own proposal.
    const other = last && held.find((p) => p !== last && v.seats[p - 1].player === "human");
    const alone = last && v.seats.every((s, i) => s.player !== "human" || mine(i + 1));
    // After the end, only an undo against the computer (or on one's own):
    // a finished game between people is not proposed back.
    if (last && (!r || vsComputer || alone)) {
      const label = vsComputer || alone ? "Undo" : "Propose a takeback";
      a.append(aroundButton(label, "takeback", async () => {
        const asked = await send(`/api/games/${ui.id}/takeback`, { seat: ui.secrets[last], ply: v.record.length });
        if (asked && asked.request && alone && other) {
          await send(`/api/games/${ui.id}/takeback`, { seat: ui.secrets[other], ply: asked.record.length, accept: true });
        }
      }));
    }
  }
  if (r) {
    if (v.rematch) {
      a.append(aroundButton("Play the rematch", "rematch", () => rematch(held)));
    } else {
      a.append(aroundButton("Rematch (sides swapped)", "rematch", () => rematch(held)));
    }
  }
}

function aroundButton(text, action, f) {
  const b = make("button", { type: "button", "data-action": action }, text);
  b.addEventListener("click", f);
  return b;
}

// rematch starts (or joins) the rematch with every seat this page holds,
// keeps the new seats' secrets, and goes there.
async function rematch(held) {
  let go = null;
  for (const p of held) {
    try {
      const v = await request("POST", `/api/games/${ui.id}/rematch`, { seat: ui.secrets[p] });
      v.seats.forEach((s, i) => {
        if (!s.url) return;
        saveSecret(v.id, i + 1, seatFromURL(s.url).seat);
        go = go || s.url;
      });
      rememberGame(v.id, v.title);
      go = go || "/g/" + v.id;
    } catch (e) {
      showError(e.message);
      return;
    }
  }
  if (go) location.href = go;
}

function onSite(parts, site) {
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

function moveButton(token, text) {
  const b = make("button", { type: "button", class: "move", "data-token": token }, text || token);
  b.addEventListener("click", () => {
    resetChoice();
    play(token);
  });
  return b;
}

// promptOf is what the script says about the decision at hand: the
// state's prompt, else the prompts of the move kinds offered.
function promptOf(board, v) {
  if (typeof v.state.prompt === "string" && v.state.prompt) return v.state.prompt;
  const moves = v.moves;
  const kinds = new Set(moves.map((m) => m.kind));
  const said = [];
  for (const k of board.kinds) if (kinds.has(k.name) && k.prompt) said.push(k.prompt);
  for (const m of moves) if (m.prompt && !said.includes(m.prompt)) said.push(m.prompt);
  return said.join(" ");
}

function renderActions(parts, board) {
  const a = $("actions");
  a.replaceChildren();
  if (!myTurn()) return;
  const p = promptOf(board, ui.shown);
  if (p) a.append(make("p", { class: "prompt" }, p));
  if (ui.list) {
    const moves = parts.lists.get(ui.list) || [];
    const m = mv.listMatch(moves, ui.chosen);
    a.append(make("span", { class: "hint" }, `Choose the sites (${[...ui.chosen].sort().join(", ") || "none yet"}), then confirm:`));
    if (m) a.append(moveButton(m.token));
    else {
      const why = ui.chosen.size ? mv.whyNot(moves, ui.chosen) : "choose at least one site";
      a.append(make("button", { type: "button", disabled: "" }, "not a move"), make("span", { class: "why" }, why));
    }
    const cancel = make("button", { type: "button" }, "Cancel");
    cancel.addEventListener("click", () => {
      resetChoice();
      render();
    });
    a.append(cancel);
    return;
  }
  if (ui.sel.length) {
    a.append(make("span", { class: "hint" }, `Selected ${ui.sel.join(" → ")}`));
    for (const m of ui.choices) a.append(moveButton(m.token));
    const cancel = make("button", { type: "button" }, "Cancel");
    cancel.addEventListener("click", () => {
      resetChoice();
      render();
    });
    a.append(cancel);
  }
  for (const m of parts.buttons) a.append(moveButton(m.token));
  for (const [kind] of parts.lists) {
    const k = board.kinds.find((x) => x.name === kind);
    const b = make("button", { type: "button", "data-kind": kind }, mv.kindLabel(k) + "…");
    b.addEventListener("click", () => {
      resetChoice();
      ui.list = kind;
      render();
    });
    a.append(b);
  }
  if (parts.fixed.length && !ui.sel.length) a.append(make("span", { class: "hint" }, "or click a highlighted site"));
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

// renderRecord lists the record by turns: one line per player's turn.
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
  $("plylabel").textContent = `move ${ui.shown.ply} of ${v.record.length}`;
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

// viewPly shows the position after move p (the live game at its end).
async function viewPly(p) {
  if (p >= ui.live.ply) {
    ui.shown = ui.live;
    ui.marks = await marksFor(ui.live.ply);
    render();
    return;
  }
  const want = ++ui.want;
  try {
    const v = await request("GET", `/api/games/${ui.id}?ply=${p}&board=0`);
    if (want !== ui.want) return;
    noteEffects(v);
    ui.shown = v;
    ui.marks = await marksFor(p);
    resetChoice();
    render();
  } catch (e) {
    showError(e.message);
  }
}

// viewTurn shows the position after turn i, replaying its moves' effects
// from the position before it.
async function viewTurn(i) {
  const ts = turns(ui.live.record, ui.live.movers);
  const t = ts[i];
  if (!t) return;
  const want = ++ui.want;
  try {
    const before = await request("GET", `/api/games/${ui.id}?ply=${t.first - 1}&board=0`);
    const views = [];
    for (let p = t.first; p <= t.last; p++) views.push(await request("GET", `/api/games/${ui.id}?ply=${p}&board=0`));
    if (want !== ui.want) return;
    views.forEach(noteEffects);
    const end = t.last === ui.live.ply ? ui.live : views[views.length - 1];
    if (speed() !== "off" && views.every((v) => Array.isArray(v.state.effects))) {
      ui.shown = end;
      await animateMoves(before.state, views.map((v) => v.state.effects), views.map((v) => v.state));
    }
    if (want !== ui.want) return;
    ui.shown = end;
    ui.marks = marksOf(views.map((v) => v.state.effects));
    resetChoice();
    render();
  } catch (e) {
    showError(e.message);
  }
}

function renderShare() {
  const box = $("share");
  box.replaceChildren();
  const v = ui.live;
  v.seats.forEach((seat, i) => {
    const p = i + 1;
    if (seat.player !== "human" || !ui.secrets[p]) return;
    if (seatFromURL(location.href).player === p) return;
    const url = `${location.origin}/g/${v.id}#player=${p}&seat=${ui.secrets[p]}`;
    box.append(make("div", { class: "hint" }, `Link for Player ${p} (send it to them; whoever has it plays that seat):`));
    box.append(make("input", { readonly: "", value: url, "data-share": String(p), "aria-label": `link for player ${p}` }));
  });
  const watch = make("div", { class: "hint" }, "To watch: ");
  watch.append(make("a", { href: `/g/${v.id}` }, "spectator link"));
  box.append(watch);
}

// settings wires the page's settings: animation speed, point names.
function settings(v) {
  const sp = $("speed");
  sp.value = speed();
  sp.addEventListener("change", () => setSetting("speed", sp.value));
  const names = $("names");
  names.checked = setting("names", false);
  $("nameslabel").hidden = v.board.style === "counts"; // holes off a grid have their names written anyway
  names.addEventListener("change", () => {
    setSetting("names", names.checked);
    render();
  });
  $("skip").addEventListener("click", () => (ui.skip = true));
  document.addEventListener("keydown", (e) => {
    if (e.key === "Escape" && ui.animating) ui.skip = true;
  });
}

export async function gamePage(id) {
  ui.id = id;
  $("play").hidden = false;
  const from = seatFromURL(location.href);
  if (from.seat && from.player) saveSecret(id, from.player, from.seat);
  ui.secrets = secretsOf(id);
  const v = await request("GET", `/api/games/${id}`);
  const opening = await request("GET", `/api/games/${id}?ply=0&board=0`);
  ui.opening = Object.fromEntries(opening.state.sites.map((s) => [s.name, s.owner]));
  if (Object.keys(ui.secrets).length) rememberGame(id, v.title);
  const names = v.variants.length ? " — " + v.variants.join(", ") : "";
  $("title").textContent = v.title + names;
  document.title = v.title + " — Matombo";
  // A wide board gets the whole width; the record goes below it. A long
  // board of holes stands upright on a narrow screen.
  const cols = new Set(v.board.sites.map((s) => s.col)).size, rows = new Set(v.board.sites.map((s) => s.row)).size;
  $("play").classList.toggle("wide", cols > 10);
  ui.long = v.board.style === "counts" && cols > 2 * rows;
  narrow.addEventListener("change", render);
  settings(v);
  setLive(v, true);
  renderShare();
  $("ply").addEventListener("input", (e) => viewPly(Number(e.target.value)));
  $("live").addEventListener("click", () => viewPly(ui.live.ply));
  $("prevturn").addEventListener("click", () => {
    const ts = turns(ui.live.record, ui.live.movers);
    const i = turnAt(ts, ui.shown.ply);
    if (i > 0) viewTurn(i - 1);
    else viewPly(0);
  });
  $("nextturn").addEventListener("click", () => {
    const ts = turns(ui.live.record, ui.live.movers);
    viewTurn(ui.shown.ply === 0 ? 0 : turnAt(ts, ui.shown.ply) + 1);
  });
  $("record").addEventListener("click", (e) => {
    const tok = e.target.closest(".tok");
    if (tok) return viewPly(Number(tok.dataset.ply));
    const li = e.target.closest("li");
    if (li) viewTurn(Number(li.dataset.turn));
  });
  setInterval(() => {
    if (ui.live && ui.live.clock && !ui.animating) renderClocks();
  }, 100);
  request("GET", `/api/catalog/${v.game}/rules`).then(
    (r) => ($("rules").innerHTML = r.html), // safe: rendered by the server, all text escaped
    () => ($("rules").textContent = "This game has no rules page."),
  );
  const es = new EventSource(`/api/games/${id}/events`);
  es.addEventListener("state", (e) => setLive(JSON.parse(e.data), true));
}
