package mqwatch_test

import (
	"encoding/binary"
	"fmt"
	"reflect"
	"runtime"
	"testing"
	"unsafe"

	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
	"github.com/poisonwatch/poisonwatch/mqwatch"
)

// inventorySize is the DEADQ depth issue 5 sized memory for; issue 17 asks
// for a million.
const inventorySize = 100_000

// BenchmarkInventoryMemory measures the live heap a DEADQ inventory holds:
// heap in use after a GC, before and after building it from realistic
// summaries (MQDLH, JMS MQRFH2 facts, a 96-byte body prefix the inventory
// does not keep), each decoded from its own wire bytes as a client backend
// receives them. The strings=interned variant shares equal header strings
// between summaries before they are stored, as the watcher does; the
// inventory's class table keeps each class's strings once either way, so
// the two should agree. n=1000000 is issue 17's million-message DEADQ.
//
//	go test -run '^$' -bench BenchmarkInventoryMemory -benchtime 1x ./mqwatch/
func BenchmarkInventoryMemory(b *testing.B) {
	for _, tc := range []struct {
		name   string
		n      int
		intern bool
	}{
		{"strings=as-decoded", inventorySize, false},
		{"strings=interned", inventorySize, true},
		{"n=1000000", 1_000_000, true},
	} {
		b.Run(tc.name, func(b *testing.B) {
			var grown uint64
			for i := 0; i < b.N; i++ {
				before := liveHeap()
				inv, err := buildInventory(tc.n, tc.intern)
				if err != nil {
					b.Fatal(err)
				}
				grown += liveHeap() - before
				if inv.Len() != tc.n {
					b.Fatalf("inventory holds %d summaries, want %d", inv.Len(), tc.n)
				}
				runtime.KeepAlive(inv)
			}
			perInv := float64(grown) / float64(b.N)
			b.ReportMetric(perInv/float64(tc.n), "B/msg")
			b.ReportMetric(perInv/(1<<20), "MiB/inventory")
			// The fixed part of a stored summary; the rest is the optional
			// columns (CorrelId, MQDLH put time), classes and chunk slack.
			b.ReportMetric(float64(mqwatch.ChunkBytesPerMessage), "column-B/msg")
			b.ReportMetric(float64(unsafe.Sizeof(mqwatch.Summary{})), "struct-B/msg")
		})
	}
}

// liveHeap returns the bytes of live heap objects after a full collection.
func liveHeap() uint64 {
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return ms.HeapAlloc
}

// buildInventory summarises n dead letters in polls of 100, as the watcher
// appends them, and drops the messages.
func buildInventory(n int, intern bool) (*mqwatch.Inventory, error) {
	var inv *mqwatch.Inventory
	in := interner{}
	batch := make([]mqwatch.Summary, 0, 100)
	for i := 0; i < n; i++ {
		m, err := wireDeadLetter(i)
		if err != nil {
			return nil, err
		}
		s := mqwatch.Summarize(&m)
		s.Arrival = uint64(i + 1)
		if intern {
			in.summary(&s)
		}
		batch = append(batch, s)
		if len(batch) == cap(batch) || i == n-1 {
			inv = inv.Append(batch...)
			batch = batch[:0]
		}
	}
	return inv, nil
}

// wireDeadLetter is the i-th dead letter as a client backend hands it over:
// its MQMD decoded from the 364 bytes on the wire (so every string field is
// its own allocation), with a unique MsgId and a put time, and its data cut
// at the watcher's 4096-byte browse bound.
func wireDeadLetter(i int) (mqwatch.Message, error) {
	md, data := deadLetterMessage(i)
	binary.BigEndian.PutUint64(md.MsgId[16:], uint64(i))
	md.PutApplName, md.UserIdentifier = "amqrmppa", "mqm"
	md.PutDate = "20261130"
	md.PutTime = fmt.Sprintf("%02d%02d%02d%02d", 3+i/360000%20, i/6000%60, i/100%60, i%100)
	bo, _ := md.Encoding.ByteOrder()
	wire, err := mqfmt.DecodeMQMD(md.Encode(bo), bo)
	if err != nil {
		return mqwatch.Message{}, fmt.Errorf("decode bench MQMD %d: %w", i, err)
	}
	return mqwatch.Message{MD: wire, Data: data[:min(len(data), 4096)], Length: len(data)}, nil
}

// interner shares equal strings, as the watcher could across one inventory.
type interner map[string]string

func (in interner) str(p *string) {
	if v, ok := in[*p]; ok {
		*p = v
		return
	}
	in[*p] = *p
}

func (in interner) summary(s *mqwatch.Summary) {
	for _, p := range []*string{&s.Format, &s.PutApplName, &s.UserId, &s.DLHDestQ, &s.DLHDestQMgr,
		&s.DLHPutAppl, &s.DLHFormat, &s.JMSDst, &s.JMSType, &s.BodyFormat, &s.DecodeErr} {
		in.str(p)
	}
}

// The memory figures are only worth their summaries: check that a bench dead
// letter comes back from the inventory with every fact Summarize gave it
// (but the body prefix, which inventories do not keep), that it has every
// fact the dashboard groups by, and that interning changes no value.
func TestBenchDeadLetterSummarizesLikeARealOne(t *testing.T) {
	tests := []struct {
		name   string
		intern bool
	}{{"as decoded", false}, {"interned", true}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			inv, err := buildInventory(3000, tt.intern)
			if err != nil {
				t.Fatal(err)
			}
			if inv.Len() != 3000 {
				t.Fatalf("inventory %d, want 3000", inv.Len())
			}
			for i := 0; i < inv.Len(); i++ {
				m, err := wireDeadLetter(i)
				if err != nil {
					t.Fatal(err)
				}
				want := mqwatch.Summarize(&m)
				want.Arrival = uint64(i + 1)
				if len(want.BodyPrefix) != mqwatch.SummaryBodyBytes {
					t.Fatalf("summary %d: body prefix of %d bytes, want %d", i, len(want.BodyPrefix), mqwatch.SummaryBodyBytes)
				}
				want.BodyPrefix = nil
				if got := inv.At(i); !reflect.DeepEqual(*got, want) {
					t.Fatalf("summary %d: got %+v, want %+v", i, *got, want)
				}
			}
			s := inv.At(7)
			if s.DecodeErr != "" || !s.HasDLH || !s.HasRFH2 || s.PutTime.IsZero() ||
				s.DLHReason != int32(mqfmt.RCQFull) || s.DLHDestQ != "PAYMENTS.IN" || s.JMSDst != "queue:///PAYMENTS.IN" ||
				s.DLHPutAppl != "MQ JMS ConnectionConsumer" || s.PutApplName != "amqrmppa" {
				t.Fatalf("summary lacks grouping facts: %+v", s)
			}
		})
	}
}
