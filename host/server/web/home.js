// The front page: the games this browser plays, and the form for a new
// game. It knows the catalog the server sends, never a game.
import { request, url } from "./api.js";
import { $, make, showError } from "./dom.js";
import { said } from "./words.js";
import { forgetGame, myGames, rememberGame, saveInvite, saveSecret, seatFromURL, secretsOf, setSetting, setting } from "./local.js";
import { counted, plain, sentence, titled } from "./text.js";

// clocks are the time controls the form offers: [minutes, increment seconds].
const clocks = [[0, 0], [3, 2], [5, 0], [10, 5], [15, 10], [30, 0]];

// other is the value of the seat choice "a computer with options".
const other = "other";

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
  const current = () => games.find((g) => g.name === sel.value);
  const fill = () => fillForm(current(), cat);
  sel.addEventListener("change", fill);
  fill();
  const clock = $("ng-clock");
  for (const [m, inc] of clocks) {
    const label = m === 0 ? "No clock" : inc ? `${m} minutes + ${inc} seconds a turn` : `${m} minutes`;
    clock.appendChild(make("option", { value: `${m}+${inc}` }, label));
  }
  clock.appendChild(make("option", { value: "custom" }, "Other…"));
  clock.addEventListener("change", () => ($("ng-clock-custom").hidden = clock.value !== "custom"));
  $("newgame").addEventListener("submit", async (ev) => {
    ev.preventDefault();
    showError("");
    try {
      const req = formRequest(current());
      const v = await request("POST", "/api/games", req);
      setSetting("game", req.game);
      let go = "";
      v.seats.forEach((s, i) => {
        if (s.url) {
          saveSecret(v.id, i + 1, seatFromURL(s.url).seat);
          go = go || s.url;
        }
        if (s.invite) saveInvite(v.id, i + 1, s.invite);
      });
      rememberGame(v.id, titled(v));
      location.href = go || url("/g/" + v.id);
    } catch (e) {
      showError(said(e));
    }
  });
}

// label is a parameter's name in words: its doc without the rule points
// cited, up to a colon or a semicolon ("The board: a name under ..." is
// "The board"), else its name.
function label(p) {
  const doc = plain(p.doc || "");
  if (!doc) return sentence(p.name.replaceAll("_", " "));
  const head = doc.split(/[:;]/)[0].trim();
  return head || doc;
}

// valueText writes a parameter's value for people.
function valueText(p, v) {
  if (p.kind === "boolean") return String(v) === "true" ? "yes" : "no";
  return String(v).replaceAll("_", " ");
}

// valueSaid says parameter p at value v for the default choice: a count
// before what its label counts ("21 holes per row"), else the label and
// the value ("Where the first piece may go: anywhere").
function valueSaid(p, v) {
  const l = label(p);
  if (p.kind === "integer" && !/^(the|a|an|of)\b/i.test(l)) return counted(v, l);
  return `${l}: ${valueText(p, v)}`;
}

// defaults is each parameter's default value.
function defaults(g) {
  return Object.fromEntries(g.params.map((p) => [p.name, p.default]));
}

// noop reports whether variant v only sets parameters to their defaults.
function noop(g, v) {
  const d = defaults(g);
  return Object.entries(v.params).every(([k, x]) => String(x) === String(d[k]));
}

// variantGroups groups the variants that exclude each other: two variants
// that set a parameter to different values go in one group, shown as
// radio buttons (one choice); a variant alone is a checkbox, unless a
// variant that changes nothing names the choice it replaces (a board by
// its name). Variants that change nothing are the default choice.
export function variantGroups(g) {
  const active = g.variants.filter((v) => !noop(g, v));
  const parent = active.map((_, i) => i);
  const find = (i) => (parent[i] === i ? i : (parent[i] = find(parent[i])));
  const clash = (a, b) => Object.entries(a.params).some(([k, x]) => k in b.params && String(b.params[k]) !== String(x));
  for (let i = 0; i < active.length; i++) {
    for (let j = i + 1; j < active.length; j++) if (clash(active[i], active[j])) parent[find(j)] = find(i);
  }
  const groups = new Map();
  active.forEach((v, i) => {
    const k = find(i);
    if (!groups.has(k)) groups.set(k, []);
    groups.get(k).push(v);
  });
  return [...groups.values()].map((vs) => {
    const params = new Set(vs.flatMap((v) => Object.keys(v.params)));
    // A variant that changes nothing and sets only this group's
    // parameters names the default choice.
    const named = g.variants.find((v) => noop(g, v) && Object.keys(v.params).length && Object.keys(v.params).every((k) => params.has(k)));
    const [defaultTitle, defaultText] = defaultChoice(g, [...params], named);
    return { variants: vs, params: [...params], defaultTitle, defaultText, radio: vs.length > 1 || Boolean(named) };
  });
}

