package demo

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
)

// minimal is the smallest useful scenario: one queue manager, one producer,
// one consumer, MQSC inline.
const minimal = `
name = "mini"
seed = 7
[[qmgr]]
name = "QM1"
script = """
DEFINE QLOCAL(IN) BOTHRESH(2) BOQNAME(IN.BO)
DEFINE QLOCAL(IN.BO)
DEFINE QLOCAL(DLQ)
ALTER QMGR DEADQ(DLQ)
"""
[[producer]]
name = "P"
queue = "IN"
rate = 2
poison = 0.5
[[consumer]]
name = "C"
queue = "IN"
style = "async"
fail = "body contains POISON"
`

func TestBuiltinLoadsWithEveryIncident(t *testing.T) {
	s, err := Builtin()
	if err != nil {
		t.Fatal(err)
	}
	styles := map[string]bool{}
	for _, c := range s.Consumers {
		styles[c.Style] = true
	}
	for _, want := range []string{"sync-transacted", "sync-nontransacted", "async", "asf", "delivery-count", "mqi"} {
		if !styles[want] {
			t.Errorf("no %s consumer", want)
		}
	}
	kinds := map[PayloadKind]bool{}
	for _, p := range s.Producers {
		kinds[p.Payload] = true
	}
	for _, k := range payloadKinds {
		if !kinds[k] {
			t.Errorf("no %s producer", k)
		}
	}
	if len(s.QMgrs) != 3 || len(s.Links) != 1 || s.Warmup <= 0 || s.Duration != 10*time.Minute {
		t.Errorf("qmgrs %d links %d warmup %s duration %s", len(s.QMgrs), len(s.Links), s.Warmup, s.Duration)
	}
}

func TestLoadFromDirectoryAndFile(t *testing.T) {
	dir := t.TempDir()
	toml := strings.Replace(minimal, `script = """`, `mqsc = ["objects.mqsc"]
script = """`, 1)
	write(t, dir, ScenarioFile, toml)
	write(t, dir, "objects.mqsc", "DEFINE QLOCAL(EXTRA)\n")
	for _, p := range []string{dir, filepath.Join(dir, ScenarioFile)} {
		t.Run(filepath.Base(p), func(t *testing.T) {
			s, err := Load(p)
			if err != nil {
				t.Fatal(err)
			}
			sc := s.QMgrs[0].Scripts
			if len(sc) != 2 || sc[0].Name != "objects.mqsc" || !strings.Contains(sc[0].Text, "EXTRA") {
				t.Fatalf("scripts %+v", sc)
			}
		})
	}
}

func write(t *testing.T, dir, name, text string) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestLoadFillsDefaults(t *testing.T) {
	s, err := Parse([]byte(minimal))
	if err != nil {
		t.Fatal(err)
	}
	p, c := s.Producers[0], s.Consumers[0]
	if p.QMgr != "QM1" || c.QMgr != "QM1" || c.Instances != 1 || c.Poll != defaultPoll || c.Process != defaultProcess ||
		p.Persistence != mqfmt.PerPersistenceAsDef || p.Priority != -1 || p.Payload != PayloadString ||
		s.Duration != defaultSimTime || s.Poll != defaultPoll {
		t.Fatalf("producer %+v consumer %+v scenario %+v", p, c, s)
	}
}

