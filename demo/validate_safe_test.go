package demo

import (
	"strings"
	"testing"
)

// TestScenarioDurationsAndNames: every duration has a minimum or is refused
// when negative (not silently replaced by a default), and every name that
// ends up in a message or on the screen is checked where it enters.
func TestScenarioDurationsAndNames(t *testing.T) {
	qm := "[[qmgr]]\nname = \"QM1\"\n"
	prod := func(extra string) string { return qm + "[[producer]]\nname = \"P\"\nqueue = \"Q\"\nrate = 1\n" + extra }
	cons := func(extra string) string {
		return qm + "[[consumer]]\nname = \"C\"\nqueue = \"Q\"\nstyle = \"async\"\n" + extra
	}
	tests := []struct{ name, toml, want string }{
		{"poll_1ns", "poll = \"1ns\"\n" + qm, "below the minimum of 10ms"},
		{"poll_negative", "poll = \"-1s\"\n" + qm, "poll -1s: negative"},
		{"duration_negative", "duration = \"-1h\"\n" + qm, "duration -1h0m0s: negative"},
		{"burst_every_1ns", prod("burst = { every = \"1ns\", count = 5, rate = 5 }\n"), "burst.every 1ns: below the minimum"},
		{"consumer_poll_1ns", cons("poll = \"1ns\"\n"), "poll 1ns: below"},
		{"consumer_poll_negative", cons("poll = \"-5s\"\n"), "negative"},
		{"consumer_process_1ns", cons("process = \"1ns\"\n"), "process 1ns: below"},
		{"consumer_resume_after_1ns", cons("resume_after = \"1ns\"\n"), "resume_after 1ns: below"},
		{"scenario_name_escape", "name = \"\\u001b]0;PW\\u0007\"\n" + qm, "scenario name"},
		{"scenario_name_bidi", "name = \"a\\u202eb\"\n" + qm, "control or formatting"},
		{"scenario_name_c1", "name = \"a\\u009b31m\"\n" + qm, "control or formatting"},
		{"producer_name_escape", qm + "[[producer]]\nname = \"P\\u001b[2J\"\nqueue = \"Q\"\nrate = 1\n", "control or formatting"},
		{"consumer_name_bidi", qm + "[[consumer]]\nname = \"C\\u2066\"\nqueue = \"Q\"\nstyle = \"async\"\n", "control or formatting"},
		{"reply_to_escape", prod("reply_to = \"R\\u001b\"\n"), "reply_to queue name"},
		{"reply_to_qmgr_bad", prod("reply_to_qmgr = \"QM 2\"\n"), "reply_to_qmgr"},
		{"dead_letter_dest_q_escape", prod("dead_letter = { reason = 2053, dest_q = \"Q\\u009b\" }\n"), "dead_letter dest_q"},
		{"dead_letter_dest_qmgr", prod("dead_letter = { reason = 2053, dest_q = \"Q\", dest_qmgr = \"A\\u001bB\" }\n"), "dead_letter dest_qmgr"},
		{"dead_letter_put_appl", prod("dead_letter = { reason = 2053, dest_q = \"Q\", put_appl = \"x\\u0007\" }\n"), "dead_letter put_appl"},
		{"special_queue", qm + "[[consumer]]\nname = \"C\"\nqueue = \"Q\"\nstyle = \"delivery-count\"\ndelivery_count = { on_poison = \"move\", special_queue = \"S\\u001b\" }\n", "special_queue"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse([]byte(tt.toml))
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("error %v, want it to mention %q", err, tt.want)
			}
			if strings.ContainsAny(err.Error(), "\x1b\x07\u009b\u202e\u2066") {
				t.Fatalf("the error carries the raw control: %q", err.Error())
			}
		})
	}
}

func TestScenarioMinimumsAccepted(t *testing.T) {
	doc := "poll = \"10ms\"\n[[qmgr]]\nname = \"QM1\"\nscript = \"DEFINE QLOCAL(Q)\"\n" +
		"[[producer]]\nname = \"P\"\nqueue = \"Q\"\nrate = 1\nburst = { every = \"100ms\", count = 1, rate = 1 }\n" +
		"[[consumer]]\nname = \"C\"\nqueue = \"Q\"\nstyle = \"async\"\npoll = \"10ms\"\nprocess = \"1ms\"\n"
	if _, err := Parse([]byte(doc)); err != nil {
		t.Fatal(err)
	}
}

func TestScenarioTOMLNestingRefused(t *testing.T) {
	doc := "x = " + strings.Repeat("{a = ", 2000) + "1" + strings.Repeat("}", 2000) + "\n"
	_, err := Parse([]byte(doc))
	if err == nil || !strings.Contains(err.Error(), "nested deeper") {
		t.Fatalf("err = %v", err)
	}
}
