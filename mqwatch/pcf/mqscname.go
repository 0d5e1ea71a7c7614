package pcf

import "strings"

// MQSCName writes an object name as MQSC must read it back unchanged. IBM MQ
// object names are case-sensitive, and only unquoted MQSC folds to upper
// case: a name with a lower-case letter, or any character outside A-Z 0-9
// . _ / %, is quoted, an apostrophe inside doubled. A PCF parameter carries
// the name itself and never goes through this.
func MQSCName(name string) string {
	if name != "" && !needsQuote(name) {
		return name
	}
	return "'" + strings.ReplaceAll(name, "'", "''") + "'"
}

func needsQuote(s string) bool {
	for _, r := range s {
		if !(r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("._/%", r)) {
			return true
		}
	}
	return false
}
