package diag

import (
	"errors"
	"math"
	"regexp"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestParseDecimal: decimal numbers parse as strconv.ParseFloat reads
// them, a number too large for a float64 is an infinity for the caller to
// call too large, and Go's literal forms are no numbers.
func TestParseDecimal(t *testing.T) {
	for _, c := range []struct {
		in   string
		want float64
		ok   bool
	}{
		{"2", 2, true},
		{"-0.5", -0.5, true},
		{"+.5e1", 5, true},
		{"1e400", math.Inf(1), true},
		{"-1e400", math.Inf(-1), true},
		{"1e-400", 0, true},
		{"Inf", math.Inf(1), true},
		{"1_000", 0, false},
		{"0x10", 0, false},
		{"0x1p-1", 0, false},
		{"1P2", 0, false},
		{"", 0, false},
		{"1.2.3", 0, false},
	} {
		f, err := ParseDecimal(c.in)
		if !c.ok {
			assert.Error(t, err, c.in)
			continue
		}
		if assert.NoError(t, err, c.in) {
			assert.Equal(t, c.want, f, c.in)
		}
	}
	f, err := ParseDecimal("NaN")
	assert.NoError(t, err)
	assert.True(t, math.IsNaN(f), "NaN is left to the caller")
}

// decimalForm is what ParseDecimal may accept: a decimal number with an
// optional sign, fraction and exponent, or an infinity or NaN by name.
var decimalForm = regexp.MustCompile(`^[+-]?((\d+\.?\d*|\.\d+)([eE][+-]?\d+)?|(?i:inf|infinity|nan))$`)

// FuzzParseDecimal: ParseDecimal accepts decimal numbers only, and reads
// them as strconv.ParseFloat does (a number beyond float64's range as an
// infinity).
func FuzzParseDecimal(f *testing.F) {
	for _, s := range []string{"2", "-0.5", "+.5e1", "1e400", "Inf", "NaN", "1_000", "0x1p-1", "", "1.2.3", "٣"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got, err := ParseDecimal(s)
		if err != nil {
			return
		}
		if !decimalForm.MatchString(s) {
			t.Fatalf("%q accepted as %v: not a decimal number", s, got)
		}
		want, werr := strconv.ParseFloat(s, 64)
		if werr != nil && !errors.Is(werr, strconv.ErrRange) {
			t.Fatalf("%q accepted, but strconv refuses it: %v", s, werr)
		}
		if got != want && !(math.IsNaN(got) && math.IsNaN(want)) {
			t.Fatalf("%q read as %v, strconv reads %v", s, got, want)
		}
	})
}
