package host

import (
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"sync"

	"github.com/matombo/matombo/host/diag"
	"github.com/matombo/matombo/host/internal/memwalk"
	"github.com/matombo/matombo/host/internal/watchdog"
	"github.com/matombo/matombo/host/luavm"
	"github.com/matombo/matombo/host/params"
	"github.com/matombo/matombo/host/safefile"
	lua "github.com/yuin/gopher-lua"
)

// Library finds game sources in layers: usually the shipped games first,
// then folders a user adds. For each game the script of the last layer that
// has one is used, and the variants files of all layers are merged, later
// ones overriding variants of the same name. A Library is safe for
// concurrent use.
//
// A layer is a folder of games: each game is a folder NAME holding
// NAME.lua (the script), variants.yaml (named variants and data) and
// rules.md (the rules page), each optional; a loose NAME.lua in the layer
// is a script too. A layer may also be a single game folder, recognized by
// holding a script named after the folder.
type Library struct {
	mu     sync.Mutex
	layers []layer
	protos map[[32]byte]*lua.FunctionProto
	order  [][32]byte // the keys of protos, oldest first (see maxProtos)
	bases  *Library   // where extended games are also looked up, see SetBases
}

// maxProtos bounds the compiled scripts a library keeps: listing a folder
// of 10,000 games, or a server whose scripts are edited all day, must not
// keep every version ever compiled. Past it the oldest is compiled again
// when needed.
const maxProtos = 64

type layer struct {
	fsys fs.FS
	root string // shown in paths, e.g. "games" or the folder's path
	os   bool   // root is an operating-system path
	game string // when the layer is a single game folder: its name
}

// NewLibrary returns an empty library.
func NewLibrary() *Library {
	return &Library{protos: map[[32]byte]*lua.FunctionProto{}}
}

