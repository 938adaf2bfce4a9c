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
	"math/bits"
	"reflect"
	"unsafe"

	lua "github.com/yuin/gopher-lua"
)

// Sizes of gopher-lua's values as Go allocates them, in bytes, measured
// with Go 1.26 and gopher-lua v1.1.2 (TestShapesCount compares the
// estimate with the heap each shape of value takes). Where the walk
// cannot see what was allocated it counts the most it can be, so the
// estimate is never much below what a script really holds, and a script
// is stopped before it holds much more than its budget.
const (
	sizeTable    = 96 // the LTable struct
	sizeSlot     = 16 // one LValue in an array part or the register stack
	sizeStrBox   = 16 // the string header an LString value points to
	minStrBytes  = 16 // a short string's bytes keep a 16-byte block alive
	sizeFunction = 64 // the LFunction struct
	sizeUpvalue  = 56 // an Upvalue struct and its pointer in the function's list
	sizeUserData = 64
	// A number value points into a block of 32 numbers that gopher-lua
	// allocates them from: a number kept alive keeps its block alive,
	// with the numbers a loop computed and dropped. The walk counts each
	// block a number points into once (a number boxed by Go code, or one
	// of the small whole numbers made once, counts its block too).
	sizeNumBlock  = 256
	minSharedText = 32 // strings this long are counted once however often they occur
)

// The shape of Go's maps (Go 1.24 and later): up to 8 entries in one
// group; then tables of groups of 8 slots, each with a control byte,
// grown to keep them at most 7/8 full, of at most 1024 slots, split in
// two when full. A map never gives room back.
const (
	mapHeader     = 48
	tableHeader   = 48
	groupSlots    = 8
	maxTableSlots = 1024
	// A split leaves two tables of 1024 slots with 448 entries each: the
	// most tables n entries can take is n/448.
	leastPerTable = maxTableSlots * 7 / 8 / 2
)

// The key and value sizes of an LTable's maps.
const (
	slotStrdict = 32 // map[string]LValue
	slotDict    = 32 // map[LValue]LValue
	slotK2i     = 24 // map[LValue]int
	// gopher-lua makes the map of string keys with room for 32 when a
	// script sets a field of a table without one; a constructor's fields
	// size it for themselves, often less, which the walk cannot tell.
	strdictHint = 32
)

// allocSize is about what Go allocates for an object of n bytes: its size
// class (classes are at most an eighth apart) or whole 8 KiB pages.
func allocSize(n uint64) uint64 {
	switch {
	case n == 0:
		return 0
	case n <= 16:
		return 16
	case n <= 32<<10:
		return (n + n/8 + 15) &^ 15
	}
	return (n + 8191) &^ 8191
}

// mapBytes is the most memory a Go map takes that was made with room for
// hint entries and has held n entries of slot bytes each.
func mapBytes(n, hint, slot uint64) uint64 {
	n = max(n, hint)
	group := groupSlots * (slot + 1)
	switch {
	case n == 0:
		return mapHeader
	case n <= groupSlots:
		return mapHeader + allocSize(group)
	}
	slots := uint64(1) << bits.Len64(n*8/7)
	if slots <= maxTableSlots {
		return mapHeader + tableHeader + allocSize(slots/groupSlots*group) + 16
	}
	tables := (n + leastPerTable - 1) / leastPerTable
	return mapHeader + tables*(tableHeader+allocSize(maxTableSlots/groupSlots*group)) + 8<<bits.Len64(tables)
}

