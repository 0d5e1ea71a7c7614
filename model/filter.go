package model

import (
	"github.com/sahilm/fuzzy"
)

// Match is one item that matched a filter, with the rune positions to highlight.
type Match struct {
	Index   int
	Runes   []int // positions of matched runes in the item's text
	Score   int
	Visible bool
}

// stringSource adapts a text accessor to fuzzy.Source without copying.
type stringSource struct {
	n    int
	text func(int) string
}

func (s stringSource) String(i int) string { return s.text(i) }
func (s stringSource) Len() int            { return s.n }

// Filter fuzzy-matches query against n items whose text is given by text. An
// empty query matches everything in order. Results are best first; fuzzy's
// byte offsets are converted to rune positions so highlighting lands on the
// right cells.
func Filter(query string, n int, text func(int) string) []Match {
	if query == "" {
		out := make([]Match, n)
		for i := range out {
			out[i] = Match{Index: i}
		}
		return out
	}
	found := fuzzy.FindFrom(query, stringSource{n: n, text: text})
	out := make([]Match, len(found))
	for i, f := range found {
		out[i] = Match{Index: f.Index, Score: f.Score, Runes: byteToRune(f.Str, f.MatchedIndexes)}
	}
	return out
}

func byteToRune(s string, idx []int) []int {
	if len(idx) == 0 {
		return nil
	}
	out := make([]int, 0, len(idx))
	want := 0
	r := 0
	for b := range s {
		for want < len(idx) && idx[want] == b {
			out = append(out, r)
			want++
		}
		r++
	}
	return out
}
