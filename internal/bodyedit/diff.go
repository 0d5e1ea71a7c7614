package bodyedit

import "strings"

// maxDiffLines bounds the lines Diff compares as a table; longer texts are
// compared by their common head and tail only, which is what an edit of a
// message body usually changes.
const maxDiffLines = 2000

// Diff returns the changed lines of an edit as "- old" and "+ new", with up
// to context unchanged lines around each change ("  same") and "…" where
// unchanged lines are left out. It is empty when nothing changed.
func Diff(before, after string, context int) []string {
	a, b := strings.Split(before, "\n"), strings.Split(after, "\n")
	head := 0
	for head < len(a) && head < len(b) && a[head] == b[head] {
		head++
	}
	if head == len(a) && head == len(b) {
		return nil
	}
	tail := 0
	for tail < len(a)-head && tail < len(b)-head && a[len(a)-1-tail] == b[len(b)-1-tail] {
		tail++
	}
	ma, mb := a[head:len(a)-tail], b[head:len(b)-tail]
	var mid []string
	if len(ma)*len(mb) <= maxDiffLines*maxDiffLines/4 {
		mid = lcsDiff(ma, mb)
	} else {
		for _, l := range ma {
			mid = append(mid, "- "+l)
		}
		for _, l := range mb {
			mid = append(mid, "+ "+l)
		}
	}
	var out []string
	if head > context {
		out = append(out, "…")
	}
	for _, l := range a[max(0, head-context):head] {
		out = append(out, "  "+l)
	}
	out = append(out, trimContext(mid, context)...)
	end := len(a) - tail
	for _, l := range a[end:min(len(a), end+context)] {
		out = append(out, "  "+l)
	}
	if tail > context {
		out = append(out, "…")
	}
	return out
}

// lcsDiff is the classic longest-common-subsequence line diff.
func lcsDiff(a, b []string) []string {
	n, m := len(a), len(b)
	t := make([][]int, n+1)
	for i := range t {
		t[i] = make([]int, m+1)
	}
	for i := n - 1; i >= 0; i-- {
		for j := m - 1; j >= 0; j-- {
			if a[i] == b[j] {
				t[i][j] = t[i+1][j+1] + 1
			} else {
				t[i][j] = max(t[i+1][j], t[i][j+1])
			}
		}
	}
	var out []string
	i, j := 0, 0
	for i < n || j < m {
		switch {
		case i < n && j < m && a[i] == b[j]:
			out = append(out, "  "+a[i])
			i, j = i+1, j+1
		case i < n && (j == m || t[i+1][j] >= t[i][j+1]):
			out = append(out, "- "+a[i])
			i++
		default:
			out = append(out, "+ "+b[j])
			j++
		}
	}
	return out
}

// trimContext leaves at most context unchanged lines around the changes.
func trimContext(lines []string, context int) []string {
	var out []string
	run := []string{}
	flush := func(last bool) {
		if len(run) > 2*context {
			out = append(out, run[:context]...)
			out = append(out, "…")
			if !last {
				out = append(out, run[len(run)-context:]...)
			}
		} else {
			out = append(out, run...)
		}
		run = run[:0]
	}
	for _, l := range lines {
		if strings.HasPrefix(l, "  ") {
			run = append(run, l)
			continue
		}
		flush(false)
		out = append(out, l)
	}
	flush(false)
	return out
}
