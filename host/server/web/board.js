// Draws a board as SVG from the game's own board data: sites with rows and
// columns (or drawing positions), tags and lines. Nothing here knows a game.

import { siteText } from "./moves.js";

const NS = "http://www.w3.org/2000/svg";

function el(name, attrs, parent) {
  const e = document.createElementNS(NS, name);
  for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, String(v));
  if (parent) parent.appendChild(e);
  return e;
}

// layout computes the drawing position of every site. flip turns the board
// round (row 0 at the top); rotate turns it a quarter (row 0 on the left,
// columns downwards), for long boards on narrow screens. A site the board
// data places at the west or east end (end) stands beside all rows there,
// outside the columns.
function layout(board, flip, rotate) {
  const inRows = board.sites.filter((s) => !s.end);
  const rows = inRows.map((s) => s.row);
  const cols = inRows.map((s) => s.col);
  const minRow = Math.min(...rows), maxRow = Math.max(...rows);
  const minCol = Math.min(...cols), maxCol = Math.max(...cols);
  const holes = board.style === "counts";
  // A checkered board: every site a dark square of a grid, the light
  // squares between them.
  const checkered = !holes && Boolean(board.checkered);
  // Room for the names of holes off a grid: between the rows when a board
  // has inner rows, else outside.
  const yu = holes ? (board.grid || maxRow - minRow < 2 ? 64 : 84) : checkered ? 64 : 100;
  // A long board of holes turned upright on a narrow screen has its holes
  // closer together down the screen (and smaller), so that it stays
  // about a screen long.
  const compact = rotate && holes;
  let xu = compact ? 46 : 64;
  if (checkered) xu = yu;
  else if (!holes) {
    const rowSpan = Math.max(1, maxRow - minRow), colSpan = Math.max(1, maxCol - minCol);
    xu = yu * Math.min(1, Math.max(0.5, (rowSpan * 1.5) / colSpan));
  }
  const hasEnd = (e) => board.sites.some((s) => s.end === e);
  // The west end is on the left, or on the right of a board turned round.
  const left = hasEnd(flip ? "east" : "west") ? xu : 0, right = hasEnd(flip ? "west" : "east") ? xu : 0;
  // A grid of pieces (rows and columns declared) is drawn as cells, with
  // its row and column labels outside them.
  const cells = !holes && board.cells;
  const margin = holes ? 66 : cells ? 84 : checkered ? 44 : 50;
  const w = 2 * margin + (maxCol - minCol) * xu + left + right;
  const h = 2 * margin + (maxRow - minRow) * yu + (holes ? (board.grid ? 18 : 8) : 0);
  // Row 0 is at the bottom, or at the top when the board is turned round
  // for the player whose side is the north.
  const x0 = (col) => margin + left + (flip ? maxCol - col : col - minCol) * xu;
  const y0 = (row) => margin + (flip ? row - minRow : maxRow - row) * yu;
  // at places a point of the upright drawing (x, y), turned when rotate is set.
  const at = rotate ? (x, y) => ({ x: h - y, y: x }) : (x, y) => ({ x, y });
  const pos = {};
  const ends = {}; // site name -> its length along the rows
  const middle = (y0(minRow) + y0(maxRow)) / 2;
  for (const s of board.sites) {
    if (s.end === "west" || s.end === "east") {
      const west = s.end === "west";
      const x = west ? x0(minCol) + (flip ? xu : -xu) : x0(maxCol) + (flip ? -xu : xu);
      pos[s.name] = at(x, middle);
      ends[s.name] = (maxRow - minRow) * yu;
    } else {
      pos[s.name] = at(x0(s.col), y0(s.row));
    }
  }
  return {
    pos, ends, at, x0, y0, holes, cells, checkered, xu, yu, margin, minCol, maxCol, minRow, maxRow, rotate, flip, compact,
    uprightWidth: w, uprightHeight: h,
    width: rotate ? h : w,
    height: rotate ? w : h,
  };
}