// luaInternals reads gopher-lua's unexported fields that the measurement
// and the charges of gopher-lua's walks (ArrayLen, NextWork,
// OpenUpvalues) need. When they are missing (an upgrade of gopher-lua renamed them),
// Check reports it and the host refuses to load games, rather than
// measuring nothing or guessing.
type luaInternals struct {
	reg, regArray                          int // field indexes
	tabArray, tabDict, tabStrdict, tabKeys []int
	tabK2i                                 []int
	// The offsets of LState.uvcache, the list of the stack's open
	// upvalues, and of Upvalue.next, its link (see OpenUpvalues).
	uvcache, uvNext uintptr
	err             error
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
	f, ok = tt.FieldByName("k2i")
	if !ok || f.Type != reflect.TypeOf(map[lua.LValue]int(nil)) {
		in.err = errors.New("LTable.k2i (a map[LValue]int) is missing")
		return in
	}
	in.tabK2i = f.Index
	upvalue := reflect.TypeOf((*lua.Upvalue)(nil))
	f, ok = st.FieldByName("uvcache")
	if !ok || f.Type != upvalue || len(f.Index) != 1 {
		in.err = errors.New("LState.uvcache (a *Upvalue) is missing")
		return in
	}
	in.uvcache = f.Offset
	f, ok = upvalue.Elem().FieldByName("next")
	if !ok || f.Type != upvalue {
		in.err = errors.New("Upvalue.next (a *Upvalue) is missing")
		return in
	}
	in.uvNext = f.Offset
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

// NextWork is what t.Next(key) walks to find the key after key, next
// (lua.LNil at the end of the table): slots of the array part from key's
// index (nils included), then keys of the hash part's list of keys from
// key's place in it (each a map lookup; keys cleared since they were set
// included, as gopher-lua keeps them). Check must have reported no error.
func NextWork(t *lua.LTable, key, next lua.LValue) (slots, keys int) {
	v := reflect.ValueOf(t)
	arrayLen := field(v, internals.tabArray).Len()
	k2i := field(v, internals.tabK2i).Interface().(map[lua.LValue]int)
	// Where a walk starts (Next's own reading of key): an index of the
	// array part, or the hash part's start (arrayLen) plus key's place
	// in its key list (0 for a key it has not).
	start := arrayLen + k2i[key]
	switch k := key.(type) {
	case *lua.LNilType:
		start = 0
	case lua.LNumber:
		if i := int(k); float64(i) == float64(k) && i > 0 && i < lua.MaxArrayIndex {
			start = min(i, arrayLen)
		}
	}
	end := arrayLen + field(v, internals.tabKeys).Len()
	if next != lua.LNil {
		end = arrayLen + k2i[next] + 1
		if k, ok := next.(lua.LNumber); ok {
			if i := int(k); float64(i) == float64(k) && i >= 1 && i <= arrayLen {
				end = i
			}
		}
	}
	if start < arrayLen {
		slots = max(min(end, arrayLen)-start, 0)
	}
	return slots, max(end-max(start, arrayLen), 0)
}

// OpenUpvalues is the number of open upvalues of L's stack, counting at
// most most: the local variables of the running functions that closures
// captured. gopher-lua keeps them in one list, ordered by their place on
// the stack, and walks it within one instruction: the whole list at every
// return and at every block's end that closes captured variables, and up
// to a captured variable's place for each variable a new closure captures.
// Check must have reported no error.
func OpenUpvalues(L *lua.LState, most int) int {
	n := 0
	p := *(*unsafe.Pointer)(unsafe.Add(unsafe.Pointer(L), internals.uvcache))
	for p != nil && n < most {
		n++
		p = *(*unsafe.Pointer)(unsafe.Add(p, internals.uvNext))
	}
	return n
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
	limit     uint64
	total     uint64
	seen      map[unsafe.Pointer]struct{}
	blocks    map[uintptr]struct{} // the number blocks counted
	lastBlock uintptr              // the block of the number counted last
	pending   []lua.LValue
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
		case lua.LNumber:
			w.number(v)
		case lua.LString:
			n := len(x)
			if n == 0 || n >= minSharedText && !w.once(unsafe.Pointer(unsafe.StringData(string(x)))) {
				continue
			}
			w.total += sizeStrBox + max(allocSize(uint64(n)), minStrBytes)
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

// number counts the block the number v points into, once.
func (w *memWalk) number(v lua.LValue) {
	// An interface value is a type word and a pointer to its data.
	word := uintptr((*[2]unsafe.Pointer)(unsafe.Pointer(&v))[1])
	block := word &^ (sizeNumBlock - 1)
	if block == w.lastBlock {
		return
	}
	w.lastBlock = block
	if _, ok := w.blocks[block]; ok {
		return
	}
	w.blocks[block] = struct{}{}
	w.total += sizeNumBlock
}

func (w *memWalk) table(t *lua.LTable) {
	v := reflect.ValueOf(t)
	arrayField := field(v, internals.tabArray)
	w.total += sizeTable + allocSize(sizeSlot*uint64(arrayField.Cap()))
	w.add(t.Metatable)
	for _, x := range arrayField.Interface().([]lua.LValue) {
		w.add(x)
	}
	keysField := field(v, internals.tabKeys)
	keys := keysField.Interface().([]lua.LValue)
	if keys == nil {
		return // gopher-lua makes the key list with the first key of the hash part
	}
	// The key list holds every key the hash part ever had, cleared ones
	// too (gopher-lua never removes one), with its index of them; the maps
	// keep the room of every key they had.
	strKeys := uint64(0)
	for _, k := range keys {
		if _, ok := k.(lua.LString); ok {
			strKeys++
		}
		w.add(k)
		w.add(t.RawGetH(k))
	}
	w.total += allocSize(sizeSlot*uint64(keysField.Cap())) + mapBytes(uint64(len(keys)), 0, slotK2i)
	if !field(v, internals.tabStrdict).IsNil() {
		w.total += mapBytes(strKeys, strdictHint, slotStrdict)
	}
	if !field(v, internals.tabDict).IsNil() {
		// The map of other keys is made with room for the string keys
		// the table has then.
		w.total += mapBytes(uint64(len(keys))-strKeys, strKeys, slotDict)
	}
}

// Held estimates the memory L's script holds: the values reachable from
// its registers, registry, globals and environment and from roots. It
// stops early once the total is over limit. It must run on the goroutine
// that runs L (between two instructions, or while L is idle), and Check
// must have reported no error.
func Held(L *lua.LState, limit uint64, roots ...lua.LValue) uint64 {
	w := &memWalk{limit: limit, seen: map[unsafe.Pointer]struct{}{}, blocks: map[uintptr]struct{}{}}
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
