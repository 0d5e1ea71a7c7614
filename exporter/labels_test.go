package exporter

import (
	"fmt"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/poisonwatch/poisonwatch/model"
	"github.com/poisonwatch/poisonwatch/mqwatch"
)

func TestLabelValue(t *testing.T) {
	long := strings.Repeat("A", 200)
	tests := []struct{ name, in, want string }{
		{"mq_name_unchanged", "ORDERS.IN", "ORDERS.IN"},
		{"control_characters_kept", "A\x1b[2JB\n", "A\x1b[2JB\n"}, // Prometheus escapes; it is data, never markup
		{"invalid_utf8_replaced", "BAD\xff\xfeQ", "BAD\uFFFDQ"},
		{"quotes_kept", `Q"1\`, `Q"1\`},
		{"long_cut", long, strings.Repeat("A", maxLabelBytes-len("…")) + "…"},
		{"cut_on_a_character", strings.Repeat("é", 100), strings.Repeat("é", (maxLabelBytes-len("…"))/2) + "…"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := labelValue(tt.in); got != tt.want {
				t.Errorf("labelValue(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}

// Whatever a message says, the label value is one client_golang accepts
// and at most maxLabelBytes long.
func FuzzLabelValue(f *testing.F) {
	for _, s := range []string{"ORDERS.IN", "\xff", strings.Repeat("é", 70), "(other)", "a\"b\\c\nd"} {
		f.Add(s)
	}
	d := prometheus.NewDesc("poisonwatch_fuzz", "fuzz", []string{"v"}, nil)
	f.Fuzz(func(t *testing.T, s string) {
		v := labelValue(s)
		if !utf8.ValidString(v) || len(v) > maxLabelBytes {
			t.Fatalf("labelValue(%q) = %q: invalid UTF-8 or %d bytes", s, v, len(v))
		}
		if utf8.ValidString(s) && len(s) <= maxLabelBytes && v != s {
			t.Fatalf("labelValue changed an acceptable value: %q → %q", s, v)
		}
		if _, err := prometheus.NewConstMetric(d, prometheus.GaugeValue, 1, v); err != nil {
			t.Fatalf("client_golang refuses %q: %v", v, err)
		}
	})
}

// topN keeps the largest groups (ties by key), sums the rest and counts
// every group, for any cap.
func TestTopN(t *testing.T) {
	var sums []mqwatch.Summary
	sizes := map[string]int{"A": 5, "B": 1, "C": 3, "D": 3, "E": 9, "F": 1}
	for dest, n := range sizes {
		for i := range n {
			s := mqwatch.Summary{HasDLH: true, DLHReason: 2085, DLHDestQ: dest, DLHDestQMgr: "QM1", PutTime: time.Unix(int64(i), 0)}
			s.MsgId[0], s.MsgId[1] = dest[0], byte(i)
			sums = append(sums, s)
		}
	}
	gs := model.BuildGroups("DLQ", true, (*mqwatch.Inventory)(nil).Append(sums...))
	tests := []struct {
		n    int
		want string
		rest int
	}{
		{0, "", 22},
		{1, "E9", 13},
		{3, "E9 A5 C3", 5}, // C and D tie: C first, by name
		{4, "E9 A5 C3 D3", 2},
		{6, "E9 A5 C3 D3 B1 F1", 0},
		{50, "E9 A5 C3 D3 B1 F1", 0},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprint(tt.n), func(t *testing.T) {
			top, groups, rest := topN(gs, model.DimDest, tt.n)
			var got []string
			for _, g := range top {
				got = append(got, fmt.Sprintf("%s%d", g.key.DestQ, g.count))
			}
			if strings.Join(got, " ") != tt.want || rest != tt.rest || groups != 6 {
				t.Errorf("topN(%d) = %v, rest %d, %d groups; want %s, rest %d, 6 groups", tt.n, got, rest, groups, tt.want, tt.rest)
			}
		})
	}
}

// A destination spelt like the cap's own series, or two that differ only
// past the length cap, never give a scrape the same series twice.
func TestMergeNeverRepeatsASeries(t *testing.T) {
	long := strings.Repeat("Q", 200)
	top := []counted{
		{model.GroupKey{DestQ: long + "1", DestQMgr: "QM1"}, 4},
		{model.GroupKey{DestQ: long + "2", DestQMgr: "QM1"}, 3},
		{model.GroupKey{DestQ: Other, DestQMgr: "QM1"}, 2},
		{model.GroupKey{DestQ: "A", DestQMgr: "QM1"}, 1},
	}
	got, odd := merge(top, func(k model.GroupKey) []string { return []string{labelValue(k.DestQ), labelValue(k.DestQMgr)} })
	if len(got) != 2 || got[0].count != 7 || got[1].values[0] != "A" || odd != 2 {
		t.Fatalf("merge = %+v, odd %d; want the two long names as one series of 7, A, and 2 counted with the rest", got, odd)
	}
}
