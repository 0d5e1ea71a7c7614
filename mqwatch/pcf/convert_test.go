package pcf

import (
	"context"
	"encoding/binary"
	"testing"

	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
	"github.com/poisonwatch/poisonwatch/mqwatch"
)

// ebcdic writes upper-case letters, digits, '.' and ' ' in EBCDIC (CCSID 500).
func ebcdic(s string) string {
	b := make([]byte, len(s))
	for i, c := range []byte(s) {
		switch {
		case c >= 'A' && c <= 'I':
			b[i] = 0xC1 + c - 'A'
		case c >= 'J' && c <= 'R':
			b[i] = 0xD1 + c - 'J'
		case c >= 'S' && c <= 'Z':
			b[i] = 0xE2 + c - 'S'
		case c >= '0' && c <= '9':
			b[i] = 0xF0 + c - '0'
		case c == '.':
			b[i] = 0x4B
		default:
			b[i] = 0x40
		}
	}
	return string(b)
}

// zosReply is a z/OS answer left unconverted: big-endian integers, strings
// in EBCDIC with the CCSID in each MQCFST (0: the message's).
func zosReply(rc mqfmt.Reason) fakeGet {
	data := replyBytes(binary.BigEndian, cftResponse, cfcLast, 0,
		Param{Type: cftString, Param: caQName, CCSID: 500, Str: ebcdic("ORDERS.IN")},
		Int(iaQType, qtLocal), Param{Type: cftString, Param: caBackoutReqQName, Str: ebcdic("ORDERS.BO")})
	md := mqfmt.NewMQMD()
	md.Encoding, md.CodedCharSetId = mqfmt.EncodingS390, 500
	return fakeGet{msg: mqwatch.Message{MD: md, Data: data, Length: len(data)}, rc: rc, cc: mqfmt.CCWarning}
}

// TestUnconvertedRepliesAreReadByTheirOwnEncoding: after MQRC_NOT_CONVERTED
// (2119) or MQRC_CONVERTED_MSG_TOO_BIG (2120) MQGET returns the message
// unconverted with a warning, its MQMD describing it (IBM's MQGET
// reference); the reply is read in that byte order and CCSID instead of
// failing the command, as it once did.
func TestUnconvertedRepliesAreReadByTheirOwnEncoding(t *testing.T) {
	for _, rc := range []mqfmt.Reason{2119, 2120} {
		f := &fakeTransport{replies: []fakeGet{zosReply(rc)}}
		qs, err := newClient(f).Queues(context.Background(), "ORDERS.IN")
		if err != nil || len(qs) != 1 || qs[0].Name != "ORDERS.IN" || qs[0].BackoutQName != "ORDERS.BO" {
			t.Errorf("%d: %+v %v", rc, qs, err)
		}
	}
}

// TestTruncatedReplyIsReadAgainWithRoomToConvert: after 2080 the length MQGET
// reports is the unconverted one; EBCDIC to UTF-8 can expand, so the retry
// buffer leaves room rather than failing again.
func TestTruncatedReplyIsReadAgainWithRoomToConvert(t *testing.T) {
	good := replyMsg(binary.LittleEndian, replyBytes(binary.LittleEndian, cftResponse, cfcLast, 0, queueItem("A")...))
	trunc := fakeGet{msg: mqwatch.Message{Length: 70000}, rc: 2080}
	f := &fakeTransport{replies: []fakeGet{trunc, good}}
	c := newClient(f)
	c.MaxMsgLen = 100000
	if qs, err := c.Queues(context.Background(), "A"); err != nil || len(qs) != 1 {
		t.Fatalf("%v %v", qs, err)
	}
	if len(f.sizes) != 2 || f.sizes[0] != initialReplyBuffer || f.sizes[1] != 100000 {
		t.Errorf("buffer sizes %v, want %d then MAXMSGL-bounded 2x", f.sizes, initialReplyBuffer)
	}
	for _, tt := range []struct{ need, grown, limit, want int }{
		{100, 0, 0, 200}, {100, 1, 0, 400}, {600, 0, 1000, 1000}, {maxMsgLength, 0, 0, maxMsgLength},
	} {
		if got, err := replyBuffer(tt.need, tt.grown, tt.limit); err != nil || got != tt.want {
			t.Errorf("replyBuffer(%d, %d, %d) = %d, %v", tt.need, tt.grown, tt.limit, got, err)
		}
	}
	if _, err := replyBuffer(2000, 0, 1000); err == nil {
		t.Error("a reply longer than MAXMSGL accepted")
	}
}

// TestReplyModelPolicy is defect 6: a permanent dynamic reply queue is
// deleted with MQCO_DELETE_PURGE when the caller can, else refused.
func TestReplyModelPolicy(t *testing.T) {
	if purge, err := ReplyModelPolicy("M", mqwatch.TemporaryDynamic, true); purge || err != nil {
		t.Errorf("TEMPDYN: %v %v", purge, err)
	}
	if purge, err := ReplyModelPolicy("M", mqwatch.PermanentDynamic, true); !purge || err != nil {
		t.Errorf("PERMDYN with delete: %v %v", purge, err)
	}
	if _, err := ReplyModelPolicy("APP.PERM.MODEL", mqwatch.PermanentDynamic, false); err == nil {
		t.Error("PERMDYN without delete accepted")
	}
}

// TestHandlesFindTheirConnection is defect 2: the connection id and UOW
// start come from DISPLAY CONN, matched on application, process, thread and
// unit of work; an ambiguous match leaves them unknown.
func TestHandlesFindTheirConnection(t *testing.T) {
	uow := []byte{0, 0, 0, 0, 0, 0, 0x10, 0x01}
	handle := func(pid, tid int32, u []byte) []byte {
		return replyBytes(binary.LittleEndian, cftResponse, cfcNotLast, 0, Str(caQName, "ORDERS.IN"),
			Str(cacfApplTag, "mdb"), Int(iacfProcessID, pid), Int(iacfThreadID, tid),
			Int(iacfOpenOptions, ooInputShared), ByteStr(bacfQMgrUOWID, u))
	}
	conn := func(id byte, pid, tid int32, u []byte, date, tm string) []byte {
		return replyBytes(binary.LittleEndian, cftResponse, cfcNotLast, 0, ByteStr(bacfConnectionID, []byte{id, 0xAB}),
			Str(cacfApplTag, "mdb"), Int(iacfProcessID, pid), Int(iacfThreadID, tid), ByteStr(bacfQMgrUOWID, u),
			Str(cacfUOWStartDate, date), Str(cacfUOWStartTime, tm))
	}
	last := replyBytes(binary.LittleEndian, cftResponse, cfcLast, 0)
	f := &fakeTransport{}
	for _, b := range [][]byte{handle(10, 1, uow), handle(20, 5, make([]byte, 8)), last,
		conn(1, 10, 1, uow, "2026-03-01", "11.59.30"), conn(2, 20, 5, nil, "", ""), conn(3, 20, 5, nil, "", ""), last} {
		f.replies = append(f.replies, replyMsg(binary.LittleEndian, b))
	}
	hs, err := newClient(f).Handles(context.Background(), "ORDERS.IN")
	if err != nil || len(hs) != 2 {
		t.Fatalf("%+v %v", hs, err)
	}
	if hs[0].ConnID != "01AB" || !hs[0].UOW || hs[0].UOWStart.Format("15:04:05") != "11:59:30" {
		t.Errorf("handle with a unit of work: %+v", hs[0])
	}
	if hs[1].ConnID != "" || !hs[1].UOWStart.IsZero() {
		t.Errorf("two connections share process and thread: fields must stay unknown, got %+v", hs[1])
	}
}
