package host

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/matombo/matombo/host/params"
	"github.com/stretchr/testify/require"
	"gopkg.in/yaml.v3"
)

// The JSON Schema of variants files, games/variants.schema.json, checked
// against the shipped variants files and against this package's parser.

// jsonSchema is the subset of JSON Schema (draft-07) that variants.schema.json
// uses; validate checks a decoded YAML value against it. A keyword outside
// the subset fails the test, so the schema cannot use one that is not
// checked here.
type jsonSchema map[string]any

var schemaKeywords = map[string]bool{
	"$schema": true, "$id": true, "title": true, "description": true, "definitions": true,
	"type": true, "properties": true, "additionalProperties": true, "required": true,
	"items": true, "$ref": true, "minimum": true, "maximum": true, "oneOf": true, "enum": true,
	"minLength": true, "maxLength": true, "pattern": true,
}

// checkKeywords reports keywords of s and its subschemas outside the subset.
func checkSchemaKeywords(s jsonSchema, path string) []string {
	var bad []string
	sub := func(v any, p string) {
		if m, ok := v.(map[string]any); ok {
			bad = append(bad, checkSchemaKeywords(m, p)...)
		}
	}
	for k, v := range s {
		if !schemaKeywords[k] {
			bad = append(bad, path+"/"+k)
		}
		switch k {
		case "properties", "definitions":
			for name, x := range v.(map[string]any) {
				sub(x, path+"/"+k+"/"+name)
			}
		case "additionalProperties", "items":
			sub(v, path+"/"+k)
		case "oneOf":
			for i, x := range v.([]any) {
				sub(x, fmt.Sprintf("%s/oneOf/%d", path, i))
			}
		}
	}
	return bad
}

// validate returns the places where v breaks s; root resolves $ref.
func validateSchema(root, s jsonSchema, v any, path string) []string {
	if ref, ok := s["$ref"].(string); ok {
		name, found := strings.CutPrefix(ref, "#/definitions/")
		def, ok := root["definitions"].(map[string]any)[name].(map[string]any)
		if !found || !ok {
			return []string{path + ": unresolved $ref " + ref}
		}
		return validateSchema(root, def, v, path)
	}
	if t, ok := s["type"]; ok && !schemaHasType(t, v) {
		return []string{fmt.Sprintf("%s: %v is not of type %v", path, v, t)}
	}
	var errs []string
	if e, ok := s["enum"].([]any); ok {
		found := false
		for _, x := range e {
			found = found || fmt.Sprint(x) == fmt.Sprint(v)
		}
		if !found {
			errs = append(errs, fmt.Sprintf("%s: %v is not one of %v", path, v, e))
		}
	}
	if n, ok := v.(int); ok {
		if min, ok := s["minimum"].(float64); ok && float64(n) < min {
			errs = append(errs, fmt.Sprintf("%s: %d is below %v", path, n, min))
		}
		if max, ok := s["maximum"].(float64); ok && float64(n) > max {
			errs = append(errs, fmt.Sprintf("%s: %d is above %v", path, n, max))
		}
	}
	if str, ok := v.(string); ok {
		errs = append(errs, validateString(s, str, path)...)
	}
	if alts, ok := s["oneOf"].([]any); ok {
		matched := 0
		for _, a := range alts {
			if len(validateSchema(root, a.(map[string]any), v, path)) == 0 {
				matched++
			}
		}
		if matched != 1 {
			errs = append(errs, fmt.Sprintf("%s: matches %d of the oneOf choices, want 1", path, matched))
		}
	}
	if obj, ok := schemaObject(v); ok {
		props, _ := s["properties"].(map[string]any)
		for _, r := range schemaList(s["required"]) {
			if _, ok := obj[r.(string)]; !ok {
				errs = append(errs, fmt.Sprintf("%s: missing %s", path, r))
			}
		}
		keys := make([]string, 0, len(obj))
		for k := range obj {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			if p, ok := props[k].(map[string]any); ok {
				errs = append(errs, validateSchema(root, p, obj[k], path+"/"+k)...)
				continue
			}
			switch ap := s["additionalProperties"].(type) {
			case bool:
				if !ap {
					errs = append(errs, fmt.Sprintf("%s: unknown key %q", path, k))
				}
			case map[string]any:
				errs = append(errs, validateSchema(root, ap, obj[k], path+"/"+k)...)
			}
		}
	}
	if list, ok := v.([]any); ok {
		if items, ok := s["items"].(map[string]any); ok {
			for i, x := range list {
				errs = append(errs, validateSchema(root, items, x, fmt.Sprintf("%s/%d", path, i))...)
			}
		}
	}
	return errs
}

// validateString checks a string against minLength, maxLength (counted
// in characters) and pattern.
func validateString(s jsonSchema, str, path string) []string {
	var errs []string
	n := float64(utf8.RuneCountInString(str))
	if min, ok := s["minLength"].(float64); ok && n < min {
		errs = append(errs, fmt.Sprintf("%s: %q is shorter than %v", path, str, min))
	}
	if max, ok := s["maxLength"].(float64); ok && n > max {
		errs = append(errs, fmt.Sprintf("%s: %q is longer than %v", path, str, max))
	}
	if p, ok := s["pattern"].(string); ok && !regexp.MustCompile(p).MatchString(str) {
		errs = append(errs, fmt.Sprintf("%s: %q does not match %s", path, str, p))
	}
	return errs
}

func schemaList(v any) []any {
	l, _ := v.([]any)
	return l
}

// asObject returns a YAML mapping with its keys as strings.
func schemaObject(v any) (map[string]any, bool) {
	switch m := v.(type) {
	case map[string]any:
		return m, true
	case map[any]any:
		out := map[string]any{}
		for k, x := range m {
			out[fmt.Sprint(k)] = x
		}
		return out, true
	}
	return nil, false
}

