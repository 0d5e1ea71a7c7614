package model

import (
	"hash/maphash"

	"github.com/poisonwatch/poisonwatch/mqwatch"
)

// keyIndex finds a message of an inventory by its identity. A map from
// identity to position costs about 100 bytes a message (a million: 100 MB,
// and a third of a second to build); this is an open-addressing table of
// positions, 8 bytes a message, each slot checked against the inventory's
// own identity column. Where identities repeat (MsgIds are not unique) it
// finds the last message with it, as such a map did.
type keyIndex struct {
	inv  *mqwatch.Inventory
	slot []int32 // a position + 1; 0: empty
	seed maphash.Seed
}

func newKeyIndex(inv *mqwatch.Inventory) keyIndex {
	size := 16
	for size < 2*inv.Len() {
		size *= 2
	}
	x := keyIndex{inv: inv, slot: make([]int32, size), seed: maphash.MakeSeed()}
	for i := range inv.Len() {
		h := x.at(inv.Key(i))
		x.slot[h] = int32(i + 1)
	}
	return x
}

// at is the slot of k: the one holding it, else the free one it goes in.
func (x *keyIndex) at(k mqwatch.Key) int {
	mask := len(x.slot) - 1
	h := int(maphash.Comparable(x.seed, k)) & mask
	for x.slot[h] != 0 && x.inv.Key(int(x.slot[h]-1)) != k {
		h = (h + 1) & mask
	}
	return h
}

// find is the position of the message with identity k.
func (x *keyIndex) find(k mqwatch.Key) (int, bool) {
	if len(x.slot) == 0 {
		return 0, false
	}
	if s := x.slot[x.at(k)]; s != 0 {
		return int(s - 1), true
	}
	return 0, false
}