// pips places up to 12 counters on a ring inside a hole of radius r,
// leaving the middle to the number.
function pips(g, x, y, r, n) {
  const m = Math.min(n, 12);
  const pr = r * 0.13;
  for (let k = 0; k < m; k++) {
    const a = -Math.PI / 2 + (k * 2 * Math.PI) / Math.max(m, 6);
    const rad = r * 0.66;
    el("circle", { class: "pip", cx: (x + rad * Math.cos(a)).toFixed(1), cy: (y + rad * Math.sin(a)).toFixed(1), r: pr.toFixed(1) }, g);
  }
}

// A Board is a drawn board: the SVG, where each site is, and what the
// animations of package animate.js change.
export class Board {
  constructor(svg, L, board, opts) {
    this.svg = svg;
    this.L = L;
    this.board = board;
    this.opts = opts;
    this.r = L.compact ? 21 : L.holes ? 27 : L.checkered ? 24 : 22;
    this.groups = {}; // site name -> <g>
    this.bodies = {}; // site name -> <g> of what changes with the state
    this.fx = null; // the layer of flying counters
  }

  // at returns the drawing position of a site.
  at(name) {
    return this.L.pos[name];
  }

  // sink is where counters captured by player go: the player's store (a
  // site tagged "store" that was the player's at the opening) when the
  // board has one, else the middle of the player's side.
  sink(player) {
    const opening = this.opts.opening || {};
    for (const s of this.board.sites) if (s.end && opening[s.name] === player) return this.at(s.name);
    for (const s of this.board.sites) if (s.tags.includes("store") && opening[s.name] === player) return this.at(s.name);
    const L = this.L;
    const south = (player === 1) !== Boolean(L.flip);
    return L.at(L.uprightWidth / 2, south ? L.uprightHeight + 10 : -10);
  }

  // setSite shows a site with count counters owned by owner.
  setSite(name, st) {
    const b = this.bodies[name];
    if (!b) return;
    b.replaceChildren();
    drawBody(b, this, this.board.sites.find((s) => s.name === name), st);
  }

  // mark sets the data-changed attribute of sites: a map of site name to
  // "sown", "captured" or another word; other sites lose it.
  mark(marks) {
    for (const [name, g] of Object.entries(this.groups)) {
      if (marks && marks.has(name)) g.setAttribute("data-changed", marks.get(name));
      else g.removeAttribute("data-changed");
    }
  }

  // drawPieces draws the pieces st (count and owner) of a board of pieces
  // into g, centred on 0,0, as they stand on a point: a piece in flight.
  drawPieces(g, st) {
    piece(g, { x: 0, y: 0 }, this.r, st);
  }

  // layer returns the layer of flying counters, above everything.
  layer() {
    if (!this.fx) this.fx = el("g", { class: "fx" }, this.svg);
    return this.fx;
  }
}

// outline draws a site's outline grown by pad: a circle, or for a site at
// an end a capsule beside all rows.
function outline(g, L, name, p, r, pad, cls) {
  const len = L.ends[name];
  if (len === undefined) return el("circle", { class: cls, cx: p.x, cy: p.y, r: r + pad }, g);
  const along = len + 2 * (r + pad), across = 2 * (r + pad);
  const wd = L.rotate ? along : across, ht = L.rotate ? across : along;
  return el("rect", { class: cls, x: p.x - wd / 2, y: p.y - ht / 2, width: wd, height: ht, rx: r + pad }, g);
}

// corner is where a site's tag mark goes: above and right of its outline.
function corner(L, name, p, r) {
  const len = L.ends[name];
  if (len === undefined) {
    const d = (r + 16) * 0.72;
    return { x: p.x + d, y: p.y - d };
  }
  const hw = L.rotate ? len / 2 + r : r, hh = L.rotate ? r : len / 2 + r;
  return { x: p.x + hw * 0.8 + 6, y: p.y - hh - 2 };
}

