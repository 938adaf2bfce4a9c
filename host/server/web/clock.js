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
// received (performance.now()).
export function left(clock, received, now) {
  return clock.left_ms.map((ms, i) => (clock.running === i + 1 ? ms - (now - received) : ms));
}
