package solve

import (
	"container/heap"
	"context"
	"fmt"
	"slices"
	"sort"
	"time"

	"github.com/matombo/matombo/host"
)

// The table engine (Retrograde) values every position reachable from the
// opening. It walks them depth first, so that a position's value is known
// as soon as the values of all its moves are, and keeps no list of moves:
// a position costs its key, its value, its distance and a flag byte. The
// positions that can repeat (the strongly connected components of the game
// graph, found by Tarjan's algorithm on the way) are valued together by
// retrograde analysis, from the values of the moves that leave them.

// Flags of a position in a table solution.
const (
	flagP2       = 1 << iota // Player 2 is to move
	flagTerminal             // the game is over
	flagOnStack              // being valued (Tarjan's stack)
	flagDone                 // valued
)

// expander plays the moves of positions for one goroutine.
type expander struct {
	g          *host.Game
	r          *host.Runner
	sc         *scorer
	cur, child *host.State
	moves      []host.Move
	enc        []byte
}

func newExpander(g *host.Game) *expander {
	return &expander{g: g, r: g.NewRunner(), sc: newScorer(g), cur: g.Start(), child: g.Start()}
}

func (x *expander) close() { x.r.Close() }

// exhaust values every position reachable from the opening.
func (sol *Solution) exhaust(ctx context.Context, g *host.Game, cfg *config) error {
	x := newExpander(g)
	defer x.close()
	w := &walker{sol: sol, x: x, cfg: cfg, retained: map[int32][]int32{}, start: time.Now()}
	opening := g.Start()
	key := sol.appendKey(nil, opening, 0)
	if opening.Over() {
		v, err := x.sc.final(x.r, opening)
		if err != nil {
			return err
		}
		key = sol.appendKey(nil, opening, sol.classOf(v))
	}
	id, _, err := w.add(key, opening)
	if err != nil {
		return err
	}
	if (*sol.flags.at(id))&flagDone != 0 {
		return nil
	}
	return w.walk(ctx, id)
}

// walker is one depth-first walk with Tarjan's bookkeeping.
type walker struct {
	sol      *Solution
	x        *expander
	cfg      *config
	frames   []frame
	stack    []int32           // Tarjan's stack
	retained map[int32][]int32 // the moves of positions off the walk but on Tarjan's stack
	next     int32             // Tarjan's next index
	expanded int
	start    time.Time
}

type frame struct {
	id   int32
	kids []int32 // the positions after each move, in the script's order
	next int     // the next kid to visit
	low  int32   // Tarjan's low link
}

// add records the position of key (whose state is s) when it is new: a
// finished game is valued at once.
func (w *walker) add(key []byte, s *host.State) (int32, bool, error) {
	sol := w.sol
	id, added, err := sol.insert(key, w.cfg)
	if err != nil || !added {
		return id, added, err
	}
	var f uint8
	if s.ToMove() == 2 {
		f |= flagP2
	}
	if key[0] != 0 { // a finished game
		v := sol.classes[key[0]-1]
		sol.setFinal(id, f, v)
		return id, true, nil
	}
	(*sol.flags.at(id)) = f
	return id, true, nil
}

// walk values the positions reachable from root.
func (w *walker) walk(ctx context.Context, root int32) error {
	if err := w.push(root); err != nil {
		return err
	}
	for len(w.frames) > 0 {
		f := &w.frames[len(w.frames)-1]
		if f.next < len(f.kids) {
			c := f.kids[f.next]
			f.next++
			switch fl := (*w.sol.flags.at(c)); {
			case fl&flagDone != 0:
			case fl&flagOnStack != 0:
				f.low = min(f.low, (*w.sol.plies.at(c)))
			default:
				if w.expanded%1024 == 0 {
					if err := w.check(ctx); err != nil {
						return err
					}
				}
				if err := w.push(c); err != nil {
					return err
				}
			}
			continue
		}
		id, low := f.id, f.low
		if len(f.kids) == 0 && (*w.sol.flags.at(id))&flagTerminal == 0 {
			return fmt.Errorf("solve %s: a position that is not over has no legal move", w.sol.game)
		}
		if low == (*w.sol.plies.at(id)) { // the root of a component
			i := len(w.stack) - 1
			for w.stack[i] != id {
				i--
			}
			members := w.stack[i:]
			if len(members) == 1 && !slices.Contains(f.kids, id) {
				w.sol.finishOne(id, f.kids)
			} else {
				w.retained[id] = slices.Clone(f.kids)
				if err := w.sol.finishComponent(members, w.retained); err != nil {
					return err
				}
				for _, m := range members {
					delete(w.retained, m)
				}
			}
			w.stack = w.stack[:i]
		} else {
			w.retained[id] = slices.Clone(f.kids)
		}
		w.frames = w.frames[:len(w.frames)-1]
		if n := len(w.frames); n > 0 {
			w.frames[n-1].low = min(w.frames[n-1].low, low)
		}
	}
	return nil
}

