// The Matombo page: the front page (the games this browser plays, a form
// for a new game) and the game page. It draws any game from the data the
// server sends and names no game.
import { localPath } from "./api.js";
import { $, showError } from "./dom.js";
import { said } from "./words.js";
import { gamePage } from "./game.js";
import { home } from "./home.js";

async function main() {
  // What went wrong goes away at its button's click, or at Escape, which
  // then does nothing else (a second Escape drops a selection). The
  // keyboard goes back where it was before it went to the button.
  let before = null;
  document.addEventListener("focusin", (e) => {
    if (!$("error").parentElement.contains(e.target)) before = e.target;
  });
  const dismiss = () => {
    const onButton = document.activeElement === $("error-close");
    showError("");
    if (onButton && before && before.isConnected) before.focus();
  };
  $("error-close").addEventListener("click", dismiss);
  document.addEventListener("keydown", (e) => {
    if (e.key !== "Escape" || $("error").hidden) return;
    e.stopImmediatePropagation();
    dismiss();
  });
  // A seat link or an invitation differs from the page's address only
  // after #: opening one in this tab loads the page again for it.
  window.addEventListener("hashchange", () => location.reload());
  try {
    const m = localPath().match(/^\/g\/([^/]+)$/);
    if (m) await gamePage(decodeURIComponent(m[1]));
    else await home();
  } catch (e) {
    showError(said(e));
  }
}

main();
