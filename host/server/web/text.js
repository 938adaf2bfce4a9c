// Text written for rule authors, made fit for players: the citations of a
// rules page's points ("(T12, N = 6)", "K7: ...") and code quotes are left
// out; the rules page itself is a click away.

const point = /\b[A-Z][1-9][0-9]?\b/;

// plain returns text without its citations of rule points.
export function plain(text) {
  let t = String(text || "");
  // A parenthesis that cites a point: "(G6, G7)", "(T12, N = 6)".
  for (let before = ""; before !== t; ) {
    before = t;
    t = t.replace(/\s*\(([^()]*)\)/g, (m, inner) => (point.test(inner) ? "" : m));
  }
  // A leading citation: "K7: three seeds per pit".
  t = t.replace(/^\s*[A-Z][1-9][0-9]?(?:[-–][A-Z]?[1-9][0-9]?)?\s*:\s*/, "");
  // Code: a setting ("`trading: false`") goes, a name stays, unquoted.
  t = t.replace(/`([^`]*)`/g, (m, code) => (/[:=]/.test(code) ? "" : code));
  t = t.replace(/\s+([,.;])/g, "$1").replace(/\s{2,}/g, " ").trim();
  return sentence(t);
}

// sentence returns text with a capital first letter.
export function sentence(text) {
  const t = String(text || "");
  return t.charAt(0).toUpperCase() + t.slice(1);
}

// lowerFirst returns text with a small first letter, unless the word
// starts with two capitals (a name written so, "FMJD").
export function lowerFirst(text) {
  const t = String(text || "");
  return /^\p{Lu}\p{Lu}/u.test(t) ? t : t.charAt(0).toLowerCase() + t.slice(1);
}

// titled is a game's title with its variants in a player's words (the
// server's variant_titles): "Title — 4 by 8 · One bonus capture".
export function titled(v) {
  const names = (v && v.variant_titles) || [];
  return names.length ? `${v.title} — ${names.join(" · ")}` : String((v && v.title) || "");
}

// counted says n of what a label counts, the count agreeing with it: n
// before the label, whose first noun (the word before its first little
// word: "per", "after", "in", ...) is said in the singular for 1 ("21
// holes per row", "1 bonus capture after a capture", "1 seed").
export function counted(n, label) {
  const words = lowerFirst(label).split(" ");
  if (Number(n) === 1) {
    const little = /^(per|after|before|in|on|of|for|to|at|by|from|with|into|each|a|an|the|and|or)$/i;
    let i = words.findIndex((w, k) => k > 0 && little.test(w));
    i = (i < 0 ? words.length : i) - 1;
    words[i] = singular(words[i]);
  }
  return `${n} ${words.join(" ")}`;
}

// singular is an English plural noun in the singular ("holes" "hole",
// "counties" "county", "boxes" "box"); a word that is not one plainly
// ("bonus", "glass") stays as it is.
function singular(w) {
  if (/[^aeiou]ies$/i.test(w)) return w.slice(0, -3) + "y";
  if (/(ch|sh|x|ss|zz)es$/i.test(w)) return w.slice(0, -2);
  if (/[^su]s$/i.test(w)) return w.slice(0, -1);
  return w;
}
