//go:build linux

package e2e

import (
	"bufio"
	"fmt"
	"os"
	"time"
)

// measuredFleet is the fleet the measurement backfills: queue managers of
// 20 queues each (a DEADQ, two backout queues, 17 input queues, as
// --scenario fleet:Nx20 makes them) spread over exporters, with the
// series each exporter serves for them, and every tenth queue manager in
// the trouble the generated fleet gives it: a poison loop (R1c), a
// backout queue filling (R8b), dead letters arriving (R8d), stuck poison
// (R8c).
type measuredFleet struct {
	qmgrs, exporters int
	from, to         time.Time
	step             time.Duration
}

// fleetQMgr is one queue manager of the measured fleet.
type fleetQMgr struct {
	name, instance string
	kind           int // its position in ten: 1 loop, 3 BOQ, 5 dead letters, 7 stuck
}

func (m measuredFleet) each(f func(q fleetQMgr)) {
	for k := range m.qmgrs {
		f(fleetQMgr{name: fmt.Sprintf("QM%04d", k+1), instance: fmt.Sprintf("mqhost%02d:9464", k%m.exporters), kind: (k + 1) % 10})
	}
}

// write writes the fleet's series as OpenMetrics text for promtool tsdb
// create-blocks-from openmetrics: family by family, each series' samples
// in time order, every step from..to. It returns how many series.
func (m measuredFleet) write(path string) (int, error) {
	file, err := os.Create(path)
	if err != nil {
		return 0, err
	}
	w := bufio.NewWriterSize(file, 1<<20)
	n := 0
	// series writes one series: its samples at every step.
	series := func(name, labels string, value func(i int) float64) {
		n++
		i := 0
		for t := m.from; !t.After(m.to); t = t.Add(m.step) {
			fmt.Fprintf(w, "%s{job=\"poisonwatch\",%s} %g %d\n", name, labels, value(i), t.Unix())
			i++
		}
	}
	at := func(i int) time.Time { return m.from.Add(time.Duration(i) * m.step) }
	for e := range m.exporters {
		in := fmt.Sprintf("instance=\"mqhost%02d:9464\"", e)
		series("up", in, func(int) float64 { return 1 })
		series("poisonwatch_build_info", in+`,version="v1.0.0"`, func(int) float64 { return 1 })
	}
	for _, f := range measuredFamilies {
		m.each(func(q fleetQMgr) { f(q, series, at) })
	}
	fmt.Fprintln(w, "# EOF")
	if err := w.Flush(); err != nil {
		file.Close()
		return 0, err
	}
	return n, file.Close()
}

type seriesFunc func(name, labels string, value func(i int) float64)

func qmgrLabels(q fleetQMgr) string {
	return fmt.Sprintf("instance=%q,qmgr=%q", q.instance, q.name)
}

func queueLabels(q fleetQMgr, queue, role string) string {
	return fmt.Sprintf("%s,queue=%q,role=%q", qmgrLabels(q), queue, role)
}

// fleetQueues are a queue manager's queues with their roles.
func fleetQueues() (out [][2]string) {
	out = append(out, [2]string{"SYSTEM.DEAD.LETTER.QUEUE", "deadq"}, [2]string{"APP.0000.BO", "boq"}, [2]string{"APP.0001.BO", "boq"})
	for i := range 17 {
		out = append(out, [2]string{fmt.Sprintf("APP.%04d.IN", i), "input"})
	}
	return out
}

