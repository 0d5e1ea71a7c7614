package mqfmt

import (
	"fmt"
	"sort"
)

// The name tables (names_gen_*.go) are generated from mq-golang's copy of
// IBM's cmqc.h so names and values cannot drift; the meanings next to them
// (explain/*.txt, names_mqmd.go, ...) are written by hand and keyed by IBM
// name, and TestExplanationKeysAreIBMNames keeps the two in step.
//go:generate go run names_gen.go

// constName is one IBM constant: its value and its name.
type constName struct {
	v    int32
	name string
}

// strName is one IBM character constant: its value without blank padding and
// its name.
type strName struct {
	v    string
	name string
}

// lookupConst finds v in a table sorted by value.
func lookupConst(tab []constName, v int32) (string, bool) {
	i := sort.Search(len(tab), func(i int) bool { return tab[i].v >= v })
	if i < len(tab) && tab[i].v == v {
		return tab[i].name, true
	}
	return "", false
}

// mqrcName is IBM's MQRC_* name for v.
func mqrcName(v int32) (string, bool) {
	if v < mqrcNamesHigh[0].v {
		return lookupConst(mqrcNamesLow[:], v)
	}
	return lookupConst(mqrcNamesHigh[:], v)
}

// mqfbName is IBM's MQFB_* name for v.
func mqfbName(v int32) (string, bool) { return lookupConst(mqfbNames[:], v) }

// numberedName is the fallback name of a value IBM gives no name, e.g.
// "MQPER_5": it keeps the family visible so it is not mistaken for a count.
func numberedName(prefix string, v int32) string { return fmt.Sprintf("%s%d", prefix, v) }

// lookupMeaning returns m[name], or "" when name is empty or absent.
func lookupMeaning(m map[string]string, name string) string {
	if name == "" {
		return ""
	}
	return m[name]
}
