package mqfmt

import (
	"strings"
	"sync"
)

// Lookups by IBM name, the reverse of the XName functions, for input that
// names constants symbolically (runmqdlq rules tables, command lines). Names
// are IBM's, upper case; every alias IBM defines for a value is accepted
// (MQAT_AIX as well as MQAT_UNIX), since the tables keep one name per value
// but the aliases are in IBM's header too.

// ConstByName returns the value of an MQRC_, MQFB_, MQMT_, MQPER_, MQAT_ or
// MQCCSI_ constant named name (any case).
func ConstByName(name string) (int32, bool) {
	v, ok := constsByName()[strings.ToUpper(name)]
	return v, ok
}

// FormatByName returns the eight-character-or-shorter value (without blank
// padding) of an MQFMT_ name, e.g. "MQSTR" for MQFMT_STRING (any case).
func FormatByName(name string) (string, bool) {
	for _, f := range mqfmtNames {
		if strings.EqualFold(f.name, name) {
			return f.v, true
		}
	}
	return "", false
}

// constAliases are IBM names of values whose table entry carries another of
// their names (names_gen.go keeps one name per value).
var constAliases = map[string]int32{
	"MQAT_AIX": ATUnix, "MQAT_MVS": ATMVS, "MQAT_OS390": ATMVS, "MQAT_GUARDIAN": ATNSK,
	"MQAT_QMGR_PUBLISH":              26, // MQAT_BROKER's other name
	"MQPER_PERSISTENCE_AS_TOPIC_DEF": PerPersistenceAsDef,
}

var constsByName = sync.OnceValue(func() map[string]int32 {
	m := make(map[string]int32, len(mqrcNamesLow)+len(mqrcNamesHigh)+256)
	for _, tab := range [][]constName{mqrcNamesLow[:], mqrcNamesHigh[:], mqfbNames[:], mqmtNames[:],
		mqperNames[:], mqatNames[:], mqccsiNames[:]} {
		for _, c := range tab {
			m[c.name] = c.v
		}
	}
	for n, v := range constAliases {
		m[n] = v
	}
	return m
})
