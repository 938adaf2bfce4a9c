// The Matombo page: a new-game form and a game view. It draws any game from
// the data the server sends and names no game.
import { drawBoard } from "./board.js";
import * as mv from "./moves.js";

const $ = (id) => document.getElementById(id);

class APIError extends Error {
  constructor(status, body) {
    super(body && body.error ? body.error : `HTTP ${status}`);
    this.status = status;
    this.body = body;
  }
}

async function request(method, path, body) {
  const init = { method, headers: {} };
  if (body !== undefined) {
    init.headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  const res = await fetch(path, init);
  let data = null;
  try {
    data = await res.json();
  } catch (e) {
    data = null;
  }
  if (!res.ok) throw new APIError(res.status, data);
  return data;
}

function showError(msg) {
  const e = $("error");
  e.textContent = msg || "";
  e.hidden = !msg;
}

function make(tag, attrs, text) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, v);
  if (text !== undefined) e.textContent = text;
  return e;
}

// ---- seats this browser may play: secrets kept per game ----

function loadSecrets(id) {
  try {
    return JSON.parse(localStorage.getItem("matombo:" + id) || "{}");
  } catch (e) {
    return {};
  }
}

function saveSecret(id, player, secret) {
  const s = loadSecrets(id);
  s[player] = secret;
  try {
    localStorage.setItem("matombo:" + id, JSON.stringify(s));
  } catch (e) {
    // private browsing: the link in the address bar still works
  }
}

function seatFromURL(url) {
  const hash = new URL(url, location.href).hash.slice(1);
  const q = new URLSearchParams(hash);
  return { seat: q.get("seat"), player: Number(q.get("player")) };
}

// ---- the new-game form ----

async function home() {
  $("home").hidden = false;
  $("title").textContent = "";
  const cat = await request("GET", "/api/catalog");
  const sel = $("ng-game");
  const games = cat.games.filter((g) => !g.error);
  for (const g of games) sel.appendChild(make("option", { value: g.name }, g.title));
  const fill = () => fillForm(games.find((g) => g.name === sel.value), cat);
  sel.addEventListener("change", fill);
  fill();
  $("newgame").addEventListener("submit", async (ev) => {
    ev.preventDefault();
    showError("");
    try {
      const v = await request("POST", "/api/games", formRequest());
      let go = "/g/" + v.id;
      v.seats.forEach((s, i) => {
        if (!s.url) return;
        const { seat } = seatFromURL(s.url);
        saveSecret(v.id, i + 1, seat);
        if (go === "/g/" + v.id) go = s.url;
      });
      location.href = go;
    } catch (e) {
      showError(e.message);
    }
  });
}

function fillForm(g, cat) {
  if (!g) return;
  $("ng-description").textContent = g.description;
  const vs = $("ng-variants");
  vs.replaceChildren(make("legend", {}, "Variants"));
  for (const v of g.variants) {
    const l = make("label");
    const box = make("input", { type: "checkbox", name: "variant", value: v.name });
    l.append(box, " " + v.name + " ", make("span", { class: "hint" }, v.description));
    vs.appendChild(l);
  }
  vs.classList.toggle("empty", g.variants.length === 0);
  const ps = $("ng-params");
  ps.replaceChildren(make("legend", {}, "Parameters"));
  for (const p of g.params) {
    const l = make("label", {}, p.name + " ");
    let input;
    if (p.allowed.length) {
      input = make("select", { "data-param": p.name, "data-kind": p.kind });
      input.appendChild(make("option", { value: "" }, `default (${p.default})`));
      for (const a of p.allowed) input.appendChild(make("option", { value: a }, a));
    } else {
      input = make("input", { "data-param": p.name, "data-kind": p.kind, placeholder: String(p.default), type: p.kind === "integer" ? "number" : "text" });
    }
    l.append(input, " ", make("span", { class: "hint" }, p.doc));
    ps.appendChild(l);
  }
  ps.classList.toggle("empty", g.params.length === 0);
  const ss = $("ng-seats");
  ss.replaceChildren(make("legend", {}, "Seats"));
  for (let i = 1; i <= g.players; i++) {
    const l = make("label", {}, `Player ${i} `);
    const s = make("select", { "data-seat": String(i) });
    s.appendChild(make("option", { value: cat.human }, "a person"));
    for (const c of cat.computers) s.appendChild(make("option", { value: c }, "computer: " + c));
    s.appendChild(make("option", { value: "other" }, "computer: other…"));
    if (i > 1 && cat.computers.length) s.value = cat.computers[0];
    const other = make("input", { "data-other": String(i), placeholder: "player spec", hidden: "" });
    s.addEventListener("change", () => (other.hidden = s.value !== "other"));
    l.append(s, " ", other);
    ss.appendChild(l);
  }
}

