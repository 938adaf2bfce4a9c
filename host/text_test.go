package host

import (
	"testing"

	"github.com/matombo/matombo/host/diag"
	"github.com/stretchr/testify/assert"
)

func TestTextProblem(t *testing.T) {
	for _, c := range []struct {
		text      string
		multiline bool
		want      string
	}{
		{"Tsoro Yematatu", false, ""},
		{"Goré, «the game»", false, ""},
		{"two\nlines", true, ""},
		{"two\nlines", false, "the title contains the control character U+000A at byte 4: only printable characters are allowed"},
		{"tab\there", true, "the title contains the control character U+0009 at byte 4: only printable characters and newlines are allowed"},
		{"clear\x1b[2J", false, "the title contains the control character U+001B at byte 6"},
		{"bell\a", false, "U+0007"},
		{"del\x7f", false, "U+007F"},
		{"c1 \u009b", false, "U+009B"},
		{"rtl \u202e", false, "U+202E"},
		{"isolate \u2066", false, "U+2066"},
		{"bad \xff byte", false, "the title has a byte that is not UTF-8 text (0xff at byte 5)"},
		{"replacement \uFFFD is text", false, ""},
	} {
		got := diag.TextProblem("the title", c.text, c.multiline)
		if c.want == "" {
			assert.Empty(t, got, "%q", c.text)
		} else {
			assert.Contains(t, got, c.want, "%q", c.text)
		}
	}
}

func TestEscapeControls(t *testing.T) {
	for in, want := range map[string]string{
		"plain":                   "plain",
		"two\nlines":              "two\nlines",
		"clear\x1b[2J":            `clear\x1b[2J`,
		"cr\rtab\t":               `cr\x0dtab\x09`,
		"rtl \u202eevil":          `rtl \u202eevil`,
		"bad \xff":                `bad \xff`,
		"c1 \u009b":               `c1 \u009b`,
		"accents é and \uFFFD ok": "accents é and \uFFFD ok",
	} {
		assert.Equal(t, want, diag.EscapeControls(in), "%q", in)
	}
}

func TestCheckPage(t *testing.T) {
	assert.NoError(t, diag.CheckPage("r.md", "# Rules\r\n\n\tindented\n"))
	err := diag.CheckPage("r.md", "one\ntwo\nthree \x1b[1m\n")
	assert.EqualError(t, err, "r.md:3: the page contains the control character U+001B: only printable text, tabs and line ends are allowed")
	err = diag.CheckPage("r.md", "bad \xfe")
	assert.EqualError(t, err, "r.md:1: the page contains a byte that is not UTF-8 text (0xfe): only printable text, tabs and line ends are allowed")
	err = diag.CheckPage("r.md", "lone\rreturn")
	assert.ErrorContains(t, err, "U+000D")
}
