package host

import (
	"reflect"
	"unsafe"

	lua "github.com/yuin/gopher-lua"
)

// Memory held by a script.
//
// gopher-lua has no allocator hook, and the process heap is shared by every
// game and by the embedding program, so a growing heap does not say which
// script grew it. The watchdog only notices that the heap grew while a call
// ran (see watchdog.scan); the call then measures, on its own goroutine and
// between two instructions, what its script holds: every value reachable
// from the machine's Lua registers, globals, registry and rule functions.
// Only that measurement can stop a call with a memory budget error, so
// garbage, other games and the embedding program never count against a
// script. The measurement is an estimate of the Go memory behind the Lua
// values (string bytes once per distinct string, table slots, closures); it
// stops as soon as the limit is passed, so it costs at most about the limit
// divided by the size of the smallest value.

// Estimated sizes of gopher-lua's values, in bytes.
const (
	sizeTable     = 96 // the LTable struct and its headers
	sizeSlot      = 16 // one LValue in the array part
	sizeEntry     = 56 // one entry of the hash part (map slot, key list, index)
	sizeString    = 16 // the string header
	sizeFunction  = 80
	sizeUpvalue   = 48
	sizeUserData  = 64
	minSharedText = 32 // strings this long are counted once however often they occur
)

// luaInternals reads gopher-lua's unexported fields that the measurement
// needs; a test checks that they are found, so an upgrade of gopher-lua
// that renames them fails loudly instead of measuring nothing.
type luaInternals struct {
	reg, regArray                         int // field indexes
	tabArray, tabDict, tabStrdict, tabKey []int
	ok                                    bool
}

var internals = func() luaInternals {
	var in luaInternals
	st := reflect.TypeOf(lua.LState{})
	f, ok := st.FieldByName("reg")
	if !ok || f.Type.Kind() != reflect.Pointer {
		return in
	}
	in.reg = f.Index[0]
	rt := f.Type.Elem()
	a, ok := rt.FieldByName("array")
	if !ok || a.Type != reflect.TypeOf([]lua.LValue(nil)) {
		return in
	}
	in.regArray = a.Index[0]
	tt := reflect.TypeOf(lua.LTable{})
	ta, ok1 := tt.FieldByName("array")
	td, ok2 := tt.FieldByName("dict")
	ts, ok3 := tt.FieldByName("strdict")
	tk, ok4 := tt.FieldByName("keys")
	if !ok1 || !ok2 || !ok3 || !ok4 {
		return in
	}
	in.tabArray, in.tabDict, in.tabStrdict, in.tabKey = ta.Index, td.Index, ts.Index, tk.Index
	in.ok = true
	return in
}()

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
	if internals.ok {
		v := reflect.ValueOf(t)
		w.total += sizeSlot * uint64(field(v, internals.tabArray).Cap())
		w.total += sizeEntry * uint64(field(v, internals.tabDict).Len()+field(v, internals.tabStrdict).Len())
	} else {
		w.total += sizeEntry * uint64(t.MaxN())
	}
	w.add(t.Metatable)
	t.ForEach(func(k, val lua.LValue) {
		if !internals.ok {
			w.total += sizeEntry
		}
		w.add(k)
		w.add(val)
	})
}

// heldMemory estimates the memory the machine's script holds, stopping
// early once it is over limit. It must run on the machine's goroutine.
func (vm *machine) heldMemory(limit uint64) uint64 {
	w := &memWalk{limit: limit, seen: map[unsafe.Pointer]struct{}{}}
	L := vm.L
	if internals.ok {
		// Every slot of the register array counts, not only those below
		// the top: gopher-lua moves the top below live locals while a frame
		// runs, and slots above it still keep their values alive.
		reg := field(reflect.ValueOf(L), []int{internals.reg})
		if !reg.IsNil() {
			arr := field(reg, []int{internals.regArray}).Interface().([]lua.LValue)
			w.total += sizeSlot * uint64(cap(arr))
			for _, v := range arr {
				w.add(v)
			}
		}
	}
	w.add(L.G.Registry)
	w.add(L.G.Global)
	w.add(L.Env)
	for _, f := range []lua.LValue{vm.fnSetup, vm.fnLegal, vm.fnPlay, vm.fnBlocked, vm.fnRepeated} {
		w.add(f)
	}
	return w.run()
}
