package exporter

import (
	"testing"
	"time"

	"github.com/poisonwatch/poisonwatch/model"
)

// poisonwatch_alert_acknowledged follows the shared book: 0 for every
// alert until someone acknowledges one, then 1 for that alert's labels
// only, beside poisonwatch_alert with the same labels (for Alertmanager
// inhibition).
func TestAlertAcknowledgedGauge(t *testing.T) {
	book := model.NewAlertBook()
	e := newEnv(t, Config{Alerts: book}, fillTrouble)
	fams := e.scrape(t)
	acked := samples(fams, "poisonwatch_alert_acknowledged", []string{"rule", "queue", "severity"}, "qmgr", "QM1")
	alerts := samples(fams, "poisonwatch_alert", []string{"rule", "queue", "severity"}, "qmgr", "QM1")
	if len(acked) != len(alerts) || len(alerts) == 0 {
		t.Fatalf("acknowledged gauges %v for alerts %v: want one per alert", acked, alerts)
	}
	for k, v := range acked {
		if v != 0 {
			t.Errorf("%s acknowledged = %v before anyone did", k, v)
		}
	}
	var key string
	for _, ep := range book.Open() {
		if ep.Rule == "R8b" && ep.Queue == "ORDERS.BO" && ep.Sev.Label() == "crit" {
			key = ep.Key
		}
	}
	if _, ok := book.Acknowledge(key, model.Ack{By: "alice", At: time.Now()}); !ok {
		t.Fatalf("R8b ORDERS.BO not in the book: %v", book.Open())
	}
	e.poll(t)
	acked = samples(e.scrape(t), "poisonwatch_alert_acknowledged", []string{"rule", "queue", "severity"}, "qmgr", "QM1")
	for k, v := range acked {
		want := 0.0
		if k == "R8b/ORDERS.BO/critical" {
			want = 1
		}
		if v != want {
			t.Errorf("%s acknowledged = %v, want %v", k, v, want)
		}
	}
}
