package mqwatch

import "testing"

func TestMatchName(t *testing.T) {
	tests := []struct {
		pattern, name string
		want          bool
	}{
		{"*", "ANY.Q", true},
		{"ORDERS.*", "ORDERS.IN", true},
		{"ORDERS.*", "ORDERS", false},
		{"*.BO", "ORDERS.BO", true},
		{"*.BO", "ORDERS.BOX", false},
		{"A?C", "ABC", true},
		{"A*B*C", "AxxBxxC", true},
		{"A*B*C", "AxxBxx", false},
		{"EXACT", "EXACT", true},
		{"EXACT", "EXACTLY", false},
		{"a/*", "a/b/c", true},
	}
	for _, tt := range tests {
		if got := MatchName(tt.pattern, tt.name); got != tt.want {
			t.Errorf("MatchName(%q, %q) = %v, want %v", tt.pattern, tt.name, got, tt.want)
		}
	}
}

func TestSelected(t *testing.T) {
	tests := []struct {
		name             string
		q, deadQ         string
		include, exclude []string
		want             bool
	}{
		{"ordinary queue", "ORDERS.IN", "DLQ", nil, nil, true},
		{"system queue hidden", "SYSTEM.ADMIN.COMMAND.QUEUE", "DLQ", nil, nil, false},
		{"system deadq shown", "SYSTEM.DEAD.LETTER.QUEUE", "SYSTEM.DEAD.LETTER.QUEUE", nil, nil, true},
		{"system queue explicitly included", "SYSTEM.X", "", []string{"SYSTEM.*"}, nil, true},
		{"include filters", "PAY.IN", "", []string{"ORDERS.*"}, nil, false},
		{"exclude wins", "ORDERS.TMP", "", []string{"ORDERS.*"}, []string{"*.TMP"}, false},
		{"deadq despite exclude", "DLQ", "DLQ", nil, []string{"*"}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := selected(tt.q, tt.deadQ, tt.include, tt.exclude); got != tt.want {
				t.Fatalf("got %v, want %v", got, tt.want)
			}
		})
	}
}
