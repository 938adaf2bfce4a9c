package luavm

import (
	"bytes"
	"errors"
	"fmt"
	"strings"

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
			line := pe.Pos.Line
			if line < 0 {
				line = strings.Count(string(src), "\n") + 1
			}
			msg := strings.TrimPrefix(strings.TrimSpace(pe.Message), "syntax error")
			msg = strings.TrimSpace(strings.TrimPrefix(msg, ":"))
			if msg == "" {
				msg = "unexpected text"
			}
			if pe.Token != "" {
				msg += fmt.Sprintf(" near %q", pe.Token)
			}
			pos := diag.Pos{File: file, Line: line, Col: pe.Pos.Column}
			if pe.Token != "" && pos.Col > 0 && !strings.ContainsAny(pe.Token, "\n\r") {
				pos.EndLine, pos.EndCol = line, pos.Col+len(pe.Token)-1
			}
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
	rewriteConcat(chunk)
	proto, err := lua.Compile(chunk, file)
	if err != nil {
		var ce *lua.CompileError
		if errors.As(err, &ce) {
			line, msg := ce.Line, ce.Message
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
