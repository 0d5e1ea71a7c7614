package model

import (
	"reflect"
	"testing"
)

// TestNearNames2085: a dead letter put to a queue that does not exist (2085)
// gets the existing queues with a near name suggested.
func TestNearNames2085(t *testing.T) {
	known := []string{"INVOICES.IN", "ORDERS.IN", "ORDERS.INPUT", "SYSTEM.DEAD.LETTER.QUEUE", "PAYMENTS", "INVOICE.OUT", "A"}
	for _, tc := range []struct {
		name string
		want []string
	}{
		{"INVOICE.IN", []string{"INVOICES.IN"}},
		{"invoice.in", []string{"INVOICES.IN"}},
		{"INVOICE.OU", []string{"INVOICE.OUT"}},
		{"ORDERS.IN", []string{"ORDERS.INPUT"}}, // the name itself is never suggested
		{"ORDER.IN", []string{"ORDERS.IN"}},
		{"ORDERS.INPU", []string{"ORDERS.INPUT", "ORDERS.IN"}},
		{"PAYMENT", []string{"PAYMENTS"}},
		{"B", []string{"A"}},
		{"COMPLETELY.OTHER", nil},
		{"", nil},
	} {
		if got := NearNames(tc.name, known, 3); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("NearNames(%q) = %q, want %q", tc.name, got, tc.want)
		}
	}
	if got := NearNames("ORDERS.INPU", known, 1); !reflect.DeepEqual(got, []string{"ORDERS.INPUT"}) {
		t.Errorf("limit 1: %q", got)
	}
}

func TestCompleteNames(t *testing.T) {
	known := []string{"ORDERS.INPUT", "ORDERS.IN", "PAYMENTS"}
	for _, tc := range []struct {
		prefix, common string
		want           []string
	}{
		{"ord", "ORDERS.IN", []string{"ORDERS.IN", "ORDERS.INPUT"}},
		{"P", "PAYMENTS", []string{"PAYMENTS"}},
		{"X", "", nil},
		{"", "", []string{"ORDERS.IN", "ORDERS.INPUT", "PAYMENTS"}},
	} {
		got := CompleteNames(tc.prefix, known)
		if !reflect.DeepEqual(got, tc.want) {
			t.Errorf("CompleteNames(%q) = %q, want %q", tc.prefix, got, tc.want)
		}
		if c := CommonPrefix(got); c != tc.common {
			t.Errorf("CommonPrefix(%q) = %q, want %q", got, c, tc.common)
		}
	}
}
