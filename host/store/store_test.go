package store_test

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/matombo/matombo/host/store"
	"github.com/matombo/matombo/host/store/storetest"
)

// TestMemoryContract: the store in memory keeps the whole contract.
func TestMemoryContract(t *testing.T) {
	storetest.Run(t, storetest.Backend{
		New: func(t *testing.T) storetest.Opener {
			m := store.NewMemory()
			// Every opener call gives the same store: it is shared as
			// processes share a database, and closing it ends it.
			return func(ctx context.Context) (store.Store, error) { return m, nil }
		},
		Shared: false,
	})
}

// TestMemoryUnavailable: a store set unavailable fails every call with
// ErrUnavailable, and works again afterwards.
func TestMemoryUnavailable(t *testing.T) {
	ctx := storetest.Ctx(t)
	m := store.NewMemory()
	defer m.Close()
	g := storetest.NewGame(false)
	require.NoError(t, m.Create(ctx, g))
	m.SetUnavailable(true)
	_, err := m.Get(ctx, g.ID)
	storetest.RequireKind(t, err, store.ErrUnavailable)
	_, err = m.Append(ctx, g.ID, store.Move{Token: "a1"})
	storetest.RequireKind(t, err, store.ErrUnavailable)
	storetest.RequireKind(t, m.Ping(ctx), store.ErrUnavailable)
	m.SetUnavailable(false)
	_, err = m.Append(ctx, g.ID, store.Move{Token: "a1"})
	require.NoError(t, err)
}

// TestOpenNotLinked: a name whose backend is not linked into the program
// (this test binary imports no backend) is refused with the import that
// links it.
func TestOpenNotLinked(t *testing.T) {
	ctx := storetest.Ctx(t)
	for dsn, words := range map[string]string{
		"games.db":                 `no sqlite backend is linked into this program (linked: memory); import _ "github.com/matombo/matombo/host/store/sqlite"`,
		":memory:":                 "no sqlite backend",
		"postgres://u:secret@db/m": `no postgres backend is linked into this program (linked: memory); import _ "github.com/matombo/matombo/host/store/postgres"`,
		"host=db password=secret":  "no postgres backend",
		"mysql://db/m":             "no mysql backend is linked into this program (linked: memory)",
		"memory:x":                 `a store in memory is named "memory:"`,
	} {
		_, err := store.Open(ctx, dsn)
		require.ErrorContains(t, err, words, dsn)
		assert.NotContains(t, err.Error(), "secret")
	}
	s, err := store.Open(ctx, "memory:")
	require.NoError(t, err)
	require.NoError(t, s.Close())
}

func TestScheme(t *testing.T) {
	for dsn, want := range map[string]string{
		"postgres://u@h/db":        "postgres",
		"postgresql://h/db":        "postgres",
		"PostgreSQL://h/db":        "postgres",
		"host=/tmp dbname=matombo": "postgres",
		" dbname = x":              "postgres",
		"games.db":                 "sqlite",
		":memory:":                 "sqlite",
		"/var/lib/matombo/x=y.db":  "sqlite",
		"file:games.db":            "sqlite",
		"C:/games.db":              "sqlite",
		"sqlite:///tmp/games.db":   "sqlite",
		"memory:":                  "memory",
		"memory://":                "memory",
		"mysql://db":               "mysql",
	} {
		assert.Equal(t, want, store.Scheme(dsn), dsn)
	}
}

// FuzzScheme: deciding the backend never panics, and a postgres URL is
// always PostgreSQL.
func FuzzScheme(f *testing.F) {
	f.Add("games.db")
	f.Fuzz(func(t *testing.T, dsn string) {
		_ = store.Scheme(dsn)
		_ = store.Redact(dsn)
		if store.Scheme("postgres://"+dsn) != "postgres" {
			t.Fatal("a postgres:// URL is PostgreSQL")
		}
	})
}

func TestNewSecret(t *testing.T) {
	a, b := store.NewSecret(), store.NewSecret()
	assert.Len(t, a, 32, "128 bits in hex")
	assert.NotEqual(t, a, b)
	assert.Len(t, store.NewID(), 16)
}

func TestRedact(t *testing.T) {
	for dsn, want := range map[string]string{
		"games.db": "games.db",
		":memory:": ":memory:",
		"postgres://u:secret@db:5432/m?sslmode=require": "postgres://u:xxxxx@db:5432/m?sslmode=require",
		"postgresql://u@db/m":                           "postgresql://u@db/m",
		"postgres://u@db/m?password=secret":             "postgres://u@db/m?password=xxxxx",
		"postgres://u:secret@[::1":                      "postgres://...",
		"host=db password=secret dbname=m":              "host=db password=xxxxx dbname=m",
		"host=db password = 'sec ret' dbname=m":         "host=db password = xxxxx dbname=m",
	} {
		got := store.Redact(dsn)
		assert.Equal(t, want, got, dsn)
		assert.NotContains(t, got, "secret")
		assert.NotContains(t, got, "sec ret")
	}
}

func TestClock(t *testing.T) {
	since := time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC)
	c := &store.Clock{Initial: time.Minute, Remaining: []time.Duration{10 * time.Second, 20 * time.Second}, Running: 2, Since: since}
	assert.Equal(t, since.Add(20*time.Second), c.Deadline())
	assert.Equal(t, 15*time.Second, c.Left(2, since.Add(5*time.Second)))
	assert.Equal(t, 10*time.Second, c.Left(1, since.Add(5*time.Second)), "a stopped bank does not run")
	assert.Equal(t, -time.Second, c.Left(2, since.Add(21*time.Second)))
	assert.Equal(t, 20*time.Second, c.Left(2, since.Add(-3*time.Second)), "a bank runs from Since, not before")
	c.Running = 0
	assert.True(t, c.Deadline().IsZero())
	var none *store.Clock
	assert.True(t, none.Deadline().IsZero())
	assert.Nil(t, none.Clone())
}
