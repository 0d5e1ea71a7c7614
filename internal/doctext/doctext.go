// Package doctext reads the project's documentation, README.md and the
// pages under docs/, so tests that run the documented examples keep
// finding them when a section moves from the README to a docs page.
package doctext

import (
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"unicode"
)

// File is one documentation file: its path relative to the repository
// root and its text.
type File struct {
	Path string
	Text string
}

// Files returns README.md, then every docs/*.md in name order.
func Files(root string) ([]File, error) {
	names, err := filepath.Glob(filepath.Join(root, "docs", "*.md"))
	if err != nil {
		return nil, err
	}
	sort.Strings(names)
	names = append([]string{filepath.Join(root, "README.md")}, names...)
	var out []File
	for _, n := range names {
		b, err := os.ReadFile(n)
		if err != nil {
			return nil, err
		}
		rel, err := filepath.Rel(root, n)
		if err != nil {
			return nil, err
		}
		out = append(out, File{Path: filepath.ToSlash(rel), Text: string(b)})
	}
	return out, nil
}

// All returns README.md and every docs page, one after the other.
func All(root string) (string, error) {
	fs, err := Files(root)
	if err != nil {
		return "", err
	}
	var b strings.Builder
	for _, f := range fs {
		b.WriteString(f.Text)
		b.WriteString("\n")
	}
	return b.String(), nil
}

var (
	headingRE     = regexp.MustCompile(`^(#{1,6}) (.*)$`)
	headingLinkRE = regexp.MustCompile(`\[([^\]]*)\]\([^)]*\)`)
)

// Section returns every section, in README.md or a docs page, whose
// heading (of any level) starts with title: from the heading to the next
// heading of the same or a higher level, outside code blocks. A section
// moved to a docs page leaves a summary under the same heading in the
// README; both are returned, joined, so callers see the full text
// wherever it lives. It returns "" when no heading matches.
func Section(root, title string) (string, error) {
	return find(root, func(h string) bool { return strings.HasPrefix(h, title) })
}

// SectionExact is Section for the headings that are exactly title
// ("Keys", not "Keys file and roles").
func SectionExact(root, title string) (string, error) {
	return find(root, func(h string) bool { return h == title })
}

func find(root string, match func(heading string) bool) (string, error) {
	fs, err := Files(root)
	if err != nil {
		return "", err
	}
	var parts []string
	for _, f := range fs {
		parts = append(parts, sections(f.Text, match)...)
	}
	return strings.Join(parts, "\n"), nil
}

func sections(text string, match func(string) bool) []string {
	lines := strings.Split(text, "\n")
	var out []string
	level, start := 0, -1
	fence := false
	flush := func(end int) {
		if start >= 0 {
			out = append(out, strings.Join(lines[start:end], "\n"))
		}
		level, start = 0, -1
	}
	for i, l := range lines {
		if strings.HasPrefix(l, "```") {
			fence = !fence
		}
		m := headingRE.FindStringSubmatch(l)
		if fence || m == nil {
			continue
		}
		if start >= 0 && len(m[1]) <= level {
			flush(i)
		}
		if start < 0 && match(m[2]) {
			level, start = len(m[1]), i
		}
	}
	flush(len(lines))
	return out
}

// Headings returns the headings of text outside code blocks, as written.
func Headings(text string) []string {
	var out []string
	fence := false
	for _, l := range strings.Split(text, "\n") {
		if strings.HasPrefix(l, "```") {
			fence = !fence
			continue
		}
		if m := headingRE.FindStringSubmatch(l); m != nil && !fence {
			out = append(out, m[2])
		}
	}
	return out
}

// Anchors returns the anchors GitHub gives the headings of text: lower
// case, punctuation dropped, spaces as hyphens, a repeated one suffixed
// -1, -2 and so on.
func Anchors(text string) map[string]bool {
	seen := map[string]int{}
	out := map[string]bool{}
	for _, h := range Headings(text) {
		s := Slug(h)
		a := s
		if n := seen[s]; n > 0 {
			a = s + "-" + strconv.Itoa(n)
		}
		seen[s]++
		out[a] = true
	}
	return out
}

// Slug is GitHub's anchor for a heading's text: a link in it counts as its
// text; letters, marks, numbers, '_' and '-' stay.
func Slug(heading string) string {
	var b strings.Builder
	heading = headingLinkRE.ReplaceAllString(heading, "$1")
	for _, r := range strings.ToLower(strings.TrimSpace(heading)) {
		switch {
		case r == ' ':
			b.WriteRune('-')
		case r == '-' || unicode.In(r, unicode.L, unicode.M, unicode.N, unicode.Pc):
			b.WriteRune(r)
		}
	}
	return b.String()
}
