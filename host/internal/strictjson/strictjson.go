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
	"strings"
	"unicode/utf8"
)

// Check reports why data, one JSON value to be decoded into a Go value of
// type t, does not read one way only: it is not UTF-8, an object names a
// key twice, an object decoded into a struct names a key no field of the
// struct is written under exactly (its json tag, or its name without one),
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
		byName = map[string]reflect.Type{}
		addFields(byName, []reflect.Type{t}, 0)
		c.fields[t] = byName
	}
	f, ok := byName[name]
	return f, ok
}

// maxEmbedding bounds how deeply addFields follows embedded structs.
const maxEmbedding = 8

// addFields adds to byName the fields of the struct types ts under the
// names encoding/json writes them with, a name not taken already: their
// own fields first (the first of a name), then, a level at a time, those
// of the structs they embed without a json name, whose fields
// encoding/json writes as their own where no shallower field has the
// name.
func addFields(byName map[string]reflect.Type, ts []reflect.Type, depth int) {
	var embedded []reflect.Type
	for _, t := range ts {
		for i := range t.NumField() {
			f := t.Field(i)
			tag, _, _ := strings.Cut(f.Tag.Get("json"), ",")
			if f.Anonymous && tag == "" && f.Type.Kind() == reflect.Struct {
				embedded = append(embedded, f.Type)
				continue
			}
			if tag == "" {
				tag = f.Name
			}
			if _, taken := byName[tag]; f.IsExported() && tag != "-" && !taken {
				byName[tag] = f.Type // the first field of a name, as before
			}
		}
	}
	if len(embedded) > 0 && depth < maxEmbedding {
		addFields(byName, embedded, depth+1)
	}
}