function formRequest() {
  const req = { game: $("ng-game").value, variants: [], params: {}, seats: [] };
  for (const b of document.querySelectorAll("#ng-variants input:checked")) req.variants.push(b.value);
  for (const p of document.querySelectorAll("[data-param]")) {
    if (p.value === "") continue;
    const kind = p.dataset.kind;
    req.params[p.dataset.param] = kind === "integer" ? Number(p.value) : kind === "boolean" ? p.value === "true" : p.value;
  }
  for (const s of document.querySelectorAll("[data-seat]")) {
    req.seats.push(s.value === "other" ? document.querySelector(`[data-other="${s.dataset.seat}"]`).value.trim() : s.value);
  }
  return req;
}

// ---- the game view ----

// narrow is a phone-sized screen.
const narrow = window.matchMedia("(max-width: 600px)");

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
};

function isLive() {
  return ui.shown === ui.live;
}

function myTurn() {
  const v = ui.live, st = v.state;
  if (!isLive() || st.over || ui.busy) return false;
  const seat = v.seats[st.to_move - 1];
  return seat && seat.player === "human" && Boolean(ui.secrets[st.to_move]);
}

// northOnly reports whether this page plays only Player 2's seat: then the
// board is turned round so that the player's own side is at the bottom.
function northOnly() {
  const mine = Object.keys(ui.secrets).map(Number);
  return mine.length === 1 && mine[0] === 2;
}

function playerSpan(p) {
  return make("span", { class: "p" + p }, `Player ${p}`);
}

function setLive(v) {
  if (ui.live && v.record.length < ui.live.record.length) {
    render(); // an older answer than the events brought: only redraw
    return;
  }
  const wasLive = !ui.live || isLive();
  const changed = !ui.live || v.record.length !== ui.live.record.length;
  v.board = v.board || ui.live.board;
  ui.live = v;
  if (wasLive) ui.shown = v;
  if (changed) resetChoice();
  render();
}

function resetChoice() {
  ui.sel = [];
  ui.choices = [];
  ui.list = "";
  ui.chosen = new Set();
}

async function play(token) {
  const st = ui.live.state;
  ui.busy = true;
  render();
  try {
    const v = await request("POST", `/api/games/${ui.id}/moves`, { token, ply: ui.live.record.length, seat: ui.secrets[st.to_move] });
    showError("");
    ui.busy = false;
    setLive(v);
  } catch (e) {
    ui.busy = false;
    if (e.status === 409) {
      setLive(await request("GET", `/api/games/${ui.id}`));
    } else {
      showError(e.message);
      resetChoice();
      render();
    }
  }
}

function statusLine(v) {
  const st = v.state, s = $("status");
  s.replaceChildren();
  if (st.over) {
    if (st.winner) s.append(playerSpan(st.winner), " wins");
    else s.append("Draw");
    const why = [st.reason, ...st.notes].filter(Boolean).join("; ");
    if (why) s.append(` (${why})`);
  } else {
    s.append(playerSpan(st.to_move), " to move");
    const seat = v.seats[st.to_move - 1];
    if (seat && seat.player !== "human") s.append(` (computer: ${seat.player}, thinking…)`);
    else if (ui.secrets[st.to_move] && isLive()) s.append(" (you)");
  }
  if (!isLive()) s.append(` — viewing the position after move ${v.ply} of ${ui.live.record.length}`);
  s.dataset.ply = String(ui.live.record.length);
  s.dataset.over = String(ui.live.state.over);
  s.dataset.myturn = String(myTurn());
}