// measuredFamilies are the exporter's metric families, one function each
// (OpenMetrics keeps a family's samples together).
var measuredFamilies = []func(q fleetQMgr, s seriesFunc, at func(int) time.Time){
	func(q fleetQMgr, s seriesFunc, _ func(int) time.Time) {
		s("poisonwatch_qmgr_connected", qmgrLabels(q), func(int) float64 { return 1 })
	},
	func(q fleetQMgr, s seriesFunc, at func(int) time.Time) {
		s("poisonwatch_qmgr_last_success_timestamp_seconds", qmgrLabels(q), func(i int) float64 { return float64(at(i).Unix() - 1) })
	},
	func(q fleetQMgr, s seriesFunc, _ func(int) time.Time) {
		s("poisonwatch_qmgr_last_poll_age_seconds", qmgrLabels(q), func(int) float64 { return 1 })
	},
	func(q fleetQMgr, s seriesFunc, _ func(int) time.Time) {
		s("poisonwatch_qmgr_polls_total", qmgrLabels(q), func(i int) float64 { return float64(100 + 4*i) })
	},
	func(q fleetQMgr, s seriesFunc, _ func(int) time.Time) {
		s("poisonwatch_qmgr_poll_errors_total", qmgrLabels(q), func(int) float64 { return 0 })
	},
	func(q fleetQMgr, s seriesFunc, _ func(int) time.Time) {
		s("poisonwatch_qmgr_poll_duration_seconds", qmgrLabels(q), func(int) float64 { return 0.04 })
	},
	func(q fleetQMgr, s seriesFunc, _ func(int) time.Time) {
		s("poisonwatch_qmgr_poll_interval_seconds", qmgrLabels(q), func(int) float64 { return 15 })
	},
	func(q fleetQMgr, s seriesFunc, _ func(int) time.Time) {
		s("poisonwatch_qmgr_queues", qmgrLabels(q), func(int) float64 { return 20 })
	},
	func(q fleetQMgr, s seriesFunc, _ func(int) time.Time) {
		for _, qu := range fleetQueues() {
			depth := 0.0
			switch {
			case qu[1] == "deadq" && q.kind == 5:
				depth = 400
			case qu[0] == "APP.0000.BO" && q.kind == 3:
				depth = 85
			}
			s("poisonwatch_queue_depth_messages", queueLabels(q, qu[0], qu[1]), func(i int) float64 { return depth + float64(i*int(depth)/40) })
		}
	},
	func(q fleetQMgr, s seriesFunc, _ func(int) time.Time) {
		for _, qu := range fleetQueues() {
			maxDepth := 5000.0
			if qu[1] == "boq" {
				maxDepth = 100
			}
			s("poisonwatch_queue_max_depth_messages", queueLabels(q, qu[0], qu[1]), func(int) float64 { return maxDepth })
		}
	},
	func(q fleetQMgr, s seriesFunc, _ func(int) time.Time) {
		for _, qu := range fleetQueues() {
			s("poisonwatch_queue_backout_threshold", queueLabels(q, qu[0], qu[1]), func(int) float64 { return 5 })
		}
	},
	func(q fleetQMgr, s seriesFunc, _ func(int) time.Time) {
		for _, qu := range fleetQueues()[3:] {
			backouts := 0.0
			if q.kind == 1 && qu[0] == "APP.0002.IN" {
				backouts = 40
			}
			s("poisonwatch_queue_head_max_backouts", queueLabels(q, qu[0], qu[1]), func(i int) float64 { return backouts * float64(i+1) })
		}
	},
	func(q fleetQMgr, s seriesFunc, _ func(int) time.Time) {
		for _, qu := range fleetQueues()[3:] {
			s("poisonwatch_queue_at_risk_messages", queueLabels(q, qu[0], qu[1]), func(int) float64 { return 0 })
		}
	},
	func(q fleetQMgr, s seriesFunc, _ func(int) time.Time) {
		for _, qu := range fleetQueues()[:3] {
			s("poisonwatch_queue_arrivals_per_second", queueLabels(q, qu[0], qu[1]), func(int) float64 {
				if q.kind == 5 && qu[1] == "deadq" {
					return 0.2
				}
				return 0
			})
		}
	},
	func(q fleetQMgr, s seriesFunc, _ func(int) time.Time) {
		for r, name := range map[string]string{"2085": "MQRC_UNKNOWN_OBJECT_NAME", "2053": "MQRC_Q_FULL", "0": "MQRC_NONE"} {
			l := fmt.Sprintf("%s,queue=\"SYSTEM.DEAD.LETTER.QUEUE\",reason=%q,reason_name=%q", qmgrLabels(q), r, name)
			s("poisonwatch_deadq_messages_by_reason", l, func(i int) float64 {
				if q.kind == 5 && r == "2085" {
					return float64(400 + 10*i)
				}
				return 3
			})
		}
	},
	func(q fleetQMgr, s seriesFunc, _ func(int) time.Time) {
		alerts := map[int][3]string{1: {"R1c", "APP.0002.IN", "critical"}, 3: {"R8b", "APP.0000.BO", "warning"},
			5: {"R8d", "SYSTEM.DEAD.LETTER.QUEUE", "warning"}, 7: {"R8c", "APP.0004.IN", "critical"}}
		if a, ok := alerts[q.kind]; ok {
			s("poisonwatch_alert", fmt.Sprintf("%s,rule=%q,queue=%q,severity=%q", qmgrLabels(q), a[0], a[1], a[2]), func(int) float64 { return 1 })
		}
	},
}
