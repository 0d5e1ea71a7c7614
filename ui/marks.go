package ui

import "github.com/poisonwatch/poisonwatch/model"

// markRow marks row i of the list: by inventory and index when the list is
// an inventory's (a million marks cost identities, not summaries), else by
// its summary.
func (l *msgList) markRow(sel *model.Selection, i int) {
	if l.inv != nil {
		sel.MarkAt(l.inv, l.idx[i])
		return
	}
	sel.Mark(l.list[i])
}
