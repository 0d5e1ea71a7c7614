package ibmmq

import (
	"encoding/binary"
	"strings"
	"testing"

	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
)

// sampleMD is an MQMD as a JMS application on a big-endian host would put it.
func sampleMD() mqfmt.MQMD {
	md := mqfmt.NewMQMD()
	md.Report = mqfmt.RODiscardMsg
	md.Encoding = mqfmt.EncodingNormal
	md.CodedCharSetId = 1208
	md.Format = mqfmt.FmtRFH2
	md.Persistence = mqfmt.PerPersistent
	md.BackoutCount = 212
	md.ReplyToQ = fixed("REPLY.Q", 48)
	md.UserIdentifier = fixed("app", 12)
	md.PutApplName = fixed("payments-consumer", 28)
	md.PutDate, md.PutTime = "20260301", "03000000"
	copy(md.MsgId[:], "AMQ QM1         \x01\x02\x03\x04\x05\x06\x07\x08")
	copy(md.CorrelId[:], "corr")
	md.AccountingToken[0] = 0x16
	md.GroupId[23] = 9
	return md
}

func TestToWireMDKeepsTheExactFields(t *testing.T) {
	md := sampleMD()
	md.Version = 1
	w := toWireMD(&md)
	if w.Version != 2 {
		t.Errorf("Version %d: a version-1 MQMD would move group fields into an MQMDE", w.Version)
	}
	if !w.PutDateTime.IsZero() {
		t.Error("PutDateTime set: mq-golang would overwrite the GMT PutDate/PutTime with a local-zone format")
	}
	if w.PutDate != "20260301" || w.PutTime != "03000000" || w.Format != "MQHRF2  " {
		t.Errorf("fields changed: %q %q %q", w.PutDate, w.PutTime, w.Format)
	}
	if len(w.MsgId) != 24 || len(w.CorrelId) != 24 || len(w.GroupId) != 24 || len(w.AccountingToken) != 32 {
		t.Error("id fields must have MQ's lengths, or mq-golang's checkMD rejects the MQMD")
	}
	if string(w.MsgId) != string(md.MsgId[:]) || w.GroupId[23] != 9 || w.AccountingToken[0] != 0x16 {
		t.Error("id bytes not copied")
	}
	w.MsgId[0] = 'X'
	if md.MsgId[0] == 'X' {
		t.Error("wire MQMD shares memory with the caller's MQMD")
	}
	if w.Encoding != 273 || w.BackoutCount != 212 || w.Report != mqfmt.RODiscardMsg {
		t.Errorf("integers changed: %+v", w)
	}
}

// trimmedLikeMQGolang is what mq-golang's copyMDfromC leaves in a string
// field: cut at the first NUL, blanks trimmed on both ends.
func trimmedLikeMQGolang(s string) string {
	if i := strings.IndexByte(s, 0); i >= 0 {
		s = s[:i]
	}
	return strings.TrimSpace(s)
}

func TestFromWireMDRestoresMQFieldLengths(t *testing.T) {
	md := sampleMD()
	w := toWireMD(&md)
	for _, f := range []*string{&w.Format, &w.ReplyToQ, &w.ReplyToQMgr, &w.UserIdentifier, &w.ApplIdentityData,
		&w.PutApplName, &w.PutDate, &w.PutTime, &w.ApplOriginData} {
		*f = trimmedLikeMQGolang(*f)
	}
	got := fromWireMD(&w)
	if got.Format != "MQHRF2  " || len(got.ReplyToQ) != 48 || len(got.UserIdentifier) != 12 ||
		len(got.PutApplName) != 28 || len(got.ApplOriginData) != 4 || len(got.ApplIdentityData) != 32 {
		t.Errorf("fields not padded to MQ lengths: %+v", got)
	}
	// The padded MQMD encodes byte for byte like the original: mqfmt can decode
	// what the IBM MQ backend returns exactly as what a queue manager writes.
	if a, b := got.Encode(binary.BigEndian), md.Encode(binary.BigEndian); string(a) != string(b) {
		t.Errorf("round trip differs:\n% x\n% x", a, b)
	}
}

func TestFromWireMDCopesWithShortSlices(t *testing.T) {
	w := wireMD{Version: 2, MsgId: []byte{1, 2}, Format: "MQSTR"}
	got := fromWireMD(&w)
	if got.MsgId[0] != 1 || got.MsgId[2] != 0 || got.Format != "MQSTR   " {
		t.Errorf("got %+v", got)
	}
}

func TestFreshGetMDSelectsOnlyWhatIsAsked(t *testing.T) {
	var id, corr [24]byte
	copy(id[:], "MSGID")
	copy(corr[:], "CORRELID")
	tests := []struct {
		name         string
		msgID, corrl *[24]byte
	}{
		{"any_message", nil, nil}, {"by_msgid", &id, nil}, {"by_correlid", nil, &corr}, {"by_both", &id, &corr},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := freshGetMD(getSel{msgID: tt.msgID, correlID: tt.corrl})
			wantID, wantCorr := make([]byte, 24), make([]byte, 24)
			if tt.msgID != nil {
				wantID = id[:]
			}
			if tt.corrl != nil {
				wantCorr = corr[:]
			}
			if string(w.MsgId) != string(wantID) || string(w.CorrelId) != string(wantCorr) {
				t.Errorf("MsgId %q CorrelId %q", w.MsgId, w.CorrelId)
			}
			if w.Version != 2 || w.Format != mqfmt.FmtNone {
				t.Errorf("not a default MQMD v2: %+v", w)
			}
		})
	}
}

func TestFixedCutsAndPads(t *testing.T) {
	for _, tt := range []struct {
		in   string
		n    int
		want string
	}{{"MQSTR", 8, "MQSTR   "}, {"", 4, "    "}, {"TOOLONGNAME", 4, "TOOL"}, {"ABCD", 4, "ABCD"}} {
		if got := fixed(tt.in, tt.n); got != tt.want {
			t.Errorf("fixed(%q, %d) = %q, want %q", tt.in, tt.n, got, tt.want)
		}
	}
}
