package record

import (
	"reflect"
	"strings"
	"sync"

	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
	"github.com/poisonwatch/poisonwatch/model"
)

// sanitize makes every string v points to safe for a terminal
// (mqfmt.Sanitize), map keys included, in place. A recording's strings
// (queue manager and queue names, users, error texts, notes) reach the
// screen, a report and its standard output: they are made safe once, as
// they are read, rather than trusted to every place that prints them. It
// walks the value's exported fields by reflection, so a kind of frame added
// later is covered without being listed here. Byte slices (a head's body
// prefix) are message data, shown only through the decoders that sanitise
// message bytes.
func sanitize(v any) {
	sanitizeValue(reflect.ValueOf(v))
}

func sanitizeValue(v reflect.Value) {
	switch v.Kind() {
	case reflect.Pointer, reflect.Interface:
		if !v.IsNil() {
			sanitizeValue(v.Elem())
		}
	case reflect.String:
		if s := v.String(); v.CanSet() {
			if safe := mqfmt.Sanitize(s); safe != s {
				v.SetString(safe)
			}
		}
	case reflect.Struct:
		for _, i := range stringFields(v.Type()) {
			if v.Type() == episodeType && i == episodeKey.Index[0] {
				if f := v.Field(i); f.CanSet() {
					f.SetString(sanitizeKey(f.String()))
				}
				continue
			}
			sanitizeValue(v.Field(i))
		}
	case reflect.Slice, reflect.Array:
		if !hasStrings(v.Type().Elem()) {
			return
		}
		for i := range v.Len() {
			sanitizeValue(v.Index(i))
		}
	case reflect.Map:
		sanitizeMap(v)
	}
}

// An alert's key (model.Alert.Key) joins its queue manager, rule, queue and
// severity with NULs: each part is sanitised and the NULs kept, so the key
// still finds the alert the model raises from the sanitised names.
var (
	episodeType   = reflect.TypeFor[model.Episode]()
	episodeKey, _ = episodeType.FieldByName("Key")
)

func sanitizeKey(k string) string {
	parts := strings.Split(k, "\x00")
	for i, p := range parts {
		parts[i] = mqfmt.Sanitize(p)
	}
	return strings.Join(parts, "\x00")
}

// sanitizeMap sanitises a map's values and keys; a key that changes moves.
func sanitizeMap(m reflect.Value) {
	if m.IsNil() || !hasStrings(m.Type().Key()) && !hasStrings(m.Type().Elem()) {
		return
	}
	for _, k := range m.MapKeys() {
		val := reflect.New(m.Type().Elem()).Elem()
		val.Set(m.MapIndex(k))
		sanitizeValue(val)
		key := reflect.New(m.Type().Key()).Elem()
		key.Set(k)
		sanitizeValue(key)
		if !key.Equal(k) {
			m.SetMapIndex(k, reflect.Value{})
		}
		m.SetMapIndex(key, val)
	}
}

// hasStrings says values of t can hold a string to sanitise: the walk skips
// what cannot (figures, times, MsgIds), which is most of a summary.
func hasStrings(t reflect.Type) bool {
	if v, ok := stringTypes.Load(t); ok {
		return v.(bool)
	}
	has := typeHasStrings(t, map[reflect.Type]bool{})
	stringTypes.Store(t, has)
	return has
}

var (
	stringTypes  sync.Map // reflect.Type → bool
	stringFieldz sync.Map // reflect.Type → []int
)

// stringFields are the exported fields of struct type t that can hold a
// string, worked out once per type.
func stringFields(t reflect.Type) []int {
	if v, ok := stringFieldz.Load(t); ok {
		return v.([]int)
	}
	var out []int
	for i := range t.NumField() {
		if f := t.Field(i); f.IsExported() && hasStrings(f.Type) {
			out = append(out, i)
		}
	}
	stringFieldz.Store(t, out)
	return out
}

func typeHasStrings(t reflect.Type, seen map[reflect.Type]bool) bool {
	if seen[t] {
		return false // a type holding itself: its strings are found elsewhere
	}
	seen[t] = true
	switch t.Kind() {
	case reflect.String, reflect.Interface:
		return true
	case reflect.Pointer, reflect.Slice, reflect.Array:
		return typeHasStrings(t.Elem(), seen)
	case reflect.Map:
		return typeHasStrings(t.Key(), seen) || typeHasStrings(t.Elem(), seen)
	case reflect.Struct:
		for i := range t.NumField() {
			if f := t.Field(i); f.IsExported() && typeHasStrings(f.Type, seen) {
				return true
			}
		}
	}
	return false
}
