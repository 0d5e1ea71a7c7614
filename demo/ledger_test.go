package demo

import (
	"github.com/poisonwatch/poisonwatch/backend/embedded"
	"strings"
	"testing"
)

func id(n byte) [24]byte { return [24]byte{0: 'A', 23: n} }

func TestLedgerBalance(t *testing.T) {
	// base: two queue messages and a publication with two copies.
	base := func() *ledger {
		l := newLedger()
		l.produce("P#1", id(1), 1, true)
		l.produce("P#2", id(2), 1, true)
		l.produce("T#1", id(3), 2, false)
		return l
	}
	tests := []struct {
		name   string
		gone   []fate
		found  []seen
		check  func(a Accounting) bool
		wantOK bool
		want   string
	}{
		{name: "every_message_once", wantOK: true,
			gone:  []fate{{ident: "P#1", msgID: id(1)}, {ident: "T#1", msgID: id(10), rule: "R6b"}},
			found: []seen{{ident: "P#2", msgID: id(2), role: RoleBOQ}, {ident: "T#1", msgID: id(11), role: RoleDeadQ}},
			check: func(a Accounting) bool {
				return a.Consumed == 1 && a.OnBOQ == 1 && a.OnDeadQ == 1 && a.Discarded["R6b"] == 1 && a.Accounted == 4
			}},
		{name: "discarded_with_a_report_counts_as_reported", wantOK: true,
			gone: []fate{{ident: "P#1", msgID: id(1), rule: "R6b"}, {ident: "P#2", msgID: id(2)}},
			found: []seen{{ident: "P#1", msgID: id(20), report: true, role: RoleOther},
				{ident: "T#1", msgID: id(10), role: RoleInput}, {ident: "T#1", msgID: id(11), role: RoleInput}},
			check: func(a Accounting) bool { return a.Reported == 1 && a.Reports == 1 && len(a.Discarded) == 0 }},
		{name: "missing_message", want: "P#2: produced 1, found 0",
			gone:  []fate{{ident: "P#1", msgID: id(1)}, {ident: "T#1", msgID: id(10)}, {ident: "T#1", msgID: id(11)}},
			check: func(a Accounting) bool { return a.Missing == 1 }},
		{name: "message_consumed_and_still_on_a_queue", want: "found 2 times",
			gone:  []fate{{ident: "P#1", msgID: id(1)}, {ident: "P#2", msgID: id(2)}, {ident: "T#1", msgID: id(10)}, {ident: "T#1", msgID: id(11)}},
			found: []seen{{ident: "P#1", msgID: id(1), role: RoleInput}},
			check: func(a Accounting) bool { return a.Duplicated == 1 && a.DuplicateMsgIds == 1 }},
		{name: "message_nobody_produced", want: "never produced",
			gone:  []fate{{ident: "P#1", msgID: id(1)}, {ident: "P#2", msgID: id(2)}, {ident: "T#1", msgID: id(10)}, {ident: "T#1", msgID: id(11)}},
			found: []seen{{ident: "X#9", msgID: id(9), role: RoleInput}},
			check: func(a Accounting) bool { return a.Unknown == 1 }},
		{name: "publication_copies_sharing_a_MsgId", want: "seen for T#1 and T#1",
			gone:  []fate{{ident: "P#1", msgID: id(1)}, {ident: "P#2", msgID: id(2)}, {ident: "T#1", msgID: id(10)}, {ident: "T#1", msgID: id(10)}},
			check: func(a Accounting) bool { return a.DuplicateMsgIds == 1 }},
		{name: "queue_message_with_a_new_MsgId", want: "MsgId changed",
			gone:  []fate{{ident: "P#1", msgID: id(7)}, {ident: "P#2", msgID: id(2)}, {ident: "T#1", msgID: id(10)}, {ident: "T#1", msgID: id(11)}},
			check: func(a Accounting) bool { return a.Accounted == a.Produced }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			l := base()
			l.gone = tt.gone
			a := l.balance(tt.found)
			if a.Balanced != tt.wantOK || !tt.check(a) {
				t.Fatalf("accounting %+v", a)
			}
			if tt.want != "" && !strings.Contains(strings.Join(a.Problems, "\n"), tt.want) {
				t.Fatalf("problems %q, want %q", a.Problems, tt.want)
			}
		})
	}
}

func TestTopicMatches(t *testing.T) {
	tests := []struct {
		sub, pub string
		want     bool
	}{
		{"shop/prices", "shop/prices", true},
		{"shop/prices", "shop/prices/eu", false},
		{"shop/#", "shop/prices/eu", true},
		{"shop/#", "shop", true},
		{"#", "a/b/c", true},
		{"shop/+", "shop/prices", true},
		{"shop/+", "shop/prices/eu", false},
		{"+/prices", "shop/prices", true},
		{"shop/+/eu", "shop/prices/us", false},
	}
	for _, tt := range tests {
		t.Run(tt.sub+"_"+tt.pub, func(t *testing.T) {
			if got := embedded.TopicMatches(tt.sub, tt.pub); got != tt.want {
				t.Fatalf("%v", got)
			}
		})
	}
}
