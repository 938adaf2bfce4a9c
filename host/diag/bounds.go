package diag

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// ErrTooLarge is in the error of a number past its limit (TooLarge,
// ParseBounded), so that a caller with words of its own for a number
// too small or not a number still names the limit the same way.
var ErrTooLarge = errors.New("too large")

// TooLarge is the error of a number past its limit, in the words of every
// limit the command line and the player specs name: "too large: the
// limit is LIMIT".
func TooLarge(limit any) error {
	return fmt.Errorf("%w: the limit is %v", ErrTooLarge, limit)
}

// ParseBounded parses a whole number from lo to hi, without wrapping: a
// number too large even for int64 is too large like any other (TooLarge);
// one below lo, or no whole number, wants "a whole number from lo to hi".
func ParseBounded(v string, lo, hi int64) (int64, error) {
	t := strings.TrimSpace(v)
	n, err := strconv.ParseInt(t, 10, 64)
	switch {
	case errors.Is(err, strconv.ErrRange) && !strings.HasPrefix(t, "-"):
		return 0, TooLarge(hi)
	case err != nil:
		return 0, fmt.Errorf("want a whole number from %d to %d", lo, hi)
	case n > hi:
		return 0, TooLarge(hi)
	case n < lo:
		return 0, fmt.Errorf("want a whole number from %d to %d", lo, hi)
	}
	return n, nil
}

// ParseDecimal parses a number written in decimal, with an optional sign,
// fraction and exponent (2, 0.5, 1e3), Inf and NaN: what strconv.ParseFloat
// reads but Go's literal forms, underscores and hexadecimal (1_000,
// 0x1p-1), which the whole-number flags and options refuse too. A number
// too large for a float64 is +Inf or -Inf with no error, for the caller
// to call too large.
func ParseDecimal(s string) (float64, error) {
	if strings.ContainsAny(s, "_xXpP") {
		return 0, fmt.Errorf("%q is not a decimal number", s)
	}
	f, err := strconv.ParseFloat(s, 64)
	if errors.Is(err, strconv.ErrRange) {
		return f, nil
	}
	return f, err
}
