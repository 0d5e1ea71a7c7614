package pcf

import (
	"context"
	"encoding/binary"
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
	"github.com/poisonwatch/poisonwatch/mqwatch"
)

// fakeTransport answers every command with the reply byte streams queued in
// replies (one get each), written as a queue manager writes them.
type fakeTransport struct {
	put     []mqfmt.MQMD
	replies []fakeGet
	gets    []time.Duration // the wait of every get
	sizes   []int
}

type fakeGet struct {
	msg mqwatch.Message
	rc  mqfmt.Reason
	cc  int32
}

func (f *fakeTransport) ReplyQueue() string { return "POISONWATCH.6A1B2C3D" }

func (f *fakeTransport) Put(_ context.Context, md *mqfmt.MQMD, _ []byte) error {
	md.MsgId = [24]byte{'A', 'M', 'Q', 1}
	f.put = append(f.put, *md)
	return nil
}

func (f *fakeTransport) Get(_ context.Context, correlID [24]byte, wait time.Duration, size int) (mqwatch.Message, error) {
	f.gets, f.sizes = append(f.gets, wait), append(f.sizes, size)
	if len(f.replies) == 0 {
		// Nothing yet: MQGET waits its whole interval; it cannot be interrupted.
		time.Sleep(wait)
		return mqwatch.Message{}, mqwatch.NewError("MQGET", f.ReplyQueue(), mqfmt.RCNoMsgAvailable)
	}
	g := f.replies[0]
	f.replies = f.replies[1:]
	if correlID != [24]byte{'A', 'M', 'Q', 1} {
		return mqwatch.Message{}, errors.New("wrong CorrelId")
	}
	if g.rc != 0 {
		e := mqwatch.NewError("MQGET", f.ReplyQueue(), g.rc)
		if g.cc != 0 {
			e.CC = g.cc
		}
		return g.msg, e
	}
	return g.msg, nil
}

func replyMsg(bo order, data []byte) fakeGet {
	md := mqfmt.NewMQMD()
	md.Encoding = mqfmt.EncodingFor(bo)
	md.CodedCharSetId = mqfmt.CCSIDUTF8
	return fakeGet{msg: mqwatch.Message{MD: md, Data: data, Length: len(data)}}
}

func queueItem(name string) []Param {
	return []Param{Str(caQName, name), Int(iaQType, qtLocal), Int(iaMaxQDepth, 5000)}
}

func newClient(f *fakeTransport) *Client {
	return &Client{T: f, Wait: 3 * time.Second, Loc: time.UTC}
}

