package dlqrules

import (
	"slices"
	"strconv"
	"strings"
)

// MaxRules is the most rules a table may have: real tables have tens, and
// the preview's work grows with the rules times the kinds of message.
const MaxRules = 10_000

// maxSubsetPatterns bounds the patterns whose subsets shadows enumerates
// per rule (2^n lookups); a rule with more falls back to comparing with
// every earlier exact rule, which the rule limit bounds.
const maxSubsetPatterns = 10

// exactPair is one pattern of a rule with a fixed value: "KEYWORD=value".
func exactPair(p *Pattern) (string, bool) {
	if p.Any {
		return "", false
	}
	if patternKeywords[p.Keyword].length == 0 {
		return p.Keyword + "=" + strconv.Itoa(int(p.Num)), true
	}
	if strings.ContainsAny(p.Value, "*?") {
		return "", false
	}
	return p.Keyword + "=" + p.Value, true
}

// signature is a rule's fixed patterns, sorted; exact is false when a
// pattern is generic.
func signature(r *Rule) (pairs []string, exact bool) {
	exact = true
	for i := range r.Patterns {
		if s, ok := exactPair(&r.Patterns[i]); ok {
			pairs = append(pairs, s)
		} else if !r.Patterns[i].Any {
			exact = false
		}
	}
	slices.Sort(pairs)
	return pairs, exact
}

// shadows returns, per rule, the number of the first earlier rule that
// covers it (0: none), as comparing every pair would, without comparing
// every pair: an earlier rule whose patterns are all fixed values covers a
// rule exactly when its values are a subset of the rule's fixed values, so
// it is found by looking up the subsets; only earlier generic rules are
// compared one by one.
func shadows(t *Table) []int {
	out := make([]int, len(t.Rules))
	first := map[string]int{} // signature of an exact rule → its first index
	var exactRules, generic []int
	for r := range t.Rules {
		pairs, exact := signature(&t.Rules[r])
		best := len(t.Rules)
		if len(pairs) <= maxSubsetPatterns {
			for mask := 0; mask < 1<<len(pairs); mask++ {
				if a, ok := first[subset(pairs, mask)]; ok && a < best {
					best = a
				}
			}
		} else {
			for _, a := range exactRules {
				if a >= best {
					break
				}
				if covers(&t.Rules[a], &t.Rules[r]) {
					best = a
				}
			}
		}
		for _, a := range generic {
			if a >= best {
				break
			}
			if covers(&t.Rules[a], &t.Rules[r]) {
				best = a
				break
			}
		}
		if best < len(t.Rules) {
			out[r] = best + 1
		}
		if exact {
			if _, ok := first[strings.Join(pairs, "\x00")]; !ok {
				first[strings.Join(pairs, "\x00")] = r
			}
			exactRules = append(exactRules, r)
		} else {
			generic = append(generic, r)
		}
	}
	return out
}

func subset(pairs []string, mask int) string {
	var b strings.Builder
	sep := false
	for i, p := range pairs {
		if mask&(1<<i) == 0 {
			continue
		}
		if sep {
			b.WriteByte(0)
		}
		b.WriteString(p)
		sep = true
	}
	return b.String()
}

// matcher is a table's Match with a memory: messages with the same facts
// (a DEADQ's messages come in few kinds) are matched against the rules once.
type matcher struct {
	t    *Table
	seen map[Facts]Match
}

func newMatcher(t *Table) *matcher { return &matcher{t: t, seen: map[Facts]Match{}} }

// Match is Table.Match.
func (m *matcher) Match(f *Facts) Match {
	if r, ok := m.seen[*f]; ok {
		return r
	}
	r := m.t.Match(f)
	if len(m.seen) < 1<<16 {
		m.seen[*f] = r
	}
	return r
}
