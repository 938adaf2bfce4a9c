// Animates a turn from its effects (see docs/state-json.md): counters picked
// up, carried hole to hole and dropped one by one along the sowing path, a
// relay lap's new pick-up, captures flying to their owner's side, pieces
// placed and moved. It knows effects and sites, never a game.

const NS = "http://www.w3.org/2000/svg";

// Speeds: milliseconds per step (a drop, a capture, a piece moved) and the
// longest a turn may take, for the speeds the page offers.
export const speeds = {
  slow: { step: 520, turn: 20000 },
  normal: { step: 240, turn: 8000 },
  fast: { step: 90, turn: 3000 },
};

// sitesOf returns the sites an effect names.
export function sitesOf(e) {
  return [e.site, e.from, e.to].filter((s) => typeof s === "string");
}

// marksOf returns, for the effects of a turn's plies, what each site the
// turn changed is marked with: "captured" for sites counters were captured
// from, "sown" for pick-ups and drops, "moved" for pieces placed or moved
// and owners or counts set.
export function marksOf(plies) {
  const marks = new Map();
  for (const effects of plies) {
    for (const e of effects || []) {
      const word = e.kind === "capture" ? "captured" : e.kind === "take" || e.kind === "drop" ? "sown" : "moved";
      for (const s of sitesOf(e)) {
        const had = marks.get(s);
        if (had === "captured" || (had === "sown" && word === "moved")) continue;
        marks.set(s, word);
      }
    }
  }
  return marks;
}

function el(name, attrs, parent) {
  const e = document.createElementNS(NS, name);
  for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, String(v));
  if (parent) parent.appendChild(e);
  return e;
}

// A token is a group of counters in flight: a disc with their number, or
// when draw is given what draw(g) draws at 0,0 (pieces moved on a board
// of pieces, drawn as they stand on a point).
class Token {
  // lift raises the token above the point it is at, so that the hole
  // under it stays readable (a hand holding counters over a hole).
  constructor(layer, at, count, cls, lift, draw) {
    this.g = el("g", { class: "token " + (cls || "") }, layer);
    this.lift = lift || 0;
    if (draw) draw(this.g);
    else {
      el("circle", { r: 13, cx: 0, cy: 0 }, this.g);
      this.t = el("text", { x: 0, y: 5, "text-anchor": "middle" }, this.g);
    }
    this.place(at);
    this.set(count);
  }
  place(p) {
    this.p = { x: p.x, y: p.y };
    this.g.setAttribute("transform", `translate(${p.x.toFixed(1)} ${(p.y - this.lift).toFixed(1)})`);
  }
  set(count) {
    this.count = count;
    if (this.t) this.t.textContent = String(count);
  }
  remove() {
    this.g.remove();
  }
}

// Animation runs the effects of several plies on a drawn board.
export class Animation {
  // view is the Board (board.js) showing before (a state's sites); opts:
  // speed (a key of speeds), skipped() reporting whether to jump to the
  // end.
  constructor(view, before, opts) {
    this.view = view;
    this.cur = {};
    for (const s of before.sites) this.cur[s.name] = { count: s.count, owner: s.owner };
    this.opts = opts;
    this.hand = null;
  }

  // skipped reports whether to jump to the end: asked for, or past the
  // animation's deadline (a timed game's: the next clock starts then).
  skipped() {
    if (this.deadline !== undefined && performance.now() >= this.deadline) return true;
    return this.opts.skipped();
  }

  // wait waits ms, or less once skipped.
  wait(ms) {
    if (this.skipped() || ms <= 0) return Promise.resolve();
    return new Promise((resolve) => {
      const start = performance.now();
      const tick = (now) => {
        if (this.skipped() || now - start >= ms) resolve();
        else requestAnimationFrame(tick);
      };
      requestAnimationFrame(tick);
    });
  }

