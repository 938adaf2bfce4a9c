// Package strictjson checks that JSON bytes read one way only, as every
// reader of the same bytes would read them, before encoding/json decodes
// them: encoding/json keeps the last of a key given twice (another reader
// the first), takes "GAME" for the field "game", reads a byte that is not
// UTF-8 as U+FFFD, and takes the string "300" for the number 300. A request body or a state refused here cannot mean
// one thing to a proxy or a log and another to the host.
package strictjson

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Check reports why data, one JSON value to be decoded into a Go value of
// type t, does not read one way only: it is not UTF-8, an object names a
// key twice, an object decoded into a struct names a key no field of the
// struct is written under exactly (its json tag, or its name without one;
// those of embedded structs as encoding/json writes them, see fieldsOf),
// a json.Number is given as a string, it nests deeper than maxDepth arrays
// and objects, or something follows the value. t may be nil (any value).
func Check(data []byte, t reflect.Type, maxDepth int) error {
	if !utf8.Valid(data) {
		return errors.New("it is not UTF-8")
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	c := checker{dec: dec, maxDepth: maxDepth, fields: map[reflect.Type]map[string]reflect.Type{}}
	if err := c.value(t, 0); err != nil {
		return err
	}
	if _, err := dec.Token(); err != io.EOF {
		return errors.New("something follows the JSON value")
	}
	return nil
}

// numberType is json.Number, which encoding/json fills from a number or
// from a string holding one ("300").
var numberType = reflect.TypeFor[json.Number]()

// checker is one Check: its decoder, its bound on nesting, and the fields
// of each struct type met so far, by the name encoding/json writes.
type checker struct {
	dec      *json.Decoder
	maxDepth int
	fields   map[reflect.Type]map[string]reflect.Type
}

// value reads the next value of the decoder, for a Go value of type t
// (nil: any), as Check says; depth is how deeply it nests.
func (c *checker) value(t reflect.Type, depth int) error {
	dec := c.dec
	tok, err := dec.Token()
	if err != nil {
		return err
	}
	for t != nil && t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	delim, ok := tok.(json.Delim)
	if !ok {
		// A scalar: its type is the decoder's to check, but for a
		// json.Number, which encoding/json fills from a string too.
		if str, isString := tok.(string); isString && t == numberType {
			return fmt.Errorf("the string %q where a number is wanted", str)
		}
		return nil
	}
	if depth >= c.maxDepth {
		return fmt.Errorf("it nests deeper than %d levels", c.maxDepth)
	}
	var elem reflect.Type
	switch {
	case t == nil:
	case delim == '[' && (t.Kind() == reflect.Slice || t.Kind() == reflect.Array), delim == '{' && t.Kind() == reflect.Map:
		elem = t.Elem()
	}
	seen := map[string]bool{}
	for dec.More() {
		sub := elem
		if delim == '{' {
			tok, err := dec.Token()
			if err != nil {
				return err
			}
			key, _ := tok.(string)
			if seen[key] {
				return fmt.Errorf("the key %q is given twice", key)
			}
			seen[key] = true
			if t != nil && t.Kind() == reflect.Struct {
				f, ok := c.field(t, key)
				if !ok {
					return fmt.Errorf("json: unknown field %q", key)
				}
				sub = f
			}
		}
		if err := c.value(sub, depth+1); err != nil {
			return err
		}
	}
	_, err = dec.Token() // the closing ] or }
	return err
}

// field returns the type of the field of struct type t that encoding/json
// writes under name, exactly. The fields of t are read once a Check.
func (c *checker) field(t reflect.Type, name string) (reflect.Type, bool) {
	byName, ok := c.fields[t]
	if !ok {
		byName = fieldsOf(t)
		c.fields[t] = byName
	}
	f, ok := byName[name]
	return f, ok
}

// named is a field of a struct as encoding/json names it: how deeply it
// is embedded, and whether its json tag gives its name.
type named struct {
	typ    reflect.Type
	depth  int
	tagged bool
}

// fieldsOf returns the fields of struct type t by the names encoding/json
// writes them under, as its rules say: the structs embedded without a
// json name (through a pointer too) give their fields as t's own, a level
// at a time; of the fields of one name, the shallowest is written, and of
// two at that depth the tagged one, or neither when both or neither are.
func fieldsOf(t reflect.Type) map[string]reflect.Type {
	found := map[string][]named{}
	visited := map[reflect.Type]bool{}
	level := []reflect.Type{t}
	for depth := 0; len(level) > 0; depth++ {
		times := map[reflect.Type]int{}
		for _, st := range level {
			times[st]++
		}
		var next []reflect.Type
		for _, st := range level {
			if visited[st] {
				continue
			}
			visited[st] = true
			for i := range st.NumField() {
				name, tagged, embedded, ok := fieldName(st.Field(i))
				switch {
				case !ok:
				case embedded != nil:
					next = append(next, embedded)
				default:
					// A struct embedded twice at one depth gives its
					// fields twice there: neither is written.
					f := named{typ: st.Field(i).Type, depth: depth, tagged: tagged}
					found[name] = append(found[name], f)
					if times[st] > 1 {
						found[name] = append(found[name], f)
					}
				}
			}
		}
		level = next
	}
	byName := make(map[string]reflect.Type, len(found))
	for name, fs := range found {
		if f, ok := dominant(fs); ok {
			byName[name] = f.typ
		}
	}
	return byName
}

// fieldName returns the name encoding/json writes field f under and
// whether its tag gives it, or the struct f embeds without a name, whose
// fields are written as its own; ok is false for a field it never writes.
func fieldName(f reflect.StructField) (name string, tagged bool, embedded reflect.Type, ok bool) {
	tag := f.Tag.Get("json")
	if tag == "-" {
		return "", false, nil, false
	}
	name, _, _ = strings.Cut(tag, ",")
	if !validName(name) {
		name = ""
	}
	ft := f.Type
	if ft.Name() == "" && ft.Kind() == reflect.Pointer {
		ft = ft.Elem()
	}
	if f.Anonymous {
		if !f.IsExported() && ft.Kind() != reflect.Struct {
			return "", false, nil, false
		}
		if name == "" && ft.Kind() == reflect.Struct {
			return "", false, ft, true
		}
	} else if !f.IsExported() {
		return "", false, nil, false
	}
	if name == "" {
		return f.Name, false, nil, true
	}
	return name, true, nil, true
}

// validName reports whether a json tag's name is one encoding/json takes
// (else the field keeps its Go name).
func validName(s string) bool {
	if s == "" {
		return false
	}
	for _, c := range s {
		if !strings.ContainsRune("!#$%&()*+-./:;<=>?@[]^_{|}~ ", c) && !unicode.IsLetter(c) && !unicode.IsDigit(c) {
			return false
		}
	}
	return true
}

// dominant returns the field of fs, those of one name, that encoding/json
// writes: the only one at the shallowest depth, or the only tagged one
// there; false when there is none.
func dominant(fs []named) (named, bool) {
	top := slices.MinFunc(fs, func(a, b named) int { return a.depth - b.depth }).depth
	var best []named
	for _, f := range fs {
		if f.depth == top {
			best = append(best, f)
		}
	}
	if len(best) == 1 {
		return best[0], true
	}
	tagged := slices.DeleteFunc(best, func(f named) bool { return !f.tagged })
	if len(tagged) == 1 {
		return tagged[0], true
	}
	return named{}, false
}
