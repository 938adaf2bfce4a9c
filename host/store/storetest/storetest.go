// Package storetest is the contract of package store's Store, as tests
// that any backend runs from its own tests, as boardgame.io's storage
// adapters are tested:
//
//	func TestContract(t *testing.T) {
//		storetest.Run(t, storetest.Backend{
//			New: func(t *testing.T) storetest.Opener {
//				dsn := freshDatabase(t)
//				return func(ctx context.Context) (store.Store, error) { return mystore.Open(ctx, dsn) }
//			},
//			Shared:     true,
//			Persistent: true,
//		})
//	}
//
// Run checks one store's behaviour and, when the backend shares a
// database between stores (as several server processes do), the races
// between them: creating, reading and listing games, the ply check of
// moves and updates, takebacks, ending a game without a move, proposals,
// rematches, claims and leases of computer moves and of clocks that ran
// out, watching changes, closing, and deleting old games when the store
// is a store.Pruner. RunProcesses adds what needs other
// processes: a process killed with SIGKILL loses no acknowledged move, and
// one killed while holding a claim loses its game to another when its
// lease runs out.
package storetest

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/matombo/matombo/host/store"
)

// Opener opens a store on one database.
type Opener func(ctx context.Context) (store.Store, error)

// Backend is a store backend under test.
type Backend struct {
	// New makes a fresh, empty database for one test and returns how to
	// open stores on it; the tests close the stores they open.
	New func(t *testing.T) Opener
	// Shared: the stores opened on one database see each other's games and
	// changes, as the processes of several servers do. When it is false,
	// the tests open one store per database and use it for every role.
	Shared bool
	// Persistent: a store closed and opened again finds its games.
	Persistent bool
}

// Run runs the contract tests against b, each as a subtest.
func Run(t *testing.T, b Backend) {
	for _, tc := range []struct {
		name string
		test func(*testing.T, Backend)
	}{
		{"CreateGet", testCreateGet},
		{"List", testList},
		{"Append", testAppend},
		{"Update", testUpdate},
		{"UpdateSeats", testUpdateSeats},
		{"Rematch", testRematch},
		{"RacingAppends", testRacingAppends},
		{"RacingUpdates", testRacingUpdates},
		{"ClaimExclusive", testClaimExclusive},
		{"LeaseExpiry", testLeaseExpiry},
		{"ClaimDeadline", testClaimDeadline},
		{"PlayedOnceByThree", testPlayedOnceByThree},
		{"Watch", testWatch},
		{"WatchClose", testWatchClose},
		{"Restart", testRestart},
		{"Canceled", testCanceled},
		{"Prune", testPrune},
	} {
		t.Run(tc.name, func(t *testing.T) { tc.test(t, b) })
	}
}

// Ctx is the context of one test step: generous, so a loaded machine does
// not fail it, but a hang does.
func Ctx(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	t.Cleanup(cancel)
	return ctx
}

// openN returns n stores on one fresh database: n separate stores (as n
// server processes have) where the backend shares, else one store n times.
func openN(t *testing.T, b Backend, n int) []store.Store {
	t.Helper()
	open := b.New(t)
	stores := make([]store.Store, n)
	for i := range stores {
		if i == 0 || b.Shared {
			stores[i] = mustOpen(t, open)
		} else {
			stores[i] = stores[0]
		}
	}
	return stores
}

func mustOpen(t *testing.T, open Opener) store.Store {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	s, err := open(ctx)
	require.NoError(t, err, "opening a store")
	t.Cleanup(func() { s.Close() })
	return s
}

// NewGame is a game for the tests: two seats, a person's and a computer's;
// due says the computer is to move.
func NewGame(due bool) *store.Game {
	return &store.Game{
		Game:        "somegame",
		Fingerprint: "f00d",
		Variants:    []string{"small", "fast"},
		Params:      map[string]any{"bonus": float64(3), "name": "x"},
		Seats:       []store.Seat{{Player: "human", Secret: store.NewSecret()}, {Player: "random"}},
		ComputerDue: due,
	}
}

// RequireKind checks that err is a *store.Error of the given kind.
func RequireKind(t *testing.T, err, kind error) {
	t.Helper()
	require.Error(t, err)
	require.ErrorIs(t, err, kind)
	var se *store.Error
	require.ErrorAs(t, err, &se, "errors are *store.Error")
}

// move is a store.Move of token at ply with nothing else.
func move(ply int, token string) store.Move { return store.Move{Ply: ply, Token: token} }