// check stops the walk when the context is done, and reports progress.
func (w *walker) check(ctx context.Context) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if w.cfg.progress != nil {
		w.cfg.progress(Progress{Positions: w.sol.tab.Len(), Expanded: w.expanded, Bytes: w.sol.bytes(), Elapsed: time.Since(w.start)})
	}
	return nil
}

// push expands position id and puts it on the walk.
func (w *walker) push(id int32) error {
	sol, x := w.sol, w.x
	w.expanded++
	(*sol.flags.at(id)) |= flagOnStack
	(*sol.plies.at(id)) = w.next
	w.stack = append(w.stack, id)
	n := len(w.frames)
	if n < cap(w.frames) {
		w.frames = w.frames[:n+1]
	} else {
		w.frames = append(w.frames, frame{})
	}
	f := &w.frames[n]
	f.id, f.kids, f.next, f.low = id, f.kids[:0], 0, w.next
	w.next++
	if err := x.r.SetPosition(x.cur, sol.enc(id)); err != nil {
		return fmt.Errorf("solve %s: %w", sol.game, err)
	}
	if x.cur.Over() { // the script ends the game when there is no move
		v, err := x.sc.final(x.r, x.cur)
		if err != nil {
			return fmt.Errorf("solve %s: %w", sol.game, err)
		}
		(*sol.flags.at(id)) |= flagTerminal
		f.kids = f.kids[:0]
		// valued when its frame ends: no kids, finishOne sees the flag.
		(*sol.val.at(id)) = v
		return nil
	}
	x.moves = append(x.moves[:0], x.cur.Moves()...)
	for _, m := range x.moves {
		if err := x.r.ApplyTo(x.child, x.cur, m); err != nil {
			return fmt.Errorf("solve %s: move %s: %w", sol.game, sol.tokenOf(m), err)
		}
		class := byte(0)
		if x.child.Over() {
			v, err := x.sc.final(x.r, x.child)
			if err != nil {
				return fmt.Errorf("solve %s: %w", sol.game, err)
			}
			if class, err = sol.addClass(v); err != nil {
				return err
			}
		}
		x.enc = sol.appendKey(x.enc[:0], x.child, class)
		kid, _, err := w.add(x.enc, x.child)
		if err != nil {
			return err
		}
		f = &w.frames[n] // add may not move frames, but keep it plain
		f.kids = append(f.kids, kid)
	}
	return nil
}

// setFinal records the value of a finished game.
func (sol *Solution) setFinal(id int32, f uint8, v score) {
	(*sol.val.at(id)) = v
	(*sol.flags.at(id)) = f | flagTerminal | flagDone
	(*sol.plies.at(id)) = -1
	if v.outcome() != 0 {
		(*sol.plies.at(id)) = 0
	}
	sol.terminals++
}

// finishOne values a position that no move leads back to, from the
// values of its moves: the mover takes the best score; among the moves
// that give it, the quickest win or the slowest loss.
func (sol *Solution) finishOne(id int32, kids []int32) {
	f := (*sol.flags.at(id)) &^ flagOnStack
	if f&flagTerminal != 0 {
		sol.setFinal(id, f, (*sol.val.at(id)))
		return
	}
	mover := sol.mover(id)
	best := (*sol.val.at(kids[0]))
	for _, k := range kids[1:] {
		if better((*sol.val.at(k)), best, mover) {
			best = (*sol.val.at(k))
		}
	}
	plies := int32(-1)
	if best.outcome() != 0 {
		win := best.favours(mover)
		for _, k := range kids {
			if (*sol.val.at(k)) != best {
				continue
			}
			d := (*sol.plies.at(k)) + 1
			if plies < 0 || (win && d < plies) || (!win && d > plies) {
				plies = d
			}
		}
	}
	(*sol.val.at(id)), (*sol.plies.at(id)), (*sol.flags.at(id)) = best, plies, f|flagDone
}

func (sol *Solution) mover(id int32) int {
	if (*sol.flags.at(id))&flagP2 != 0 {
		return 2
	}
	return 1
}

