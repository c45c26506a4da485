package report

import (
	"bufio"
	"maps"
	"os"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// resultsDoc is the reference of results.json, relative to this package.
const resultsDoc = "../../docs/results.md"

// TestResultsSchemaDocumented checks that docs/results.md documents every field of results.json
// (every JSON name reachable from Run, as a path such as matchups[].luck_adjusted.ci95) with its
// JSON type, and documents no field that Run does not have, so that the reference cannot drift
// from the code.
func TestResultsSchemaDocumented(t *testing.T) {
	want := map[string]string{} // path -> JSON type
	schemaFields(reflect.TypeFor[Run](), "", want)
	got, err := documentedFields(resultsDoc)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) == 0 {
		t.Fatalf("%s: no table with the header | field | type | meaning |", resultsDoc)
	}
	for _, path := range slices.Sorted(maps.Keys(want)) {
		typ, ok := got[path]
		switch {
		case !ok:
			t.Errorf("%s does not document `%s` (%s): add the row | `%s` | %s | ... |", resultsDoc, path, want[path], path, want[path])
		case typ != want[path]:
			t.Errorf("%s documents `%s` as %q, but results.json has %q", resultsDoc, path, typ, want[path])
		}
	}
	for _, path := range slices.Sorted(maps.Keys(got)) {
		if _, ok := want[path]; !ok {
			t.Errorf("%s documents `%s`, which results.json does not have", resultsDoc, path)
		}
	}
}

// schemaFields adds to fields the path and JSON type of every field of the struct type t and,
// recursively, of the objects it holds, each path prefixed with prefix.
func schemaFields(t reflect.Type, prefix string, fields map[string]string) {
	for f := range t.Fields() {
		tag := f.Tag.Get("json")
		if !f.IsExported() || tag == "-" {
			continue
		}
		name, opts, _ := strings.Cut(tag, ",")
		if name == "" {
			name = f.Name
		}
		path := prefix + name
		typ := jsonType(f.Type)
		if opts == "omitempty" {
			typ += ", omitted when empty"
		}
		fields[path] = typ
		// The objects a field holds, through pointers, arrays and slices: elements of an array
		// are written path[].
		e, sub := f.Type, path
		for {
			switch e.Kind() {
			case reflect.Pointer:
				e = e.Elem()
				continue
			case reflect.Slice, reflect.Array:
				e, sub = e.Elem(), sub+"[]"
				continue
			}
			break
		}
		if e.Kind() == reflect.Struct {
			schemaFields(e, sub+".", fields)
		}
	}
}

// jsonType names the JSON type encoding/json writes for a value of type t: "integer", "number",
// "string", "boolean", "object", "array of X", "[X, X]" for a Go array of two, and "X or null"
// for a pointer.
func jsonType(t reflect.Type) string {
	switch t.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return "integer"
	case reflect.Float32, reflect.Float64:
		return "number"
	case reflect.String:
		return "string"
	case reflect.Bool:
		return "boolean"
	case reflect.Struct:
		return "object"
	case reflect.Pointer:
		return jsonType(t.Elem()) + " or null"
	case reflect.Slice:
		e := jsonType(t.Elem())
		if t.Elem().Kind() == reflect.Pointer {
			e = "(" + e + ")"
		}
		return "array of " + e
	case reflect.Array:
		e := jsonType(t.Elem())
		parts := make([]string, t.Len())
		for i := range parts {
			parts[i] = e
		}
		return "[" + strings.Join(parts, ", ") + "]"
	}
	return t.Kind().String()
}

// documentedFields reads the rows of the tables headed | field | type | meaning | in the markdown
// file name, and returns each row's field (the first cell, written as `path`) with its type.
func documentedFields(name string) (map[string]string, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	fields := map[string]string{}
	inTable := false
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if !strings.HasPrefix(line, "|") {
			inTable = false
			continue
		}
		cells := strings.Split(strings.Trim(line, "|"), "|")
		for i := range cells {
			cells[i] = strings.TrimSpace(cells[i])
		}
		if len(cells) >= 3 && cells[0] == "field" && cells[1] == "type" && cells[2] == "meaning" {
			inTable = true
			continue
		}
		if !inTable || len(cells) < 3 || strings.Trim(cells[0], "-:") == "" {
			continue
		}
		path := strings.Trim(cells[0], "`")
		fields[path] = cells[1]
	}
	return fields, sc.Err()
}
