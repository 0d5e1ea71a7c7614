package model

import (
	"testing"

	"github.com/poisonwatch/poisonwatch/mqwatch"
)

// FirstInGroup is the first of GroupRows, -1 for a group with no message.
func TestFirstInGroupIsFirstOfGroupRows(t *testing.T) {
	inv := (*mqwatch.Inventory)(nil).Append(rulesMsgs(0, 500)...).DropHead(37)
	for _, d := range DLQDims {
		for _, k := range append(ClassKeys(inv, d), GroupKey{Reason: 9999}) {
			want := -1
			if rows := GroupRows(inv, d, &k); len(rows) > 0 {
				want = rows[0]
			}
			if got := FirstInGroup(inv, d, k); got != want {
				t.Fatalf("dim %v group %v: %d, want %d", d, k, got, want)
			}
		}
	}
}
