// The record as turns: a player's consecutive decisions are one turn
// ("d4 continue xb6 xa8").

// turns groups a record by its movers (the player of each move): a list of
// {player, first, last, tokens}, first and last the plies (1-based) of the
// turn's first and last moves.
export function turns(record, movers) {
  const out = [];
  record.forEach((tok, i) => {
    const p = movers && movers.length === record.length ? movers[i] : 0;
    const t = out[out.length - 1];
    if (t && t.player === p && p !== 0) {
      t.tokens.push(tok);
      t.last = i + 1;
    } else {
      out.push({ player: p, first: i + 1, last: i + 1, tokens: [tok] });
    }
  });
  return out;
}

// turnAt returns the index of the turn holding ply (1-based), -1 for none.
export function turnAt(ts, ply) {
  return ts.findIndex((t) => t.first <= ply && ply <= t.last);
}
