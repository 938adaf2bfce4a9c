package luavm

import (
	"bytes"
	"errors"
	"fmt"
	"strings"

	"github.com/matombo/matombo/host/diag"
	"github.com/matombo/matombo/host/internal/globalcheck"
	lua "github.com/yuin/gopher-lua"
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
			return nil, &diag.ScriptError{Pos: diag.Pos{File: file, Line: ce.Line}, Func: "load", Msg: "compile error: " + ce.Message, Err: err}
		}
		return nil, &diag.ScriptError{Pos: diag.Pos{File: file}, Func: "load", Msg: err.Error(), Err: err}
	}
	return proto, nil
}
