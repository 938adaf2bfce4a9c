// Package memwalk measures the memory a Lua state's script holds.
//
// gopher-lua has no allocator hook, and the process heap is shared by every
// game and by the embedding program, so a growing heap does not say which
// script grew it. A machine only notices that the process allocated enough
// for its script to be over its budget (see watchdog.Tripwire.MemoryDue);
// it then measures, on its own goroutine and between two instructions or
// between two calls, what its script holds: every value reachable from the
// machine's Lua registers, globals, registry and rule functions.
// Only that measurement can stop a call with a memory budget error, so
// garbage, other games and the embedding program never count against a
// script. The measurement is an estimate of the Go memory behind the Lua
// values (string bytes once per distinct string, table slots, closures); it
// stops as soon as the limit is passed, so it costs at most about the limit
// divided by the size of the smallest value.
package memwalk

import (
	"errors"
	"reflect"
	"unsafe"

	lua "github.com/yuin/gopher-lua"
)

// Estimated sizes of gopher-lua's values, in bytes.
//
// A table's hash part is two Go maps and a key list: the first key makes
// them (the map of string keys with room for 32, 2.7 KiB in all when a
// script sets a field of an empty table, 0.7 KiB for a table constructor
// with one field, which sizes it), and each key costs its map slots and
// list entry (115 to 185 bytes with the maps' growth). gopher-lua never
// removes a key from its key list (nor the maps' room), so a key set and
// then cleared still costs about 100 bytes and keeps its string alive:
// what counts is every key the table ever had. Measured with Go 1.26 and
// gopher-lua v1.1.2; the estimate is within about 2.5 times of the real
// size of any table (TestHashPartsCount).
const (
	sizeTable     = 96  // the LTable struct and its headers
	sizeSlot      = 16  // one LValue in the array part
	sizeHash      = 512 // a hash part: the key list, its index, the map of other keys
	sizeStrHash   = 896 // the map of string keys, besides
	sizeEntry     = 128 // one key the hash part ever had (map slot, key list, index)
	sizeString    = 16  // the string header
	sizeFunction  = 80
	sizeUpvalue   = 48
	sizeUserData  = 64
	minSharedText = 32 // strings this long are counted once however often they occur
)

// luaInternals reads gopher-lua's unexported fields that the measurement
// needs. When they are missing (an upgrade of gopher-lua renamed them),
// Check reports it and the host refuses to load games, rather than
// measuring nothing or guessing.
type luaInternals struct {
	reg, regArray                          int // field indexes
	tabArray, tabDict, tabStrdict, tabKeys []int
	err                                    error
}

var internals = func() luaInternals {
	var in luaInternals
	st := reflect.TypeOf(lua.LState{})
	f, ok := st.FieldByName("reg")
	if !ok || f.Type.Kind() != reflect.Pointer {
		in.err = errors.New("LState.reg (a pointer to the register stack) is missing")
		return in
	}
	in.reg = f.Index[0]
	rt := f.Type.Elem()
	a, ok := rt.FieldByName("array")
	if !ok || a.Type != reflect.TypeOf([]lua.LValue(nil)) {
		in.err = errors.New("registry.array (a []LValue) is missing")
		return in
	}
	in.regArray = a.Index[0]
	tt := reflect.TypeOf(lua.LTable{})
	for _, c := range []struct {
		name  string
		kind  reflect.Kind
		index *[]int
	}{{"array", reflect.Slice, &in.tabArray}, {"dict", reflect.Map, &in.tabDict}, {"strdict", reflect.Map, &in.tabStrdict}, {"keys", reflect.Slice, &in.tabKeys}} {
		f, ok := tt.FieldByName(c.name)
		if !ok || f.Type.Kind() != c.kind || c.kind == reflect.Slice && f.Type != reflect.TypeOf([]lua.LValue(nil)) {
			in.err = errors.New("LTable." + c.name + " (a " + c.kind.String() + ") is missing")
			return in
		}
		*c.index = f.Index
	}
	return in
}()

// Check reports whether gopher-lua's unexported fields that the
// measurement reads are there. The host refuses to load a game when they
// are not: without them a script's memory cannot be measured.
func Check() error {
	if internals.err != nil {
		return errors.New("gopher-lua's internals that the memory budget reads have changed: " + internals.err.Error() + " (the memory of scripts cannot be measured; use the gopher-lua version in go.mod)")
	}
	return nil
}

