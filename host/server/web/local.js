// What this browser keeps: the seats it holds (their secrets), the games it
// plays, and the page's settings. Nothing leaves the browser but the
// secrets sent with moves.

const prefix = "matombo:";

function read(key, fallback) {
  try {
    const v = localStorage.getItem(prefix + key);
    return v === null ? fallback : JSON.parse(v);
  } catch (e) {
    return fallback;
  }
}

function write(key, value) {
  try {
    localStorage.setItem(prefix + key, JSON.stringify(value));
  } catch (e) {
    // private browsing or full storage: the link in the address bar still works
  }
}

// secretsOf returns the seats of game id this browser holds: player
// number -> secret.
export function secretsOf(id) {
  const s = read(id, {});
  return s && typeof s === "object" ? s : {};
}

// saveSecret remembers that this browser holds player's seat of game id.
export function saveSecret(id, player, secret) {
  const s = secretsOf(id);
  s[player] = secret;
  write(id, s);
}

// seatFromURL reads a seat link's player and secret, or an invitation's
// player and invitation secret (after #).
export function seatFromURL(url) {
  const hash = new URL(url, location.href).hash.slice(1);
  const q = new URLSearchParams(hash);
  return { seat: q.get("seat"), invite: q.get("invite"), player: Number(q.get("player")) };
}

// invitesOf returns the invitation links of game id this browser made:
// player number -> link, for the seats that wait for their person.
export function invitesOf(id) {
  const s = read("invites:" + id, {});
  return s && typeof s === "object" ? s : {};
}

// saveInvite keeps the invitation link of player's seat of game id.
export function saveInvite(id, player, link) {
  const s = invitesOf(id);
  s[player] = link;
  write("invites:" + id, s);
}

// orientation returns whether this browser shows game id turned round
// (row 0 at the top), or null when it has not chosen.
export function orientation(id) {
  const v = read("flip:" + id, null);
  return typeof v === "boolean" ? v : null;
}

// setOrientation keeps how this browser shows game id.
export function setOrientation(id, flip) {
  write("flip:" + id, Boolean(flip));
}

const gamesKey = "games";
const maxGames = 50;

// myGames lists the games this browser holds a seat of, the most recently
// seen first: {id, title, seen}.
export function myGames() {
  const list = read(gamesKey, []);
  const known = new Set(Array.isArray(list) ? list.map((g) => g.id) : []);
  const out = Array.isArray(list) ? list.filter((g) => g && typeof g.id === "string") : [];
  // Seats kept before the list existed.
  try {
    for (let i = 0; i < localStorage.length; i++) {
      const k = localStorage.key(i);
      if (!k.startsWith(prefix)) continue;
      const id = k.slice(prefix.length);
      if (/^[0-9a-f]{16}$/.test(id) && !known.has(id)) out.push({ id, title: "", seen: 0 });
    }
  } catch (e) {
    // no storage
  }
  return out.sort((a, b) => (b.seen || 0) - (a.seen || 0));
}

// rememberGame puts game id first in the list of this browser's games.
export function rememberGame(id, title) {
  const list = myGames().filter((g) => g.id !== id);
  list.unshift({ id, title, seen: Date.now() });
  write(gamesKey, list.slice(0, maxGames));
}

// forgetGame drops game id and its seats from this browser.
export function forgetGame(id) {
  write(gamesKey, myGames().filter((g) => g.id !== id));
  try {
    localStorage.removeItem(prefix + id);
    localStorage.removeItem(prefix + "invites:" + id);
    localStorage.removeItem(prefix + "flip:" + id);
  } catch (e) {
    // no storage
  }
}

// setting returns a setting of the page, or fallback.
export function setting(name, fallback) {
  return read("setting:" + name, fallback);
}

// setSetting keeps a setting of the page.
export function setSetting(name, value) {
  write("setting:" + name, value);
}