// defaultChoice is the title and words of a group's choice of no variant,
// for the group's parameters names: those of the variant named, the
// group's own variant that changes nothing; else, for counts, the counts
// ("21 holes per row"); else those of a variant that changes nothing and
// sets these parameters and more (the game's standard); else the
// parameters' defaults in words.
function defaultChoice(g, names, named) {
  if (named) return [named.title, plain(named.description)];
  const ps = g.params.filter((p) => names.includes(p.name));
  const d = defaults(g);
  const said = sentence(ps.map((p) => valueSaid(p, d[p.name])).join("; "));
  if (ps.every((p) => p.kind === "integer")) return ["Standard", said];
  const wider = g.variants.find((v) => noop(g, v) && names.every((k) => k in v.params));
  return wider ? [wider.title, plain(wider.description)] : ["Standard", said];
}

// chosenVariants lists the variants ticked in the form, in the catalog's order.
function chosenVariants(g) {
  const on = new Set([...document.querySelectorAll("#ng-variants input:checked")].map((b) => b.value).filter(Boolean));
  return g.variants.filter((v) => on.has(v.name)).map((v) => v.name);
}

// effective returns the value of each parameter of g after the variants
// chosen in the form.
function effective(g) {
  const vals = defaults(g);
  for (const name of chosenVariants(g)) Object.assign(vals, g.variants.find((x) => x.name === name).params);
  return vals;
}

// covered reports whether the variants offer every value parameter p
// allows: then the variants are its choice, and it is not shown apart.
function covered(g, p) {
  if (!p.allowed.length) return false;
  const given = new Set([String(p.default)]);
  for (const v of g.variants) if (p.name in v.params && Object.keys(v.params).length === 1) given.add(String(v.params[p.name]));
  return p.allowed.every((a) => given.has(String(a)));
}

// showValues sets the parameters the player has not changed to their
// value after the chosen variants.
function showValues(g) {
  const vals = effective(g);
  for (const c of document.querySelectorAll("[data-param]")) {
    if (c.dataset.touched) continue;
    c.value = String(vals[c.dataset.param]);
  }
}

// choice is the label of a variant's box or button: its title in bold,
// then what it means ("4 by 6 — A 4x6 board, 24 counters.").
function choice(input, title, text) {
  const l = make("label");
  l.append(input, " ", make("b", {}, title));
  if (text) l.append(" ", make("span", { class: "hint" }, "— " + text));
  return l;
}

function fillForm(g, cat) {
  if (!g) return;
  $("ng-description").textContent = plain(g.description);
  const vs = $("ng-variants");
  vs.replaceChildren(make("legend", {}, "Variants"));
  const changed = () => {
    showValues(g);
    askComputers(g, cat);
  };
  variantGroups(g).forEach((grp, n) => {
    if (!grp.radio) {
      const v = grp.variants[0];
      const l = make("label");
      const box = make("input", { type: "checkbox", name: "variant", value: v.name });
      box.addEventListener("change", changed);
      vs.appendChild(choice(box, v.title, plain(v.description)));
      return;
    }
    const byParam = g.params.filter((p) => grp.params.includes(p.name));
    const set = make("fieldset", { class: "choice", "data-group": String(n) });
    set.append(make("legend", {}, byParam.length === 1 ? label(byParam[0]) : "Choose one"));
    const radio = (value, title, text) => {
      const b = make("input", { type: "radio", name: "variant-group-" + n, value });
      if (!value) b.checked = true;
      b.addEventListener("change", changed);
      set.appendChild(choice(b, title, text));
    };
    radio("", grp.defaultTitle, grp.defaultText);
    for (const v of grp.variants) radio(v.name, v.title, plain(v.description));
    vs.appendChild(set);
  });
  vs.classList.toggle("empty", g.variants.length === 0);
  const ps = $("ng-params");
  ps.replaceChildren(make("legend", {}, "Settings"));
  const shown = g.params.filter((p) => !covered(g, p));
  for (const p of shown) {
    const l = make("label", { title: plain(p.doc) }, label(p) + " ");
    let input;
    if (p.allowed.length) {
      input = make("select", { "data-param": p.name, "data-kind": p.kind });
      for (const a of p.allowed) input.appendChild(make("option", { value: a }, valueText(p, a)));
    } else {
      input = make("input", { "data-param": p.name, "data-kind": p.kind, type: p.kind === "integer" ? "number" : "text" });
    }
    input.addEventListener("change", () => {
      input.dataset.touched = "1";
      askComputers(g, cat);
    });
    l.append(input);
    ps.appendChild(l);
  }
  ps.classList.toggle("empty", shown.length === 0);
  showValues(g);
  fillSeats(g, cat);
  askComputers(g, cat);
}

