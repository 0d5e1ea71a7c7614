package mqfmt

import (
	"strings"
	"testing"
)

func TestReasonDescribe(t *testing.T) {
	tests := []struct {
		name string
		r    Reason
		want string
	}{
		{"queue_full_keeps_the_documented_wording", RCQFull, "MQRC_Q_FULL (2053): the target queue is at MAXDEPTH"},
		{"not_authorized", RCNotAuthorized, "MQRC_NOT_AUTHORIZED (2035): the user lacks the authority this call needs"},
		{"backout_threshold_reached_names_the_JMS_poison_path", RCBackoutThresholdReached,
			"MQRC_BACKOUT_THRESHOLD_REACHED (2362): a JMS consumer found the message's BackoutCount at BOTHRESH and had no usable BOQNAME, so the Report options sent it here: fix the consumer, then requeue"},
		{"client_host_not_available_says_what_to_check", RCHostNotAvailable,
			"MQRC_HOST_NOT_AVAILABLE (2538): client connect: nothing answered at the host and port (check CONNAME, the listener and firewalls)"},
		{"DLH_reason_in_the_feedback_range_is_named_as_feedback", 265,
			"MQFB_APPL_CANNOT_BE_STARTED (265): the trigger monitor could not start the application named in the trigger message (check the PROCESS definition's APPLICID)"},
		{"DLH_reason_from_the_IMS_bridge_gives_the_sense_code", 329,
			"MQFB_329 (329): IMS bridge: IMS-OTMA returned sense code X'001D' (Feedback - 300): see the OTMA sense codes for NAK messages"},
		{"DLH_reason_from_the_application_feedback_range", 70000,
			"MQFB_70000 (70000): an application-defined feedback code (MQFB_APPL_FIRST..MQFB_APPL_LAST): ask the owners of the application that made the report"},
		{"unknown_code_prints_its_number_and_says_so", 2999,
			"MQRC_2999 (2999): not a reason code this tool knows (it has IBM MQ 9.4's codes): check the documentation of the queue manager's level or of the application that set it"},
		{"data_conversion_exit_range", 950,
			"MQRC_950 (950): an application-defined reason code from a data-conversion exit (MQRC_APPL_FIRST..MQRC_APPL_LAST): see the exit's documentation"},
		{"negative_code_belongs_to_an_exit", -7,
			"MQRC_-7 (-7): a negative reason code, which IBM reserves for user exits: see the exit's documentation"},
		{"named_code_without_a_summary_points_to_IBM", 2559,
			"MQRC_DEF_SYNCPOINT_INHIBITED (2559): no summary here: look up MQRC_DEF_SYNCPOINT_INHIBITED in IBM MQ's reason code reference"},
		{"none", RCNone, "MQRC_NONE (0): no reason: the call completed (in a dead-letter header, none was recorded)"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := tc.r.Describe(); got != tc.want {
				t.Errorf("Describe() =\n %q\nwant\n %q", got, tc.want)
			}
		})
	}
}

func TestReasonString(t *testing.T) {
	tests := []struct {
		name string
		r    Reason
		want string
	}{
		{"common_code", 2033, "MQRC_NO_MSG_AVAILABLE"},
		{"first_of_the_6100_range", 6100, "MQRC_REOPEN_EXCL_INPUT_ERROR"},
		{"highest_IBM_code", 29440, "MQRC_SUB_JOIN_NOT_ALTERABLE"},
		{"reconnect_code", 2548, "MQRC_RECONNECT_FAILED"},
		{"feedback_expiration_in_a_DLH", 258, "MQFB_EXPIRATION"},
		{"IMS_NACK_range", 612, "MQFB_612"},
		{"gap_between_IBM_codes", 2015, "MQRC_2015"},
		{"gap_in_the_feedback_range_is_not_a_feedback_name", 261, "MQRC_261"},
		{"range_marker_is_not_used_as_a_name", 900, "MQRC_900"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := tc.r.String(); got != tc.want {
				t.Errorf("String() = %q, want %q", got, tc.want)
			}
		})
	}
}