// AddFS adds a folder of games from a file system: the games at its root
// or, when it has none there and root names a folder of fsys, the games
// of that folder (an embed.FS of //go:embed games holds the folder games).
// root is how its paths are shown in messages (e.g. "games" for the
// embedded games). A file system without games in either place is an
// error saying so, satisfying errors.Is(err, fs.ErrNotExist).
func (l *Library) AddFS(fsys fs.FS, root string) error {
	if _, err := fs.ReadDir(fsys, "."); err != nil {
		return fmt.Errorf("games folder %s: %w", root, err)
	}
	ly := layer{fsys: fsys, root: root}
	if len(ly.names()) == 0 && root != "." && fs.ValidPath(root) {
		if sub, err := fs.Sub(fsys, root); err == nil {
			if in := (layer{fsys: sub, root: root}); len(in.names()) > 0 {
				ly = in
			}
		}
	}
	if len(ly.names()) == 0 {
		return &folderError{dir: root, err: fs.ErrNotExist,
			msg: "no games found at the root of the file system, nor in a folder " + root + " of it (a game is a folder NAME holding NAME.lua or variants.yaml, or a file NAME.lua)"}
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	l.layers = append(l.layers, ly)
	return nil
}

// AddDir adds a folder of the operating system: a folder of games or a
// single game folder. A folder without a game is an error saying so,
// satisfying errors.Is(err, fs.ErrNotExist).
func (l *Library) AddDir(dir string) error {
	info, err := os.Stat(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return &folderError{dir: dir, msg: "no such folder", err: err}
	}
	if err != nil {
		return fmt.Errorf("games folder %s: %w", dir, err)
	}
	if !info.IsDir() {
		return &folderError{dir: dir, msg: "not a folder"}
	}
	fsys := os.DirFS(dir)
	if _, err := fs.ReadDir(fsys, "."); err != nil {
		return fmt.Errorf("games folder %s: %w", dir, err)
	}
	ly := layer{fsys: fsys, root: dir, os: true}
	base := filepath.Base(filepath.Clean(dir))
	if abs, err := filepath.Abs(dir); err == nil {
		base = filepath.Base(abs)
	}
	if ly.has(base + ".lua") {
		ly.game = base
	}
	if len(ly.names()) == 0 {
		msg := "no games in it (a game is a folder NAME holding NAME.lua or variants.yaml, or a file NAME.lua)"
		bad, unreadable := ly.misnamed()
		if len(bad) > 0 {
			msg += fmt.Sprintf("; not read for their names: %s (a game's name is 1 to 64 lower-case letters, digits, - and _)", diag.ClipText(strings.Join(bad, ", "), diag.MaxLegalText))
		}
		if len(unreadable) > 0 {
			msg += fmt.Sprintf("; cannot be read: %s", diag.ClipText(strings.Join(unreadable, ", "), diag.MaxLegalText))
		}
		return &folderError{dir: dir, err: fs.ErrNotExist, msg: msg}
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	l.layers = append(l.layers, ly)
	return nil
}

// folderError is a games folder that cannot be added. It keeps the file
// system's error: errors.Is(err, fs.ErrNotExist) holds for a missing
// folder.
type folderError struct {
	dir, msg string
	err      error
}

func (e *folderError) Error() string { return "games folder " + e.dir + ": " + e.msg }
func (e *folderError) Unwrap() error { return e.err }

// Code returns "config-error": a games folder is configuration.
func (e *folderError) Code() string { return CodeConfig }

func (ly layer) path(rel string) string {
	if ly.os {
		return filepath.Join(ly.root, filepath.FromSlash(rel))
	}
	return path.Join(ly.root, rel)
}

// gameFile returns the path inside the layer of a game's file, when the
// layer has it. A file that is there but is no plain file (a folder, a
// named pipe, a link to nothing or to itself) counts as there: reading it
// fails naming it, where skipping it would load the game without it (a
// shipped script in place of the folder's, a game without its variants).
func (ly layer) gameFile(name, file string) (string, bool) {
	var rel string
	switch {
	case ly.game != "" && ly.game != name:
		return "", false
	case ly.game != "":
		rel = file
	default:
		rel = path.Join(name, file)
	}
	if !ly.has(rel) {
		return "", false
	}
	return rel, true
}

// has reports whether the layer has an entry rel of any kind: a symbolic
// link counts, whatever it leads to.
func (ly layer) has(rel string) bool {
	_, err := fs.Lstat(ly.fsys, rel)
	return err == nil
}

func (ly layer) script(name string) (string, bool) {
	if rel, ok := ly.gameFile(name, name+".lua"); ok {
		return rel, true
	}
	if ly.game == "" {
		// A loose script: a folder NAME.lua is not one (names skips it).
		if info, err := fs.Lstat(ly.fsys, name+".lua"); err == nil && !info.IsDir() {
			return name + ".lua", true
		}
	}
	return "", false
}

// names lists the games the layer has a script or variants file for.
func (ly layer) names() []string {
	if ly.game != "" {
		return []string{ly.game}
	}
	entries, err := fs.ReadDir(ly.fsys, ".")
	if err != nil {
		return nil
	}
	var out []string
	for _, e := range entries {
		n := e.Name()
		switch {
		case e.IsDir() && luavm.ValidGameName(n):
			if _, ok := ly.script(n); ok {
				out = append(out, n)
			} else if _, ok := ly.gameFile(n, "variants.yaml"); ok {
				out = append(out, n)
			}
		case !e.IsDir() && strings.HasSuffix(n, ".lua") && luavm.ValidGameName(strings.TrimSuffix(n, ".lua")):
			out = append(out, strings.TrimSuffix(n, ".lua"))
		}
	}
	return out
}

// misnamed lists the scripts of the layer that would be games but for
// their names (My Game.lua, Mine/Mine.lua) and the game folders that
// cannot be read (mine/ (permission denied)), so that a folder of only
// such is not just "no games".
func (ly layer) misnamed() (out, unreadable []string) {
	entries, err := fs.ReadDir(ly.fsys, ".")
	if err != nil {
		return nil, nil
	}
	for _, e := range entries {
		n := e.Name()
		switch {
		case e.IsDir() && luavm.ValidGameName(n):
			if _, err := fs.ReadDir(ly.fsys, n); err != nil {
				var pe *fs.PathError
				if errors.As(err, &pe) {
					err = pe.Err
				}
				unreadable = append(unreadable, n+"/ ("+err.Error()+")")
			}
		case e.IsDir():
			if info, err := fs.Stat(ly.fsys, path.Join(n, n+".lua")); err == nil && !info.IsDir() {
				out = append(out, path.Join(n, n+".lua"))
			}
		case !e.IsDir() && strings.HasSuffix(n, ".lua") && !luavm.ValidGameName(strings.TrimSuffix(n, ".lua")):
			out = append(out, n)
		}
	}
	return out, unreadable
}

// Games returns the names of the games that have a script, sorted.
func (l *Library) Games() []string {
	l.mu.Lock()
	layers := append([]layer(nil), l.layers...)
	l.mu.Unlock()
	return gamesIn(layers)
}

// gamesIn lists the names of the games the layers hold, sorted.
func gamesIn(layers []layer) []string {
	seen := map[string]bool{}
	for _, ly := range layers {
		for _, n := range ly.names() {
			seen[n] = true
		}
	}
	var out []string
	for n := range seen {
		for _, ly := range layers {
			if _, ok := ly.script(n); ok {
				out = append(out, n)
				break
			}
		}
	}
	sort.Strings(out)
	return out
}

// Option configures Library.Load.
type Option func(*loadConfig)

type loadConfig struct {
	variants  []string
	overrides []Override
	limits    Limits
	log       io.Writer
	extra     map[string]lua.LGFunction // test-only primitives
}

// WithVariant chooses named variants from the variants files; several
// combine, and they may not set the same parameter to different values.
func WithVariant(names ...string) Option {
	return func(c *loadConfig) { c.variants = append(c.variants, names...) }
}

// WithParam sets a parameter, after any variants. Values are int, bool or
// string; a string is parsed for integer and boolean parameters.
func WithParam(name string, value any) Option {
	return func(c *loadConfig) {
		c.overrides = append(c.overrides, Override{Name: name, Value: value})
	}
}

// WithOverride sets a parameter like WithParam and says where the value
// came from, for messages (e.g. "--param holes=9").
func WithOverride(o Override) Option {
	return func(c *loadConfig) { c.overrides = append(c.overrides, o) }
}

// WithLimits sets the sandbox budgets of every call into the script.
func WithLimits(l Limits) Option {
	return func(c *loadConfig) { c.limits = l }
}

// WithLog sends what scripts print to w (by default it is discarded).
func WithLog(w io.Writer) Option {
	return func(c *loadConfig) { c.log = w }
}

// maxScriptBytes bounds the size of a script or variants file.
const maxScriptBytes = 1 << 20

// Load loads a game by name with the given variants and parameters,
// compiling its script once per library, and plays its setup.
func (l *Library) Load(name string, opts ...Option) (*Game, error) {
	return l.LoadContext(context.Background(), name, opts...)
}

// LoadContext is Load, stopped when ctx is done: the script's chunk and
// its setup stop between two instructions with a *CanceledError (see
// Runner.SetContext). The context applies to loading only, not to the
// calls made later on the game.
func (l *Library) LoadContext(ctx context.Context, name string, opts ...Option) (*Game, error) {
	if err := memwalk.Check(); err != nil {
		return nil, fmt.Errorf("host: %w", err)
	}
	cancel := watchdog.NewCancel(ctx)
	if cancel.Done() {
		return nil, canceled(ctx, Pos{}, CallLoad)
	}
	cfg := loadConfig{}
	for _, o := range opts {
		o(&cfg)
	}
	l.mu.Lock()
	layers := append([]layer(nil), l.layers...)
	l.mu.Unlock()

	var scriptLayer *layer
	var scriptRel string
	scriptIdx := 0
	sources := sha256.New()
	var vfiles []*params.File
	var rules string
	for i := range layers {
		ly := &layers[i]
		if rel, ok := ly.script(name); ok {
			scriptLayer, scriptRel, scriptIdx = ly, rel, i
		}
		if rel, ok := ly.gameFile(name, "variants.yaml"); ok {
			src, err := readLimited(ly, rel)
			if err != nil {
				return nil, err
			}
			vf, err := params.Parse(ly.path(rel), src)
			if err != nil {
				return nil, err
			}
			fp := vf.Fingerprinted()
			fmt.Fprintf(sources, "variants %d\n", len(fp))
			sources.Write(fp)
			vfiles = append(vfiles, vf)
		}
		if rel, ok := ly.gameFile(name, "rules.md"); ok {
			b, err := readLimited(ly, rel)
			if err != nil {
				return nil, err
			}
			if err := diag.CheckPage(ly.path(rel), string(b)); err != nil {
				return nil, err
			}
			rules = string(b)
		}
	}
	if scriptLayer == nil {
		return nil, &ConfigError{Msg: fmt.Sprintf("unknown game %q", name), Allowed: l.Games()}
	}
	file := scriptLayer.path(scriptRel)
	src, err := readLimited(scriptLayer, scriptRel)
	if err != nil {
		return nil, err
	}
	fmt.Fprintf(sources, "script %d\n", len(src))
	sources.Write(src)
	proto, err := l.compile(file, src)
	if err != nil {
		return nil, err
	}
	all := l.baseLayers(layers)
	bases, baseVariants, err := l.resolveBases(all, scriptIdx+len(all)-len(layers), name, file, src, sources)
	if err != nil {
		return nil, err
	}
	vfiles = append(baseVariants, vfiles...)
	variants, data, err := params.Merge(vfiles)
	if err != nil {
		return nil, err
	}
	g := &Game{
		name:      name,
		file:      file,
		source:    scriptLayer.root,
		variants:  variants,
		chosen:    cfg.variants,
		overrides: cfg.overrides,
		rules:     rules,
		sources:   sources.Sum(nil),
	}
	g.prog = &luavm.Program{
		Name: name, File: file, Proto: proto, Bases: bases,
		Data: data, DataFiles: params.DataFiles(vfiles, data),
		Variants: variants, Chosen: cfg.variants, Overrides: cfg.overrides,
		Limits: cfg.limits, Log: cfg.log, Extra: cfg.extra,
		Installed: g.install,
	}
	g.prog.Start()
	vm, err := g.prog.Machine(cancel)
	if err != nil {
		g.Close() // no goroutine outlives a game that did not load
		return nil, err
	}
	s := g.blank()
	err = vm.Setup(&s.k)
	g.release(vm)
	if err != nil {
		g.Close()
		return nil, err
	}
	g.opening, g.total = s, s.total()
	return g, nil
}

// readLimited reads a file of a layer through host/safefile: it must
// be a regular file (a named pipe or device would hang or flood the
// process) of at most maxScriptBytes.
func readLimited(ly *layer, rel string) ([]byte, error) {
	var b []byte
	var err error
	if ly.os {
		b, err = safefile.ReadFile(ly.path(rel), maxScriptBytes)
	} else {
		b, err = safefile.ReadFS(ly.fsys, rel, ly.path(rel), maxScriptBytes)
	}
	if err != nil {
		var se *safefile.Error
		if errors.As(err, &se) {
			return nil, &ConfigError{Pos: Pos{File: se.Path}, Msg: se.Msg, Err: err}
		}
		return nil, &ConfigError{Pos: Pos{File: ly.path(rel)}, Msg: err.Error(), Err: err}
	}
	return b, nil
}

// compile parses, checks and compiles a script, once per content.
func (l *Library) compile(file string, src []byte) (*lua.FunctionProto, error) {
	key := sha256.Sum256(append([]byte(file+"\x00"), src...))
	l.mu.Lock()
	p, ok := l.protos[key]
	l.mu.Unlock()
	if ok {
		return p, nil
	}
	p, err := luavm.Compile(file, src)
	if err != nil {
		return nil, err
	}
	l.mu.Lock()
	if _, ok := l.protos[key]; !ok {
		if len(l.order) == maxProtos {
			delete(l.protos, l.order[0])
			l.order = l.order[1:]
		}
		l.order = append(l.order, key)
	}
	l.protos[key] = p
	l.mu.Unlock()
	return p, nil
}