// fillSeats makes the seats' choices: a person, or a computer (filled in
// by askComputers for the configuration), and which seats this browser
// plays.
function fillSeats(g, cat) {
  computerInfo = new Map(); // what the server said was of another game
  const ss = $("ng-seats");
  ss.replaceChildren(make("legend", {}, "Seats"));
  for (let i = 1; i <= g.players; i++) {
    const l = make("label", {}, `Player ${i} `);
    const s = make("select", { "data-seat": String(i) });
    s.appendChild(make("option", { value: cat.human }, "A person"));
    // Named when the server answers for this configuration (showComputers),
    // never by the player's code name, nor as another game's were.
    for (const c of cat.computers) s.appendChild(make("option", { value: c, "data-computer": c }, "Computer: being checked…"));
    s.appendChild(make("option", { value: other }, "A computer with options…"));
    if (i > 1 && cat.computers.length) s.value = cat.computers[0];
    // How the computer is played (its spec), folded away: the choice's
    // name says it in words.
    const detail = make("details", { class: "hint spec", "data-spec": String(i), hidden: "" });
    detail.append(make("summary", {}, "Details"), make("span", { class: "spec-text" }));
    const opts = make("input", { "data-other": String(i), placeholder: "e.g. mcts:time=500ms", "aria-label": `Options of Player ${i}'s computer`, hidden: "" });
    s.addEventListener("change", () => {
      opts.hidden = s.value !== other;
      showSpec(i);
      fillHold(g);
    });
    l.append(s, " ", opts, " ", detail);
    ss.appendChild(l);
  }
  const hold = make("label", { id: "ng-hold-label" }, "You play ");
  hold.append(make("select", { id: "ng-hold" }));
  ss.appendChild(hold);
  fillHold(g);
}

// fillHold offers the persons' seats this browser may play: one of them
// (the others get invitation links), or all of them at one keyboard.
function fillHold(g) {
  const hold = $("ng-hold");
  if (!hold) return;
  const was = hold.value;
  hold.replaceChildren();
  const persons = [...document.querySelectorAll("[data-seat]")].filter((s) => s.value === "human").map((s) => Number(s.dataset.seat));
  for (const p of persons) hold.appendChild(make("option", { value: String(p) }, `Player ${p}`));
  if (persons.length > 1) hold.appendChild(make("option", { value: "all" }, `${persons.length > 2 ? "All" : "Both"} seats here (one keyboard)`));
  if (!persons.length) hold.appendChild(make("option", { value: "none" }, "No seat: watch the computers"));
  if ([...hold.options].some((o) => o.value === was)) hold.value = was;
  $("ng-hold-label").hidden = persons.length < 2 && persons.length > 0;
}

// computersAsked counts the questions for computer seats, so that only the
// latest answer is shown.
let computersAsked = 0;
let computersTimer = 0;

// askComputers asks the server which computer seats it offers for the
// configuration in the form (perfect play only where it works, decided
// before it is offered), shortly after the last change, and again while
// perfect play is being prepared.
function askComputers(g, cat, delay = 250) {
  clearTimeout(computersTimer);
  const asked = ++computersAsked;
  computersTimer = setTimeout(async () => {
    const q = new URLSearchParams();
    for (const v of chosenVariants(g)) q.append("variant", v);
    const vals = effective(g);
    for (const p of document.querySelectorAll("[data-param]")) {
      if (p.value !== "" && p.value !== String(vals[p.dataset.param])) q.append("param", `${p.dataset.param}=${p.value}`);
    }
    let ans;
    try {
      ans = await request("GET", `/api/catalog/${encodeURIComponent(g.name)}/computers?${q}`);
    } catch (e) {
      return; // the seats keep their choices; creating the game says what is wrong
    }
    if (asked !== computersAsked) return;
    showComputers(ans.computers);
    if (ans.retry_after) askComputers(g, cat, ans.retry_after * 1000);
  }, delay);
}

// computerInfo is what the server said of each computer player.
let computerInfo = new Map();

