// The front page: the games this browser plays, and the form for a new
// game. It knows the catalog the server sends, never a game.
import { request } from "./api.js";
import { $, make, showError } from "./dom.js";
import { forgetGame, myGames, rememberGame, saveSecret, seatFromURL, secretsOf, setSetting, setting } from "./local.js";
import { plain } from "./text.js";

// clocks are the time controls the form offers: [minutes, increment seconds].
const clocks = [[0, 0], [3, 2], [5, 0], [10, 5], [15, 10], [30, 0]];

export async function home() {
  $("home").hidden = false;
  $("title").textContent = "";
  const cat = await request("GET", "/api/catalog");
  listMyGames();
  const sel = $("ng-game");
  const games = cat.games.filter((g) => !g.error);
  for (const g of games) sel.appendChild(make("option", { value: g.name }, g.title));
  const last = setting("game", "");
  sel.value = games.some((g) => g.name === last) ? last : cat.default;
  const fill = () => fillForm(games.find((g) => g.name === sel.value), cat);
  sel.addEventListener("change", fill);
  fill();
  const clock = $("ng-clock");
  for (const [m, inc] of clocks) {
    const label = m === 0 ? "no clock" : inc ? `${m} minutes + ${inc} seconds a turn` : `${m} minutes`;
    clock.appendChild(make("option", { value: `${m}+${inc}` }, label));
  }
  clock.appendChild(make("option", { value: "custom" }, "other…"));
  clock.addEventListener("change", () => ($("ng-clock-custom").hidden = clock.value !== "custom"));
  $("newgame").addEventListener("submit", async (ev) => {
    ev.preventDefault();
    showError("");
    try {
      const req = formRequest(games.find((g) => g.name === sel.value));
      const v = await request("POST", "/api/games", req);
      setSetting("game", req.game);
      let go = "/g/" + v.id;
      v.seats.forEach((s, i) => {
        if (!s.url) return;
        saveSecret(v.id, i + 1, seatFromURL(s.url).seat);
        if (go === "/g/" + v.id) go = s.url;
      });
      rememberGame(v.id, v.title);
      location.href = go;
    } catch (e) {
      showError(e.message);
    }
  });
}

// effective returns the value of each parameter of g after the variants
// ticked in the form.
function effective(g) {
  const vals = {};
  for (const p of g.params) vals[p.name] = p.default;
  for (const b of document.querySelectorAll("#ng-variants input:checked")) {
    const v = g.variants.find((x) => x.name === b.value);
    if (v) Object.assign(vals, v.params);
  }
  return vals;
}

// showValues sets the parameters the player has not changed to their
// value after the ticked variants.
function showValues(g) {
  const vals = effective(g);
  for (const c of document.querySelectorAll("[data-param]")) {
    if (c.dataset.touched) continue;
    c.value = String(vals[c.dataset.param]);
  }
}