func TestReasonKnown(t *testing.T) {
	tests := []struct {
		r    Reason
		want bool
	}{{2053, true}, {265, true}, {0, true}, {2015, false}, {950, false}, {329, false}, {70000, false}, {-1, false}}
	for _, tc := range tests {
		t.Run(tc.r.String(), func(t *testing.T) {
			if got := tc.r.Known(); got != tc.want {
				t.Errorf("Known() = %v, want %v", got, tc.want)
			}
		})
	}
}

// TestReasonExplainIsNeverEmpty walks every IBM code and the edges of every
// range, so no screen can show a reason with nothing after the colon.
func TestReasonExplainIsNeverEmpty(t *testing.T) {
	var values []int32
	for _, tab := range [][]constName{mqrcNamesLow[:], mqrcNamesHigh[:], mqfbNames[:]} {
		for _, e := range tab {
			values = append(values, e.v)
		}
	}
	values = append(values, -2147483648, -1, 1, 899, 900, 999, 1000, 2000, 2015, 300, 301, 399, 400,
		599, 600, 855, 856, 65535, 65536, 999999999, 1000000000, 2147483647)
	for _, v := range values {
		r := Reason(v)
		if e := r.Explain(); e == "" || strings.ContainsAny(e, "\n\r\t\x1b") {
			t.Errorf("Reason(%d).Explain() = %q", v, e)
		}
		if f := Feedback(v); f.Explain() == "" {
			t.Errorf("Feedback(%d).Explain() is empty", v)
		}
	}
}

func TestFeedback(t *testing.T) {
	tests := []struct {
		name       string
		f          Feedback
		wantString string
		wantIn     string
	}{
		{"none", FBNone, "MQFB_NONE", "no feedback"},
		{"expiration_report", FBExpiration, "MQFB_EXPIRATION", "expired"},
		{"confirm_on_arrival", FBCOA, "MQFB_COA", "arrived"},
		{"exception_report_carries_a_reason_code", 2053, "MQRC_Q_FULL", "MAXDEPTH"},
		{"IMS_NACK_1A_reason", 600, "MQFB_600", "reason code 0"},
		{"application_range_start", 65536, "MQFB_65536", "application-defined"},
		{"unknown_system_feedback", 500, "MQFB_500", "does not know"},
		{"negative_is_not_valid", -1, "MQFB_-1", "not a valid feedback value"},
		{"beyond_the_application_range", 1000000000, "MQFB_1000000000", "not a valid feedback value"},
		{"CICS_bridge", 411, "MQFB_CICS_APPL_ABENDED", "abended"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := tc.f.String(); got != tc.wantString {
				t.Errorf("String() = %q, want %q", got, tc.wantString)
			}
			if got := tc.f.Explain(); !strings.Contains(got, tc.wantIn) {
				t.Errorf("Explain() = %q, want it to contain %q", got, tc.wantIn)
			}
			if got, want := tc.f.Describe(), tc.wantString+" ("; !strings.HasPrefix(got, want) {
				t.Errorf("Describe() = %q, want prefix %q", got, want)
			}
		})
	}
}

func BenchmarkReasonDescribe(b *testing.B) {
	codes := []Reason{RCQFull, RCNotAuthorized, RCBackoutThresholdReached, 265, 2999, 6120}
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		_ = codes[i%len(codes)].Describe()
	}
}

func BenchmarkReasonString(b *testing.B) {
	codes := []Reason{RCQFull, RCNotAuthorized, RCBackoutThresholdReached, 265, 6120}
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		_ = codes[i%len(codes)].String()
	}
}

// BenchmarkReasonExplain is the meaning lookup alone: codes with a summary,
// one pointed to IBM's reference, a feedback code and an unknown value.
func BenchmarkReasonExplain(b *testing.B) {
	codes := []Reason{RCQFull, RCNotAuthorized, RCBackoutThresholdReached, 2001, 2425, 6120, 265, 2999}
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		_ = codes[i%len(codes)].Explain()
	}
}
