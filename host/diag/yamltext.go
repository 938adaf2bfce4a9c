package diag

import (
	"bytes"
	"fmt"
	"strings"
	"unicode/utf8"
)

// BadYAMLText finds the first byte sequence of src that a YAML file may
// not hold: invalid UTF-8, or a character outside YAML's printable set (a
// NUL, another control character, U+FFFE, a byte-order mark after the
// start). It returns its line and column (from 1, the column counting
// characters) and what it is; ok is false when src has none. A YAML
// parser reports these without a line ("control characters are not
// allowed"); this is where.
func BadYAMLText(src []byte) (line, col int, what string, ok bool) {
	line, col = 1, 1
	for i := 0; i < len(src); {
		r, size := utf8.DecodeRune(src[i:])
		switch {
		case r == utf8.RuneError && size <= 1:
			return line, col, fmt.Sprintf("the byte 0x%02X, which is not UTF-8 (save the file as UTF-8)", src[i]), true
		case r == '\n':
			line, col = line+1, 0
		case r == '\t' || r == '\r':
		case r == 0xFEFF && i == 0:
		case r < 0x20 || r == 0x7F || (r >= 0x80 && r < 0xA0 && r != 0x85) || (r >= 0xD800 && r <= 0xDFFF) || r == 0xFFFE || r == 0xFFFF || r == 0xFEFF:
			return line, col, fmt.Sprintf("the character %U, which a YAML file may not hold (only printable characters, tabs and line ends)", r), true
		}
		i += size
		col++
	}
	return 0, 0, "", false
}

// PlaceYAMLError places a yaml.v3 error that gives no line ("yaml: unknown
// anchor 'x' referenced", or any error on a file's first line, whose
// 0-based line yaml.v3 takes for unknown) and says it in the host's
// words; ok is false for an error that has a line ("yaml: line 3: ...").
// Call BadYAMLText first: a character YAML refuses is placed there.
func PlaceYAMLError(src []byte, msg string) (line, col int, what string, ok bool) {
	rest, ok := strings.CutPrefix(msg, "yaml: ")
	if !ok || strings.HasPrefix(rest, "line ") {
		return 0, 0, "", false
	}
	if name, ok := strings.CutPrefix(rest, "unknown anchor '"); ok {
		// The alias's first use is the place.
		name = strings.TrimSuffix(name, "' referenced")
		what = fmt.Sprintf("YAML: the alias *%s names no anchor (&%s) before it", name, name)
		if i := bytes.Index(src, []byte("*"+name)); i >= 0 {
			return bytes.Count(src[:i], []byte("\n")) + 1, utf8.RuneCount(src[bytes.LastIndexByte(src[:i], '\n')+1:i]) + 1, what, true
		}
		return 0, 0, what, true
	}
	return 1, 0, "YAML syntax: " + rest, true
}
