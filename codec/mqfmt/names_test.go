package mqfmt

import (
	"reflect"
	"strings"
	"testing"
)

// TestExplanationKeysAreIBMNames keeps the hand-written meanings in step with
// the generated names: no meaning under a misspelt name (it would never be
// shown), and every name of the small families has a meaning.
func TestExplanationKeysAreIBMNames(t *testing.T) {
	names := func(tabs ...[]constName) map[string]bool {
		m := map[string]bool{}
		for _, tab := range tabs {
			for _, e := range tab {
				m[e.name] = true
			}
		}
		return m
	}
	fmtNames := map[string]bool{}
	for _, f := range mqfmtNames {
		fmtNames[f.name] = true
	}
	tests := []struct {
		name     string
		meanings []map[string]string
		names    map[string]bool
		complete bool
	}{
		{"MQRC_summaries", []map[string]string{mqrcExplain()}, names(mqrcNamesLow[:], mqrcNamesHigh[:]), false},
		{"MQFB_meanings", []map[string]string{mqfbExplain()}, names(mqfbNames[:]), true},
		{"MQAT_meanings", []map[string]string{mqatMeaning}, names(mqatNames[:]), true},
		{"MQMT_meanings", []map[string]string{mqmtMeaning}, names(mqmtNames[:]), true},
		{"MQPER_meanings", []map[string]string{mqperMeaning}, names(mqperNames[:]), true},
		{"MQCCSI_meanings", []map[string]string{mqccsiMeaning}, names(mqccsiNames[:]), true},
		{"MQFMT_meanings", []map[string]string{mqfmtMeaning}, fmtNames, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			seen := map[string]bool{}
			for _, m := range tc.meanings {
				for k, v := range m {
					if !tc.names[k] {
						t.Errorf("meaning for %s, which is not a generated IBM name", k)
					}
					if seen[k] {
						t.Errorf("%s has two meanings", k)
					}
					if v == "" {
						t.Errorf("%s has an empty meaning", k)
					}
					seen[k] = true
				}
			}
			if !tc.complete {
				return
			}
			for n := range tc.names {
				if !seen[n] {
					t.Errorf("%s has no meaning", n)
				}
			}
		})
	}
}

// unexplained are the MQRC codes that have no written summary because their
// exact meaning could not be confirmed from IBM's documentation here; they
// are shown with a pointer to IBM's reference instead.
var unexplained = map[string]bool{
	"MQRC_INCOMPLETE_TRANSACTION": true, "MQRC_FILE_NOT_AUDITED": true, "MQRC_PARTICIPANT_NOT_DEFINED": true,
	"MQRC_UOW_COMMITTED": true, "MQRC_UNKNOWN_COMPONENT_NAME": true, "MQRC_MSG_LENGTH_ERROR": true,
	"MQRC_ALREADY_JOINED": true, "MQRC_DEF_SYNCPOINT_INHIBITED": true, "MQRC_GROUPING_NOT_ALLOWED": true,
	"MQRC_SYNCPOINT_NOT_ALLOWED": true, "MQRC_CD_ARRAY_ERROR": true, "MQRC_PROPERTIES_DISABLED": true,
	"MQRC_HMSG_NOT_AVAILABLE": true, "MQRC_EXIT_PROPS_NOT_SUPPORTED": true, "MQRC_ADMIN_TOPIC_STRING_ERROR": true,
	"MQRC_AMQP_NOT_AVAILABLE": true, "MQRC_XR_NOT_AVAILABLE": true, "MQRC_SUB_JOIN_NOT_ALTERABLE": true,
	"MQRC_TOKEN_TIMESTAMP_NOT_VALID": true,
}

