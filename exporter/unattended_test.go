package exporter

import (
	"fmt"
	"testing"
	"time"

	"github.com/poisonwatch/poisonwatch/actions"
	"github.com/poisonwatch/poisonwatch/backend/embedded/embeddedtest"
	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
)

// putAged puts dead letters on QM1.DEADQ whose MQDLH says they were
// dead-lettered ago before now.
func (e *env) putAged(t testing.TB, ago ...time.Duration) {
	t.Helper()
	for i, d := range ago {
		md := mqfmt.NewMQMD()
		md.Format = mqfmt.FmtString
		dmd, data, err := actions.ToDeadLetter(md, fmt.Appendf(nil, `{"order":%d}`, i), actions.DeadLetterOptions{
			Reason: mqfmt.RCQFull, DestQName: "ORDERS.IN", DestQMgrName: "QM1", PutApplName: "amqrmppa", Now: time.Now().Add(-d)})
		if err != nil {
			t.Fatal(err)
		}
		dmd.MsgId = [24]byte{byte(i), 2}
		embeddedtest.Put(t, e.conn, "QM1.DEADQ", dmd, data)
	}
}

// TestR8fUnattendedBandsAndAlertAreServed: the DEADQ's messages are served
// by age band (each band counting the older ones), and R8f is an alert
// series once the oldest has waited past the queue manager's threshold:
// a day by default, its own when set.
func TestR8fUnattendedBandsAndAlertAreServed(t *testing.T) {
	const day = 24 * time.Hour
	for _, tc := range []struct {
		name      string
		threshold time.Duration
		alert     bool
	}{
		{"R8f_default_day", 0, true},
		{"R8f_queue_managers_own_threshold", 10 * day, false},
		{"R8f_off", -1, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := newEnv(t, Config{UnattendedAfter: map[string]time.Duration{"QM1": tc.threshold}}, func(t testing.TB, e *env) {
				e.putAged(t, 9*day, 3*day, 5*time.Hour, 20*time.Minute)
			})
			e.poll(t)
			fams := e.scrape(t)
			got := samples(fams, "poisonwatch_queue_unattended_messages", []string{"older_than"}, "qmgr", "QM1", "queue", "QM1.DEADQ", "role", "deadq")
			if want := map[string]float64{"1h": 3, "1d": 2, "1w": 1}; fmt.Sprint(got) != fmt.Sprint(want) {
				t.Fatalf("bands %v, want %v", got, want)
			}
			if n := len(samples(fams, "poisonwatch_queue_unattended_messages", []string{"queue", "older_than"}, "role", "input")); n != 0 {
				t.Fatalf("%d band series for input queues: bands are for BOQs and the DEADQ", n)
			}
			v, ok := sample(fams, "poisonwatch_alert", "rule", "R8f", "queue", "QM1.DEADQ", "severity", "warning")
			if ok != tc.alert || ok && v != 1 {
				t.Fatalf("R8f alert series %v (%v), want it %v", v, ok, tc.alert)
			}
		})
	}
}
