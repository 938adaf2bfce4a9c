package diag

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Text a script or a variants file gives the host (titles, descriptions,
// names, token templates, finish reasons and notes) reaches terminals and
// web pages. A control character in it (an escape sequence that clears
// the screen or retitles the window, a carriage return that overwrites a
// line) or a bidirectional override (which reorders what is shown) is
// refused where the text is declared, naming the file and line. Messages
// of errors, which may quote anything a script passed, escape such
// characters instead.

// BadRune returns the first character of s that is not plain printable
// text (newlines are allowed when multiline), with its byte offset.
func BadRune(s string, multiline bool) (r rune, at int, ok bool) {
	for i, c := range s {
		switch {
		case c == utf8.RuneError && !strings.HasPrefix(s[i:], "\uFFFD"):
			return c, i, true // a byte that is not UTF-8
		case c == '\n' && multiline:
		case unicode.IsControl(c), isBidiControl(c):
			return c, i, true
		}
	}
	return 0, 0, false
}

// isBidiControl reports the characters that reorder text (the "Trojan
// Source" overrides and isolates).
func isBidiControl(c rune) bool {
	return c >= '\u202A' && c <= '\u202E' || c >= '\u2066' && c <= '\u2069' || c == '\u200E' || c == '\u200F' || c == '\u061C'
}

// TextProblem describes why s, the named text, is refused, or returns "".
func TextProblem(what, s string, multiline bool) string {
	r, at, bad := BadRune(s, multiline)
	if !bad {
		return ""
	}
	allowed := "printable characters"
	if multiline {
		allowed += " and newlines"
	}
	if r == utf8.RuneError {
		return fmt.Sprintf("%s has a byte that is not UTF-8 text (0x%02x at byte %d): only %s are allowed", what, s[at], at+1, allowed)
	}
	return fmt.Sprintf("%s contains the control character %U at byte %d: only %s are allowed", what, r, at+1, allowed)
}

// EscapeControls shows the control characters of s as escapes (\x1b,
// \u202e), leaving everything else, newlines included, as it is.
func EscapeControls(s string) string {
	if _, _, bad := BadRune(s, true); !bad {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		c, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case c == utf8.RuneError && n <= 1:
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case c == '\n':
			b.WriteByte('\n')
		case c < 0x80 && unicode.IsControl(c):
			fmt.Fprintf(&b, `\x%02x`, c)
		case unicode.IsControl(c), isBidiControl(c):
			fmt.Fprintf(&b, `\u%04x`, c)
		default:
			b.WriteString(s[i : i+n])
		}
		i += n
	}
	return b.String()
}

// CheckPage refuses a page of text (a rules page, printed as it is) with
// control characters other than tabs and line ends, naming its line.
func CheckPage(file, page string) error {
	line := 1
	for i := 0; i < len(page); {
		c, n := utf8.DecodeRuneInString(page[i:])
		switch {
		case c == '\n':
			line++
		case c == '\t', c == '\r' && strings.HasPrefix(page[i+1:], "\n"):
		case c == utf8.RuneError && n <= 1, unicode.IsControl(c), isBidiControl(c):
			what := fmt.Sprintf("the control character %U", c)
			if c == utf8.RuneError {
				what = fmt.Sprintf("a byte that is not UTF-8 text (0x%02x)", page[i])
			}
			return &ConfigError{Pos: Pos{File: file, Line: line}, Msg: "the page contains " + what + ": only printable text, tabs and line ends are allowed"}
		}
		i += n
	}
	return nil
}