function fillForm(g, cat) {
  if (!g) return;
  $("ng-description").textContent = plain(g.description);
  const vs = $("ng-variants");
  vs.replaceChildren(make("legend", {}, "Variants"));
  for (const v of g.variants) {
    const l = make("label");
    const box = make("input", { type: "checkbox", name: "variant", value: v.name });
    box.addEventListener("change", () => showValues(g));
    const text = plain(v.description);
    l.append(box, " ", make("b", {}, v.name));
    if (text) l.append(" ", make("span", { class: "hint" }, text));
    vs.appendChild(l);
  }
  vs.classList.toggle("empty", g.variants.length === 0);
  const ps = $("ng-params");
  ps.replaceChildren(make("legend", {}, "Settings"));
  for (const p of g.params) {
    const doc = plain(p.doc);
    const l = make("label", { title: doc }, p.name + " ");
    let input;
    if (p.allowed.length) {
      input = make("select", { "data-param": p.name, "data-kind": p.kind });
      for (const a of p.allowed) input.appendChild(make("option", { value: a }, p.kind === "boolean" ? (a === "true" ? "yes" : "no") : a));
    } else {
      input = make("input", { "data-param": p.name, "data-kind": p.kind, type: p.kind === "integer" ? "number" : "text" });
    }
    input.addEventListener("change", () => (input.dataset.touched = "1"));
    l.append(input);
    ps.appendChild(l);
  }
  ps.classList.toggle("empty", g.params.length === 0);
  showValues(g);
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

function formRequest(g) {
  const req = { game: g.name, variants: [], params: {}, seats: [] };
  for (const b of document.querySelectorAll("#ng-variants input:checked")) req.variants.push(b.value);
  const vals = effective(g);
  for (const p of document.querySelectorAll("[data-param]")) {
    if (p.value === "" || p.value === String(vals[p.dataset.param])) continue;
    const kind = p.dataset.kind;
    req.params[p.dataset.param] = kind === "integer" ? Number(p.value) : kind === "boolean" ? p.value === "true" : p.value;
  }
  for (const s of document.querySelectorAll("[data-seat]")) {
    req.seats.push(s.value === "other" ? document.querySelector(`[data-other="${s.dataset.seat}"]`).value.trim() : s.value);
  }
  const c = $("ng-clock").value;
  let minutes = 0, inc = 0;
  if (c === "custom") {
    minutes = Number($("ng-minutes").value);
    inc = Number($("ng-increment").value);
  } else {
    [minutes, inc] = c.split("+").map(Number);
  }
  if (minutes > 0) req.clock = { initial: Math.round(minutes * 60 * 10) / 10, increment: inc };
  return req;
}

// listMyGames shows the games this browser holds seats of, with whose
// turn it is.
async function listMyGames() {
  const games = myGames().slice(0, 20);
  const box = $("mygames");
  if (!games.length) return;
  box.hidden = false;
  const ul = $("mygames-list");
  ul.replaceChildren();
  const rows = games.map((g) => {
    const li = make("li", { "data-game": g.id });
    const a = make("a", { href: "/g/" + g.id }, g.title || g.id);
    const status = make("span", { class: "gamestatus" }, "…");
    const forget = make("button", { type: "button", class: "forget", title: "forget this game on this browser" }, "forget");
    forget.addEventListener("click", () => {
      forgetGame(g.id);
      li.remove();
      if (!ul.children.length) box.hidden = true;
    });
    li.append(a, " ", status, " ", forget);
    ul.appendChild(li);
    return { g, li, a, status };
  });
  await Promise.all(rows.map(async ({ g, li, a, status }) => {
    try {
      const v = await request("GET", `/api/games/${g.id}?board=0`);
      a.textContent = v.title + (v.variants.length ? " — " + v.variants.join(", ") : "");
      const mine = Object.keys(secretsOf(g.id)).map(Number);
      const [text, cls] = describe(v, mine);
      status.textContent = text;
      li.dataset.status = cls;
    } catch (e) {
      status.textContent = e.status === 404 ? "no longer on this server" : "cannot be read now";
      li.dataset.status = "gone";
    }
  }));
}

// describe says where a game stands for the holder of the seats mine.
function describe(v, mine) {
  const st = v.state;
  const others = v.seats.map((s, i) => ({ s, p: i + 1 })).filter((x) => !mine.includes(x.p));
  const against = others.length === 0 ? "both seats here" : others.every((x) => x.s.player !== "human")
    ? "against the computer" : "against a person";
  const what = v.rematch_of ? `${against}, a rematch` : against;
  const result = v.result || (st.over ? { winner: st.winner } : null);
  if (result) {
    let text = result.winner ? (mine.length === 1 ? (mine.includes(result.winner) ? "you won" : "you lost") : `Player ${result.winner} won`) : "a draw";
    if (result.method === "time") text += " on time";
    return [`${what}, over: ${text}`, "over"];
  }
  if (mine.includes(st.to_move)) return [`${what}: your turn`, "yourturn"];
  return [`${what}: Player ${st.to_move} to move`, "waiting"];
}
