package diag

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"gopkg.in/yaml.v3"
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

// YAMLSyntaxLine returns the line (from 1) of src that yaml.v3's syntax
// error msg ("yaml: line N: what", from decoding src's documents into
// nodes) is about; ok is false when msg gives no line.
//
// yaml.v3 reports the line where the construct the error is in began,
// and for most errors counts it from 0: a key indented wrongly on line 15
// of a mapping that began on line 7 is reported on line 6, a flow mapping
// left open on line 12 on line 11. The line returned is the first one
// after which the text already fails as the whole does: the text up to
// each line is decoded, from yaml.v3's line on, one line at a time while
// that stays cheap and then by halves (the errors of text cut short
// begin where the whole text's do).
func YAMLSyntaxLine(src []byte, msg string) (line int, ok bool) {
	var reported int
	if _, err := fmt.Sscanf(msg, "yaml: line %d:", &reported); err != nil || reported < 0 {
		return 0, false
	}
	ends := lineEnds(src)
	fails := func(n int) bool {
		err := decodeYAML(src[:ends[n-1]])
		return err != nil && err.Error() == msg
	}
	last := len(ends)
	lo := max(reported, 1) // the error is on this line or after it
	if lo > last || !fails(last) {
		return min(max(reported, 1), max(last, 1)), true
	}
	// One line at a time, for at most 64 lines and 4 MB decoded.
	budget := 4 << 20
	for n := lo; n < last && n < lo+64 && budget > 0; n++ {
		if fails(n) {
			return n, true
		}
		budget -= ends[n-1]
		lo = n + 1
	}
	// By halves: the first line in [lo, last] after which it fails.
	hi := last
	for lo < hi {
		mid := lo + (hi-lo)/2
		if fails(mid) {
			hi = mid
		} else {
			lo = mid + 1
		}
	}
	return hi, true
}

// lineEnds returns the offset just past each line of src (its line
// break included: "\n", "\r\n" or "\r"); a last line without a break
// ends at len(src).
func lineEnds(src []byte) []int {
	var ends []int
	for i := 0; i < len(src); i++ {
		switch src[i] {
		case '\r':
			if i+1 < len(src) && src[i+1] == '\n' {
				i++
			}
			ends = append(ends, i+1)
		case '\n':
			ends = append(ends, i+1)
		}
	}
	if len(ends) == 0 || ends[len(ends)-1] < len(src) {
		ends = append(ends, len(src))
	}
	return ends
}

// decodeYAML decodes every document of src into nodes, returning the
// first error.
func decodeYAML(src []byte) error {
	dec := yaml.NewDecoder(bytes.NewReader(src))
	for {
		var n yaml.Node
		if err := dec.Decode(&n); err != nil {
			if errors.Is(err, io.EOF) {
				return nil
			}
			return err
		}
	}
}

// PlaceYAMLSyntax places yaml.v3's syntax error msg, one that gives a
// line ("yaml: line 3: what"), in src and says it in the host's words: the
// line it is about (YAMLSyntaxLine), and "YAML syntax: what", or the tab
// that indents that line (TabIndent) at its column; ok is false when msg
// gives no line.
func PlaceYAMLSyntax(src []byte, msg string) (line, col int, what string, ok bool) {
	line, ok = YAMLSyntaxLine(src, msg)
	if !ok {
		return 0, 0, "", false
	}
	if col, what, ok := TabIndent(src, line, msg); ok {
		return line, col, what, true
	}
	rest := strings.TrimPrefix(msg, "yaml: ")
	if _, after, found := strings.Cut(rest, ":"); found {
		rest = after
	}
	return line, 0, "YAML syntax:" + rest, true
}

// TabIndent says yaml.v3's syntax error msg about line (from 1) of src in
// the host's words when a tab indents that line, which YAML refuses
// (yaml.v3 says "found character that cannot start any token" or "found
// a tab character that violates indentation", among others): it
// returns the column of the first tab and what to do; ok is false for
// another error or line.
func TabIndent(src []byte, line int, msg string) (col int, what string, ok bool) {
	tabWords := strings.Contains(msg, "found character that cannot start any token") ||
		strings.Contains(msg, "found a tab character")
	if !tabWords || line < 1 {
		return 0, "", false
	}
	ends := lineEnds(src)
	if line > len(ends) {
		return 0, "", false
	}
	start := 0
	if line > 1 {
		start = ends[line-2]
	}
	for i, b := range src[start:ends[line-1]] {
		switch b {
		case ' ':
			continue
		case '\t':
			return i + 1, "YAML syntax: a tab indents this line; YAML indents with spaces only", true
		}
		break
	}
	return 0, "", false
}