// TestEveryMQRCCodeHasASummary lists exactly which IBM codes lack one, so a
// gap is a decision in this file rather than an accident.
func TestEveryMQRCCodeHasASummary(t *testing.T) {
	explained := 0
	for _, tab := range [][]constName{mqrcNamesLow[:], mqrcNamesHigh[:]} {
		for _, e := range tab {
			has := mqrcExplanation(e.name) != ""
			switch {
			case has && unexplained[e.name]:
				t.Errorf("%s has a summary but is listed as unexplained", e.name)
			case !has && !unexplained[e.name]:
				t.Errorf("%s (%d) has no summary", e.name, e.v)
			}
			if has {
				explained++
			}
		}
	}
	t.Logf("%d MQRC codes explained, %d pointed to IBM's reference", explained, len(unexplained))
}

func TestReportOptions(t *testing.T) {
	defaults := []string{"MQRO_NEW_MSG_ID", "MQRO_COPY_MSG_ID_TO_CORREL_ID", "MQRO_DEAD_LETTER_Q"}
	tests := []struct {
		name string
		ro   int32
		want []string
	}{
		{"none_names_the_defaults", 0, defaults},
		{"COA", ROCOA, append([]string{"MQRO_COA"}, defaults...)},
		{"COA_with_data_is_not_also_COA", ROCOAWithData, append([]string{"MQRO_COA_WITH_DATA"}, defaults...)},
		{"COD_with_full_data", ROCODWithFullData, append([]string{"MQRO_COD_WITH_FULL_DATA"}, defaults...)},
		{"expiration_with_data", ROExpirationWithData, append([]string{"MQRO_EXPIRATION_WITH_DATA"}, defaults...)},
		{"R6b_discard_replaces_dead_letter_queue", RODiscardMsg,
			[]string{"MQRO_NEW_MSG_ID", "MQRO_COPY_MSG_ID_TO_CORREL_ID", "MQRO_DISCARD_MSG"}},
		{"R6d_exception_with_data_and_discard", ROExceptionWithData | RODiscardMsg,
			[]string{"MQRO_EXCEPTION_WITH_DATA", "MQRO_NEW_MSG_ID", "MQRO_COPY_MSG_ID_TO_CORREL_ID", "MQRO_DISCARD_MSG"}},
		{"R6g_pass_ids_replace_the_id_defaults", ROPassMsgId | ROPassCorrelId,
			[]string{"MQRO_PASS_MSG_ID", "MQRO_PASS_CORREL_ID", "MQRO_DEAD_LETTER_Q"}},
		{"every_field_at_once", ROExceptionWithFullData | ROExpiration | ROCOAWithFullData | ROCODWithData |
			ROPAN | RONAN | ROActivity | ROPassMsgId | ROPassCorrelId | ROPassDiscardAndExpiry | RODiscardMsg,
			[]string{"MQRO_EXCEPTION_WITH_FULL_DATA", "MQRO_EXPIRATION", "MQRO_COA_WITH_FULL_DATA", "MQRO_COD_WITH_DATA",
				"MQRO_PAN", "MQRO_NAN", "MQRO_ACTIVITY", "MQRO_PASS_MSG_ID", "MQRO_PASS_CORREL_ID",
				"MQRO_PASS_DISCARD_AND_EXPIRY", "MQRO_DISCARD_MSG"}},
		{"data_bit_without_its_base_option_is_shown_in_hex", 0x02000000, append([]string{"0x02000000"}, defaults...)},
		{"bits_IBM_does_not_define_are_shown_in_hex", 0x00010008, append(append([]string{}, defaults...), "0x00010008")},
		{"sign_bit", -0x80000000, append(append([]string{}, defaults...), "0x80000000")},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := ReportOptions(tc.ro)
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("ReportOptions(%#x) =\n %q\nwant\n %q", uint32(tc.ro), got, tc.want)
			}
			for _, n := range got {
				if n[0] != '0' && ReportOptionMeaning(n) == "" {
					t.Errorf("ReportOptionMeaning(%s) is empty", n)
				}
			}
		})
	}
}