func testCreateGet(t *testing.T, b Backend) {
	ctx := Ctx(t)
	ss := openN(t, b, 2)
	a, other := ss[0], ss[1]

	g := NewGame(false)
	g.Record = []string{"a1", "b2"}
	since := time.Date(2030, 1, 2, 3, 4, 5, 6000, time.UTC)
	g.Clock = &store.Clock{Initial: time.Minute, Increment: 2 * time.Second, Remaining: []time.Duration{50 * time.Second, time.Minute}, Running: 1, Since: since}
	g.Request = &store.Request{Kind: "takeback", Seat: 1, To: 1}
	before := time.Now().Add(-time.Minute)
	require.NoError(t, a.Create(ctx, g))
	require.NotEmpty(t, g.ID)
	assert.True(t, g.Created.After(before), "Created is set")
	assert.Equal(t, g.Created, g.Updated)

	got, err := other.Get(ctx, g.ID)
	require.NoError(t, err)
	assert.Equal(t, g.ID, got.ID)
	assert.Equal(t, "somegame", got.Game)
	assert.Equal(t, "f00d", got.Fingerprint, "the fingerprint is kept")
	assert.Equal(t, []string{"small", "fast"}, got.Variants)
	assert.Equal(t, map[string]any{"bonus": float64(3), "name": "x"}, got.Params)
	assert.Equal(t, g.Seats, got.Seats)
	assert.Equal(t, []string{"a1", "b2"}, got.Record)
	assert.Equal(t, 2, got.Ply())
	assert.False(t, got.Over())
	assert.Nil(t, got.Result)
	require.NotNil(t, got.Clock)
	assert.True(t, got.Clock.Since.Equal(since), "clock since %v, stored %v", since, got.Clock.Since)
	got.Clock.Since = since
	assert.Equal(t, g.Clock, got.Clock)
	assert.Equal(t, g.Request, got.Request)
	assert.Empty(t, got.RematchOf)
	assert.Empty(t, got.Rematch)
	assert.True(t, got.Created.Equal(g.Created), "created %v, stored %v", g.Created, got.Created)

	// A given ID is kept, and a second game with it is a conflict.
	h := NewGame(true)
	h.ID = "fixed-id"
	require.NoError(t, a.Create(ctx, h))
	err = other.Create(ctx, &store.Game{ID: "fixed-id", Game: "somegame"})
	RequireKind(t, err, store.ErrConflict)
	assert.Contains(t, err.Error(), "exists already")

	// A finished game is stored finished.
	f := NewGame(false)
	f.Result = &store.Result{Winner: 2, Method: "rule", Reason: "no moves", Notes: []string{}, Scores: []float64{0, 1}}
	require.NoError(t, a.Create(ctx, f))
	got, err = other.Get(ctx, f.ID)
	require.NoError(t, err)
	assert.True(t, got.Over())
	assert.Equal(t, f.Result, got.Result)

	n, err := other.Count(ctx)
	require.NoError(t, err)
	assert.Equal(t, 3, n)

	_, err = a.Get(ctx, "no-such-game")
	RequireKind(t, err, store.ErrNotFound)
	assert.Contains(t, err.Error(), `"no-such-game"`)
	// An id from a request may be anything: one no game can have (a
	// NUL, bytes that are not UTF-8, a long one) is not found either.
	for _, id := range []string{"a\x00b", "\xff\xfe", g.ID + "\x00", strings.Repeat("x", 1<<16)} {
		_, err = a.Get(ctx, id)
		RequireKind(t, err, store.ErrNotFound)
		_, err = a.Append(ctx, id, move(0, "zz"))
		RequireKind(t, err, store.ErrNotFound)
		_, err = a.Update(ctx, id, store.Update{Ply: 0})
		RequireKind(t, err, store.ErrNotFound)
	}

	for _, tc := range []struct {
		g     *store.Game
		words string
	}{
		{&store.Game{}, "name is empty"},
		{&store.Game{Game: "g", Record: []string{""}}, "token 0 of the record is empty"},
		{&store.Game{Game: "g", Seats: make([]store.Seat, 2), Clock: &store.Clock{Remaining: make([]time.Duration, 3)}}, "3 banks for 2 seats"},
		{&store.Game{Game: "g", Seats: make([]store.Seat, 2), Clock: &store.Clock{Remaining: make([]time.Duration, 2), Running: 3}}, "runs for seat 3"},
		{&store.Game{Game: "g", Seats: make([]store.Seat, 2), Request: &store.Request{Kind: "takeback", Seat: 3}}, "made by seat 3"},
		{&store.Game{Game: "g", Seats: make([]store.Seat, 2), Request: &store.Request{Seat: 1}}, "no kind"},
	} {
		err := a.Create(ctx, tc.g)
		require.Error(t, err)
		assert.Contains(t, err.Error(), tc.words)
	}
	require.NoError(t, a.Ping(ctx))
}

func testList(t *testing.T, b Backend) {
	ctx := Ctx(t)
	s := openN(t, b, 1)[0]
	var ids []string
	for range 3 {
		g := NewGame(false)
		require.NoError(t, s.Create(ctx, g))
		ids = append(ids, g.ID)
		time.Sleep(2 * time.Millisecond) // distinct update times
	}
	_, err := s.Append(ctx, ids[0], store.Move{Ply: 0, Token: "a1", ComputerDue: true})
	require.NoError(t, err)
	list, err := s.List(ctx, 2)
	require.NoError(t, err)
	require.Len(t, list, 2)
	assert.Equal(t, ids[0], list[0].ID, "the game moved last comes first")
	assert.Equal(t, ids[2], list[1].ID, "then the newest")
	assert.Equal(t, 1, list[0].Plies)
	assert.True(t, list[0].ComputerDue)
	assert.False(t, list[0].Over)
	assert.Equal(t, []string{"human", "random"}, list[0].Seats)
	assert.Equal(t, []string{"small", "fast"}, list[0].Variants)
	list, err = s.List(ctx, 10)
	require.NoError(t, err)
	assert.Len(t, list, 3)
}

