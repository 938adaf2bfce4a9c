// The clocks of a timed game, counted down in the page from the server's
// last answer (the server keeps the time and decides losses on time).

// format writes ms as m:ss, or s.t under ten seconds.
export function format(ms) {
  ms = Math.max(0, ms);
  if (ms < 10000) return (Math.floor(ms / 100) / 10).toFixed(1);
  const s = Math.floor(ms / 1000);
  const h = Math.floor(s / 3600), m = Math.floor((s % 3600) / 60), sec = s % 60;
  const mm = h ? String(m).padStart(2, "0") : String(m);
  return (h ? h + ":" : "") + mm + ":" + String(sec).padStart(2, "0");
}

// left is each seat's time left now, given a view's clock received at
// received (performance.now()): the running seat's time runs down once
// the time the server gives the pages to show the last move is over
// (starts_in_ms), never before.
export function left(clock, received, now) {
  const ran = Math.max(0, now - received - (clock.starts_in_ms || 0));
  return clock.left_ms.map((ms, i) => (clock.running === i + 1 ? ms - ran : ms));
}

// startsAt is when (performance.now()) the running seat's time starts to
// run down, given a view's clock received at received.
export function startsAt(clock, received) {
  return received + (clock.starts_in_ms || 0);
}
