package luavm

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/matombo/matombo/host/diag"
	"github.com/matombo/matombo/host/internal/globalcheck"
	lua "github.com/yuin/gopher-lua"
	"github.com/yuin/gopher-lua/ast"
	"github.com/yuin/gopher-lua/parse"
)

// Compile parses and compiles a rule script and checks that it uses
// no global variables outside the sandbox. Errors carry the file and line.
func Compile(file string, src []byte) (*lua.FunctionProto, error) {
	chunk, err := parse.Parse(bytes.NewReader(src), file)
	if err != nil {
		var pe *parse.Error
		if errors.As(err, &pe) {
			pos, msg := syntaxErrorAt(file, src, pe)
			return nil, &diag.ScriptError{Pos: pos, Func: "load", Msg: "syntax error: " + msg, Err: err}
		}
		return nil, &diag.ScriptError{Pos: diag.Pos{File: file}, Func: "load", Msg: "syntax error: " + strings.TrimSpace(err.Error()), Err: err}
	}
	if errs := globalcheck.CheckAll(chunk, allowedGlobals()); len(errs) > 0 {
		var d diag.Diagnostics
		for _, e := range errs {
			pos := diag.Pos{File: file, Line: e.Line}
			if e.LastLine > e.Line {
				pos.EndLine = e.LastLine
			}
			d = append(d, &diag.ScriptError{Pos: pos, Func: diag.CallLoad, Msg: e.Msg, Err: e})
		}
		return nil, d.Err()
	}
	rewrite(chunk) // rewrite.go
	proto, err := lua.Compile(chunk, file)
	if err != nil {
		var ce *lua.CompileError
		if errors.As(err, &ce) {
			line, msg := compileErrorLine(ce.Line, ce.Message), ce.Message
			if strings.Contains(msg, "too many local variables") {
				// gopher-lua names the line the function is defined on:
				// none for the script's top level.
				line, msg = tooManyLocals(chunk, line)
			}
			return nil, &diag.ScriptError{Pos: diag.Pos{File: file, Line: line}, Func: "load", Msg: "compile error: " + msg, Err: err}
		}
		return nil, &diag.ScriptError{Pos: diag.Pos{File: file}, Func: "load", Msg: err.Error(), Err: err}
	}
	return proto, nil
}

// syntaxErrorAt places gopher-lua's syntax error pe in src and says it.
// gopher-lua gives the column of a token's last byte, the line after an
// unterminated string, the end of the script for an unterminated long
// string (with the rest of the script as its token), and no line for an
// error at the end: the place is the token's first character (counted in
// characters), the string's opening, the script's last line.
func syntaxErrorAt(file string, src []byte, pe *parse.Error) (diag.Pos, string) {
	msg := strings.TrimPrefix(strings.TrimSpace(pe.Message), "syntax error")
	msg = strings.TrimSpace(strings.TrimPrefix(msg, ":"))
	pos := diag.Pos{File: file, Line: pe.Pos.Line}
	tok := pe.Token
	atEnd := false
	switch {
	case strings.HasPrefix(msg, "unterminated"):
		// The string's opening, where gopher-lua's scanner began it.
		if line, col, ok := failingTokenStart(src); ok {
			pos.Line, pos.Col = line, charColumn(src, line, col)
		}
		// The string so far, its first line: a long string's is the
		// rest of the script.
		if first, _, more := strings.Cut(tok, "\n"); more || utf8.RuneCountInString(first) > 40 {
			tok = string([]rune(first)[:min(40, utf8.RuneCountInString(first))]) + "..."
		}
	case pos.Line < 0:
		// At the end of the script: a statement or block left open.
		pos.Line, atEnd = lastTextLine(src), true
		if msg == "" {
			msg = "the script ends inside a statement or block (an end missing?)"
		}
	case tok != "" && !strings.ContainsAny(tok, "\n\r") && pe.Pos.Column >= len(tok):
		first := pe.Pos.Column - len(tok) + 1
		pos.Col, pos.EndLine, pos.EndCol = charColumn(src, pos.Line, first), pos.Line, charColumn(src, pos.Line, pe.Pos.Column)
	}
	if msg == "" {
		msg = "unexpected text"
	}
	switch {
	case tok != "" && atEnd:
		msg += fmt.Sprintf(" after %q", tok) // the last token read
	case tok != "":
		msg += fmt.Sprintf(" near %q", tok)
	}
	return pos, msg
}

