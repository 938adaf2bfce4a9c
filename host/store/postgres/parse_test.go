package postgres

import (
	"strconv"
	"testing"

	"github.com/matombo/matombo/host/store"
)

func TestParseChange(t *testing.T) {
	for _, tc := range []struct {
		payload string
		want    store.Change
		ok      bool
	}{
		{"abc 12", store.Change{ID: "abc", Ply: 12}, true},
		{"abc 0", store.Change{ID: "abc", Ply: 0}, true},
		{"abc", store.Change{}, false},
		{" 3", store.Change{}, false},
		{"abc -1", store.Change{}, false},
		{"abc x", store.Change{}, false},
		{"", store.Change{}, false},
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