func TestParseRejects(t *testing.T) {
	qm := "[[qmgr]]\nname = \"QM1\"\n"
	prod := func(extra string) string { return qm + "[[producer]]\nname = \"P\"\nqueue = \"Q\"\nrate = 1\n" + extra }
	cons := func(extra string) string {
		return qm + "[[consumer]]\nname = \"C\"\nqueue = \"Q\"\nstyle = \"async\"\n" + extra
	}
	tests := []struct{ name, toml, want string }{
		{"syntax_error", "name = ", "toml"},
		{"unknown_key", qm + "colour = \"red\"\n", "unknown key \"qmgr.colour\""},
		{"no_queue_manager", "name = \"x\"\n", "0 queue managers"},
		{"duplicate_queue_manager", qm + qm, "defined twice"},
		{"bad_queue_manager_name", "[[qmgr]]\nname = \"QM 1\"\n", "not allowed in MQ names"},
		{"link_to_unknown_queue_manager", qm + "[[link]]\nqmgrs = [\"QM1\", \"QM9\"]\n", "no queue manager \"QM9\""},
		{"link_of_one", qm + "[[link]]\nqmgrs = [\"QM1\"]\n", "at least two"},
		{"producer_without_rate", qm + "[[producer]]\nname = \"P\"\nqueue = \"Q\"\n", "needs a rate or a burst"},
		{"producer_with_queue_and_topic", prod("topic = \"a/b\"\n"), "exactly one of queue, queues and topic"},
		{"producer_negative_rate", qm + "[[producer]]\nname = \"P\"\nqueue = \"Q\"\nrate = -1\n", "want 0 to"},
		{"producer_poison_over_one", prod("poison = 1.5\n"), "poison 1.5"},
		{"producer_bad_payload", prod("payload = \"pdf\"\n"), "payload \"pdf\""},
		{"producer_bad_report", prod("report = [\"sometimes\"]\n"), "report option \"sometimes\""},
		{"producer_two_exception_options", prod("report = [\"exception\", \"exception-with-data\"]\n"), "at most one exception"},
		{"producer_bad_persistence", prod("persistence = \"maybe\"\n"), "persistence \"maybe\""},
		{"producer_unknown_queue_manager", prod("qmgr = \"QM2\"\n"), "no queue manager \"QM2\""},
		{"producer_stop_before_start", prod("start = \"2m\"\nstop = \"1m\"\n"), "not after start"},
		{"producer_burst_without_rate", prod("burst = { every = \"1m\", count = 5 }\n"), "burst needs"},
		{"producer_dead_letter_without_reason", prod("dead_letter = { dest_q = \"X\" }\n"), "dead_letter needs"},
		{"producer_priority", prod("priority = 12\n"), "priority 12"},
		{"producer_name_with_hash", qm + "[[producer]]\nname = \"P#1\"\nqueue = \"Q\"\nrate = 1\n", "without '#'"},
		{"producers_with_the_same_trace_prefix", qm +
			"[[producer]]\nname = \"AVeryLongApplication1\"\nqueue = \"Q\"\nrate = 1\n" +
			"[[producer]]\nname = \"AVeryLongApplication2\"\nqueue = \"Q\"\nrate = 1\n", "first 20 characters"},
		{"consumer_bad_style", qm + "[[consumer]]\nname = \"C\"\nqueue = \"Q\"\nstyle = \"psychic\"\n", "consumer style \"psychic\""},
		{"consumer_bad_predicate", cons("fail = \"sometimes\"\n"), "unknown condition"},
		{"consumer_queue_and_subscription", cons("subscription = { topic = \"a\" }\n"), "exactly one of queue and subscription"},
		{"consumer_durable_without_name", qm + "[[consumer]]\nname = \"C\"\nstyle = \"async\"\nsubscription = { topic = \"a\", durable = true }\n", "a name when durable"},
		{"consumer_too_many_instances", cons("instances = 1000\n"), "instances 1000"},
		{"consumer_bad_outcome", cons("outcome = \"shrug\"\n"), "outcome \"shrug\""},
		{"consumer_policy_on_wrong_style", cons("delivery_count = { threshold = 3 }\n"), "applies to style delivery-count"},
		{"R6i_max_sequential_delivery_failures_on_wrong_style", cons("max_sequential_delivery_failures = 0\n"), "applies to style asf"},
		{"consumer_move_without_queue", qm + "[[consumer]]\nname = \"C\"\nqueue = \"Q\"\nstyle = \"delivery-count\"\ndelivery_count = { on_poison = \"move\" }\n", "move with special_queue"},
		{"event_without_mqsc", qm + "[[event]]\nat = \"1m\"\nqmgr = \"QM1\"\n", "event 1"},
		{"mqsc_file_without_directory", "[[qmgr]]\nname = \"QM1\"\nmqsc = [\"x.mqsc\"]\n", "has no directory"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse([]byte(tt.toml))
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("error %v, want it to mention %q", err, tt.want)
			}
		})
	}
}

