package mqfmt

import (
	"errors"
	"io"
	"strings"
	"testing"
)

const hdr = "* QLOAD Version:8.0.0 Created:Mon Jan  5 10:00:00 2015\n"

// TestQLoadReadAccepts covers what qload's reader accepts beyond what the
// writer produces: any attribute order, defaults, partial fields, comments and
// blank lines anywhere, lower-case hex, unquoted S lines, CRLF files.
func TestQLoadReadAccepts(t *testing.T) {
	def := QLoadDefaultMQMD()
	withMD := func(f func(*MQMD)) MQMD { md := QLoadDefaultMQMD(); f(&md); return md }
	tests := []struct {
		name string
		in   string
		want []QLoadMessage
	}{
		{"header_only_file_has_no_messages", hdr, nil},
		{"dmpmqmsg_header_and_blank_lines_before_it", "\n  \n* DMPMQMSG Version:9.4.0.0 Created:x\nN\nX 41\n",
			[]QLoadMessage{{MD: def, Data: []byte("A")}}},
		{"missing_fields_keep_qload_defaults", hdr + "A PRI 7\nX 00\n",
			[]QLoadMessage{{MD: withMD(func(m *MQMD) { m.Priority = 7 }), HasMQMD: true, Data: []byte{0}}}},
		{"attributes_in_any_order_last_wins", hdr + "A BOC 3\nA VER 1\nA BOC 4\nA FMT MQSTR\nX 00\n",
			[]QLoadMessage{{MD: withMD(func(m *MQMD) { m.BackoutCount, m.Version, m.Format = 4, 1, FmtString }), HasMQMD: true, Data: []byte{0}}}},
		{"attribute_without_value_leaves_default", hdr + "A RTQ\nA RTM \nA PRI\nX 00\n",
			[]QLoadMessage{{MD: def, HasMQMD: true, Data: []byte{0}}}},
		{"blank_number_is_zero_as_atoi", hdr + "A EXP  \nX 00\n",
			[]QLoadMessage{{MD: withMD(func(m *MQMD) { m.Expiry = 0 }), HasMQMD: true, Data: []byte{0}}}},
		{"number_with_sign_and_blanks", hdr + "A FDB +265 \nA EXP  -1\nX 00\n",
			[]QLoadMessage{{MD: withMD(func(m *MQMD) { m.Feedback = 265 }), HasMQMD: true, Data: []byte{0}}}},
		{"short_hex_value_overwrites_only_the_start", hdr + "A MSI 4142\nA AIX 6162\nX 00\n",
			[]QLoadMessage{{MD: withMD(func(m *MQMD) { copy(m.MsgId[:], "AB"); m.ApplIdentityData = padField("ab", 32) }), HasMQMD: true, Data: []byte{0}}}},
		{"char_value_is_blank_padded_and_trailing_blanks_beyond_ignored", hdr + "A RTM QM1\nA AOD ab     \nX 00\n",
			[]QLoadMessage{{MD: withMD(func(m *MQMD) { m.ReplyToQMgr, m.ApplOriginData = padField("QM1", 48), "ab  " }), HasMQMD: true, Data: []byte{0}}}},
		{"aid_and_aix_set_the_same_field", hdr + "A AID abc\nA AOX 41424344\nX 00\n",
			[]QLoadMessage{{MD: withMD(func(m *MQMD) { m.ApplIdentityData, m.ApplOriginData = padField("abc", 32), "ABCD" }), HasMQMD: true, Data: []byte{0}}}},
		{"hex_upper_and_lower_case_and_no_blank_after_X", hdr + "N\nX 4a4B\nX4c\n",
			[]QLoadMessage{{MD: def, Data: []byte("JKL")}}},
		{"hex_then_blanks_and_the_text_column", hdr + "N\nX 4142  <AB>\nX 43 <C>\nX 44   \nX 45 <<>\n",
			[]QLoadMessage{{MD: def, Data: []byte("ABCDE")}}},
		{"empty_X_line_is_an_empty_message", hdr + "N\nX \nN\nX\n",
			[]QLoadMessage{{MD: def, Data: []byte{}}, {MD: def, Data: []byte{}}}},
		{"S_line_escapes_and_text_after_closing_quote", hdr + "N\nS \"a~\"b~~c\" ignored\nS \"\"\nS    \"d\"\n",
			[]QLoadMessage{{MD: def, Data: []byte(`a"b~cd`)}}},
		{"unquoted_S_line_is_literal_without_trailing_blanks", hdr + "N\nS  hello world  \nS \n",
			[]QLoadMessage{{MD: def, Data: []byte("hello world")}}},
		{"T_lines_append_a_line_feed", hdr + "N\nT one\nT \nT\nT  two \n",
			[]QLoadMessage{{MD: def, Data: []byte("one\n\n\n two \n")}}},
		{"data_forms_mix_in_one_message", hdr + "N\nS \"ab\"\nX 0D0A\nT cd\n",
			[]QLoadMessage{{MD: def, Data: []byte("ab\r\ncd\n")}}},
		{"comments_and_blank_lines_anywhere_do_not_split_a_message", hdr + "* c\nN\n\n* mid\n   \nX 41\n\n* x\nX 42\n",
			[]QLoadMessage{{MD: def, Data: []byte("AB")}}},
		{"next_A_line_starts_a_new_message", hdr + "A BOC 1\nX 41\nA BOC 2\nX 42\n",
			[]QLoadMessage{
				{MD: withMD(func(m *MQMD) { m.BackoutCount = 1 }), HasMQMD: true, Data: []byte("A")},
				{MD: withMD(func(m *MQMD) { m.BackoutCount = 2 }), HasMQMD: true, Data: []byte("B")}}},
		{"crlf_line_ends", strings.ReplaceAll(hdr+"A RTQ Q1\nS \"x\"\nT y\n", "\n", "\r\n"),
			[]QLoadMessage{{MD: withMD(func(m *MQMD) { m.ReplyToQ = padField("Q1", 48) }), HasMQMD: true, Data: []byte("xy\n")}}},
		{"last_line_without_line_feed", hdr + "N\nT end",
			[]QLoadMessage{{MD: def, Data: []byte("end\n")}}},
		{"value_cut_at_NUL_as_a_C_string", hdr + "A PAN abc\x00def\nX 00\n",
			[]QLoadMessage{{MD: withMD(func(m *MQMD) { m.PutApplName = padField("abc", 28) }), HasMQMD: true, Data: []byte{0}}}},
		{"version_1_mqmd_has_no_group_fields", hdr + "A MSQ 5\nA VER 1\nA GRP 41\nA ORL 9\nX 00\n",
			[]QLoadMessage{{MD: withMD(func(m *MQMD) { m.Version = 1 }), HasMQMD: true, Data: []byte{0}}}},
		{"N_then_A_lines_still_sets_fields_as_in_qload", hdr + "N\nA PRI 3\nX 00\n",
			[]QLoadMessage{{MD: withMD(func(m *MQMD) { m.Priority = 3 }), HasMQMD: true, Data: []byte{0}}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := ReadQLoad(strings.NewReader(tc.in))
			if err != nil {
				t.Fatalf("ReadQLoad: %v", err)
			}
			if d := diffMessages(got, tc.want); d != "" {
				t.Error(d)
			}
		})
	}
}