// testPrune deletes the games not updated since a time, oldest first, up
// to the limit, with their records; a store that is not a store.Pruner
// skips it.
func testPrune(t *testing.T, b Backend) {
	ctx := Ctx(t)
	stores := openN(t, b, 2)
	p, ok := stores[0].(store.Pruner)
	if !ok {
		t.Skip("the store is not a store.Pruner")
	}
	var ids []string
	for range 4 {
		g := NewGame(false)
		g.Record = []string{"a1", "b2"}
		require.NoError(t, stores[0].Create(ctx, g))
		ids = append(ids, g.ID)
		time.Sleep(2 * time.Millisecond) // distinct update times
	}
	// The first game is moved in after the cut, so it stays; of the two
	// older ones left, the limit deletes the oldest.
	cut := time.Now()
	time.Sleep(2 * time.Millisecond)
	_, err := stores[0].Append(ctx, ids[0], move(2, "c3"))
	require.NoError(t, err)
	kept := NewGame(false)
	require.NoError(t, stores[0].Create(ctx, kept))

	n, err := p.Prune(ctx, cut, 2)
	require.NoError(t, err)
	assert.Equal(t, 2, n, "the limit")
	_, err = stores[1].Get(ctx, ids[1])
	RequireKind(t, err, store.ErrNotFound)
	_, err = stores[1].Get(ctx, ids[2])
	RequireKind(t, err, store.ErrNotFound)
	got, err := stores[1].Get(ctx, ids[3])
	require.NoError(t, err, "the third oldest is left by the limit")
	assert.Equal(t, []string{"a1", "b2"}, got.Record)

	n, err = p.Prune(ctx, cut, 100)
	require.NoError(t, err)
	assert.Equal(t, 1, n)
	n, err = p.Prune(ctx, cut, 100)
	require.NoError(t, err)
	assert.Equal(t, 0, n, "nothing left before the cut")
	count, err := stores[1].Count(ctx)
	require.NoError(t, err)
	assert.Equal(t, 2, count)
	got, err = stores[1].Get(ctx, ids[0])
	require.NoError(t, err, "a game moved in after the cut stays")
	assert.Equal(t, []string{"a1", "b2", "c3"}, got.Record)
	_, err = stores[1].Get(ctx, kept.ID)
	require.NoError(t, err)

	// A deleted game's ID is free again, its record gone with it.
	again := NewGame(false)
	again.ID = ids[1]
	require.NoError(t, stores[0].Create(ctx, again))
	got, err = stores[1].Get(ctx, ids[1])
	require.NoError(t, err)
	assert.Empty(t, got.Record)

	n, err = p.Prune(ctx, time.Now().Add(time.Hour), 0)
	require.NoError(t, err)
	assert.Equal(t, 0, n, "a limit of 0 deletes nothing")
}

