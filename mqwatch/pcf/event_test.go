package pcf

import (
	"strings"
	"testing"

	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
)

// TestDecodeEvent reads the events an operator meets beside poison: an
// authority event (2035, an open refused) and a queue-full performance
// event, in both byte orders, with their names and parameters.
func TestDecodeEvent(t *testing.T) {
	tests := []struct {
		name    string
		enc     mqfmt.Encoding
		cmd     int32
		reason  mqfmt.Reason
		params  []Param
		want    string
		summary string
		fields  []string
	}{
		{"not_authorized_open_little_endian", mqfmt.EncodingNative, mqfmt.EventCmdQMgr, mqfmt.RCNotAuthorized,
			[]Param{Str(EventParamQMgrName, "QM1"), Int(EventParamReasonQualifier, 2), Int(EventParamOpenOptions, 0x2010),
				Str(EventParamUserIdentifier, "app1"), Int(EventParamApplType, 6), Str(EventParamApplName, "orders"), Str(EventParamQName, "APP.IN")},
			"Not Authorized (type 2: open)", "Not Authorized (type 2: open): APP.IN (user app1, appl orders)",
			[]string{"ReasonQualifier=2 (MQRQ_OPEN_NOT_AUTHORIZED)", "UserIdentifier='app1'", "QName='APP.IN'", "Options=8208 (MQOO options 0x2010)"}},
		{"queue_full_big_endian", mqfmt.EncodingNormal, mqfmt.EventCmdPerfm, mqfmt.RCQFull,
			[]Param{Str(EventParamQMgrName, "QM1"), Str(EventParamQName, "APP.IN")},
			"Queue Full", "Queue Full: APP.IN", []string{"QMgrName='QM1'"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			data, err := EncodeEvent(tt.enc, tt.cmd, tt.reason, tt.params)
			if err != nil {
				t.Fatal(err)
			}
			e, err := DecodeEvent(data, tt.enc, mqfmt.CCSIDUTF8)
			if err != nil {
				t.Fatal(err)
			}
			if e.Name != tt.want || e.Summary() != tt.summary || e.Reason != tt.reason || e.Queue != "APP.IN" {
				t.Errorf("%q / %q", e.Name, e.Summary())
			}
			var got []string
			for _, f := range e.Fields() {
				s := f.Name + "=" + f.Value
				if f.Meaning != "" {
					s += " (" + f.Meaning + ")"
				}
				got = append(got, s)
			}
			all := strings.Join(got, "\n")
			for _, w := range tt.fields {
				if !strings.Contains(all, w) {
					t.Errorf("fields lack %q:\n%s", w, all)
				}
			}
		})
	}
}

func TestDecodeEventRefusesOtherPCF(t *testing.T) {
	data, _ := encodeCommand(nativeOrder, cmdInquireQ, nil)
	if _, err := DecodeEvent(data, mqfmt.EncodingNormal, mqfmt.CCSIDUTF8); err == nil {
		t.Error("a command decoded as an event")
	}
}

func FuzzDecodeEvent(f *testing.F) {
	seed, _ := EncodeEvent(mqfmt.EncodingNormal, mqfmt.EventCmdPerfm, mqfmt.RCQFull, []Param{Str(caQName, "Q")})
	f.Add(seed)
	f.Fuzz(func(t *testing.T, data []byte) {
		e, err := DecodeEvent(data, mqfmt.EncodingNormal, mqfmt.CCSIDUTF8)
		if err != nil {
			return
		}
		for _, fd := range e.Fields() {
			if mqfmt.Sanitize(fd.Value) != fd.Value {
				t.Fatalf("unsanitised value %q", fd.Value)
			}
		}
	})
}