// ArrayLen is the length of t's array part, nils included: the work of
// the table functions that walk it (#t searches it from the end for its
// last value). Check must have reported no error.
func ArrayLen(t *lua.LTable) int {
	return field(reflect.ValueOf(t), internals.tabArray).Len()
}

// SlotSize is the estimated size of one value in a table's array part or
// in the register stack.
const SlotSize = sizeSlot

// field returns an unexported field of the struct v points to, readable.
func field(v reflect.Value, index []int) reflect.Value {
	f := v.Elem().FieldByIndex(index)
	return reflect.NewAt(f.Type(), unsafe.Pointer(f.UnsafeAddr())).Elem()
}

// memWalk measures the values reachable from some roots.
type memWalk struct {
	limit   uint64
	total   uint64
	seen    map[unsafe.Pointer]struct{}
	pending []lua.LValue
}

func (w *memWalk) add(v lua.LValue) {
	if v != nil && v != lua.LNil {
		w.pending = append(w.pending, v)
	}
}

// once reports whether p is seen for the first time.
func (w *memWalk) once(p unsafe.Pointer) bool {
	if _, ok := w.seen[p]; ok {
		return false
	}
	w.seen[p] = struct{}{}
	return true
}

// run measures everything pending, stopping once the limit is passed.
func (w *memWalk) run() uint64 {
	for len(w.pending) > 0 && w.total <= w.limit {
		v := w.pending[len(w.pending)-1]
		w.pending = w.pending[:len(w.pending)-1]
		switch x := v.(type) {
		case lua.LString:
			n := len(x)
			if n >= minSharedText && !w.once(unsafe.Pointer(unsafe.StringData(string(x)))) {
				continue
			}
			w.total += sizeString + uint64(n)
		case *lua.LTable:
			if w.once(unsafe.Pointer(x)) {
				w.table(x)
			}
		case *lua.LFunction:
			if !w.once(unsafe.Pointer(x)) {
				continue
			}
			w.total += sizeFunction + sizeUpvalue*uint64(len(x.Upvalues))
			if x.Env != nil {
				w.add(x.Env)
			}
			for _, uv := range x.Upvalues {
				w.add(uv.Value())
			}
		case *lua.LUserData:
			if w.once(unsafe.Pointer(x)) {
				w.total += sizeUserData
				if x.Env != nil {
					w.add(x.Env)
				}
				w.add(x.Metatable)
			}
		}
	}
	return w.total
}

func (w *memWalk) table(t *lua.LTable) {
	w.total += sizeTable
	v := reflect.ValueOf(t)
	w.total += sizeSlot * uint64(field(v, internals.tabArray).Cap())
	dict, strdict := field(v, internals.tabDict), field(v, internals.tabStrdict)
	keys := field(v, internals.tabKeys).Interface().([]lua.LValue)
	if !dict.IsNil() || !strdict.IsNil() || keys != nil {
		w.total += sizeHash
		if !strdict.IsNil() {
			w.total += sizeStrHash
		}
		w.total += sizeEntry * uint64(max(len(keys), dict.Len()+strdict.Len()))
	}
	w.add(t.Metatable)
	// The key list holds every key the hash part ever had, cleared ones
	// too (see sizeEntry); the array part's keys are numbers.
	for _, k := range keys {
		w.add(k)
	}
	t.ForEach(func(k, val lua.LValue) {
		if keys == nil {
			w.add(k)
		}
		w.add(val)
	})
}

// Held estimates the memory L's script holds: the values reachable from
// its registers, registry, globals and environment and from roots. It
// stops early once the total is over limit. It must run on the goroutine
// that runs L (between two instructions, or while L is idle), and Check
// must have reported no error.
func Held(L *lua.LState, limit uint64, roots ...lua.LValue) uint64 {
	w := &memWalk{limit: limit, seen: map[unsafe.Pointer]struct{}{}}
	// Every slot of the register array counts, not only those below the
	// top: gopher-lua moves the top below live locals while a frame runs,
	// and slots above it still keep their values alive.
	reg := field(reflect.ValueOf(L), []int{internals.reg})
	if !reg.IsNil() {
		arr := field(reg, []int{internals.regArray}).Interface().([]lua.LValue)
		w.total += sizeSlot * uint64(cap(arr))
		for _, v := range arr {
			w.add(v)
		}
	}
	w.add(L.G.Registry)
	w.add(L.G.Global)
	w.add(L.Env)
	for _, r := range roots {
		w.add(r)
	}
	return w.run()
}
