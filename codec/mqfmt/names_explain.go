package mqfmt

import (
	_ "embed"
	"fmt"
	"strings"
	"sync"
)

// The meanings of IBM's names are data, written by hand in explain/*.txt:
// one "NAME<TAB>meaning" line each, sorted by name. Each file is parsed
// once, at its first use, into a map keyed by IBM name.

//go:embed explain/mqrc.txt
var mqrcText string

//go:embed explain/mqfb.txt
var mqfbText string

//go:embed explain/mqro.txt
var mqroText string

var (
	// mqrcExplain summarises the MQRC codes (Reason.Explain).
	mqrcExplain = sync.OnceValue(func() map[string]string { return mustMeanings("mqrc.txt", mqrcText) })
	// mqfbExplain holds the meaning of every named feedback code.
	mqfbExplain = sync.OnceValue(func() map[string]string { return mustMeanings("mqfb.txt", mqfbText) })
	// mqroMeaning explains each report option ReportOptions names.
	mqroMeaning = sync.OnceValue(func() map[string]string { return mustMeanings("mqro.txt", mqroText) })
)

// mqrcExplanation returns the written summary of the MQRC code named name, or
// "" when there is none.
func mqrcExplanation(name string) string { return mqrcExplain()[name] }

// mustMeanings is parseMeanings of an embedded file, which the tests parse
// too: an error is a broken build, not an input to handle.
func mustMeanings(file, text string) map[string]string {
	m, err := parseMeanings(text)
	if err != nil {
		panic(fmt.Sprintf("mqfmt: explain/%s: %v", file, err))
	}
	return m
}

// parseMeanings reads "NAME<TAB>meaning" lines; blank lines and lines
// starting with # are skipped, as is a line's CR. A line without a tab, an empty name or
// meaning, a name out of order or given twice is an error.
func parseMeanings(text string) (map[string]string, error) {
	m := make(map[string]string, strings.Count(text, "\n"))
	last := ""
	for i, line := range strings.Split(text, "\n") {
		line = strings.TrimSuffix(line, "\r") // a checkout with CRLF line ends
		if line == "" || line[0] == '#' {
			continue
		}
		name, meaning, ok := strings.Cut(line, "\t")
		switch {
		case !ok:
			return nil, fmt.Errorf("line %d: no tab between name and meaning", i+1)
		case name == "" || meaning == "":
			return nil, fmt.Errorf("line %d: an empty name or meaning", i+1)
		case strings.TrimSpace(name) != name || strings.TrimSpace(meaning) != meaning || strings.Contains(meaning, "\t"):
			return nil, fmt.Errorf("line %d: %s: spaces around the name or meaning, or a second tab", i+1, name)
		case name == last:
			return nil, fmt.Errorf("line %d: %s given twice", i+1, name)
		case name < last:
			return nil, fmt.Errorf("line %d: %s out of order (after %s)", i+1, name, last)
		}
		m[name], last = meaning, name
	}
	return m, nil
}
