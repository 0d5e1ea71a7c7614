package ui

import (
	"fmt"
	"sort"
	"strings"

	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
	"github.com/poisonwatch/poisonwatch/internal/words"
	"github.com/poisonwatch/poisonwatch/model"
	"github.com/poisonwatch/poisonwatch/mqwatch"
)

// markedFrom says which groups a dialog's marked messages come from, when it
// opens on a triage or a group's messages: marks made on one group stay
// marked while another group is open, and the dialog acts on them, not on
// the group on view. It counts them a batch at a time.
func markedFrom(marks *model.Selection, loc model.Location) []string {
	if marks == nil || marks.Len() == 0 || (loc.Screen != model.ScreenGroup && loc.Screen != model.ScreenTriage) {
		return nil
	}
	counts := map[model.GroupKey]int{}
	outside := 0
	for batch := range marks.Batches(1024) {
		for i := range batch {
			k := model.KeyOf(loc.Dim, &batch[i])
			counts[k]++
			if loc.Group != nil && k != *loc.Group {
				outside++
			}
		}
	}
	if loc.Group != nil && outside == 0 {
		return nil // all in the group on view: the screen says which
	}
	keys := make([]model.GroupKey, 0, len(counts))
	for k := range counts {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		if counts[keys[i]] != counts[keys[j]] {
			return counts[keys[i]] > counts[keys[j]]
		}
		return groupLabel(loc.Dim, keys[i]) < groupLabel(loc.Dim, keys[j])
	})
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = groupLabel(loc.Dim, k) + " ×" + human(int64(counts[k]))
	}
	out := []string{fmt.Sprintf("the marked messages come from %s: %s", words.Count(len(keys), "group"), strings.Join(parts, "; "))}
	if outside > 0 {
		out = append(out, fmt.Sprintf("%s of them are not in the %s group on view", human(int64(outside)), groupLabel(loc.Dim, *loc.Group)))
	}
	for i := range out {
		out[i] = mqfmt.Sanitize(out[i])
	}
	return out
}

// hiddenMarks counts the marked messages a queue screen's filter hides: on a
// group's messages, only those of the group (the others are in other
// groups, not behind a filter).
func (s *queueScreen) hiddenMarks(c common) int {
	visible := make(map[mqwatch.Key]bool, s.msgs.Len())
	for i := 0; i < s.msgs.Len(); i++ {
		visible[s.msgs.Key(i)] = true
	}
	n := 0
	for batch := range c.Session().marks.Batches(1024) {
		for i := range batch {
			m := &batch[i]
			if !visible[m.Key()] && (s.loc.Group == nil || model.KeyOf(s.loc.Dim, m) == *s.loc.Group) {
				n++
			}
		}
	}
	return n
}