// TestQLoadReadErrors checks that malformed input is an error naming the line
// (and column), never a panic or a guess.
func TestQLoadReadErrors(t *testing.T) {
	tests := []struct {
		name     string
		in       string
		line     int
		col      int
		contains string
		is       error
	}{
		{"empty_input", "", 0, 0, "empty input", ErrQLoadNotQLoad},
		{"blank_input", " \n\n\t\n", 0, 0, "empty input", ErrQLoadNotQLoad},
		{"not_a_qload_file", "hello\nN\nX 41\n", 1, 0, "does not start with", ErrQLoadNotQLoad},
		{"header_must_be_exact_case", "* qload Version:1\n", 1, 0, "does not start with", ErrQLoadNotQLoad},
		{"header_must_start_in_column_1", "  * QLOAD Version:1\n", 1, 0, "does not start with", ErrQLoadNotQLoad},
		{"message_must_start_with_A_or_N", hdr + "X 41\n", 2, 1, "expected an A or N line", nil},
		{"unknown_attribute", hdr + "A VER 2\nA XYZ 1\nX 00\n", 3, 3, `unknown attribute "XYZ"`, nil},
		{"lower_case_key_is_unknown", hdr + "A ver 2\nX 00\n", 2, 3, `unknown attribute "ver"`, nil},
		{"attribute_line_too_short", hdr + "A VE\nX 00\n", 2, 0, "too short", nil},
		{"number_not_decimal", hdr + "A PRI high\nX 00\n", 2, 7, "not a decimal 32-bit integer", nil},
		{"number_out_of_range", hdr + "A EXP 4294967295\nX 00\n", 2, 7, "not a decimal 32-bit integer", nil},
		{"hex_field_odd_digits", hdr + "A MSI 414\nX 00\n", 2, 7, "odd number of hex digits", nil},
		{"hex_field_too_long", hdr + "A AOX 4142434445\nX 00\n", 2, 7, "holds 4 bytes", nil},
		{"hex_field_not_hex", hdr + "A COI 41ZZ\nX 00\n", 2, 7, "not a hex byte", nil},
		{"char_field_too_long", hdr + "A FMT MQSTRINGX\nX 00\n", 2, 7, "holds 8", nil},
		{"X_line_trailing_single_digit", hdr + "N\nX 414\n", 3, 5, "one hex digit", nil},
		{"X_line_second_digit_not_hex", hdr + "N\nX 414G\n", 3, 6, "badly formed hex", nil},
		{"X_line_non_hex_after_data", hdr + "N\nX 4865ZZ6C6F\n", 3, 7, "badly formed hex", nil},
		{"X_line_blank_inside_data", hdr + "N\nX 4865 6C6C6F\n", 3, 8, "where hex digits, blanks or the <...> text column belong", nil},
		{"X_line_bangs", hdr + "N\nX 41!!\n", 3, 5, "badly formed hex", nil},
		{"X_line_text_column_without_blank", hdr + "N\nX 41<A>\n", 3, 5, "badly formed hex", nil},
		{"S_line_without_closing_quote", hdr + "N\nS \"abc\n", 3, 7, "no closing", nil},
		{"S_line_bad_escape", hdr + "N\nS \"a~b\"\n", 3, 5, "unexpected escape", nil},
		{"S_line_escape_at_end", hdr + "N\nS \"a~\n", 3, 5, "unexpected escape", nil},
		{"message_without_data_line", hdr + "A VER 2\nA PRI 1\nA BOC 1\nX 00\nA VER 2\nN\n", 7, 1, "expected a data line", nil},
		{"file_ends_after_A_lines", hdr + "A VER 2\n", 2, 0, "ends inside the message", io.ErrUnexpectedEOF},
		{"file_ends_after_N", hdr + "N\n", 2, 0, "ends inside the message", io.ErrUnexpectedEOF},
		{"garbage_between_messages", hdr + "N\nX 41\nhello\n", 4, 1, "expected an A or N line", nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ReadQLoad(strings.NewReader(tc.in))
			var qe *QLoadError
			if !errors.As(err, &qe) {
				t.Fatalf("error %v (%T), want a *QLoadError", err, err)
			}
			if qe.Line != tc.line || qe.Column != tc.col {
				t.Errorf("line %d column %d, want line %d column %d (%v)", qe.Line, qe.Column, tc.line, tc.col, err)
			}
			if !strings.Contains(err.Error(), tc.contains) {
				t.Errorf("error %q does not say %q", err, tc.contains)
			}
			if tc.is != nil && !errors.Is(err, tc.is) {
				t.Errorf("error %v is not %v", err, tc.is)
			}
		})
	}
}

// TestQLoadReaderStopsAfterError checks that a failed reader keeps returning its
// error instead of resynchronising somewhere in the middle of a message.
func TestQLoadReaderStopsAfterError(t *testing.T) {
	r := NewQLoadReader(strings.NewReader(hdr+"N\nX 41\nA XYZ\nX 42\nN\nX 43\n"), QLoadReaderOptions{})
	if _, err := r.Next(); err != nil {
		t.Fatalf("first message: %v", err)
	}
	_, err1 := r.Next()
	_, err2 := r.Next()
	if err1 == nil || err1 != err2 {
		t.Fatalf("errors %v then %v, want the same error twice", err1, err2)
	}
}
