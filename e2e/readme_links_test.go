package e2e

import (
	"os"
	"path"
	"regexp"
	"strings"
	"testing"

	"github.com/poisonwatch/poisonwatch/internal/doctext"
)

var (
	mdLinkRE     = regexp.MustCompile(`\]\(([^)\s]+)(?:\s+"[^"]*")?\)`)
	inlineCodeRE = regexp.MustCompile("`[^`]*`")
)

// TestReadmeLinksResolve: every relative link in README.md and docs/*.md
// names a file or directory of the repository, and a #anchor names a
// heading of the page it points to, so a section moved between the README
// and docs/ is still one click away.
func TestReadmeLinksResolve(t *testing.T) {
	files, err := doctext.Files(".")
	if err != nil {
		t.Fatal(err)
	}
	pages := map[string]string{}
	for _, f := range files {
		pages[f.Path] = f.Text
	}
	anchors := map[string]map[string]bool{}
	anchorsOf := func(p string) map[string]bool {
		if a, ok := anchors[p]; ok {
			return a
		}
		text, ok := pages[p]
		if !ok {
			b, err := os.ReadFile(p)
			if err != nil {
				return nil
			}
			text = string(b)
		}
		anchors[p] = doctext.Anchors(text)
		return anchors[p]
	}
	checked := 0
	for _, f := range files {
		for _, l := range relativeLinks(f.Text) {
			checked++
			n, link := l.line, l.target
			target, anchor, _ := strings.Cut(link, "#")
			p := f.Path
			if target != "" {
				p = path.Clean(path.Join(path.Dir(f.Path), target))
				if _, err := os.Stat(p); err != nil {
					t.Errorf("%s:%d: link %q: %s does not exist", f.Path, n, link, p)
					continue
				}
			}
			if anchor == "" || !strings.HasSuffix(p, ".md") {
				continue
			}
			if !anchorsOf(p)[anchor] {
				t.Errorf("%s:%d: link %q: %s has no heading with anchor #%s", f.Path, n, link, p, anchor)
			}
		}
	}
	if checked == 0 {
		t.Fatal("no relative link found in README.md or docs/")
	}
}

type mdLink struct {
	line   int
	target string
}

// relativeLinks returns the relative link targets of a markdown text,
// outside code blocks and inline code.
func relativeLinks(text string) []mdLink {
	var out []mdLink
	fence := false
	for i, line := range strings.Split(text, "\n") {
		if strings.HasPrefix(strings.TrimSpace(line), "```") {
			fence = !fence
			continue
		}
		if fence {
			continue
		}
		line = inlineCodeRE.ReplaceAllString(line, "")
		for _, m := range mdLinkRE.FindAllStringSubmatch(line, -1) {
			l := m[1]
			if strings.Contains(l, "://") || strings.HasPrefix(l, "mailto:") {
				continue
			}
			out = append(out, mdLink{i + 1, l})
		}
	}
	return out
}