func TestLoadFSRejectsUnsafeOrHugeFiles(t *testing.T) {
	base := "[[qmgr]]\nname = \"QM1\"\nmqsc = [%q]\n"
	tests := []struct {
		name string
		fsys fstest.MapFS
		want string
	}{
		{"mqsc_outside_the_directory", fstest.MapFS{"s/scenario.toml": {Data: []byte(strings.Replace(base, "%q", `"../x.mqsc"`, 1))}}, "inside the scenario's directory"},
		{"absolute_mqsc_path", fstest.MapFS{"s/scenario.toml": {Data: []byte(strings.Replace(base, "%q", `"/etc/passwd"`, 1))}}, "inside the scenario's directory"},
		{"missing_mqsc", fstest.MapFS{"s/scenario.toml": {Data: []byte(strings.Replace(base, "%q", `"none.mqsc"`, 1))}}, "none.mqsc"},
		{"huge_scenario", fstest.MapFS{"s/scenario.toml": {Data: make([]byte, maxScenarioBytes+1)}}, "larger than"},
		{"huge_mqsc", fstest.MapFS{"s/scenario.toml": {Data: []byte(strings.Replace(base, "%q", `"big.mqsc"`, 1))},
			"s/big.mqsc": {Data: make([]byte, maxMQSCBytes+1)}}, "larger than"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := LoadFS(tt.fsys, "s/scenario.toml")
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("error %v, want it to mention %q", err, tt.want)
			}
		})
	}
}

func TestAddMQSC(t *testing.T) {
	s, err := Parse([]byte(minimal))
	if err != nil {
		t.Fatal(err)
	}
	t.Run("first_queue_manager_by_default", func(t *testing.T) {
		if err := s.AddMQSC("", "extra", "DEFINE QLOCAL(X)"); err != nil || len(s.QMgrs[0].Scripts) != 2 {
			t.Fatalf("err %v scripts %d", err, len(s.QMgrs[0].Scripts))
		}
	})
	t.Run("unknown_queue_manager", func(t *testing.T) {
		if err := s.AddMQSC("QM7", "extra", "DEFINE QLOCAL(X)"); err == nil {
			t.Fatal("accepted")
		}
	})
	t.Run("too_big", func(t *testing.T) {
		if err := s.AddMQSC("QM1", "extra", strings.Repeat("*", maxMQSCBytes+1)); err == nil {
			t.Fatal("accepted")
		}
	})
}

// TestR6i_ScenarioMDBPauseOption: an asf consumer takes IBM's
// maxSequentialDeliveryFailures, 0 pausing on the first failure.
func TestR6i_ScenarioMDBPauseOption(t *testing.T) {
	for _, tc := range []struct {
		value string
		want  int32
	}{{"", 0}, {"max_sequential_delivery_failures = -1\n", 0}, {"max_sequential_delivery_failures = 0\n", 1}, {"max_sequential_delivery_failures = 2\n", 3}} {
		s, err := Parse([]byte("[[qmgr]]\nname = \"QM1\"\n[[consumer]]\nname = \"C\"\nqueue = \"Q\"\nstyle = \"asf\"\n" + tc.value))
		if err != nil {
			t.Fatal(err)
		}
		cfg, err := s.Consumers[0].options()
		if err != nil || cfg.opts.PauseAfter != tc.want {
			t.Errorf("%q: PauseAfter %d, %v; want %d", tc.value, cfg.opts.PauseAfter, err, tc.want)
		}
	}
}
