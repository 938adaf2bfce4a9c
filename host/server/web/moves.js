// Turns a state's legal moves into what a person does on the page: a click
// on one site, clicks on several sites in order (from, to), a choice of
// several sites (a list), or a button for a decision that names no site.
// It works from the move kinds' token templates only.
import { sentence } from "./text.js";

// classify splits moves by how they are chosen.
export function classify(moves, kinds) {
  const arity = new Map(kinds.map((k) => [k.name, k.sites]));
  const out = { buttons: [], fixed: [], lists: new Map() };
  for (const m of moves) {
    const n = arity.has(m.kind) ? arity.get(m.kind) : m.sites.length;
    if (n === -1) {
      if (!out.lists.has(m.kind)) out.lists.set(m.kind, []);
      out.lists.get(m.kind).push(m);
    } else if (m.sites.length === 0) {
      out.buttons.push(m);
    } else {
      out.fixed.push(m);
    }
  }
  return out;
}

function startsWith(sites, sel) {
  if (sites.length < sel.length) return false;
  return sel.every((s, i) => sites[i] === s);
}

// nextSites is the set of sites that may be clicked after the selection sel.
export function nextSites(fixed, sel) {
  const out = new Set();
  for (const m of fixed) {
    if (m.sites.length > sel.length && startsWith(m.sites, sel)) out.add(m.sites[sel.length]);
  }
  return out;
}

// completed lists the moves whose sites are exactly sel.
export function completed(fixed, sel) {
  return fixed.filter((m) => m.sites.length === sel.length && startsWith(m.sites, sel));
}

// extendable reports whether some move names more sites after sel.
export function extendable(fixed, sel) {
  return fixed.some((m) => m.sites.length > sel.length && startsWith(m.sites, sel));
}

// click works out what a click on site does after selection sel: play a
// move ({play}), or keep a selection and offer a choice ({sel, choices}).
export function click(fixed, sel, site) {
  let next = [...sel, site];
  if (!nextSites(fixed, sel).has(site)) next = [site];
  const done = completed(fixed, next);
  const more = extendable(fixed, next);
  if (done.length === 1 && !more) return { play: done[0].token };
  if (done.length === 0 && !more) return { sel: [], choices: [] };
  return { sel: next, choices: done };
}

// listMatch returns the move of a list kind whose sites are exactly the
// chosen set, or null.
export function listMatch(moves, chosen) {
  for (const m of moves) {
    if (m.sites.length === chosen.size && m.sites.every((s) => chosen.has(s))) return m;
  }
  return null;
}

// listSites is every site named by some move of a list kind.
export function listSites(moves) {
  const out = new Set();
  for (const m of moves) for (const s of m.sites) out.add(s);
  return out;
}

// label is a short text for a kind's button: its template without
// placeholders.
export function kindLabel(kind) {
  const t = kind.template.replace(/\{[^}]*\}/g, "").replace(/[:,-]+$/, "");
  return t || kind.name;
}

// whyNot says why the chosen sites are no move of a list kind: a site no
// such move names, too few sites, or sites that go together in none.
export function whyNot(moves, chosen) {
  const all = listSites(moves);
  const stray = [...chosen].filter((s) => !all.has(s)).sort();
  if (stray.length) return `${stray.join(", ")} ${stray.length === 1 ? "is" : "are"} in no such move`;
  const wider = moves.filter((m) => [...chosen].every((s) => m.sites.includes(s)));
  if (wider.length) {
    const need = Math.min(...wider.map((m) => m.sites.length)) - chosen.size;
    return `choose ${need} more site${need === 1 ? "" : "s"}: no such move names exactly these`;
  }
  const fewer = moves.filter((m) => m.sites.every((s) => chosen.has(s)));
  if (fewer.length) {
    const drop = chosen.size - Math.max(...fewer.map((m) => m.sites.length));
    return `too many sites: leave out ${drop}`;
  }
  return "no such move names these sites together";
}

// noun names a board's sites for people: holes, squares (of a
// checkerboard), cells or points.
export function noun(board) {
  if (board.style === "counts") return { one: "hole", many: "holes" };
  if (board.checkered) return { one: "square", many: "squares" };
  return board.cells ? { one: "cell", many: "cells" } : { one: "point", many: "points" };
}

// numbered reports whether the board's moves write its sites by number
// (a kind's template with {#...}: 11-15 for the squares c11 and e15, as
// players of a board numbered square by square write them): the page then
// names its sites by number too.
export function numbered(board) {
  return Boolean(board && board.kinds && board.kinds.some((k) => /\{#/.test(k.template || "")));
}

// siteText names a site for people: by its number on a numbered board
// (the digits of its name, 11 for c11), else by its name.
export function siteText(board, name) {
  if (!numbered(board)) return name;
  const m = /^\D*(\d+)$/.exec(name);
  return m ? String(Number(m[1])) : name;
}

// listText writes names as "a1", "a1 and a2", "a1, a2 and a3".
function listText(names) {
  if (names.length <= 1) return names.join("");
  return names.slice(0, -1).join(", ") + " and " + names[names.length - 1];
}


// moveText says a move in words, from its kind's doc ("Offer {sites}"
// gives "Offer hole a3", "Sow from {1}" gives "Sow from d8"), or from the
// kind's name and the sites when the script gives no doc ("Move a1 to
// b2", "Continue").
export function moveText(m, kind, board) {
  const sites = (m.sites || []).map((s) => siteText(board, s));
  const n = noun(board);
  if (kind && kind.doc) {
    return kind.doc.replace(/\{#?(\w+)\}/g, (all, ph) => {
      if (ph === "sites") return `${sites.length === 1 ? n.one : n.many} ${listText(sites)}`;
      if (ph === "from") return sites[0] || "";
      if (ph === "to") return sites[1] || "";
      return sites[Number(ph) - 1] || "";
    });
  }
  const name = sentence(kind ? kind.name : m.kind || m.token);
  if (sites.length === 2 && kind && kind.sites === 2) return `${name} ${sites[0]} to ${sites[1]}`;
  return sites.length ? `${name} ${listText(sites)}` : name;
}

// kindText names the choice of a list kind in words: its doc without its
// sites ("Offer {sites}" gives "Offer holes"), else kindLabel.
export function kindText(kind, board) {
  if (kind && kind.doc) return kind.doc.replace(/\{sites\}/g, noun(board).many).replace(/\s*\{#?\w+\}/g, "").trim();
  return sentence(kindLabel(kind));
}