// drawBody draws what a site shows of its state into g.
function drawBody(g, view, site, st) {
  const p = view.at(site.name);
  const r = view.r;
  const L = view.L;
  const opts = view.opts;
  if (L.holes) {
    const cls = ["hole"];
    if (st.owner) cls.push("own" + st.owner);
    const opening = opts.opening ? opts.opening[site.name] : undefined;
    if (opening !== undefined && st.owner && st.owner !== opening) cls.push("traded" + st.owner);
    const len = L.ends[site.name];
    if (len !== undefined) {
      // A site at an end (a store): long, beside all rows.
      const along = len + 2 * r, across = 2 * r;
      const wd = L.rotate ? along : across, ht = L.rotate ? across : along;
      el("rect", { class: cls.join(" ") + " end", x: p.x - wd / 2, y: p.y - ht / 2, width: wd, height: ht, rx: r }, g);
    } else {
      el("circle", { class: cls.join(" "), cx: p.x, cy: p.y, r }, g);
    }
    pips(g, p.x, p.y, r, st.count);
    const t = el("text", { class: "count", x: p.x, y: p.y + 5, "text-anchor": "middle" }, g);
    t.textContent = String(st.count);
  } else {
    if (L.cells) el("rect", { class: "cell", x: p.x - L.xu / 2, y: p.y - L.yu / 2, width: L.xu, height: L.yu }, g);
    else if (L.checkered) el("rect", { class: "square dark", x: p.x - L.xu / 2, y: p.y - L.yu / 2, width: L.xu, height: L.yu }, g);
    else el("circle", { class: "point", cx: p.x, cy: p.y, r: 9 }, g);
    if (st.count > 0 && st.owner > 0) piece(g, p, r, st);
  }
}

// piece draws the pieces on a point: a disc in the owner's colour, or for
// a stack of several (a piece crowned by putting a second on it) a disc on
// a disc, the top one marked with a crown when there are two and with
// their number when there are more.
function piece(g, p, r, st) {
  const cls = "piece" + Math.min(st.owner, 2) + " owner" + st.owner;
  if (st.count === 1) {
    el("circle", { class: cls, cx: p.x, cy: p.y, r }, g);
    return;
  }
  const lift = r * 0.2, rr = r * 0.94;
  const stack = el("g", { class: "stack", "data-count": st.count }, g);
  el("circle", { class: cls, cx: p.x, cy: p.y + lift, r: rr }, stack);
  el("circle", { class: cls, cx: p.x, cy: p.y - lift, r: rr }, stack);
  const y = p.y - lift;
  if (st.count === 2) {
    const w = rr * 0.62, h = rr * 0.42;
    const d =
      `M${f1(p.x - w)} ${f1(y + h / 2)} l${f1(-w * 0.12)} ${f1(-h)} l${f1(w * 0.56)} ${f1(h * 0.55)} ` +
      `l${f1(w * 0.56)} ${f1(-h * 0.9)} l${f1(w * 0.56)} ${f1(h * 0.9)} l${f1(w * 0.56)} ${f1(-h * 0.55)} ` +
      `l${f1(-w * 0.12)} ${f1(h)} z`;
    el("path", { class: "crown", d }, stack);
  } else {
    const t = el("text", { class: "count", x: p.x, y: y + 5, "text-anchor": "middle" }, stack);
    t.textContent = String(st.count);
  }
}

// The shapes of the tags' marks, one per tag in the order of the board's
// tags, and the character the legend shows for each.
const tagShapes = [
  { char: "◆", path: (x, y) => `M${f1(x)} ${f1(y - 7)} l7 7 l-7 7 l-7 -7 z` },
  { char: "●", path: (x, y) => `M${f1(x - 6)} ${f1(y)} a6 6 0 1 0 12 0 a6 6 0 1 0 -12 0 z` },
  { char: "▲", path: (x, y) => `M${f1(x)} ${f1(y - 7)} l7 12 l-14 0 z` },
  { char: "■", path: (x, y) => `M${f1(x - 6)} ${f1(y - 6)} h12 v12 h-12 z` },
];

function f1(n) {
  return n.toFixed(1);
}

// tagShape is the shape of tag's mark on board.
function tagShape(board, tag) {
  const i = (board.tags || []).findIndex((x) => x.name === tag);
  return tagShapes[Math.max(i, 0) % tagShapes.length];
}

