// Small helpers for building the page.

export const $ = (id) => document.getElementById(id);

// make returns a new element with attributes and text.
export function make(tag, attrs, text) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, v);
  if (text !== undefined) e.textContent = text;
  return e;
}

// showError shows msg above everything, over the page so that nothing
// moves, with its button that takes it away; or hides both for "".
export function showError(msg) {
  const e = $("error");
  e.textContent = msg || "";
  e.hidden = !msg;
  $("error-close").hidden = !msg;
}

// playerSpan is "Player p" in the player's colour.
export function playerSpan(p) {
  return make("span", { class: "p" + p }, `Player ${p}`);
}