func testAppend(t *testing.T, b Backend) {
	ctx := Ctx(t)
	s := openN(t, b, 1)[0]
	g := NewGame(false)
	g.Request = &store.Request{Kind: "takeback", Seat: 1, To: 0}
	require.NoError(t, s.Create(ctx, g))

	clock := &store.Clock{Initial: time.Minute, Remaining: []time.Duration{time.Minute, 59 * time.Second}, Running: 2, Since: time.Now().UTC().Truncate(time.Millisecond)}
	got, err := s.Append(ctx, g.ID, store.Move{Ply: 0, Token: "a1", ComputerDue: true, Clock: clock})
	require.NoError(t, err)
	assert.Equal(t, []string{"a1"}, got.Record)
	assert.True(t, got.ComputerDue)
	assert.Nil(t, got.Request, "a move clears the pending request")
	require.NotNil(t, got.Clock)
	assert.Equal(t, clock.Remaining, got.Clock.Remaining)
	assert.Equal(t, 2, got.Clock.Running)
	assert.False(t, got.Updated.Before(g.Updated))
	assert.Equal(t, "f00d", got.Fingerprint)

	for _, tc := range []struct {
		name  string
		id    string
		ply   int
		kind  error
		words string
	}{
		{"same ply again", g.ID, 0, store.ErrConflict, "change for ply 0, but the game is at ply 1"},
		{"ply ahead", g.ID, 5, store.ErrConflict, "change for ply 5, but the game is at ply 1"},
		{"negative ply", g.ID, -1, store.ErrConflict, "change for ply -1"},
		{"unknown game", "nope", 0, store.ErrNotFound, `"nope"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := s.Append(ctx, tc.id, move(tc.ply, "zz"))
			RequireKind(t, err, tc.kind)
			assert.Contains(t, err.Error(), tc.words)
		})
	}
	_, err = s.Append(ctx, g.ID, move(1, ""))
	require.ErrorContains(t, err, "empty move token")

	result := &store.Result{Winner: 1, Method: "no moves", Reason: "no moves", Notes: []string{"without glory"}, Scores: []float64{1, 0}}
	got, err = s.Append(ctx, g.ID, store.Move{Ply: 1, Token: "b1", Result: result, Clock: clock})
	require.NoError(t, err)
	assert.True(t, got.Over())
	assert.Equal(t, result, got.Result)
	assert.Equal(t, []string{"a1", "b1"}, got.Record)

	_, err = s.Append(ctx, g.ID, move(2, "c1"))
	RequireKind(t, err, store.ErrConflict)
	assert.Contains(t, err.Error(), "the game is over")

	got, err = s.Get(ctx, g.ID)
	require.NoError(t, err)
	assert.Equal(t, []string{"a1", "b1"}, got.Record)
	assert.Equal(t, result, got.Result)
}

// testUpdateSeats: a seat claimed through its invitation is stored with
// the change, the other seats and the record as they were; a change of
// the number of seats is refused and changes nothing.
func testUpdateSeats(t *testing.T, b Backend) {
	ctx := Ctx(t)
	s := openN(t, b, 1)[0]
	g := NewGame(false)
	g.Seats[1] = store.Seat{Player: "human", Invite: store.NewSecret()}
	require.NoError(t, s.Create(ctx, g))
	got, err := s.Get(ctx, g.ID)
	require.NoError(t, err)
	assert.Equal(t, g.Seats, got.Seats, "the invitation is stored")
	_, err = s.Append(ctx, g.ID, move(0, "a1"))
	require.NoError(t, err)

	claimed := slices.Clone(g.Seats)
	claimed[1] = store.Seat{Player: "human", Secret: store.NewSecret()}
	got, err = s.Update(ctx, g.ID, store.Update{Ply: 1, To: 1, Seats: claimed})
	require.NoError(t, err)
	assert.Equal(t, claimed, got.Seats)
	assert.Equal(t, []string{"a1"}, got.Record)
	got, err = s.Get(ctx, g.ID)
	require.NoError(t, err)
	assert.Equal(t, claimed, got.Seats)

	// A claim decided at another ply is refused, as any change is.
	_, err = s.Update(ctx, g.ID, store.Update{Ply: 0, To: 0, Seats: g.Seats})
	RequireKind(t, err, store.ErrConflict)
	_, err = s.Update(ctx, g.ID, store.Update{Ply: 1, To: 1, Seats: claimed[:1]})
	require.ErrorContains(t, err, "1 seats for a game of 2")
	got, err = s.Get(ctx, g.ID)
	require.NoError(t, err)
	assert.Equal(t, claimed, got.Seats, "a refused change leaves the seats")

	// Without seats, an update leaves them.
	got, err = s.Update(ctx, g.ID, store.Update{Ply: 1, To: 1, Request: &store.Request{Kind: "draw", Seat: 1, To: 1}})
	require.NoError(t, err)
	assert.Equal(t, claimed, got.Seats)
}

func testUpdate(t *testing.T, b Backend) {
	ctx := Ctx(t)
	s := openN(t, b, 1)[0]
	g := NewGame(false)
	g.Seats[1] = store.Seat{Player: "human", Secret: store.NewSecret()}
	require.NoError(t, s.Create(ctx, g))
	for ply, tok := range []string{"a1", "b1", "a2", "b2"} {
		_, err := s.Append(ctx, g.ID, move(ply, tok))
		require.NoError(t, err)
	}

	// A proposal, then its answer.
	req := &store.Request{Kind: "takeback", Seat: 2, To: 3}
	got, err := s.Update(ctx, g.ID, store.Update{Ply: 4, To: 4, Request: req})
	require.NoError(t, err)
	assert.Equal(t, req, got.Request)
	assert.Len(t, got.Record, 4, "a proposal takes nothing back")
	got, err = s.Get(ctx, g.ID)
	require.NoError(t, err)
	assert.Equal(t, req, got.Request)

	// Accepted: the last move is taken back and the request is gone.
	got, err = s.Update(ctx, g.ID, store.Update{Ply: 4, To: 3})
	require.NoError(t, err)
	assert.Equal(t, []string{"a1", "b1", "a2"}, got.Record)
	assert.Nil(t, got.Request)
	_, err = s.Update(ctx, g.ID, store.Update{Ply: 4, To: 3})
	RequireKind(t, err, store.ErrConflict)

	// The record goes on from the takeback: ply 3 is free again.
	got, err = s.Append(ctx, g.ID, move(3, "b3"))
	require.NoError(t, err)
	assert.Equal(t, []string{"a1", "b1", "a2", "b3"}, got.Record)

	// Ended without a move (a clock ran out).
	result := &store.Result{Winner: 2, Method: "time", Reason: "player 1 ran out of time", Scores: []float64{0, 1}, Seat: 1}
	got, err = s.Update(ctx, g.ID, store.Update{Ply: 4, To: 4, Result: result})
	require.NoError(t, err)
	assert.True(t, got.Over())
	assert.Equal(t, "time", got.Result.Method)
	if read, err := s.Get(ctx, g.ID); assert.NoError(t, err) && assert.NotNil(t, read.Result) {
		assert.Equal(t, 1, read.Result.Seat, "the seat whose act ended the game is kept")
	}
	_, err = s.Update(ctx, g.ID, store.Update{Ply: 4, To: 4, Result: result})
	RequireKind(t, err, store.ErrConflict)
	assert.Contains(t, err.Error(), "the game is over")
	_, err = s.Append(ctx, g.ID, move(4, "a3"))
	RequireKind(t, err, store.ErrConflict)

	// A finished game's moves can still be taken back (an undo against
	// the computer after the last move): it goes on.
	got, err = s.Update(ctx, g.ID, store.Update{Ply: 4, To: 2, ComputerDue: true})
	require.NoError(t, err)
	assert.False(t, got.Over())
	assert.True(t, got.ComputerDue)
	assert.Equal(t, []string{"a1", "b1"}, got.Record)
	got, err = s.Get(ctx, g.ID)
	require.NoError(t, err)
	assert.Equal(t, []string{"a1", "b1"}, got.Record)
	assert.False(t, got.Over())

	for _, tc := range []struct {
		u     store.Update
		words string
	}{
		{store.Update{Ply: 2, To: 3}, "cannot leave 3 moves"},
		{store.Update{Ply: 2, To: -1}, "cannot leave -1 moves"},
		{store.Update{Ply: 2, To: 2, Request: &store.Request{Kind: "takeback", Seat: 1, To: 3}}, "for ply 3 of 2"},
		{store.Update{Ply: 2, To: 2, Clock: &store.Clock{Remaining: make([]time.Duration, 2), Running: 5}}, "runs for seat 5"},
	} {
		_, err := s.Update(ctx, g.ID, tc.u)
		require.ErrorContains(t, err, tc.words)
	}
	_, err = s.Update(ctx, "nope", store.Update{})
	RequireKind(t, err, store.ErrNotFound)
}

func testRematch(t *testing.T, b Backend) {
	ctx := Ctx(t)
	ss := openN(t, b, 2)
	old := NewGame(false)
	old.Result = &store.Result{Winner: 1, Method: "rule", Scores: []float64{1, 0}}
	require.NoError(t, ss[0].Create(ctx, old))

	re := NewGame(true)
	re.Seats[0], re.Seats[1] = re.Seats[1], re.Seats[0]
	re.RematchOf = old.ID
	require.NoError(t, ss[0].Create(ctx, re))
	assert.Empty(t, re.Rematch)
	got, err := ss[1].Get(ctx, old.ID)
	require.NoError(t, err)
	assert.Equal(t, re.ID, got.Rematch, "the old game names its rematch")
	assert.True(t, got.Over())
	got, err = ss[1].Get(ctx, re.ID)
	require.NoError(t, err)
	assert.Equal(t, old.ID, got.RematchOf)

	// A second rematch of the same game is refused, and not stored.
	n0, err := ss[1].Count(ctx)
	require.NoError(t, err)
	again := NewGame(false)
	again.RematchOf = old.ID
	err = ss[1].Create(ctx, again)
	RequireKind(t, err, store.ErrConflict)
	assert.Contains(t, err.Error(), re.ID, "the conflict names the rematch")
	n1, err := ss[1].Count(ctx)
	require.NoError(t, err)
	assert.Equal(t, n0, n1, "the refused rematch is not stored")

	none := NewGame(false)
	none.RematchOf = "no-such-game"
	RequireKind(t, ss[0].Create(ctx, none), store.ErrNotFound)

	// Racing rematches: exactly one is made.
	base := NewGame(false)
	require.NoError(t, ss[0].Create(ctx, base))
	var wg sync.WaitGroup
	errs := make([]error, 6)
	for i := range errs {
		wg.Go(func() {
			g := NewGame(false)
			g.RematchOf = base.ID
			errs[i] = ss[i%2].Create(ctx, g)
		})
	}
	wg.Wait()
	made := 0
	for _, err := range errs {
		if err == nil {
			made++
		} else {
			RequireKind(t, err, store.ErrConflict)
		}
	}
	assert.Equal(t, 1, made, "exactly one rematch of one game")
}

// testRacingAppends: many goroutines, spread over two stores where the
// backend shares, append for the same ply; exactly one wins each ply and
// the others get ErrConflict.
func testRacingAppends(t *testing.T, b Backend) {
	ctx := Ctx(t)
	ss := openN(t, b, 2)
	g := NewGame(false)
	require.NoError(t, ss[0].Create(ctx, g))
	const plies, racers = 12, 8
	winners := make([]string, plies)
	for ply := range plies {
		won, conflicts := race(t, racers, func(r int) (string, error) {
			tok := fmt.Sprintf("p%dr%d", ply, r)
			_, err := ss[r%2].Append(ctx, g.ID, move(ply, tok))
			return tok, err
		})
		require.Len(t, won, 1, "ply %d: exactly one append wins", ply)
		require.Equal(t, racers-1, conflicts, "ply %d: the others conflict", ply)
		winners[ply] = won[0]
	}
	got, err := ss[1].Get(ctx, g.ID)
	require.NoError(t, err)
	assert.Equal(t, winners, got.Record)
}

// race runs f for racers goroutines started together and returns the
// names of those that succeeded and the number of conflicts.
func race(t *testing.T, racers int, f func(r int) (string, error)) ([]string, int) {
	var wg sync.WaitGroup
	start := make(chan struct{})
	var mu sync.Mutex
	var won []string
	conflicts := 0
	for r := range racers {
		wg.Go(func() {
			<-start
			name, err := f(r)
			mu.Lock()
			defer mu.Unlock()
			switch {
			case err == nil:
				won = append(won, name)
			case errors.Is(err, store.ErrConflict):
				conflicts++
			default:
				t.Errorf("racer %d: %v", r, err)
			}
		})
	}
	close(start)
	wg.Wait()
	return won, conflicts
}

// testRacingUpdates: moves and takebacks race for one ply; exactly one is
// stored. (Changes that leave the record's length as it is, a proposal or
// the end of a game, are ordered by the moves and takebacks around them.)
func testRacingUpdates(t *testing.T, b Backend) {
	ctx := Ctx(t)
	ss := openN(t, b, 2)
	g := NewGame(false)
	require.NoError(t, ss[0].Create(ctx, g))
	_, err := ss[0].Append(ctx, g.ID, move(0, "first"))
	require.NoError(t, err)
	for ply := 1; ply < 9; ply++ {
		won, conflicts := race(t, 6, func(r int) (string, error) {
			s := ss[r%2]
			if r%2 == 0 {
				_, err := s.Append(ctx, g.ID, move(ply, "m"+strconv.Itoa(r)))
				return "move", err
			}
			_, err := s.Update(ctx, g.ID, store.Update{Ply: ply, To: ply - 1})
			return "takeback", err
		})
		require.Len(t, won, 1, "ply %d: exactly one change wins: %v", ply, won)
		require.Equal(t, 5, conflicts)
		got, err := ss[1].Get(ctx, g.ID)
		require.NoError(t, err)
		if won[0] == "move" {
			require.Equal(t, ply+1, got.Ply())
		} else {
			require.Equal(t, ply-1, got.Ply())
		}
		// Bring the game to ply+1 for the next round.
		for p := got.Ply(); p <= ply; p++ {
			_, err := ss[0].Append(ctx, g.ID, move(p, "fill"))
			require.NoError(t, err)
		}
	}
}

// testClaimExclusive: three claimers (three stores where the backend
// shares) drain the due games; each due game is claimed exactly once, and
// no other game is.
func testClaimExclusive(t *testing.T, b Backend) {
	ctx := Ctx(t)
	ss := openN(t, b, 3)
	due := map[string]bool{}
	for i := range 12 {
		g := NewGame(i%4 != 0) // 9 due, 3 not
		if i == 5 {
			g.Result = &store.Result{} // due but over: never claimed
		}
		require.NoError(t, ss[0].Create(ctx, g))
		if g.ComputerDue && !g.Over() {
			due[g.ID] = true
		}
	}
	require.Len(t, due, 8)
	var mu sync.Mutex
	claimed := map[string][]string{}
	var wg sync.WaitGroup
	for c := range 3 {
		owner := "claimer" + strconv.Itoa(c)
		wg.Go(func() {
			for {
				g, err := ss[c].Claim(ctx, owner, time.Hour)
				if errors.Is(err, store.ErrNotFound) {
					return
				}
				if err != nil {
					t.Errorf("%s: %v", owner, err)
					return
				}
				mu.Lock()
				claimed[g.ID] = append(claimed[g.ID], owner)
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	for id, owners := range claimed {
		assert.True(t, due[id], "claimed game %s was not due", id)
		assert.Len(t, owners, 1, "game %s claimed by %v", id, owners)
	}
	assert.Len(t, claimed, len(due), "every due game is claimed")

	// A move clears the claim: the game is claimable again when the next
	// seat is a computer too.
	var one string
	for id := range due {
		one = id
		break
	}
	_, err := ss[0].Claim(ctx, "late", time.Hour)
	RequireKind(t, err, store.ErrNotFound)
	_, err = ss[1].Append(ctx, one, store.Move{Ply: 0, Token: "a1", ComputerDue: true})
	require.NoError(t, err)
	g, err := ss[2].Claim(ctx, "late", time.Hour)
	require.NoError(t, err)
	assert.Equal(t, one, g.ID)
	assert.Equal(t, []string{"a1"}, g.Record, "Claim returns the record")

	// Release gives it back at once; a wrong owner's Release does not.
	require.NoError(t, ss[0].Release(ctx, one, "someone else"))
	_, err = ss[1].Claim(ctx, "other", time.Hour)
	RequireKind(t, err, store.ErrNotFound)
	require.NoError(t, ss[0].Release(ctx, one, "late"))
	g, err = ss[1].Claim(ctx, "other", time.Hour)
	require.NoError(t, err)
	assert.Equal(t, one, g.ID)

	// An update clears the claim too.
	_, err = ss[0].Update(ctx, one, store.Update{Ply: 1, To: 0, ComputerDue: true})
	require.NoError(t, err)
	g, err = ss[2].Claim(ctx, "after update", time.Hour)
	require.NoError(t, err)
	assert.Equal(t, one, g.ID)
}

// testLeaseExpiry: a lease that has run out is taken over by another
// claimer.
func testLeaseExpiry(t *testing.T, b Backend) {
	ctx := Ctx(t)
	ss := openN(t, b, 2)
	g := NewGame(true)
	require.NoError(t, ss[0].Create(ctx, g))
	first, err := ss[0].Claim(ctx, "dead", time.Millisecond)
	require.NoError(t, err)
	require.Equal(t, g.ID, first.ID)
	time.Sleep(20 * time.Millisecond) // the lease has certainly run out
	second, err := ss[1].Claim(ctx, "alive", time.Hour)
	require.NoError(t, err)
	assert.Equal(t, g.ID, second.ID)
	_, err = ss[0].Claim(ctx, "dead", time.Hour)
	RequireKind(t, err, store.ErrNotFound)
}

// testClaimDeadline: a game whose running clock has run out is claimed
// (to be ended on time), one whose clock still runs or is stopped is not.
func testClaimDeadline(t *testing.T, b Backend) {
	ctx := Ctx(t)
	ss := openN(t, b, 2)
	now := time.Now().UTC()
	clock := func(running int, left time.Duration) *store.Clock {
		return &store.Clock{Initial: time.Minute, Remaining: []time.Duration{left, left}, Running: running, Since: now.Add(-time.Hour)}
	}
	late := NewGame(false)
	late.Seats[1] = store.Seat{Player: "human", Secret: "s"}
	late.Clock = clock(1, time.Minute) // ran out 59 minutes ago
	running := NewGame(false)
	running.Clock = clock(2, 2*time.Hour) // an hour left
	stopped := NewGame(false)
	stopped.Clock = clock(0, time.Second) // no seat's clock runs
	over := NewGame(false)
	over.Clock = clock(1, time.Second)
	over.Result = &store.Result{Method: "rule"}
	for _, g := range []*store.Game{running, stopped, over, late} {
		require.NoError(t, ss[0].Create(ctx, g))
	}
	g, err := ss[1].Claim(ctx, "flag", time.Hour)
	require.NoError(t, err)
	assert.Equal(t, late.ID, g.ID)
	require.NotNil(t, g.Clock)
	assert.True(t, g.Clock.Deadline().Before(now))
	_, err = ss[1].Claim(ctx, "flag", time.Hour)
	RequireKind(t, err, store.ErrNotFound)

	// A move that stops the clock makes the game unclaimable; one that
	// starts the other seat's clock, already run out, makes it claimable.
	_, err = ss[0].Append(ctx, late.ID, store.Move{Ply: 0, Token: "a1", Clock: clock(0, time.Minute)})
	require.NoError(t, err)
	_, err = ss[1].Claim(ctx, "flag", time.Hour)
	RequireKind(t, err, store.ErrNotFound)
	_, err = ss[0].Append(ctx, late.ID, store.Move{Ply: 1, Token: "b1", Clock: clock(1, time.Minute)})
	require.NoError(t, err)
	g, err = ss[1].Claim(ctx, "flag", time.Hour)
	require.NoError(t, err)
	assert.Equal(t, late.ID, g.ID)
	// Ending it on time makes it unclaimable for good.
	_, err = ss[1].Update(ctx, late.ID, store.Update{Ply: 2, To: 2, Clock: g.Clock,
		Result: &store.Result{Winner: 2, Method: "time", Scores: []float64{0, 1}}})
	require.NoError(t, err)
	_, err = ss[0].Claim(ctx, "flag", time.Millisecond)
	RequireKind(t, err, store.ErrNotFound)
}

// testPlayedOnceByThree: three stores (processes) run a computer loop on
// the same games: claim, append a move for the claimed ply. Every ply of
// every game is played exactly once.
func testPlayedOnceByThree(t *testing.T, b Backend) {
	ctx := Ctx(t)
	ss := openN(t, b, 3)
	const games, plies = 4, 6
	for range games {
		require.NoError(t, ss[0].Create(ctx, NewGame(true)))
	}
	var mu sync.Mutex
	played := map[string]int{}
	var wg sync.WaitGroup
	for w := range 3 {
		wg.Go(func() {
			owner := "worker" + strconv.Itoa(w)
			for {
				g, err := ss[w].Claim(ctx, owner, time.Hour)
				if errors.Is(err, store.ErrNotFound) {
					return
				}
				if err != nil {
					t.Error(err)
					return
				}
				ply := len(g.Record)
				m := store.Move{Ply: ply, Token: owner, ComputerDue: ply+1 < plies}
				if ply+1 == plies {
					m.Result = &store.Result{Method: "rule"}
				}
				if _, err := ss[w].Append(ctx, g.ID, m); err != nil {
					t.Errorf("%s appending ply %d of %s it claimed: %v", owner, ply, g.ID, err)
					return
				}
				mu.Lock()
				played[g.ID]++
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	require.Len(t, played, games)
	for id, n := range played {
		assert.Equal(t, plies, n, "game %s", id)
		g, err := ss[0].Get(ctx, id)
		require.NoError(t, err)
		assert.Len(t, g.Record, plies)
		assert.True(t, g.Over())
	}
}

// WaitChange reads ch until a change of game id with ply moves arrives
// (changes may come twice, or merged with later ones: anything else is
// passed over), and fails the test when ctx ends or ch closes first.
func WaitChange(t *testing.T, ctx context.Context, ch <-chan store.Change, id string, ply int) {
	t.Helper()
	for {
		select {
		case c, ok := <-ch:
			require.True(t, ok, "the watch channel closed while waiting for %s at ply %d", id, ply)
			if c.ID == id && c.Ply == ply {
				return
			}
		case <-ctx.Done():
			t.Fatalf("no change of %s at ply %d arrived", id, ply)
		}
	}
}

// testWatch: a watcher on one store sees the changes made through another:
// moves, takebacks, proposals, a rematch; its channel closes when its
// context ends.
func testWatch(t *testing.T, b Backend) {
	ctx := Ctx(t)
	ss := openN(t, b, 2)
	watcher, mover := ss[0], ss[1]
	wctx, stop := context.WithCancel(ctx)
	changes, err := watcher.Watch(wctx)
	require.NoError(t, err)
	g := NewGame(false)
	require.NoError(t, mover.Create(ctx, g))
	for ply := range 3 {
		_, err := mover.Append(ctx, g.ID, move(ply, "t"+strconv.Itoa(ply)))
		require.NoError(t, err)
		WaitChange(t, ctx, changes, g.ID, ply+1)
	}
	_, err = mover.Update(ctx, g.ID, store.Update{Ply: 3, To: 1})
	require.NoError(t, err)
	WaitChange(t, ctx, changes, g.ID, 1)
	_, err = mover.Update(ctx, g.ID, store.Update{Ply: 1, To: 1, Request: &store.Request{Kind: "takeback", Seat: 2, To: 0}})
	require.NoError(t, err)
	WaitChange(t, ctx, changes, g.ID, 1)
	re := NewGame(false)
	re.RematchOf = g.ID
	require.NoError(t, mover.Create(ctx, re))
	WaitChange(t, ctx, changes, g.ID, 1) // the old game now names its rematch
	stop()
	for range changes { // drains and ends: the channel is closed
	}
}

// testWatchClose: closing a store closes its watchers' channels, and a
// closed store refuses new ones and every call.
func testWatchClose(t *testing.T, b Backend) {
	ctx := Ctx(t)
	s, err := b.New(t)(ctx)
	require.NoError(t, err)
	changes, err := s.Watch(ctx)
	require.NoError(t, err)
	require.NoError(t, s.Close())
	for range changes {
	}
	_, err = s.Watch(ctx)
	RequireKind(t, err, store.ErrUnavailable)
	_, err = s.Get(ctx, "x")
	require.Error(t, err)
	require.NoError(t, s.Close(), "a second Close is harmless")
}

// testRestart: a store closed and opened again keeps every game.
func testRestart(t *testing.T, b Backend) {
	if !b.Persistent {
		t.Skip("the backend keeps nothing after its store closes")
	}
	ctx := Ctx(t)
	open := b.New(t)
	s, err := open(ctx)
	require.NoError(t, err)
	g := NewGame(false)
	require.NoError(t, s.Create(ctx, g))
	_, err = s.Append(ctx, g.ID, store.Move{Ply: 0, Token: "a1", ComputerDue: true})
	require.NoError(t, err)
	require.NoError(t, s.Close())

	s = mustOpen(t, open)
	got, err := s.Get(ctx, g.ID)
	require.NoError(t, err)
	assert.Equal(t, []string{"a1"}, got.Record)
	assert.True(t, got.ComputerDue)
	assert.Equal(t, "f00d", got.Fingerprint)
	_, err = s.Append(ctx, g.ID, move(1, "b1"))
	require.NoError(t, err)
}

// testCanceled: a call with a canceled context fails with the context's
// error, and changes nothing.
func testCanceled(t *testing.T, b Backend) {
	ctx := Ctx(t)
	s := openN(t, b, 1)[0]
	g := NewGame(false)
	require.NoError(t, s.Create(ctx, g))
	done, cancel := context.WithCancel(ctx)
	cancel()
	_, err := s.Append(done, g.ID, move(0, "a1"))
	require.ErrorIs(t, err, context.Canceled)
	got, err := s.Get(ctx, g.ID)
	require.NoError(t, err)
	assert.Empty(t, got.Record)
}
