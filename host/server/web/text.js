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
