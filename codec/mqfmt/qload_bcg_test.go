package mqfmt

import (
	"bytes"
	"errors"
	"strconv"
	"strings"
	"testing"
)

// TestQLoadAMQSBCGCorpus reads the two published amqsbcg dumps of SOURCES.md
// section 3 and checks the MQMD facts listed there and the message bytes
// against the binaries rebuilt from the same dumps.
func TestQLoadAMQSBCGCorpus(t *testing.T) {
	yespon := QLoadDefaultMQMD()
	yespon.Version, yespon.MsgType, yespon.Expiry, yespon.Encoding, yespon.CodedCharSetId = 2, 8, -1, 273, 819
	yespon.Format, yespon.Priority, yespon.Persistence = FmtDeadLetter, 0, 0
	yespon.MsgId = id24("414D5120514D4D424645202020202020505376A520000802")
	yespon.ReplyToQMgr = padField("QMMBFE", 48)
	yespon.PutApplType, yespon.PutApplName = 7, padField("QMMBFE", 28)
	yespon.PutDate, yespon.PutTime = "20120914", "18260760"
	tests := []struct {
		name       string
		dump, data string
		md         MQMD
		dumpLength int
		partial    bool
	}{
		{"yu-kun_complete_LE_message_put_inhibited", "amqsbcg_yu-kun_DLQ_QMW.txt", "dlh_put_inhibited_le.bin", mdYuKun(), 198, false},
		{"yespon_BE_trigger_message_dump_shows_first_384_of_856", "amqsbcg_yespon_DEADQ_QMMBFE.txt", "dlh_mqtrig_be_first384.bin", yespon, 856, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			h, msgs := readAll(t, readTestdata(t, tc.dump), QLoadReaderOptions{})
			if h.Tool != "AMQSBCG0" || len(msgs) != 1 {
				t.Fatalf("tool %q, %d messages; want AMQSBCG0, 1", h.Tool, len(msgs))
			}
			m := msgs[0]
			if m.MD != tc.md {
				t.Errorf("MQMD\n got %+v\nwant %+v", m.MD, tc.md)
			}
			if want := readTestdata(t, tc.data); !bytes.Equal(m.Data, want) {
				t.Errorf("data differs from %s: got %d bytes, want %d", tc.data, len(m.Data), len(want))
			}
			if m.DumpLength != tc.dumpLength || m.Partial() != tc.partial || !m.HasMQMD {
				t.Errorf("DumpLength %d Partial %v HasMQMD %v, want %d %v true", m.DumpLength, m.Partial(), m.HasMQMD, tc.dumpLength, tc.partial)
			}
			// The dump converts to a qload file and back without loss.
			back, err := ReadQLoad(bytes.NewReader(writeAll(t, msgs, QLoadWriterOptions{})))
			if err != nil || diffMessages(back, msgs) != "" {
				t.Errorf("qload round trip: %v %s", err, diffMessages(back, msgs))
			}
		})
	}
}

const bcgHead = "AMQSBCG0 - starts here\n**********************\n \n MQOPEN - 'Q1'\n \n"

func bcgMessage(n int, descr, body string) string {
	return " \n MQGET of message number " + strconv.Itoa(n) + "\n****Message descriptor****\n" + descr + body
}

const bcgDescr = `  StrucId  : 'MD  '  Version : 2
  Format : 'MQSTR   '
  PutApplName    : 'it's:odd                    '
  ApplOriginData : '    '
`

// TestQLoadAMQSBCGVariants covers dumps of several messages, newer amqsbcg
// output (properties section, "N of M bytes"), and malformed dumps.
func TestQLoadAMQSBCGVariants(t *testing.T) {
	body := func(lines ...string) string { return strings.Join(lines, "\n") + "\n" }
	msg1 := bcgMessage(1, bcgDescr, body("****   Message      ****", "", " length - 5 bytes", "",
		"00000000:  4865 6C6C 6F                             'Hello           '"))
	msg2 := bcgMessage(2, "  BackoutCount : 3\n", body("****Message properties****", "", "  None", "",
		"****   Message      ****", "", " length - 2 of 40 bytes", "", "00000000:  6869                                     'hi              '"))
	t.Run("several_messages_and_a_properties_section", func(t *testing.T) {
		msgs, err := ReadQLoad(strings.NewReader(bcgHead + msg1 + msg2 + " \n No more messages\n MQCLOSE\n MQDISC\n"))
		if err != nil || len(msgs) != 2 {
			t.Fatalf("%d messages, %v", len(msgs), err)
		}
		if string(msgs[0].Data) != "Hello" || msgs[0].MD.Format != FmtString || msgs[0].MD.PutApplName != padField("it's:odd", 28) {
			t.Errorf("message 1: %q %q %q", msgs[0].Data, msgs[0].MD.Format, msgs[0].MD.PutApplName)
		}
		if string(msgs[1].Data) != "hi" || msgs[1].MD.BackoutCount != 3 || msgs[1].DumpLength != 40 || !msgs[1].Partial() {
			t.Errorf("message 2: %q BOC %d DumpLength %d", msgs[1].Data, msgs[1].MD.BackoutCount, msgs[1].DumpLength)
		}
	})
	t.Run("crlf_dump", func(t *testing.T) {
		msgs, err := ReadQLoad(strings.NewReader(strings.ReplaceAll(bcgHead+msg1, "\n", "\r\n")))
		if err != nil || len(msgs) != 1 || string(msgs[0].Data) != "Hello" {
			t.Fatalf("%v %v", msgs, err)
		}
	})
	errs := []struct {
		name, in, contains string
		line               int
	}{
		{"unknown_field", bcgMessage(1, "  Colour : 'red'\n", ""), `unknown MQMD field "Colour"`, 9},
		{"byte_field_not_hex", bcgMessage(1, "  MsgId : '1234'\n", ""), "want a hex value", 9},
		{"unterminated_quote", bcgMessage(1, "  Format : 'MQSTR\n", ""), "unterminated quoted value", 9},
		{"field_without_value", bcgMessage(1, "  Format :\n****   Message      ****\n", ""), "has no value", 10},
		{"ends_in_descriptor", bcgMessage(1, "  Format : 'MQSTR   '\n", ""), "ends inside the message descriptor", 9},
		{"no_data_section", bcgMessage(1, "****Message properties****\n", "") + bcgMessage(2, "", ""), "no \"****   Message   ****\" section", 12},
		{"offset_gap", bcgMessage(1, "", body("****   Message      ****", "00000000:  4142 'AB'", "00000004:  4344 'CD'")), "a line is missing", 11},
		{"longer_than_declared", bcgMessage(1, "", body("****   Message      ****", " length - 1 bytes", "00000000:  4142 'AB'")), "declares a length of 1", 11},
		{"odd_hex_digit", bcgMessage(1, "", body("****   Message      ****", "00000000:  414")), "one hex digit", 10},
	}
	for _, tc := range errs {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ReadQLoad(strings.NewReader(bcgHead + tc.in))
			var qe *QLoadError
			if !errors.As(err, &qe) || !strings.Contains(err.Error(), tc.contains) || qe.Line != tc.line {
				t.Fatalf("error %v, want line %d saying %q", err, tc.line, tc.contains)
			}
		})
	}
}
