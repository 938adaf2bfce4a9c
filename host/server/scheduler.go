package server

import (
	"slices"
	"strings"
	"sync"
)

// scheduler hands the games waiting for a computer move to the workers
// fairly: by client, the client served longest ago first, and within a
// client by game, the game waiting longest first. However many games
// one client has waiting, a game of another client waits only for the
// next worker to be free, which is at most one think time.
type scheduler struct {
	mu      sync.Mutex
	seq     uint64                  // counts the games handed out
	arrival uint64                  // counts the clients queued
	clients map[string]*clientQueue // clients with games waiting or thinking
	games   map[string]string       // game -> its client, while waiting or thinking
	wake    chan struct{}           // a game is waiting
}

// clientQueue is one client's games.
type clientQueue struct {
	waiting  []string // game IDs, oldest first
	thinking int      // games being thought about
	served   uint64   // seq when the client was last served; 0 never
	arrived  uint64   // the order the client came in: of two never served, the first goes first
}

func newScheduler() *scheduler {
	return &scheduler{clients: map[string]*clientQueue{}, games: map[string]string{}, wake: make(chan struct{}, 1)}
}

// push queues game id for client; false when the game is waiting or
// being thought about already. A game that discovery found in the store
// first (it may claim a new game before the request that made it due
// queues it) is handed to client, waiting or thinking, so that it counts
// against client's quota and is scheduled as client's.
func (sc *scheduler) push(id, client string) bool {
	sc.mu.Lock()
	defer sc.mu.Unlock()
	if was, ok := sc.games[id]; ok {
		if was == client || !strings.HasPrefix(was, discoveredClient) || strings.HasPrefix(client, discoveredClient) {
			return false
		}
		q := sc.queue(client)
		from := sc.clients[was]
		sc.games[id] = client
		if i := slices.Index(from.waiting, id); i >= 0 {
			from.waiting = slices.Delete(from.waiting, i, i+1)
			q.waiting = append(q.waiting, id)
		} else {
			// Being thought about: client was served when it was
			// handed out.
			from.thinking--
			q.thinking++
			q.served = max(q.served, from.served)
		}
		if from.thinking == 0 && len(from.waiting) == 0 {
			delete(sc.clients, was)
		}
		return true
	}
	q := sc.queue(client)
	q.waiting = append(q.waiting, id)
	sc.games[id] = client
	select {
	case sc.wake <- struct{}{}:
	default:
	}
	return true
}

// queue returns client's queue, made when it has none. The caller holds
// sc.mu.
func (sc *scheduler) queue(client string) *clientQueue {
	q := sc.clients[client]
	if q == nil {
		sc.arrival++
		q = &clientQueue{arrived: sc.arrival}
		sc.clients[client] = q
	}
	return q
}

// next hands out the oldest waiting game of the client served longest
// ago; ok is false when no game waits.
func (sc *scheduler) next() (id, client string, ok bool) {
	sc.mu.Lock()
	defer sc.mu.Unlock()
	var best *clientQueue
	for c, q := range sc.clients {
		if len(q.waiting) > 0 && (best == nil || q.served < best.served || q.served == best.served && q.arrived < best.arrived) {
			best, client = q, c
		}
	}
	if best == nil {
		return "", "", false
	}
	id = best.waiting[0]
	best.waiting = best.waiting[1:]
	best.thinking++
	sc.seq++
	best.served = sc.seq
	if len(best.waiting) > 0 {
		// Another worker may take the next one.
		select {
		case sc.wake <- struct{}{}:
		default:
		}
	}
	return id, client, true
}

// done ends the thinking about game id handed out by next, and returns
// the client it was thought about for (push may have handed it to another
// since next).
func (sc *scheduler) done(id string) string {
	sc.mu.Lock()
	defer sc.mu.Unlock()
	client, ok := sc.games[id]
	if !ok {
		return ""
	}
	delete(sc.games, id)
	sc.clients[client].thinking--
	// A client with nothing waiting keeps its place in the order (when it
	// was served) for a while, so that coming back at once does not put
	// it first; the idle ones are forgotten when there are many.
	if len(sc.clients) > maxIdleClients {
		for c, q := range sc.clients {
			if q.thinking == 0 && len(q.waiting) == 0 {
				delete(sc.clients, c)
			}
		}
	}
	return client
}

// maxIdleClients is how many clients the scheduler keeps before it
// forgets those with nothing waiting.
const maxIdleClients = 4096

// count is how many games of client wait or are thought about.
func (sc *scheduler) count(client string) int {
	sc.mu.Lock()
	defer sc.mu.Unlock()
	q := sc.clients[client]
	if q == nil {
		return 0
	}
	return len(q.waiting) + q.thinking
}

// discoveredClient prefixes the client of a game found in the store
// rather than made due by a request here: each such game is a client.
const discoveredClient = "game:"

// discovered is how many games found in the store wait or are thought
// about.
func (sc *scheduler) discovered() int {
	sc.mu.Lock()
	defer sc.mu.Unlock()
	n := 0
	for c, q := range sc.clients {
		if strings.HasPrefix(c, discoveredClient) {
			n += len(q.waiting) + q.thinking
		}
	}
	return n
}

// has reports whether game id waits or is thought about.
func (sc *scheduler) has(id string) bool {
	sc.mu.Lock()
	defer sc.mu.Unlock()
	_, ok := sc.games[id]
	return ok
}
