// Draws a board as SVG from the game's own board data: sites with rows and
// columns (or drawing positions), tags and lines. Nothing here knows a game.

const NS = "http://www.w3.org/2000/svg";

function el(name, attrs, parent) {
  const e = document.createElementNS(NS, name);
  for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, String(v));
  if (parent) parent.appendChild(e);
  return e;
}

// layout computes the drawing position of every site. flip turns the board
// round (row 0 at the top); rotate turns it a quarter (row 0 on the left,
// columns downwards), for long boards on narrow screens.
function layout(board, flip, rotate) {
  const rows = board.sites.map((s) => s.row);
  const cols = board.sites.map((s) => s.col);
  const minRow = Math.min(...rows), maxRow = Math.max(...rows);
  const minCol = Math.min(...cols), maxCol = Math.max(...cols);
  const holes = board.style === "counts";
  const yu = holes ? (board.grid ? 64 : 84) : 100; // room for the names of holes off a grid
  let xu = 64;
  if (!holes) {
    const rowSpan = Math.max(1, maxRow - minRow), colSpan = Math.max(1, maxCol - minCol);
    xu = yu * Math.min(1, Math.max(0.5, (rowSpan * 1.5) / colSpan));
  }
  // A grid of pieces (rows and columns declared) is drawn as cells, with its row and
  // column labels outside them.
  const cells = !holes && board.cells;
  const margin = holes ? 66 : cells ? 84 : 50;
  const w = 2 * margin + (maxCol - minCol) * xu;
  const h = 2 * margin + (maxRow - minRow) * yu + (holes ? 18 : 0) + (holes && !board.grid ? 8 : 0);
  // Row 0 is at the bottom, or at the top when the board is turned round
  // for the player whose side is the north.
  const x0 = (col) => margin + (flip ? maxCol - col : col - minCol) * xu;
  const y0 = (row) => margin + (flip ? row - minRow : maxRow - row) * yu;
  // at places a point of the upright drawing (x, y), turned when rotate is set.
  const at = rotate ? (x, y) => ({ x: h - y, y: x }) : (x, y) => ({ x, y });
  const pos = {};
  for (const s of board.sites) pos[s.name] = at(x0(s.col), y0(s.row));
  return {
    pos, at, x0, y0, holes, cells, xu, yu, margin, minCol, maxCol, minRow, maxRow, rotate,
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

// drawBoard draws the board of view (a game JSON) into container.
// opts: targets, selected, last (Sets of site names), opening (site name ->
// opening owner), flip (turn the board round: row 0 at the top), rotate
// (a quarter turn: row 0 on the left), onSite(name) called when a target is
// clicked.
export function drawBoard(container, board, state, opts) {
  const L = layout(board, opts.flip, opts.rotate);
  const svg = el("svg", { viewBox: `0 0 ${L.width.toFixed(0)} ${L.height.toFixed(0)}`, role: "group", "aria-label": "board" });
  svg.style.maxWidth = `${Math.round(L.width * 1.7)}px`; // small boards are not blown up
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
  } else {
    for (const line of board.lines) {
      for (let i = 0; i + 1 < line.length; i++) {
        const a = L.pos[line[i]], b = L.pos[line[i + 1]];
        if (a && b) el("line", { class: "line", x1: a.x, y1: a.y, x2: b.x, y2: b.y }, svg);
      }
    }
  }
  const tagged = new Set();
  const r = L.holes ? 27 : 22;
  for (const site of board.sites) {
    const p = L.pos[site.name];
    const st = sites[site.name] || { count: 0, owner: 0 };
    const classes = ["site"];
    if (opts.targets.has(site.name)) classes.push("target");
    if (opts.selected.has(site.name)) classes.push("selected");
    if (opts.last.has(site.name)) classes.push("last");
    const g = el("g", { class: classes.join(" "), "data-site": site.name }, svg);
    let desc = `${site.name}: ${st.count} ${L.holes ? "counters" : st.count ? "piece of player " + st.owner : "empty"}`;
    if (opts.targets.has(site.name)) {
      g.setAttribute("tabindex", "0");
      g.setAttribute("role", "button");
    }
    if (L.holes) {
      const cls = ["hole"];
      if (st.owner) cls.push("own" + st.owner);
      const opening = opts.opening ? opts.opening[site.name] : undefined;
      if (opening !== undefined && st.owner && st.owner !== opening) {
        cls.push("traded" + st.owner);
        desc += `, now player ${st.owner}'s`;
      }
      el("circle", { class: cls.join(" "), cx: p.x, cy: p.y, r }, g);
      pips(g, p.x, p.y, r, st.count);
      const t = el("text", { class: "count", x: p.x, y: p.y + 5, "text-anchor": "middle" }, g);
      t.textContent = String(st.count);
      if (!board.grid) {
        // Names that are not row and column: write each under its hole.
        const n = el("text", { class: "label name", x: p.x, y: p.y + r + 22, "text-anchor": "middle" }, g);
        n.textContent = site.name;
      }
    } else {
      if (L.cells) el("rect", { class: "cell", x: p.x - L.xu / 2, y: p.y - L.yu / 2, width: L.xu, height: L.yu }, g);
      else el("circle", { class: "point", cx: p.x, cy: p.y, r: 9 }, g);
      if (st.count > 0 && st.owner > 0) {
        el("circle", { class: "piece" + Math.min(st.owner, 2) + " owner" + st.owner, cx: p.x, cy: p.y, r }, g);
        if (st.count > 1) {
          const t = el("text", { class: "count", x: p.x, y: p.y + 5, "text-anchor": "middle" }, g);
          t.textContent = String(st.count);
        }
      }
    }
    if (site.tags.length) {
      for (const t of site.tags) tagged.add(t);
      const m = el("path", { class: "tagmark", d: `M${p.x + r * 0.7} ${p.y - r * 1.05} l6 6 l-6 6 l-6 -6 z` }, g);
      el("title", {}, m).textContent = site.tags.join(", ");
      desc += ` (${site.tags.join(", ")})`;
    }
    el("circle", { class: "ring", cx: p.x, cy: p.y, r: r + 4 }, g);
    el("title", {}, g).textContent = desc;
    g.setAttribute("aria-label", desc);
  }
  svg.addEventListener("click", (ev) => {
    const g = ev.target.closest(".site.target");
    if (g) opts.onSite(g.dataset.site);
  });
  svg.addEventListener("keydown", (ev) => {
    const g = ev.target.closest(".site.target");
    if (g && (ev.key === "Enter" || ev.key === " ")) {
      ev.preventDefault();
      opts.onSite(g.dataset.site);
    }
  });
  container.replaceChildren(svg);
  return [...tagged];
}
