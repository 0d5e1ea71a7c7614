package mqwatch

import (
	"encoding/binary"
	"reflect"
	"testing"
	"time"
)

// FuzzInventoryRoundTrip stores summaries made from the input's bytes (odd
// times, arrivals, sizes and classes included) in batches and drops from the
// head, and checks that every summary reads back exactly as stored.
//
//	go test -run '^$' -fuzz FuzzInventoryRoundTrip ./mqwatch/
func FuzzInventoryRoundTrip(f *testing.F) {
	f.Add([]byte("\x00\x01\x02\x03\x04\x05\x06\x07\x08\x09\x0a\x0b\x0c\x0d\x0e\x0f\x10\x11\x12\x13"))
	f.Add([]byte("\xff\xff\xff\xff\xff\xff\xff\x7f\x00\x00\x00\x00\x00\x00\x00\x80\x01\x01\x01\x01\x03\x05\x07"))
	f.Add([]byte("0123456789abcdefghij0123456789abcdefgh\x01\x06ABCDEFGHIJKLMNOPQR\x02\x05"))
	f.Fuzz(func(t *testing.T, data []byte) {
		var want []Summary
		var inv *Inventory
		for len(data) >= 20 && len(want) < 5000 {
			rec := data[:20]
			data = data[20:]
			s := fuzzSummary(rec, len(want))
			n := 1 + int(rec[19]%7)
			for k := 0; k < n; k++ {
				want = append(want, s)
				s.Arrival++
				s.MsgId[23]++ // one queue manager's next MsgId
			}
			inv = inv.Append(want[len(want)-n:]...)
			if rec[18]%5 == 0 && len(want) > 0 {
				k := int(rec[17]) % (len(want) + 1)
				inv, want = inv.DropHead(k), want[k:]
			}
		}
		if inv.Len() != len(want) {
			t.Fatalf("len %d, want %d", inv.Len(), len(want))
		}
		for i := range want {
			if got := inv.At(i); !reflect.DeepEqual(*got, want[i]) {
				t.Fatalf("summary %d:\n got %+v\nwant %+v", i, *got, want[i])
			}
		}
	})
}

func fuzzSummary(b []byte, i int) Summary {
	u64 := binary.LittleEndian.Uint64
	s := Summary{Arrival: u64(b[0:8]), Length: int(int64(u64(b[0:8])) >> (b[16] % 64)),
		BodyOffset: int(int32(binary.LittleEndian.Uint32(b[8:12]))), BackoutCount: int32(b[12]),
		Expiry: int32(b[13]) - 1, DLHReason: int32(b[14] % 4), HasDLH: b[14]&4 != 0,
		DLHDestQ: []string{"", "A", "B.C", "INVOICE.IN"}[b[15]%4], ToolReply: b[15]&8 != 0}
	switch b[16] % 6 {
	case 1:
		s.PutTime = time.Unix(0, int64(u64(b[8:16]))).UTC()
	case 2:
		s.PutTime = time.Unix(int64(u64(b[8:16])), 0).UTC()
	case 3:
		s.DLHPutTime = time.Unix(int64(b[9]), int64(b[10])).In(time.FixedZone("Z", int(b[11])*60))
	case 4:
		s.DLHPutTime = time.Unix(0, int64(u64(b[0:8]))).UTC()
	}
	// Most MsgIds share a queue manager's first 16 bytes; some do not.
	copy(s.MsgId[:], "AMQ QM1         ")
	if b[16]&0x10 != 0 {
		s.MsgId[0] = b[15]
	}
	s.MsgId[22] = byte(i)
	if b[17]&1 != 0 {
		s.CorrelId[3] = b[17]
	}
	return s
}