// TestReplySetFromByteStreams runs the reply aggregation on answers written
// in IBM's layout, in both byte orders, including the failure shapes that
// once emptied the whole answer (defect 1).
func TestReplySetFromByteStreams(t *testing.T) {
	failedWith := func(bo order, typ, control, reason int32, params ...Param) []byte {
		return replyBytes(bo, typ, control, reason, params...)
	}
	tests := []struct {
		name   string
		msgs   func(bo order) [][]byte
		queues []string
		failed []string
		rc     mqfmt.Reason
	}{
		{"one_message_per_queue_last_flagged", func(bo order) [][]byte {
			return [][]byte{replyBytes(bo, cftResponse, cfcNotLast, 0, queueItem("A")...),
				replyBytes(bo, cftResponse, cfcLast, 0, queueItem("B")...)}
		}, []string{"A", "B"}, nil, 0},
		{"temporary_queue_deleted_mid_command_keeps_the_others", func(bo order) [][]byte {
			return [][]byte{replyBytes(bo, cftResponse, cfcNotLast, 0, queueItem("A")...),
				failedWith(bo, cftResponse, cfcNotLast, 2085, Str(caQName, "AMQ.5E1F.TEMP")),
				replyBytes(bo, cftResponse, cfcNotLast, 0, queueItem("B")...),
				failedWith(bo, cftResponse, cfcLast, rccfCommandFailed)}
		}, []string{"A", "B"}, []string{"AMQ.5E1F.TEMP"}, 0},
		{"damaged_and_unauthorised_objects_are_per_object", func(bo order) [][]byte {
			return [][]byte{failedWith(bo, cftResponse, cfcNotLast, 2101, Str(caQName, "BAD.Q")),
				replyBytes(bo, cftResponse, cfcNotLast, 0, queueItem("A")...),
				failedWith(bo, cftResponse, cfcNotLast, 2035, Str(caQName, "SECRET.Q")),
				failedWith(bo, cftResponse, cfcLast, rccfCommandFailed)}
		}, []string{"A"}, []string{"BAD.Q", "SECRET.Q"}, 0},
		{"nothing_found_for_a_pattern_is_empty", func(bo order) [][]byte {
			return [][]byte{failedWith(bo, cftResponse, cfcNotLast, 2085), failedWith(bo, cftResponse, cfcLast, rccfCommandFailed)}
		}, nil, nil, 0},
		{"only_failures_fail_the_command_with_the_specific_reason", func(bo order) [][]byte {
			return [][]byte{failedWith(bo, cftResponse, cfcNotLast, 2035, Str(caQName, "SECRET.Q")),
				failedWith(bo, cftResponse, cfcLast, rccfCommandFailed)}
		}, nil, nil, 2035},
		{"zos_xr_messages_items_and_per_qmgr_summaries", func(bo order) [][]byte {
			return [][]byte{replyBytes(bo, cftXRMsg, cfcNotLast, 0, Int(iacfCommandInfo, 1)),
				replyBytes(bo, cftXRItem, cfcNotLast, 0, queueItem("A")...),
				replyBytes(bo, cftXRSummary, cfcNotLast, 0),
				replyBytes(bo, cftXRItem, cfcNotLast, 0, queueItem("B")...),
				replyBytes(bo, cftXRSummary, cfcLast, 0)}
		}, []string{"A", "B"}, nil, 0},
	}
	for _, tt := range tests {
		for _, bo := range []order{binary.LittleEndian, binary.BigEndian} {
			t.Run(tt.name+"/"+bo.String(), func(t *testing.T) {
				f := &fakeTransport{}
				for _, b := range tt.msgs(bo) {
					f.replies = append(f.replies, replyMsg(bo, b))
				}
				qs, err := newClient(f).Queues(context.Background(), "*")
				objs, err := mqwatch.SplitPartial(err)
				if mqwatch.ReasonOf(err) != tt.rc || (tt.rc == 0 && err != nil) {
					t.Fatalf("error %v, want reason %d", err, tt.rc)
				}
				var names, failed []string
				for _, q := range qs {
					names = append(names, q.Name)
				}
				for _, o := range objs {
					failed = append(failed, o.Object)
				}
				if !slices.Equal(names, tt.queues) || !slices.Equal(failed, tt.failed) {
					t.Errorf("queues %v failed %v, want %v and %v", names, failed, tt.queues, tt.failed)
				}
				if len(f.replies) != 0 {
					t.Errorf("%d replies left unread after MQCFC_LAST", len(f.replies))
				}
			})
		}
	}
}

// TestRequestIsNonPersistentAndDiscardsOrphanReplies is defect 3.
func TestRequestIsNonPersistentAndDiscardsOrphanReplies(t *testing.T) {
	f := &fakeTransport{replies: []fakeGet{replyMsg(binary.LittleEndian,
		replyBytes(binary.LittleEndian, cftResponse, cfcLast, 0, queueItem("A")...))}}
	if _, err := newClient(f).Queues(context.Background(), "A"); err != nil {
		t.Fatal(err)
	}
	md := f.put[0]
	if md.Persistence != perNotPersistent {
		t.Errorf("Persistence %d: a DEFPSIST(YES) command queue would make the replies persistent", md.Persistence)
	}
	if md.Report != mqfmt.ROPassDiscardAndExpiry|mqfmt.RODiscardMsg {
		t.Errorf("Report %#x, want MQRO_PASS_DISCARD_AND_EXPIRY|MQRO_DISCARD_MSG", md.Report)
	}
	if md.MsgType != mqfmt.MTRequest || md.Format != mqfmt.FmtAdmin || md.ReplyToQ != f.ReplyQueue() || md.Expiry != 80 {
		t.Errorf("request MQMD %+v", md)
	}
}

// TestReplyWaitEndsWithTheContext is defect 4: the command's wait runs in
// slices of at most a second, so a cancelled poll ends within one.
func TestReplyWaitEndsWithTheContext(t *testing.T) {
	f := &fakeTransport{}
	c := newClient(f)
	c.Wait = time.Minute
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(50*time.Millisecond, cancel)
	start := time.Now()
	_, err := c.Queues(ctx, "*")
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err %v", err)
	}
	if took := time.Since(start); took > 1500*time.Millisecond {
		t.Errorf("cancel took %s to end the wait", took)
	}
	for _, w := range f.gets {
		if w > Slice {
			t.Errorf("one MQGET waited %s, more than a slice", w)
		}
	}
}