  // glide moves a token to p in ms.
  glide(token, p, ms) {
    const from = token.p;
    if (this.skipped() || ms <= 0) {
      token.place(p);
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      const start = performance.now();
      const tick = (now) => {
        const f = Math.min(1, (now - start) / ms);
        const ease = f < 0.5 ? 2 * f * f : 1 - (-2 * f + 2) ** 2 / 2;
        token.place({ x: from.x + (p.x - from.x) * ease, y: from.y + (p.y - from.y) * ease });
        if (f >= 1 || this.skipped()) {
          token.place(p);
          resolve();
        } else requestAnimationFrame(tick);
      };
      requestAnimationFrame(tick);
    });
  }

  show(site) {
    this.view.setSite(site, this.cur[site] || { count: 0, owner: 0 });
  }

  // steps counts the moving steps of plies, to fit a turn in its time.
  static steps(plies) {
    let n = 0;
    for (const effects of plies) for (const e of effects || []) if (["drop", "capture", "move", "place", "take"].includes(e.kind)) n++;
    return n;
  }

  // units counts the steps a turn's animation takes: a pick-up takes one
  // and a half, a drop one, a capture, a placement or a piece moved two,
  // and each ply ends with one.
  static units(plies) {
    const cost = { take: 1.5, drop: 1, capture: 2, place: 2, move: 2 };
    let n = 0;
    for (const effects of plies) {
      n += 1;
      for (const e of effects || []) n += cost[e.kind] || 0;
    }
    return n;
  }

  // run animates the plies (each a list of effects) and shows each ply's
  // state after it (afters, its sites), whatever the effects say. With
  // opts.budget (milliseconds) the whole animation fits in it: a timed
  // game's clock starts after the time the server gives a move to be
  // shown; one that cannot fit is not animated.
  async run(plies, afters) {
    const sp = speeds[this.opts.speed] || speeds.normal;
    let step = Math.max(16, Math.min(sp.step, sp.turn / Math.max(1, Animation.steps(plies))));
    const budget = this.opts.budget;
    if (budget !== undefined && budget !== null) {
      // However busy the machine (a frame late, a timer late), the
      // animation ends by then: what is left is shown at once.
      this.deadline = performance.now() + budget;
      // Each wait ends at the first frame after its time: up to a frame
      // (and more on a busy machine) of each is kept aside.
      const awaits = plies.length + Animation.steps(plies);
      const fit = (budget - 25 * awaits) / Math.max(1, Animation.units(plies));
      if (fit < 16) this.opts.skipped = () => true;
      step = Math.min(step, fit);
    }
    const layer = this.view.layer();
    for (let i = 0; i < plies.length; i++) {
      for (const e of plies[i] || []) {
        if (this.skipped()) break;
        await this.effect(e, step, layer);
      }
      if (this.hand) {
        this.hand.remove();
        this.hand = null;
      }
      if (afters[i]) {
        for (const s of afters[i].sites) this.cur[s.name] = { count: s.count, owner: s.owner };
        for (const s of afters[i].sites) this.show(s.name);
      }
      if (this.skipped()) continue;
      await this.wait(step);
    }
    layer.replaceChildren();
  }

  async effect(e, step, layer) {
    const v = this.view;
    const at = (s) => v.at(s);
    const cur = (s) => (this.cur[s] = this.cur[s] || { count: 0, owner: 0 });
    switch (e.kind) {
      case "take": {
        if (!at(e.site)) return;
        cur(e.site).count -= e.count;
        this.show(e.site);
        if (this.hand) this.hand.remove();
        this.hand = new Token(layer, at(e.site), e.count, "hand", v.r * 0.95);
        v.groups[e.site] && v.groups[e.site].classList.add("pickup");
        await this.wait(step * 1.5);
        v.groups[e.site] && v.groups[e.site].classList.remove("pickup");
        return;
      }
      case "drop": {
        if (!at(e.site)) return;
        if (this.hand) {
          await this.glide(this.hand, at(e.site), step);
          this.hand.set(Math.max(0, this.hand.count - e.count));
        }
        cur(e.site).count += e.count;
        this.show(e.site);
        if (this.hand && this.hand.count === 0) {
          this.hand.remove();
          this.hand = null;
        }
        return;
      }
      case "capture": {
        if (!at(e.site)) return;
        const t = new Token(layer, at(e.site), e.count, "captured p" + e.player);
        cur(e.site).count = Math.max(0, cur(e.site).count - e.count);
        this.show(e.site);
        await this.glide(t, v.sink(e.player), step * 2);
        t.remove();
        return;
      }
      case "place": {
        if (!at(e.site)) return;
        const t = new Token(layer, v.sink(e.player), 1, "p" + e.player);
        await this.glide(t, at(e.site), step * 2);
        t.remove();
        const c = cur(e.site);
        c.count += 1;
        c.owner = e.player;
        this.show(e.site);
        return;
      }
      case "move": {
        if (!at(e.from) || !at(e.to)) return;
        const from = cur(e.from);
        const moved = { count: from.count, owner: from.owner };
        const draw = v.L.holes || !from.count || !from.owner ? undefined : (g) => v.drawPieces(g, moved);
        const t = new Token(layer, at(e.from), from.count, "p" + from.owner + (draw ? " pieces" : ""), 0, draw);
        this.cur[e.to] = { count: from.count, owner: from.owner };
        this.cur[e.from] = { count: 0, owner: 0 };
        this.show(e.from);
        await this.glide(t, at(e.to), step * 2);
        t.remove();
        this.show(e.to);
        return;
      }
      case "owner":
        if (!at(e.site)) return;
        cur(e.site).owner = e.player;
        this.show(e.site);
        return;
      case "set":
        if (!at(e.site)) return;
        cur(e.site).count = e.count;
        this.show(e.site);
        return;
      default:
        return; // hand, captured, turn: the scores and the status line show them
    }
  }
}
