package ui

import (
	"strings"
	"testing"
	"time"

	"github.com/poisonwatch/poisonwatch/mqwatch"
)

// TestDashboardSaysHowToReachTheOthers: with three queue managers the
// footer keeps "? help" and "q quit" and names m, the header keeps the data
// age of the one on view at 80 columns, and ? says what RISK and STUCK
// count, what the alerts pane does and how to reach QM2.
func TestDashboardSaysHowToReachTheOthers(t *testing.T) {
	for _, size := range dialogSizes {
		t.Run(itoa(size.w)+"x"+itoa(size.h), func(t *testing.T) {
			a, _ := newFleetApp(t, size.w, size.h, "QM1", "QM2", "QM3")
			v := a.View()
			lines := strings.Split(v, "\n")
			if f := lines[len(lines)-1]; !strings.HasSuffix(strings.TrimRight(f, " "), "m queue managers (fleet view) • ? help • q quit") {
				t.Fatalf("footer %q", f)
			}
			if !strings.Contains(lines[0], "▸QM1 ● 1s ago") {
				t.Fatalf("header without the data age of QM1: %q", lines[0])
			}
			t.Run("dashboard", func(t *testing.T) { checkFrame(t, v, size.w, size.h); golden(t, v) })
			pressKey(t, a, km.Help)
			v = a.View()
			for _, want := range []string{"RISK: messages at the head already rolled back", "STUCK: rolled back BOTHRESH times or more",
				"K acknowledges · Z snoozes · x applies its MQSC fix", "Other queue managers (QM2, QM3): m lists them, :qm NAME opens one"} {
				if !strings.Contains(joinedText(v), want) {
					t.Fatalf("? lacks %q:\n%s", want, v)
				}
			}
			if strings.Contains(v, "more keys than fit") {
				t.Fatalf("help cut:\n%s", v)
			}
			t.Run("help", func(t *testing.T) { checkFrame(t, v, size.w, size.h); golden(t, v) })
		})
	}
}

// TestAdviceAlertHasNoFixToApply: stuck poison's fix is advice: the detail
// heads it "Fix (advice...)" and x says there is no MQSC fix, opening
// nothing.
func TestAdviceAlertHasNoFixToApply(t *testing.T) {
	for _, size := range dialogSizes {
		t.Run(itoa(size.w)+"x"+itoa(size.h), func(t *testing.T) {
			a, _ := newTestApp(t, size.w, size.h, Options{Ops: &fixOps{fakeOps: fakeOps{msg: sampleMessage()}}})
			a.Update(snapshotMsg{snap: incident(1, 30)})
			pressKey(t, a, km.Alerts)
			for i := 0; i < 10 && !strings.Contains(a.View(), "▸CRIT R8c"); i++ {
				pressKey(t, a, km.Down)
			}
			pressKey(t, a, km.Enter, km.Fix)
			v := a.View()
			if _, ok := a.top().(*alertScreen); !ok || !strings.Contains(v, "Fix (advice; y copies it)") ||
				!strings.Contains(v, "this alert has no MQSC fix") || strings.Contains(v, "MQSC, sent as PCF") {
				t.Fatalf("x on stuck poison:\n%s", v)
			}
			checkFrame(t, v, size.w, size.h)
			golden(t, v)
		})
	}
}

// TestHeaderCountsSnoozedApart: one alert acknowledged, one snoozed: the
// header and the pane say so apart.
func TestHeaderCountsSnoozedApart(t *testing.T) {
	for _, size := range dialogSizes {
		t.Run(itoa(size.w)+"x"+itoa(size.h), func(t *testing.T) {
			a, _ := newTestApp(t, size.w, size.h, Options{User: "alice"})
			a.Update(snapshotMsg{snap: incident(1, 300)})
			pressKey(t, a, km.Tab, km.Ack)
			press(a, "enter")
			pressKey(t, a, km.Snooze)
			press(a, "enter")
			v := a.View()
			if !strings.Contains(v, "✓1 acked 1 snoozed") || !strings.Contains(v, "1 acked, 1 snoozed") {
				t.Fatalf("counts:\n%s", v)
			}
			checkFrame(t, v, size.w, size.h)
			golden(t, v)
		})
	}
}

// TestTriageShowsAQuarterHourAndTheWholeReason: arrivals over the last
// minutes are bars of ARRIVALS /15m (at 120 columns), and a consumer's
// queue-full reason is wrapped, never cut, saying the BOQ was full when the
// message was dead-lettered and how it is now.
func TestTriageShowsAQuarterHourAndTheWholeReason(t *testing.T) {
	for _, size := range dialogSizes {
		t.Run(itoa(size.w)+"x"+itoa(size.h), func(t *testing.T) {
			a, _ := newTestApp(t, size.w, size.h, Options{Ops: &fakeOps{msg: sampleMessage()}})
			var sums []mqwatch.Summary
			snap := func(seq uint64, at time.Time, n int) *mqwatch.Snapshot {
				s := incident(seq, 0)
				s.Time = at
				var added []mqwatch.Summary
				for len(sums) < n {
					m := dlqSummary(len(sums), 2053, "ORDERS.EXPRESS.IN")
					m.DLHDestQMgr, m.DLHPutAppl, m.Arrival = "", "ExpressMDB", uint64(len(sums)+1)
					sums, added = append(sums, m), append(added, m)
				}
				s.Queues[0] = view("ORDERS.BO", 43, 5000, 0, "", mqwatch.RoleBOQ, 0)
				s.Queues = append(s.Queues, view("ORDERS.EXPRESS.IN", 0, 5000, 3, "ORDERS.BO", mqwatch.RoleInput, 1))
				s.Queues[4].Status.Depth = int32(len(sums))
				s.Inventories["QM1.DEADQ"] = (*mqwatch.Inventory)(nil).Append(sums...)
				s.Deltas["QM1.DEADQ"] = mqwatch.InventoryDelta{Added: added}
				return s
			}
			a.Update(snapshotMsg{snap: snap(1, clock.Add(-13*time.Minute), 2)})
			for i, n := range []int{2, 9, 9, 10, 10, 10, 10, 10, 12, 12, 12, 20, 20} {
				a.Update(snapshotMsg{snap: snap(uint64(i+2), clock.Add(time.Duration(i-12)*time.Minute), n)})
			}
			pressKey(t, a, km.DeadQ)
			v := a.View()
			if j := joinedText(v); !strings.Contains(j, "backout queue ORDERS.BO was full when dead-lettered; now 43/5000: ExpressMDB, the consumer of ORDERS.EXPRESS.IN, dead-lettered it; ORDERS.EXPRESS.IN had room") {
				t.Fatalf("the reason is cut or says the wrong thing:\n%s", v)
			}
			if size.w >= 100 && !strings.Contains(v, "ARRIVALS /15m") {
				t.Fatalf("no ARRIVALS /15m:\n%s", v)
			}
			checkFrame(t, v, size.w, size.h)
			golden(t, v)
		})
	}
}