func schemaHasType(t any, v any) bool {
	if list, ok := t.([]any); ok {
		for _, x := range list {
			if schemaHasType(x, v) {
				return true
			}
		}
		return false
	}
	switch t {
	case "object":
		_, ok := schemaObject(v)
		return ok
	case "array":
		_, ok := v.([]any)
		return ok
	case "string":
		_, ok := v.(string)
		return ok
	case "integer":
		_, ok := v.(int)
		return ok
	case "number":
		switch v.(type) {
		case int, float64:
			return true
		}
		return false
	case "boolean":
		_, ok := v.(bool)
		return ok
	case "null":
		return v == nil
	}
	return false
}

func loadSchema(t *testing.T) jsonSchema {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "games", "variants.schema.json"))
	require.NoError(t, err)
	var s jsonSchema
	require.NoError(t, json.Unmarshal(b, &s))
	require.Empty(t, checkSchemaKeywords(s, "#"), "keywords the test's validator does not check")
	return s
}

func schemaYAMLValue(t *testing.T, src []byte) any {
	t.Helper()
	var v any
	require.NoError(t, yaml.Unmarshal(src, &v))
	return v
}

// schemaLinePrefix starts the first line of every shipped variants.yaml:
// the comment that points editors (yaml-language-server) at the schema.
const schemaLinePrefix = "# yaml-language-server: $schema="

// TestVariantsSchemaShipped checks every shipped variants.yaml, and those
// of the documentation's example games, against variants.schema.json, and
// that each names that schema on its first line, so editors check it too.
func TestVariantsSchemaShipped(t *testing.T) {
	s := loadSchema(t)
	files, err := filepath.Glob(filepath.Join("..", "games", "*", "variants.yaml"))
	require.NoError(t, err)
	require.NotEmpty(t, files)
	examples, err := filepath.Glob(filepath.Join("..", "docs", "examples", "*", "*", "variants.yaml"))
	require.NoError(t, err)
	schema, err := filepath.Abs(filepath.Join("..", "games", "variants.schema.json"))
	require.NoError(t, err)
	for _, f := range append(files, examples...) {
		b, err := os.ReadFile(f)
		require.NoError(t, err)
		require.Empty(t, validateSchema(s, s, schemaYAMLValue(t, b), f), f)
		first, _, _ := strings.Cut(string(b), "\n")
		rel, ok := strings.CutPrefix(first, schemaLinePrefix)
		require.True(t, ok, "%s: the first line must be %q followed by the path of games/variants.schema.json", f, schemaLinePrefix)
		named, err := filepath.Abs(filepath.Join(filepath.Dir(f), filepath.FromSlash(rel)))
		require.NoError(t, err)
		require.Equal(t, schema, named, "%s: the first line names the wrong schema", f)
	}
}

// TestVariantsSchemaAgreesWithParser checks that the schema accepts what
// the host's parser accepts, and refuses what it refuses, for the shape of
// a variants file.
func TestVariantsSchemaAgreesWithParser(t *testing.T) {
	s := loadSchema(t)
	tests := []struct {
		name, src string
		ok        bool
	}{
		{"empty file", "", true},
		{"only a comment", "# nothing\n", true},
		{"variants and data", "variants:\n  big:\n    description: A big board.\n    params: {holes: 21, fast: true, board: square}\ndata:\n  boards: {x: [1, 2]}\n", true},
		{"a variant setting nothing", "variants:\n  same: {}\n", true},
		{"negative integer", "variants:\n  v:\n    params: {n: -3}\n", true},
		{"a list at the top", "- variants\n", false},
		{"unknown top key", "variant:\n  big: {}\n", false},
		{"variants as a list", "variants:\n  - big\n", false},
		{"a variant that is a value", "variants:\n  big: 21\n", false},
		{"a variant dropped", "variants:\n  big: null\n  small: ~\n  other:\n", true},
		{"a variant that is text", "variants:\n  big: none\n", false},
		{"unknown key in a variant", "variants:\n  big:\n    parms: {holes: 21}\n", false},
		{"params as a list", "variants:\n  big:\n    params: [holes]\n", false},
		{"a list as a value", "variants:\n  big:\n    params: {holes: [21]}\n", false},
		{"a fraction as a value", "variants:\n  big:\n    params: {holes: 2.5}\n", false},
		{"a missing value", "variants:\n  big:\n    params: {holes: }\n", false},
		{"an integer out of range", "variants:\n  big:\n    params: {holes: 4294967296}\n", false},
		{"data as a list", "data: [1]\n", false},
		{"a description that is a list", "variants:\n  big:\n    description: [a]\n", false},
		{"a title", "variants:\n  big:\n    title: Big board\n", true},
		{"a title of sixty characters", "variants:\n  big:\n    title: " + strings.Repeat("é", 60) + "\n", true},
		{"a title too long", "variants:\n  big:\n    title: " + strings.Repeat("x", 61) + "\n", false},
		{"a title that is a number", "variants:\n  big:\n    title: 2048\n", false},
		{"a title that is a list", "variants:\n  big:\n    title: [a]\n", false},
		{"an empty title", "variants:\n  big:\n    title: \"\"\n", false},
		{"a blank title", "variants:\n  big:\n    title: \"   \"\n", false},
		{"a title of two lines", "variants:\n  big:\n    title: \"Big\\nboard\"\n", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := params.Parse("v.yaml", []byte(tt.src))
			require.Equal(t, tt.ok, err == nil, "parser: %v", err)
			errs := validateSchema(s, s, schemaYAMLValue(t, []byte(tt.src)), "#")
			require.Equal(t, tt.ok, len(errs) == 0, "schema: %v", errs)
		})
	}
}
