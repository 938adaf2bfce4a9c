package host

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// What a script author sees when a variant is asked of a game.
func TestUnknownVariantMessages(t *testing.T) {
	tests := []struct {
		name     string
		variants string // variants.yaml, "" for none
		want     string
	}{
		{"a game without variants", "", `unknown variant "big": the game has no variants`},
		{"a game with variants", "variants:\n  small: {}\n  tiny: {}\n", `unknown variant "big" (allowed: small, tiny)`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			files := map[string]string{"g.lua": miniSource("g", "")}
			if tt.variants != "" {
				files["variants.yaml"] = tt.variants
			}
			_, _, err := loadFolder(t, "g", files, WithVariant("big"))
			require.Error(t, err)
			require.Equal(t, tt.want, err.Error())
		})
	}
}
