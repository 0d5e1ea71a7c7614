package mqfmt

import (
	"strings"
	"testing"
)

// TestExplainFilesParse: every line of explain/*.txt is a name, a tab and a
// meaning, each name once and in order; the maps hold every line.
func TestExplainFilesParse(t *testing.T) {
	for _, f := range []struct {
		file, text string
		prefix     string
		m          map[string]string
	}{
		{"mqrc.txt", mqrcText, "MQRC_", mqrcExplain()},
		{"mqfb.txt", mqfbText, "MQFB_", mqfbExplain()},
		{"mqro.txt", mqroText, "MQRO_", mqroMeaning()},
	} {
		t.Run(f.file, func(t *testing.T) {
			m, err := parseMeanings(f.text)
			if err != nil {
				t.Fatal(err)
			}
			lines := 0
			for l := range strings.SplitSeq(f.text, "\n") {
				if l != "" && l[0] != '#' {
					lines++
				}
			}
			if len(m) != lines || len(f.m) != lines || lines == 0 {
				t.Errorf("%d lines, %d parsed, %d in the table", lines, len(m), len(f.m))
			}
			for name, meaning := range m {
				if !strings.HasPrefix(name, f.prefix) || meaning == "" || f.m[name] != meaning {
					t.Errorf("%s: %q", name, meaning)
				}
			}
		})
	}
}

func TestParseMeaningsRefuses(t *testing.T) {
	for _, tc := range []struct{ text, want string }{
		{"MQRC_A\tone\nMQRC_A\ttwo\n", "given twice"},
		{"MQRC_B\tone\nMQRC_A\ttwo\n", "out of order"},
		{"MQRC_A\t\n", "empty name or meaning"},
		{"\tmeaning\n", "empty name or meaning"},
		{"MQRC_A meaning\n", "no tab"},
		{"MQRC_A\tone\ttwo\n", "second tab"},
		{"MQRC_A \tone\n", "spaces"},
	} {
		if _, err := parseMeanings(tc.text); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: err = %v, want %q", tc.text, err, tc.want)
		}
	}
	m, err := parseMeanings("# a comment\n\nMQRC_A\tone\r\nMQRC_B\ttwo (default)")
	if err != nil || len(m) != 2 || m["MQRC_A"] != "one" || m["MQRC_B"] != "two (default)" {
		t.Errorf("got %v, %v", m, err)
	}
}

// The meanings read exactly as they did when they were Go maps.
func TestExplainKnownCodes(t *testing.T) {
	for _, tc := range []struct{ got, want string }{
		{Reason(2053).Describe(), "MQRC_Q_FULL (2053): the target queue is at MAXDEPTH"},
		{Reason(2035).Describe(), "MQRC_NOT_AUTHORIZED (2035): the user lacks the authority this call needs"},
		{Reason(0).Describe(), "MQRC_NONE (0): no reason: the call completed (in a dead-letter header, none was recorded)"},
		{RCBackoutThresholdReached.Describe(), "MQRC_BACKOUT_THRESHOLD_REACHED (2362): a JMS consumer found the message's BackoutCount at BOTHRESH and had no usable BOQNAME, so the Report options sent it here: fix the consumer, then requeue"},
		{Reason(6129).Describe(), "MQRC_REFERENCE_ERROR (6129): C++ classes: an object reference is not valid"},
		{Reason(2147).Describe(), "MQRC_INCOMPLETE_TRANSACTION (2147): no summary here: look up MQRC_INCOMPLETE_TRANSACTION in IBM MQ's reason code reference"},
		{FBExpiration.Describe(), "MQFB_EXPIRATION (258): the message expired before anyone got it; this report replaces it (MQRO_EXPIRATION)"},
		{Reason(259).Describe(), "MQFB_COA (259): confirmation that the message arrived on its destination queue (MQRO_COA)"},
		{ReportOptionMeaning("MQRO_COA"), "confirm arrival on the destination queue with a report"},
		{ReportOptionMeaning("MQRO_NEW_MSG_ID"), "reports and replies get a new MsgId (default)"},
		{ReportOptionMeaning("0x02000000"), ""},
	} {
		if tc.got != tc.want {
			t.Errorf("got  %q\nwant %q", tc.got, tc.want)
		}
	}
}

// BenchmarkParseMeanings is the one-time cost of the first Explain.
func BenchmarkParseMeanings(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if _, err := parseMeanings(mqrcText); err != nil {
			b.Fatal(err)
		}
	}
}
