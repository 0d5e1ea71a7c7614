package pcf

import (
	"encoding/binary"
	"slices"
	"testing"

	"github.com/poisonwatch/poisonwatch/mqwatch"
)

// TestChangeMessagesCarryExactlyTheFixAttributes: each command of a fix is
// built with its required name and type and only the attributes it sets,
// and reads back the same on the command server's side.
func TestChangeMessagesCarryExactlyTheFixAttributes(t *testing.T) {
	tests := []struct {
		name string
		ch   Change
		ids  []int32
	}{
		{"R8b_change_q_MAXDEPTH", Change{Command: CmdChangeQ, Queue: "ORDERS.BO", Type: mqwatch.QLocal, Attrs: []Attr{{"MAXDEPTH", "5000"}}},
			[]int32{caQName, iaQType, iaMaxQDepth}},
		{"R1c_change_q_BOTHRESH_BOQNAME", Change{Command: CmdChangeQ, Queue: "ORDERS.IN", Type: mqwatch.QLocal, Attrs: []Attr{{"BOTHRESH", "3"}, {"BOQNAME", "ORDERS.BO"}}},
			[]int32{caQName, iaQType, iaBackoutThreshold, caBackoutReqQName}},
		{"R8c_get_inhibit", Change{Command: CmdChangeQ, Queue: "PAYMENTS.IN", Type: mqwatch.QLocal, Attrs: []Attr{{"GET", "DISABLED"}}},
			[]int32{caQName, iaQType, iaInhibitGet}},
		{"R2c_copy_q_LIKE", Change{Command: CmdCopyQ, Queue: "PAY.BO", Like: "SYSTEM.DEAD.LETTER.QUEUE", Type: mqwatch.QLocal, Attrs: []Attr{{"MAXDEPTH", "5000"}, {"HARDENBO", "YES"}}},
			[]int32{cacfFromQName, cacfToQName, iaQType, iaMaxQDepth, iaHardenGetBackout}},
		{"R8b_create_q", Change{Command: CmdCreateQ, Queue: "PAY.BO", Type: mqwatch.QLocal, Attrs: []Attr{{"MAXDEPTH", "5000"}, {"MAXMSGL", "4194340"}}},
			[]int32{caQName, iaQType, iaMaxQDepth, iaMaxMsgLength}},
		{"R8a_change_q_mgr", Change{Command: CmdChangeQMgr, Attrs: []Attr{{"DEADQ", "SYSTEM.DEAD.LETTER.QUEUE"}, {"MAXMSGL", "4194476"}}},
			[]int32{caDeadLetterQName, iaMaxMsgLength}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ps, err := tt.ch.Params()
			if err != nil {
				t.Fatal(err)
			}
			var ids []int32
			for _, p := range ps {
				ids = append(ids, p.Param)
			}
			if !slices.Equal(ids, tt.ids) {
				t.Errorf("parameters %v, want %v", ids, tt.ids)
			}
			for _, bo := range []binary.ByteOrder{binary.LittleEndian, binary.BigEndian} {
				data, err := encodeCommand(bo, tt.ch.Command, ps)
				if err != nil {
					t.Fatal(err)
				}
				back, rc, err := ParseChange(data, bo)
				if err != nil || rc != 0 {
					t.Fatalf("parse: %d %v", rc, err)
				}
				if back.Command != tt.ch.Command || back.Queue != tt.ch.Queue || back.Like != tt.ch.Like ||
					(tt.ch.Command != CmdChangeQMgr && back.Type != tt.ch.Type) || !slices.Equal(back.Attrs, tt.ch.Attrs) {
					t.Errorf("read back %+v, want %+v", back, tt.ch)
				}
			}
		})
	}
}

// TestChangeRefusesAttributesNoRuleCovers: anything but the poison rules'
// attributes stays copy-only MQSC; it is never sent.
func TestChangeRefusesAttributesNoRuleCovers(t *testing.T) {
	for _, ch := range []Change{
		{Command: CmdChangeQ, Queue: "Q", Type: mqwatch.QLocal, Attrs: []Attr{{"DESCR", "x"}}},
		{Command: CmdChangeQ, Queue: "Q", Type: mqwatch.QLocal, Attrs: []Attr{{"DEADQ", "X"}}},
		{Command: CmdChangeQMgr, Attrs: []Attr{{"BOTHRESH", "3"}}},
		{Command: CmdChangeQ, Queue: "Q", Type: mqwatch.QLocal, Attrs: []Attr{{"PUT", "MAYBE"}}},
		{Command: CmdChangeQ, Queue: "Q", Type: mqwatch.QLocal, Attrs: []Attr{{"MAXDEPTH", "-1"}}},
		{Command: 99},
	} {
		if _, err := ch.Params(); err == nil {
			t.Errorf("%+v was accepted", ch)
		}
	}
}

// FuzzParseChange: a command server reads whatever arrives on its queue;
// a change it accepts encodes again to the same change.
func FuzzParseChange(f *testing.F) {
	for _, ch := range []Change{
		{Command: CmdChangeQ, Queue: "ORDERS.BO", Type: mqwatch.QLocal, Attrs: []Attr{{"MAXDEPTH", "5000"}, {"PUT", "ENABLED"}}},
		{Command: CmdCopyQ, Queue: "P.BO", Like: "DLQ", Type: mqwatch.QLocal, Attrs: []Attr{{"BOQNAME", "X"}}},
		{Command: CmdChangeQMgr, Attrs: []Attr{{"DEADQ", "DLQ"}}},
	} {
		ps, _ := ch.Params()
		b, _ := encodeCommand(binary.LittleEndian, ch.Command, ps)
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		ch, rc, err := ParseChange(data, binary.LittleEndian)
		if err != nil || rc != 0 || ch.Command != CmdChangeQ {
			return
		}
		if queueTypeValue(ch.Type) == 0 {
			return
		}
		if _, err := ch.Params(); err != nil && len(ch.Attrs) == 0 {
			t.Errorf("accepted %+v does not encode: %v", ch, err)
		}
	})
}