// failingTokenStart scans src with gopher-lua's scanner and returns the
// line and byte column (from 1) where the token it fails on begins.
func failingTokenStart(src []byte) (line, col int, ok bool) {
	sc := parse.NewScanner(bytes.NewReader(src), "")
	lx := &parse.Lexer{}
	for {
		tok, err := sc.Scan(lx)
		if err != nil {
			return tok.Pos.Line, tok.Pos.Column, tok.Pos.Line > 0
		}
		if tok.Type == parse.EOF {
			return 0, 0, false
		}
		lx.PrevTokenType = tok.Type
	}
}

// charColumn is the column, in characters from 1, of byte column b (from
// 1) of line (from 1) of src, its lines ended as gopher-lua ends them
// ("\n", "\r\n" or "\r").
func charColumn(src []byte, line, b int) int {
	for l := 1; l < line; l++ {
		i := bytes.IndexAny(src, "\r\n")
		if i < 0 {
			return b
		}
		if src[i] == '\r' && i+1 < len(src) && src[i+1] == '\n' {
			i++
		}
		src = src[i+1:]
	}
	if end := bytes.IndexAny(src, "\r\n"); end >= 0 {
		src = src[:end]
	}
	if b < 1 || b > len(src) {
		return b
	}
	return utf8.RuneCount(src[:b-1]) + 1
}

// lastTextLine is the last line of src holding more than white space,
// its lines ended as gopher-lua ends them.
func lastTextLine(src []byte) int {
	trimmed := bytes.TrimRight(src, " \t\r\n")
	crlf := bytes.Count(trimmed, []byte("\r\n"))
	return bytes.Count(trimmed, []byte("\n")) + bytes.Count(trimmed, []byte("\r")) - crlf + 1
}

// compileErrorLine is the line of gopher-lua's compile error msg, given
// at line: a goto with no visible label is given at the end of its block
// and a label defined twice on the line after it; both name the line of
// the statement in their words.
func compileErrorLine(line int, msg string) int {
	var label string
	var at int
	switch {
	case strings.HasPrefix(msg, "no visible label "):
		if i := strings.LastIndex(msg, " at line "); i >= 0 {
			if _, err := fmt.Sscanf(msg[i:], " at line %d", &at); err == nil && at > 0 {
				return at
			}
		}
	case strings.HasPrefix(msg, "label "):
		if _, err := fmt.Sscanf(msg, "label %s already defined", &label); err == nil && line > 1 {
			return line - 1
		}
	case strings.HasPrefix(msg, "<goto "):
		if i := strings.Index(msg, "> at line "); i >= 0 {
			if _, err := fmt.Sscanf(msg[i:], "> at line %d", &at); err == nil && at > 0 {
				return at
			}
		}
	}
	return line
}

// maxLocals is how many locals and temporaries a Lua function of
// gopher-lua holds at once (its registers).
const maxLocals = 200

// tooManyLocals is the line and message of gopher-lua's "too many local
// variables" in a function defined on line (0 for the script's top level,
// whose line is then that of the statement declaring its 200th local,
// when there is one).
func tooManyLocals(chunk []ast.Stmt, line int) (int, string) {
	msg := fmt.Sprintf("too many local variables: a function holds at most %d locals and temporaries at once; keep values in a table instead", maxLocals)
	if line > 0 {
		return line, msg + " (in the function defined here)"
	}
	n := 0
	for _, st := range chunk {
		if la, ok := st.(*ast.LocalAssignStmt); ok {
			if n += len(la.Names); n >= maxLocals {
				return la.Line(), msg + fmt.Sprintf(" (the script's top level declares its %dth local here)", maxLocals)
			}
		}
	}
	return 0, msg
}
