package store

import (
	"strconv"
	"testing"
)

func TestParseChange(t *testing.T) {
	for _, tc := range []struct {
		payload string
		want    Change
		ok      bool
	}{
		{"abc 12", Change{ID: "abc", Ply: 12}, true},
		{"abc 0", Change{ID: "abc", Ply: 0}, true},
		{"abc", Change{}, false},
		{" 3", Change{}, false},
		{"abc -1", Change{}, false},
		{"abc x", Change{}, false},
		{"", Change{}, false},
	} {
		got, ok := parseChange(tc.payload)
		if got != tc.want || ok != tc.ok {
			t.Errorf("parseChange(%q) = %+v, %v; want %+v, %v", tc.payload, got, ok, tc.want, tc.ok)
		}
	}
}

// FuzzParseChange: a payload either parses into a change that prints back
// to itself, or is refused; nothing panics.
func FuzzParseChange(f *testing.F) {
	f.Add("abc 12")
	f.Fuzz(func(t *testing.T, payload string) {
		c, ok := parseChange(payload)
		if !ok {
			return
		}
		if c.ID == "" || c.Ply < 0 {
			t.Fatalf("parseChange(%q) = %+v", payload, c)
		}
		if back, ok := parseChange(c.ID + " " + strconv.Itoa(c.Ply)); !ok || back != c {
			t.Fatalf("%+v does not round-trip: %+v %v", c, back, ok)
		}
	})
}

// FuzzIsPostgres: deciding the backend never panics, and a postgres URL
// is always PostgreSQL.
func FuzzIsPostgres(f *testing.F) {
	f.Add("games.db")
	f.Fuzz(func(t *testing.T, dsn string) {
		_ = IsPostgres(dsn)
		if !IsPostgres("postgres://" + dsn) {
			t.Fatal("a postgres:// URL is PostgreSQL")
		}
	})
}