// tagChar is the character that stands for tag's mark in the legend.
export function tagChar(board, tag) {
  return tagShape(board, tag).char;
}

// tagText is what a tag means to the players: the script's doc of it, or
// its name.
export function tagText(board, tag) {
  const t = (board.tags || []).find((x) => x.name === tag);
  return t && t.doc ? t.doc : tag;
}

// describe is a site's text for screen readers and the tooltip.
function describe(L, board, site, st, opening) {
  // Said as a person would: "a1: 1 counter", "b2: empty", "c3: 2 pieces of
  // player 1".
  const n = st.count;
  const what = L.holes ? `${n} counter${n === 1 ? "" : "s"}` : !n ? "empty" : n === 1 ? `a piece of Player ${st.owner}` : `${n} pieces of Player ${st.owner}`;
  let desc = `${siteText(board, site.name)}: ${what}`;
  if (L.holes && opening !== undefined && st.owner && st.owner !== opening) desc += `, now Player ${st.owner}'s`;
  if (site.tags.length) desc += ` (${site.tags.map((t) => tagText(board, t)).join("; ")})`;
  return desc;
}

// winLine draws a line through the sites that made the result (three on a
// line) when they lie on one of the board's lines: from the first to the
// last of them in the line's order.
function winLine(svg, L, board, won) {
  if (!won || won.size < 2 || L.holes) return;
  const line = board.lines.find((l) => [...won].every((s) => l.includes(s)));
  const order = line ? line.filter((s) => won.has(s)) : null;
  if (!order) return;
  const a = L.pos[order[0]], b = L.pos[order[order.length - 1]];
  if (!a || !b) return;
  const g = el("g", { class: "winline", "data-sites": order.join(" ") }, svg);
  el("line", { x1: a.x, y1: a.y, x2: b.x, y2: b.y }, g);
}

// readsBetterUpright reports whether a board of holes reads better turned
// upright in a box width pixels wide: its holes, drawn across, would be
// smaller than 30 pixels.
export function readsBetterUpright(board, width) {
  if (board.style !== "counts" || width <= 0) return false;
  const L = layout(board, false, false);
  return (width / L.width) * 2 * 27 < 30;
}

