package diag

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestShortList(t *testing.T) {
	abc := []string{"a", "b", "c"}
	tests := []struct {
		name  string
		items []string
		limit int
		want  string
	}{
		{"none", nil, 3, ""},
		{"one", []string{"a"}, 3, "a"},
		{"fewer than the limit", []string{"a", "b"}, 3, "a, b"},
		{"as many as the limit", abc, 3, "a, b, c"},
		{"one more", abc, 2, "a, b and 1 more"},
		{"many more", []string{"a", "b", "c", "d", "e", "f"}, 2, "a, b and 4 more"},
		{"limit 1", abc, 1, "a and 2 more"},
		{"limit 0 shows one", abc, 0, "a and 2 more"},
		{"negative limit shows one", abc, -5, "a and 2 more"},
		{"empty items count", []string{"", "b"}, 1, " and 1 more"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, ShortList(tt.items, tt.limit))
		})
	}
}

func TestShortListOf(t *testing.T) {
	tests := []struct {
		name  string
		first []string
		total int
		want  string
	}{
		{"all shown", []string{"a", "b"}, 2, "a, b"},
		{"total below shown", []string{"a", "b"}, 1, "a, b"},
		{"more left out", []string{"0/4", "1/4"}, 1_000_000_000, "0/4, 1/4 and 999999998 more"},
		{"none shown", nil, 7, "7 more"},
		{"none at all", nil, 0, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, ShortListOf(tt.first, tt.total))
		})
	}
}

func TestAndList(t *testing.T) {
	for _, tt := range []struct {
		items []string
		want  string
	}{
		{nil, ""},
		{[]string{"a1"}, "a1"},
		{[]string{"a1", "a2"}, "a1 and a2"},
		{[]string{"a1", "a2", "a3"}, "a1, a2 and a3"},
	} {
		assert.Equal(t, tt.want, AndList(tt.items), "%q", tt.items)
	}
}

func TestOrList(t *testing.T) {
	for _, tt := range []struct {
		items []string
		want  string
	}{
		{nil, ""},
		{[]string{`"mover"`}, `"mover"`},
		{[]string{`"mover"`, `"next"`}, `"mover" or "next"`},
		{[]string{`"mover"`, `"next"`, `"draw"`}, `"mover", "next" or "draw"`},
	} {
		assert.Equal(t, tt.want, OrList(tt.items), "%q", tt.items)
	}
}
