package mqwatch

import "strings"

// MatchName reports whether an MQ object name matches pattern: '*' matches any
// run of characters and '?' one, so MQSC generic names ("ORDERS.*") and globs
// ("*.BO") both work. Queue names may contain '/', which '*' also matches.
func MatchName(pattern, name string) bool {
	if pattern == "*" {
		return true
	}
	p, n := 0, 0
	star, mark := -1, 0
	for n < len(name) {
		switch {
		case p < len(pattern) && (pattern[p] == '?' || pattern[p] == name[n]):
			p++
			n++
		case p < len(pattern) && pattern[p] == '*':
			star, mark = p, n
			p++
		case star >= 0:
			p = star + 1
			mark++
			n = mark
		default:
			return false
		}
	}
	return strings.Trim(pattern[p:], "*") == ""
}

// selected applies the watcher's include/exclude rules. The DEADQ is always
// watched; other SYSTEM.* queues never are unless explicitly included.
func selected(name, deadQ string, include, exclude []string) bool {
	if name == deadQ && name != "" {
		return true
	}
	anyMatch := func(pats []string) bool {
		for _, p := range pats {
			if MatchName(p, name) {
				return true
			}
		}
		return false
	}
	if len(include) > 0 && !anyMatch(include) {
		return false
	}
	if strings.HasPrefix(name, "SYSTEM.") && !(len(include) > 0 && anyMatch(include)) {
		return false
	}
	return !anyMatch(exclude)
}
