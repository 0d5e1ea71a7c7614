package model

import (
	"sort"
	"strings"
)

// CompleteNames returns the known names that begin with prefix (case does
// not matter: operators type queue names in any case, MQ stores them upper),
// sorted. An empty prefix matches every name.
func CompleteNames(prefix string, known []string) []string {
	p := strings.ToUpper(strings.TrimSpace(prefix))
	var out []string
	for _, n := range known {
		if strings.HasPrefix(strings.ToUpper(n), p) {
			out = append(out, n)
		}
	}
	sort.Strings(out)
	return out
}

// CommonPrefix is the longest prefix every name shares: what tab completion
// can fill in without choosing between them.
func CommonPrefix(names []string) string {
	if len(names) == 0 {
		return ""
	}
	p := names[0]
	for _, n := range names[1:] {
		for !strings.HasPrefix(n, p) {
			p = p[:len(p)-1]
		}
	}
	return p
}

// NearNames suggests existing queues for a name that does not exist (a
// dead letter with reason 2085, MQRC_UNKNOWN_OBJECT_NAME): names within a
// small edit distance (a typo, a missing plural "S") or sharing most of
// their prefix, closest first, at most limit of them. The name itself is
// never suggested.
func NearNames(name string, known []string, limit int) []string {
	want := strings.ToUpper(strings.TrimSpace(name))
	if want == "" {
		return nil
	}
	type cand struct {
		n string
		d int
	}
	var cs []cand
	for _, k := range known {
		ku := strings.ToUpper(k)
		if ku == want {
			continue
		}
		d := editDistance(want, ku)
		tol := max(1, min(len(want), len(ku))/5) // 1 edit per 5 characters
		if d > tol && !sharesMostPrefix(want, ku) {
			continue
		}
		cs = append(cs, cand{k, d})
	}
	sort.SliceStable(cs, func(i, j int) bool {
		if cs[i].d != cs[j].d {
			return cs[i].d < cs[j].d
		}
		return cs[i].n < cs[j].n
	})
	var out []string
	for i := 0; i < len(cs) && i < limit; i++ {
		out = append(out, cs[i].n)
	}
	return out
}

// sharesMostPrefix: the names agree on their first segments up to the last
// one (ORDERS.IN vs ORDERS.INPUT), and on at least 6 characters, so short
// common stems like "SYS" do not count.
func sharesMostPrefix(a, b string) bool {
	n := 0
	for n < len(a) && n < len(b) && a[n] == b[n] {
		n++
	}
	return n >= 6 && n*4 >= max(len(a), len(b))*3
}

// editDistance is the Levenshtein distance between two names.
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