// showComputers names the computer choices of every seat, and leaves out
// (or marks as being checked) those the configuration does not offer.
function showComputers(list) {
  computerInfo = new Map(list.map((c) => [c.player, c]));
  for (const o of document.querySelectorAll("option[data-computer]")) {
    const c = computerInfo.get(o.dataset.computer);
    if (!c) continue;
    o.textContent = c.pending ? `${c.name}: being checked…` : c.name;
    o.disabled = !c.offered;
    o.hidden = !c.offered && !c.pending;
    o.title = c.why || c.spec;
    const sel = o.parentElement;
    if (sel.value === o.value && !c.offered) {
      sel.value = sel.dataset.seat === "1" ? "human" : (list.find((x) => x.offered) || { player: "human" }).player;
    }
  }
  for (const s of document.querySelectorAll("[data-seat]")) showSpec(Number(s.dataset.seat));
}

// showSpec writes, in a closed details line beside a seat's choice, how
// the computer is played (its spec), for those who want to know.
function showSpec(i) {
  const s = document.querySelector(`[data-seat="${i}"]`), d = document.querySelector(`[data-spec="${i}"]`);
  if (!s || !d) return;
  const c = computerInfo.get(s.value);
  d.querySelector(".spec-text").textContent = c && c.offered ? `Plays as ${c.spec}` : "";
  d.hidden = !(c && c.offered);
}

function formRequest(g) {
  const req = { game: g.name, variants: chosenVariants(g), params: {}, seats: [] };
  const vals = effective(g);
  for (const p of document.querySelectorAll("[data-param]")) {
    if (p.value === "" || p.value === String(vals[p.dataset.param])) continue;
    const kind = p.dataset.kind;
    req.params[p.dataset.param] = kind === "integer" ? Number(p.value) : kind === "boolean" ? p.value === "true" : p.value;
  }
  for (const s of document.querySelectorAll("[data-seat]")) {
    req.seats.push(s.value === other ? document.querySelector(`[data-other="${s.dataset.seat}"]`).value.trim() : s.value);
  }
  const persons = req.seats.map((s, i) => (s === "human" ? i + 1 : 0)).filter(Boolean);
  const hold = $("ng-hold").value;
  req.hold = hold === "all" ? persons : hold === "none" || !hold ? [] : [Number(hold)];
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

// seatLink is the page's link for the seats this browser holds of game id
// (the first one's), or the game's plain link.
function seatLink(id) {
  const held = Object.entries(secretsOf(id));
  if (!held.length) return url("/g/" + id);
  const [p, secret] = held.sort((a, b) => Number(a[0]) - Number(b[0]))[0];
  return url(`/g/${id}#player=${p}&seat=${secret}`);
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
    const a = make("a", { href: seatLink(g.id) }, g.title || g.id);
    const status = make("span", { class: "gamestatus" }, "…");
    const forget = make("button", { type: "button", class: "forget", title: "Forget this game on this browser" }, "Forget");
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
      a.textContent = titled(v);
      const mine = Object.keys(secretsOf(g.id)).map(Number);
      const [text, cls] = describe(v, mine);
      status.textContent = text;
      li.dataset.status = cls;
    } catch (e) {
      status.textContent = e.status === 404 ? "No longer on this server." : "Cannot be read now.";
      li.dataset.status = "gone";
    }
  }));
}

// describe says where a game stands for the holder of the seats mine, in
// sentences: whom it is against, then whose turn it is or how it ended
// ("Against the computer. Your turn.").
function describe(v, mine) {
  const st = v.state;
  const others = v.seats.map((s, i) => ({ s, p: i + 1 })).filter((x) => !mine.includes(x.p));
  const against = others.length === 0 ? "" : others.every((x) => x.s.player !== "human") ? "against the computer" : "against a person";
  const what = v.rematch_of ? (against ? `A rematch ${against}` : "A rematch, every seat played here")
    : against ? sentence(against) : "Every seat played here";
  const result = v.result || (st.over ? { winner: st.winner } : null);
  if (result) return [`${what}. ${resultSaid(result, mine)}.`, "over"];
  if (others.some((x) => x.s.waiting)) return [`${what}. Waiting for your opponent to open their link.`, "waiting"];
  if (mine.includes(st.to_move)) return [`${what}. Your turn.`, "yourturn"];
  return [`${what}. Player ${st.to_move} to move.`, "waiting"];
}

// resultSaid says how a game ended for the holder of the seats mine:
// "You won on time", "Player 2 won by resignation", "Drawn by agreement".
function resultSaid(r, mine) {
  if (r.method === "aborted") return "Aborted";
  if (r.method === "failed") return "Stopped: the game's rules failed";
  let text = !r.winner ? "Drawn" : mine.length === 1 ? (mine.includes(r.winner) ? "You won" : "You lost") : `Player ${r.winner} won`;
  const how = { time: "on time", resignation: "by resignation", agreement: "by agreement" }[r.method];
  if (how) text += " " + how;
  return text;
}