// finishComponent values the positions of a strongly connected component
// (positions that can repeat) by retrograde analysis from the moves that
// leave it, whose values are known. For each threshold t > 0 in turn, from
// the highest, the positions from which Player 1 can force a score of at
// least t are those where Player 1 moves to one of them or a way out worth
// t or more, and those where every move of Player 2 does; the same for
// Player 2 and t < 0. What neither can force is worth 0: either side can
// keep the game going, or a draw is forced. Distances follow, in order:
// the winner's quickest, the loser's slowest among the moves that keep the
// value.
func (sol *Solution) finishComponent(members []int32, kidsOf map[int32][]int32) error {
	n := len(members)
	local := make(map[int32]int32, n)
	for i, m := range members {
		local[m] = int32(i)
	}
	type exit struct {
		v      score
		plies  int32
		parent int32
	}
	var exits []exit
	pstart := make([]int32, n+1)
	nkids := make([]int32, n)
	for i, m := range members {
		for _, k := range kidsOf[m] {
			nkids[i]++
			if j, ok := local[k]; ok {
				pstart[j+1]++
			} else {
				exits = append(exits, exit{v: (*sol.val.at(k)), plies: (*sol.plies.at(k)), parent: int32(i)})
			}
		}
	}
	for i := 0; i < n; i++ {
		pstart[i+1] += pstart[i]
	}
	parents := make([]int32, pstart[n])
	fill := slices.Clone(pstart[:n])
	for i, m := range members {
		for _, k := range kidsOf[m] {
			if j, ok := local[k]; ok {
				parents[fill[j]] = int32(i)
				fill[j]++
			}
		}
	}
	mover := make([]int, n)
	val := make([]score, n)
	decided := make([]bool, n)
	for i, m := range members {
		mover[i] = sol.mover(m)
		if (*sol.flags.at(m))&flagTerminal != 0 && len(kidsOf[m]) == 0 {
			return fmt.Errorf("solve %s: a finished position inside a cycle", sol.game)
		}
	}
	// Player p's attractors for thresholds beyond 0, in turn.
	attract := func(p int) {
		cnt := make([]int32, n)
		for i := range cnt {
			cnt[i] = nkids[i]
		}
		sorted := slices.Clone(exits)
		sort.Slice(sorted, func(a, b int) bool { return better(sorted[a].v, sorted[b].v, p) })
		var queue []int32
		var t score
		support := func(q int32) {
			if decided[q] {
				return
			}
			if mover[q] == p {
				decided[q], val[q] = true, t
				queue = append(queue, q)
				return
			}
			if cnt[q]--; cnt[q] == 0 {
				decided[q], val[q] = true, t
				queue = append(queue, q)
			}
		}
		for e := 0; e < len(sorted) && sorted[e].v.forPlayer(p) > 0; {
			t = sorted[e].v
			for ; e < len(sorted) && sorted[e].v == t; e++ {
				support(sorted[e].parent)
			}
			for len(queue) > 0 {
				c := queue[0]
				queue = queue[1:]
				for _, q := range parents[pstart[c]:pstart[c+1]] {
					support(q)
				}
			}
		}
	}
	attract(1)
	attract(2)
	// Distances: events (plies, position) in order.
	optimal := make([]int32, n) // moves that keep a loser's value
	win := make([]bool, n)
	for i, m := range members {
		if !decided[i] {
			val[i] = 0
		}
		if val[i].outcome() == 0 {
			continue
		}
		win[i] = val[i].favours(mover[i])
		for _, k := range kidsOf[m] {
			kv := (*sol.val.at(k))
			if j, ok := local[k]; ok {
				kv = val[j]
			}
			if kv == val[i] {
				optimal[i]++
			}
		}
	}
	plies := make([]int32, n)
	done := make([]bool, n)
	h := &eventHeap{}
	for _, e := range exits {
		if val[e.parent] == e.v && e.v.outcome() != 0 {
			heap.Push(h, event{plies: e.plies + 1, at: e.parent})
		}
	}
	for h.Len() > 0 {
		ev := heap.Pop(h).(event)
		i := ev.at
		if done[i] {
			continue
		}
		if !win[i] {
			if optimal[i]--; optimal[i] > 0 {
				continue
			}
		}
		done[i], plies[i] = true, ev.plies
		for _, q := range parents[pstart[i]:pstart[i+1]] {
			if !done[q] && val[q] == val[i] {
				heap.Push(h, event{plies: ev.plies + 1, at: q})
			}
		}
	}
	for i, m := range members {
		p := int32(-1)
		if val[i].outcome() != 0 {
			if !done[i] {
				return fmt.Errorf("solve %s: no distance for a decided position in a cycle (a bug)", sol.game)
			}
			p = plies[i]
		}
		(*sol.val.at(m)), (*sol.plies.at(m)) = val[i], p
		(*sol.flags.at(m)) = (*sol.flags.at(m))&^flagOnStack | flagDone
	}
	return nil
}

type event struct {
	plies int32
	at    int32
}

type eventHeap []event

func (h eventHeap) Len() int           { return len(h) }
func (h eventHeap) Less(i, j int) bool { return h[i].plies < h[j].plies }
func (h eventHeap) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *eventHeap) Push(x any)        { *h = append(*h, x.(event)) }
func (h *eventHeap) Pop() any {
	old := *h
	e := old[len(old)-1]
	*h = old[:len(old)-1]
	return e
}