function render() {
  const v = ui.shown;
  if (!v) return;
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
  const tags = drawBoard($("board"), board, v.state, {
    targets, selected,
    last: new Set(v.last ? v.last.sites : []),
    opening: ui.opening,
    flip: northOnly(),
    rotate: narrow.matches && ui.long,
    onSite: (site) => onSite(parts, site),
  });
  $("legend").textContent = tags.length ? "◆ marks sites tagged: " + tags.join(", ") : "";
  renderActions(parts, board);
  $("last").textContent = v.last ? `Last move: ${v.last.token} (move ${v.ply})` : "No move yet.";
  const sc = $("scores");
  sc.replaceChildren();
  for (let p = 1; p <= board.players; p++) {
    const d = make("span");
    const seat = v.seats[p - 1];
    d.append(playerSpan(p), ` (${seat.player === "human" ? "person" : "computer " + seat.player})`);
    d.append(`: captured ${v.state.captured[p - 1]}`);
    if (v.state.hand[p - 1]) d.append(`, in hand ${v.state.hand[p - 1]}`);
    sc.appendChild(d);
  }
  renderRecord();
  renderTokens(myTurn() ? v.moves : []);
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

function renderActions(parts, board) {
  const a = $("actions");
  a.replaceChildren();
  if (!myTurn()) return;
  if (ui.list) {
    const moves = parts.lists.get(ui.list) || [];
    const m = mv.listMatch(moves, ui.chosen);
    a.append(make("span", { class: "hint" }, `Choose the sites (${[...ui.chosen].sort().join(", ") || "none yet"}), then confirm:`));
    const ok = m ? moveButton(m.token) : make("button", { type: "button", disabled: "" }, "no such move");
    const cancel = make("button", { type: "button" }, "Cancel");
    cancel.addEventListener("click", () => {
      resetChoice();
      render();
    });
    a.append(ok, cancel);
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

function renderRecord() {
  const rec = ui.live.record;
  const ol = $("record");
  ol.replaceChildren();
  rec.forEach((tok, i) => {
    const li = make("li", { "data-ply": String(i + 1) }, tok);
    if (i + 1 === ui.shown.ply) li.classList.add("current");
    ol.appendChild(li);
  });
  const slider = $("ply");
  slider.max = String(rec.length);
  slider.value = String(ui.shown.ply);
  $("plylabel").textContent = `${ui.shown.ply}/${rec.length}`;
  $("live").hidden = isLive();
}

async function viewPly(p) {
  if (p >= ui.live.record.length) {
    ui.shown = ui.live;
    render();
    return;
  }
  const want = ++ui.want;
  try {
    const v = await request("GET", `/api/games/${ui.id}?ply=${p}&board=0`);
    if (want !== ui.want) return;
    ui.shown = v;
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
    const mine = seatFromURL(location.href).player === p;
    if (mine) return;
    const url = `${location.origin}/g/${v.id}#player=${p}&seat=${ui.secrets[p]}`;
    box.append(make("div", { class: "hint" }, `Link for Player ${p} (send it to them; whoever has it plays that seat):`));
    box.append(make("input", { readonly: "", value: url, "data-share": String(p), "aria-label": `link for player ${p}` }));
  });
  const watch = make("div", { class: "hint" }, "To watch: ");
  watch.append(make("a", { href: `/g/${v.id}` }, "spectator link"));
  box.append(watch);
}

async function gamePage(id) {
  ui.id = id;
  $("play").hidden = false;
  const from = seatFromURL(location.href);
  if (from.seat && from.player) saveSecret(id, from.player, from.seat);
  ui.secrets = loadSecrets(id);
  const v = await request("GET", `/api/games/${id}`);
  const opening = await request("GET", `/api/games/${id}?ply=0&board=0`);
  ui.opening = Object.fromEntries(opening.state.sites.map((s) => [s.name, s.owner]));
  const names = v.variants.length ? " — " + v.variants.join(", ") : "";
  $("title").textContent = v.title + names;
  document.title = v.title + " — Matombo";
  // A wide board gets the whole width; the record goes below it. A long
  // board of holes stands upright on a narrow screen.
  const cols = new Set(v.board.sites.map((s) => s.col)).size, rows = new Set(v.board.sites.map((s) => s.row)).size;
  $("play").classList.toggle("wide", cols > 10);
  ui.long = v.board.style === "counts" && cols > 2 * rows;
  narrow.addEventListener("change", render);
  setLive(v);
  renderShare();
  $("ply").addEventListener("input", (e) => viewPly(Number(e.target.value)));
  $("live").addEventListener("click", () => viewPly(ui.live.record.length));
  $("record").addEventListener("click", (e) => {
    const li = e.target.closest("li");
    if (li) viewPly(Number(li.dataset.ply));
  });
  request("GET", `/api/catalog/${v.game}/rules`).then(
    (r) => ($("rules").innerHTML = r.html), // safe: rendered by the server, all text escaped
    () => ($("rules").textContent = "This game has no rules page."),
  );
  const es = new EventSource(`/api/games/${id}/events`);
  es.addEventListener("state", (e) => setLive(JSON.parse(e.data)));
}

async function main() {
  try {
    const m = location.pathname.match(/^\/g\/([^/]+)$/);
    if (m) await gamePage(decodeURIComponent(m[1]));
    else await home();
  } catch (e) {
    showError(e.message);
  }
}

main();