func TestFormatName(t *testing.T) {
	tests := []struct {
		name, format, want string
	}{
		{"RFH2_padded", "MQHRF2  ", "MQFMT_RF_HEADER_2"},
		{"string_padded", FmtString, "MQFMT_STRING"},
		{"string_unpadded", "MQSTR", "MQFMT_STRING"},
		{"blanks_are_none", FmtNone, "MQFMT_NONE"},
		{"empty_is_none", "", "MQFMT_NONE"},
		{"RFH_version_1_has_one_name", FmtRFH, "MQFMT_RF_HEADER_1"},
		{"dead_letter_header", FmtDeadLetter, "MQFMT_DEAD_LETTER_HEADER"},
		{"transmission_header", FmtXmitQHeader, "MQFMT_XMIT_Q_HEADER"},
		{"NUL_padding_is_not_IBM's_format", "MQSTR\x00\x00\x00", ""},
		{"lower_case_is_not_IBM's_format", "mqstr   ", ""},
		{"leading_blanks_are_not_IBM's_format", "  MQSTR ", ""},
		{"application_format", "MYAPP   ", ""},
		{"longer_than_the_field", "MQSTR      X", ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := FormatName(tc.format); got != tc.want {
				t.Errorf("FormatName(%q) = %q, want %q", tc.format, got, tc.want)
			}
			if FormatMeaning(tc.format) == "" {
				t.Errorf("FormatMeaning(%q) is empty", tc.format)
			}
		})
	}
}

func TestMQMDFieldNames(t *testing.T) {
	tests := []struct {
		name, got, want string
	}{
		{"persistent", PersistenceName(PerPersistent), "MQPER_PERSISTENT"},
		{"not_persistent", PersistenceName(PerNotPersistent), "MQPER_NOT_PERSISTENT"},
		{"as_queue_definition_over_its_topic_alias", PersistenceName(PerPersistenceAsDef), "MQPER_PERSISTENCE_AS_Q_DEF"},
		{"as_parent", PersistenceName(-1), "MQPER_PERSISTENCE_AS_PARENT"},
		{"persistence_unknown", PersistenceName(7), "MQPER_7"},
		{"datagram", MsgTypeName(MTDatagram), "MQMT_DATAGRAM"},
		{"report", MsgTypeName(MTReport), "MQMT_REPORT"},
		{"application_message_type", MsgTypeName(65540), "MQMT_65540"},
		{"Java_is_28", ApplTypeName(28), "MQAT_JAVA"},
		{"UNIX_over_its_AIX_alias", ApplTypeName(6), "MQAT_UNIX"},
		{"queue_manager", ApplTypeName(7), "MQAT_QMGR"},
		{"ZOS_over_MVS_and_OS390", ApplTypeName(2), "MQAT_ZOS"},
		{"NSK_over_GUARDIAN", ApplTypeName(13), "MQAT_NSK"},
		{"BROKER_over_QMGR_PUBLISH", ApplTypeName(26), "MQAT_BROKER"},
		{"AMQP", ApplTypeName(37), "MQAT_AMQP"},
		{"user_application_type", ApplTypeName(65537), "MQAT_65537"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if tc.got != tc.want {
				t.Errorf("got %q, want %q", tc.got, tc.want)
			}
		})
	}
}

func TestMQMDFieldMeanings(t *testing.T) {
	tests := []struct {
		name, got, wantIn string
	}{
		{"persistent_survives_restart", PersistenceMeaning(1), "survives"},
		{"unknown_persistence", PersistenceMeaning(9), "not a persistence value"},
		{"request_expects_reply", MsgTypeMeaning(MTRequest), "ReplyToQ"},
		{"application_message_type", MsgTypeMeaning(70000), "application-defined"},
		{"system_message_type_unknown", MsgTypeMeaning(50), "does not know"},
		{"zero_message_type", MsgTypeMeaning(0), "not a message type"},
		{"Java_dead_letters_poison", ApplTypeMeaning(ATJava), "JMS"},
		{"user_application_type", ApplTypeMeaning(65537), "user-defined"},
		{"unknown_application_type", ApplTypeMeaning(99), "not an application type"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if !strings.Contains(tc.got, tc.wantIn) {
				t.Errorf("got %q, want it to contain %q", tc.got, tc.wantIn)
			}
		})
	}
}

