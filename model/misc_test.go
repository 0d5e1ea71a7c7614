package model

import (
	"testing"

	"github.com/poisonwatch/poisonwatch/mqwatch"
)

func TestFilterHighlightsRunes(t *testing.T) {
	items := []string{"ORDERS.IN", "PAYMENTS.IN", "ÄRGER.BO"}
	got := Filter("rgb", len(items), func(i int) string { return items[i] })
	if len(got) != 1 || got[0].Index != 2 {
		t.Fatalf("matches %+v", got)
	}
	if r := got[0].Runes; len(r) != 3 || r[0] != 1 || r[2] != 6 {
		t.Fatalf("rune positions %v, want [1 2 6] (after the 2-byte Ä)", r)
	}
	if all := Filter("", 3, func(i int) string { return items[i] }); len(all) != 3 {
		t.Fatal("empty query must match all")
	}
}

func TestSelection(t *testing.T) {
	s := NewSelection()
	a, b := msg(1, 0), msg(2, 0)
	s.Toggle(a)
	s.Toggle(b)
	if s.Len() != 2 || !s.Marked(a.Key()) {
		t.Fatal("marks lost")
	}
	if s.Toggle(a) || s.Len() != 1 {
		t.Fatal("toggle did not unmark")
	}
	if h := s.Hidden(func(k mqwatch.Key) bool { return false }); h != 1 {
		t.Fatalf("hidden %d", h)
	}
	if items := s.Items(); len(items) != 1 || items[0].MsgId != b.MsgId {
		t.Fatal("items")
	}
}

func TestLocationTitle(t *testing.T) {
	for _, tc := range []struct {
		l    Location
		want string
	}{
		{Location{Screen: ScreenTriage, Queue: "QM1.DEADQ"}, "QM1.DEADQ"},
		{Location{Screen: ScreenMessage, Queue: "QM1.DEADQ"}, "message"},
		{Location{Screen: ScreenGroup}, "all messages"},
		{Location{Screen: ScreenAlerts, Label: "all alerts"}, "all alerts"},
	} {
		if got := tc.l.Title(); got != tc.want {
			t.Errorf("%+v: %q, want %q", tc.l, got, tc.want)
		}
	}
}
