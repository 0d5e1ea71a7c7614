package pcf

import "testing"

func TestR10h_MQSCNameQuotesWhatMQSCWouldFold(t *testing.T) {
	for _, tc := range []struct{ name, want string }{
		{"ORDERS.IN", "ORDERS.IN"},
		{"A/B_C%1.2", "A/B_C%1.2"},
		{"orders.lc", "'orders.lc'"},
		{"Orders.In", "'Orders.In'"},
		{"O'BRIEN", "'O''BRIEN'"},
		{"", "''"},
	} {
		if got := MQSCName(tc.name); got != tc.want {
			t.Errorf("MQSCName(%q) = %s, want %s", tc.name, got, tc.want)
		}
	}
}