func TestEncodingName(t *testing.T) {
	tests := []struct {
		name      string
		e         Encoding
		want      string
		meaningIn string
	}{
		{"normal_273", 273, "MQENC_NORMAL", "big-endian integers"},
		{"reversed_546_is_not_called_native", 546, "MQENC_REVERSED", "little-endian integers"},
		{"z/OS_785", 785, "MQENC_S390", "System/390 floats"},
		{"NonStop_1041", 1041, "MQENC_TNS", "TNS floats"},
		{"as_published", -1, "MQENC_AS_PUBLISHED", "publication"},
		{"zero_is_undefined_field_by_field", 0, "MQENC_INTEGER_UNDEFINED+MQENC_DECIMAL_UNDEFINED+MQENC_FLOAT_UNDEFINED", "integer encoding undefined"},
		{"mixed_fields", 0x112, "MQENC_INTEGER_REVERSED+MQENC_DECIMAL_NORMAL+MQENC_FLOAT_IEEE_NORMAL", "little-endian integers, normal packed decimal, IEEE big-endian floats"},
		{"undefined_integer_value_in_hex", 0x113, "0x00000003+MQENC_DECIMAL_NORMAL+MQENC_FLOAT_IEEE_NORMAL", "0x00000003"},
		{"reserved_bits", 0x1111, "MQENC_INTEGER_NORMAL+MQENC_DECIMAL_NORMAL+MQENC_FLOAT_IEEE_NORMAL+0x00001000", "reserved bits 0x00001000 set"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := EncodingName(tc.e); got != tc.want {
				t.Errorf("EncodingName(%d) = %q, want %q", int32(tc.e), got, tc.want)
			}
			if got := EncodingMeaning(tc.e); !strings.Contains(got, tc.meaningIn) {
				t.Errorf("EncodingMeaning(%d) = %q, want it to contain %q", int32(tc.e), got, tc.meaningIn)
			}
		})
	}
}

func TestCCSIDName(t *testing.T) {
	tests := []struct {
		ccsid int32
		want  string
	}{
		{1208, "UTF-8"}, {819, "ISO-8859-1"}, {37, "EBCDIC US"}, {500, "EBCDIC International"},
		{1047, "EBCDIC Latin-1 open systems"}, {1140, "EBCDIC US with euro"}, {1200, "UTF-16"},
		{13488, "UCS-2"}, {17584, "UCS-2 (Unicode 3.0)"}, {437, "PC US"}, {850, "PC Latin-1"},
		{1252, "Windows-1252"}, {0, "MQCCSI_Q_MGR"}, {-1, "MQCCSI_EMBEDDED"}, {-2, "MQCCSI_INHERIT"},
		{-3, "MQCCSI_APPL"}, {-4, "MQCCSI_AS_PUBLISHED"}, {4711, "CCSID 4711"}, {-5, "CCSID -5"},
	}
	for _, tc := range tests {
		t.Run(tc.want, func(t *testing.T) {
			if got := CCSIDName(tc.ccsid); got != tc.want {
				t.Errorf("CCSIDName(%d) = %q, want %q", tc.ccsid, got, tc.want)
			}
			if CCSIDMeaning(tc.ccsid) == "" {
				t.Errorf("CCSIDMeaning(%d) is empty", tc.ccsid)
			}
		})
	}
	for i := 1; i < len(ccsidTable); i++ {
		if ccsidTable[i-1].ccsid >= ccsidTable[i].ccsid {
			t.Errorf("ccsidTable not strictly sorted at %d", ccsidTable[i].ccsid)
		}
	}
}