// drawBoard draws the board of a game in state into container and returns
// the Board, with the tags the board uses in tags.
// opts: targets, selected, last, goesOn (Sets of site names: the sites
// to click, chosen, of the last move, the piece a turn goes on with), opening (site name ->
// opening owner), flip (turn the board round: row 0 at the top), rotate
// (a quarter turn: row 0 on the left), names (write every point's name),
// marks (site name -> data-changed), won (the sites that made the result),
// onSite(name) called when a target is clicked, onOther(name) when
// another site is.
export function drawBoard(container, board, state, opts) {
  const L = layout(board, opts.flip, opts.rotate);
  const svg = el("svg", { viewBox: `0 0 ${L.width.toFixed(0)} ${L.height.toFixed(0)}`, role: "group", "aria-label": "board" });
  svg.style.maxWidth = `${Math.round(L.width * 1.7)}px`; // small boards are not blown up
  const view = new Board(svg, L, board, opts);
  const sites = {};
  for (const s of state.sites) sites[s.name] = s;
  if (L.holes) {
    const fw = L.uprightWidth - 16, fh = L.uprightHeight - (board.grid ? 34 : 18);
    const corner = L.at(8, L.rotate ? 8 + fh : 8);
    el("rect", { class: "frame", x: corner.x, y: corner.y, width: L.rotate ? fh : fw, height: L.rotate ? fw : fh, rx: 26 }, svg);
    board.rows.forEach((label, r) => {
      if (r < L.minRow || r > L.maxRow) return;
      const p = L.at(22, L.y0(r));
      const t = el("text", { class: "label", x: p.x, y: p.y + 5, "text-anchor": "middle" }, svg);
      t.textContent = label;
    });
    if (board.grid) {
      for (let c = L.minCol; c <= L.maxCol; c++) {
        const p = L.at(L.x0(c), L.uprightHeight - 13);
        const t = el("text", { class: "label", x: p.x, y: p.y + 5, "text-anchor": "middle" }, svg);
        t.textContent = String(c);
      }
    }
  } else if (L.cells) {
    // Each site is a square cell (drawn with its site, so that the whole
    // cell takes a click); the lines, if any, are not drawn.
    board.rows.forEach((label, r) => {
      if (r < L.minRow || r > L.maxRow) return;
      const p = L.at(L.margin - L.xu / 2 - 22, L.y0(r));
      el("text", { class: "label", x: p.x, y: p.y + 5, "text-anchor": "middle" }, svg).textContent = label;
    });
    for (let c = L.minCol; c <= L.maxCol; c++) {
      const p = L.at(L.x0(c), L.uprightHeight - L.margin + L.yu / 2 + 22);
      el("text", { class: "label", x: p.x, y: p.y + 5, "text-anchor": "middle" }, svg).textContent = String(c);
    }
  } else if (L.checkered) {
    // The dark squares are drawn with their sites (so that the whole square
    // takes a click); the light squares fill the rest of the grid. The
    // lines, the diagonals of the squares, are not drawn.
    const fw = L.uprightWidth - 2 * (L.margin - L.xu / 2 - 10), fh = L.uprightHeight - 2 * (L.margin - L.yu / 2 - 10);
    const c = L.at(L.margin - L.xu / 2 - 10, L.margin - L.yu / 2 - 10);
    el("rect", { class: "frame checkered", x: c.x, y: c.y, width: L.rotate ? fh : fw, height: L.rotate ? fw : fh, rx: 6 }, svg);
    const taken = new Set(board.sites.filter((s) => !s.end).map((s) => `${s.row},${s.col}`));
    for (let row = L.minRow; row <= L.maxRow; row++) {
      for (let col = L.minCol; col <= L.maxCol; col++) {
        if (taken.has(`${row},${col}`)) continue;
        const q = L.at(L.x0(col), L.y0(row));
        el("rect", { class: "square light", x: q.x - L.xu / 2, y: q.y - L.yu / 2, width: L.xu, height: L.yu }, svg);
      }
    }
  } else {
    for (const line of board.lines) {
      for (let i = 0; i + 1 < line.length; i++) {
        const a = L.pos[line[i]], b = L.pos[line[i + 1]];
        if (a && b) el("line", { class: "line", x1: a.x, y1: a.y, x2: b.x, y2: b.y }, svg);
      }
    }
  }
  const tagged = new Set();
  const r = view.r;
  const marksLayer = [];
  for (const site of board.sites) {
    const p = L.pos[site.name];
    const st = sites[site.name] || { count: 0, owner: 0 };
    const classes = ["site"];
    if (opts.targets.has(site.name)) classes.push("target");
    if (opts.selected.has(site.name)) classes.push("selected");
    if (opts.last.has(site.name)) classes.push("last");
    if (opts.goesOn && opts.goesOn.has(site.name)) classes.push("goes-on");
    if (opts.won && opts.won.has(site.name)) classes.push("won");
    const g = el("g", { class: classes.join(" "), "data-site": site.name }, svg);
    if (opts.marks && opts.marks.has(site.name)) g.setAttribute("data-changed", opts.marks.get(site.name));
    view.groups[site.name] = g;
    if (opts.targets.has(site.name)) {
      g.setAttribute("tabindex", "0");
      g.setAttribute("role", "button");
    }
    outline(g, L, site.name, p, r, 9, "mark");
    const body = el("g", { class: "body" }, g);
    view.bodies[site.name] = body;
    drawBody(body, view, site, st);
    // Names that are not row and column: beside each hole on the side away
    // from the middle of the board (under the south rows, over the north
    // ones, and outwards on a board turned upright), and beside each point
    // on request.
    if ((L.holes && !board.grid) || (!L.holes && opts.names)) {
      const outward = L.flip ? site.row > (L.minRow + L.maxRow) / 2 : site.row <= (L.minRow + L.maxRow) / 2;
      // On a checkered board the name goes in its square's top left corner.
      const q = L.holes
        ? L.at(L.x0(site.col), L.y0(site.row) + (outward ? r + 22 : -(r + 12)))
        : L.checkered
          ? { x: p.x - L.xu / 2 + 3, y: p.y - L.yu / 2 + 12 }
          : { x: p.x + r + 6, y: p.y + r + 10 };
      const n = el("text", { class: "label name" + (L.checkered ? " onsquare" : ""), x: q.x, y: q.y, "text-anchor": L.holes ? "middle" : "start" }, g);
      n.textContent = siteText(board, site.name);
    }
    outline(g, L, site.name, p, r, 4, "ring");
    const desc = describe(L, board, site, st, opts.opening ? opts.opening[site.name] : undefined);
    el("title", {}, g).textContent = desc;
    g.setAttribute("aria-label", desc);
    if (site.tags.length) {
      for (const t of site.tags) tagged.add(t);
      marksLayer.push(site);
    }
  }
  // Tag marks go above the rings, outside them, so that no ring hides one.
  const tags = el("g", { class: "tags" }, svg);
  for (const site of marksLayer) {
    // A mark per tag, each tag its own shape, in the order of the board's
    // tags: the first above and right of the site, the next ones beside it
    // towards the site's middle.
    const c = corner(L, site.name, L.pos[site.name], r);
    const order = (board.tags || []).map((x) => x.name).filter((t) => site.tags.includes(t));
    order.slice(0, 3).forEach((t, k) => {
      const m = el("path", { class: "tagmark", "data-tag": t, d: tagShape(board, t).path(c.x - 16 * k, c.y) }, tags);
      el("title", {}, m).textContent = `${site.name}: ${tagText(board, t)}`;
    });
  }
  winLine(svg, L, board, opts.won);
  svg.addEventListener("click", (ev) => {
    const g = ev.target.closest(".site.target");
    if (g) return opts.onSite(g.dataset.site);
    const other = ev.target.closest(".site");
    if (other && opts.onOther) opts.onOther(other.dataset.site);
  });
  svg.addEventListener("keydown", (ev) => {
    const g = ev.target.closest(".site.target");
    if (g && (ev.key === "Enter" || ev.key === " ")) {
      ev.preventDefault();
      opts.onSite(g.dataset.site);
    }
  });
  const refocus = focusWanted(container);
  // The board holds the focus (tabindex -1: not a stop of Tab) when it has
  // no site to click, so that it can give it back at the next turn.
  svg.setAttribute("tabindex", "-1");
  svg.addEventListener("focusout", (ev) => {
    // Focus taken elsewhere (not lost with the board drawn again): forget it.
    if (!ev.relatedTarget && svg.isConnected && ev.target.isConnected) delete container.dataset.focus;
  });
  container.replaceChildren(svg);
  if (refocus) restoreFocus(container, svg);
  view.tags = [...tagged];
  return view;
}

// focusWanted reports whether the keyboard's focus is on the board drawn in
// container, or was lost when it was drawn last (an element removed takes
// the focus with it), and remembers the site it is on in
// container.dataset.focus. The focus elsewhere makes it forget.
function focusWanted(container) {
  const a = document.activeElement;
  if (a && container.contains(a)) {
    const g = a.closest(".site");
    if (g) container.dataset.focus = g.dataset.site;
    else if (container.dataset.focus === undefined) container.dataset.focus = "";
    return true;
  }
  if (!a || a === document.body) return container.dataset.focus !== undefined;
  delete container.dataset.focus;
  return false;
}

// restoreFocus puts the focus back on the board drawn again: on the same
// site when it is still one to click, else on the first site to click,
// else on the board itself, keeping the site for a later drawing.
function restoreFocus(container, svg) {
  const name = container.dataset.focus;
  const same = name ? svg.querySelector(`.site.target[data-site="${CSS.escape(name)}"]`) : null;
  const to = same || svg.querySelector(".site.target") || svg;
  to.focus({ preventScroll: true });
}
