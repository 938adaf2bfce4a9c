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
	if err := value(dec, t, 0, maxDepth); err != nil {
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

// value reads the next value of dec, for a Go value of type t (nil: any),
// as Check says; depth is how deeply it nests.
func value(dec *json.Decoder, t reflect.Type, depth, maxDepth int) error {
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
	if depth >= maxDepth {
		return fmt.Errorf("it nests deeper than %d levels", maxDepth)
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
				f, ok := field(t, key)
				if !ok {
					return fmt.Errorf("json: unknown field %q", key)
				}
				sub = f
			}
		}
		if err := value(dec, sub, depth+1, maxDepth); err != nil {
			return err
		}
	}
	_, err = dec.Token() // the closing ] or }
	return err
}

// field returns the type of the field of struct type t that encoding/json
// writes under name, exactly.
func field(t reflect.Type, name string) (reflect.Type, bool) {
	for i := range t.NumField() {
		f := t.Field(i)
		tag, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		switch {
		case !f.IsExported() || tag == "-":
		case tag == name, tag == "" && f.Name == name:
			return f.Type, true
		}
	}
	return nil, false
}
