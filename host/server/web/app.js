// The Matombo page: the front page (the games this browser plays, a form
// for a new game) and the game page. It draws any game from the data the
// server sends and names no game.
import { showError } from "./dom.js";
import { gamePage } from "./game.js";
import { home } from "./home.js";

async function main() {
  try {
    const m = location.pathname.match(/^\/g\/([^/]+)$/);
    if (m) await gamePage(decodeURIComponent(m[1]));
    else await home();
  } catch (e) {
    showError(e.message);
  }
}

main();
