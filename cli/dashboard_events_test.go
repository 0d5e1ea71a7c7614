package cli

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/poisonwatch/poisonwatch/backend/embedded/embeddedtest"
	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
	"github.com/poisonwatch/poisonwatch/mqwatch"
	"github.com/poisonwatch/poisonwatch/mqwatch/pcf"
)

func TestIncludedEventQueues(t *testing.T) {
	tests := []struct {
		include, exclude string
		want             []string
	}{
		{"", "", nil}, // SYSTEM.* queues are watched only when named
		{"APP.*", "", nil},
		{"APP.*,SYSTEM.ADMIN.*.EVENT", "", []string{"SYSTEM.ADMIN.QMGR.EVENT", "SYSTEM.ADMIN.PERFM.EVENT", "SYSTEM.ADMIN.CHANNEL.EVENT"}},
		{"SYSTEM.ADMIN.PERFM.EVENT", "", []string{"SYSTEM.ADMIN.PERFM.EVENT"}},
		{"SYSTEM.ADMIN.*", "*.CHANNEL.EVENT", []string{"SYSTEM.ADMIN.QMGR.EVENT", "SYSTEM.ADMIN.PERFM.EVENT"}},
	}
	for _, tt := range tests {
		if got := includedEventQueues(splitList(tt.include), splitList(tt.exclude)); !slices.Equal(got, tt.want) {
			t.Errorf("include %q exclude %q: %v, want %v", tt.include, tt.exclude, got, tt.want)
		}
	}
}

// putEvent puts an event message as the queue manager would.
func putEvent(t *testing.T, c mqwatch.Conn, queue string, reason mqfmt.Reason, cmd int32, params []pcf.Param) {
	t.Helper()
	ctx := context.Background()
	data, err := pcf.EncodeEvent(mqfmt.EncodingNative, cmd, reason, params)
	if err != nil {
		t.Fatal(err)
	}
	q, err := c.Open(ctx, mqwatch.ObjectDesc{Name: queue}, mqwatch.OpenOptions{Output: true})
	if err != nil {
		t.Fatal(err)
	}
	defer q.Close(ctx)
	md := mqfmt.NewMQMD()
	md.Format, md.Encoding, md.CodedCharSetId, md.MsgType = mqfmt.FmtEvent, mqfmt.EncodingNative, mqfmt.CCSIDUTF8, 8 // MQMT_DATAGRAM
	if err := q.Put(ctx, &md, data, mqwatch.PutOptions{NewMsgId: true}); err != nil {
		t.Fatal(err)
	}
}

// TestEventsAreReadOnceAndTied: authority and queue-full events on the
// event queues are counted once each, by reason and queue, and stay on
// their queues; a dead-letter group asks by its reason and destination.
func TestEventsAreReadOnceAndTied(t *testing.T) {
	qm := embeddedtest.New(t, embeddedtest.Options{Name: "QM1", MQSC: "DEFINE QLOCAL(SYSTEM.ADMIN.QMGR.EVENT)\nDEFINE QLOCAL(SYSTEM.ADMIN.PERFM.EVENT)\n"})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	c := qm.Conn(mqwatch.ConnectOptions{})
	auth := []pcf.Param{pcf.Str(pcf.EventParamQMgrName, "QM1"), pcf.Int(pcf.EventParamReasonQualifier, 2),
		pcf.Str(pcf.EventParamUserIdentifier, "app1"), pcf.Str(pcf.EventParamQName, "APP.OUT")}
	putEvent(t, c, "SYSTEM.ADMIN.QMGR.EVENT", mqfmt.RCNotAuthorized, mqfmt.EventCmdQMgr, auth)
	putEvent(t, c, "SYSTEM.ADMIN.QMGR.EVENT", mqfmt.RCNotAuthorized, mqfmt.EventCmdQMgr, auth)
	putEvent(t, c, "SYSTEM.ADMIN.PERFM.EVENT", mqfmt.RCQFull, mqfmt.EventCmdPerfm,
		[]pcf.Param{pcf.Str(pcf.EventParamQMgrName, "QM1"), pcf.Str(pcf.EventParamQName, "APP.IN")})

	tally := newEventTally()
	passes := make(chan string, 1)
	tally.read = func(qmgr string) { passes <- qmgr }
	go tally.readEvents(ctx, "QM1", qm, []string{"SYSTEM.ADMIN.QMGR.EVENT", "SYSTEM.ADMIN.PERFM.EVENT", "SYSTEM.ADMIN.CHANNEL.EVENT"}, time.Millisecond)
	// The first pass reads the three events; four more find nothing new.
	for range 5 {
		select {
		case <-passes:
		case <-time.After(10 * time.Second): // a bound for a broken build
			t.Fatal("the event queues were not read")
		}
	}
	if got := tally.line("QM1", 2035, "APP.OUT"); !strings.HasPrefix(got, "2× Not Authorized (type 2: open) event on APP.OUT, last ") || !strings.HasSuffix(got, "(user app1)") {
		t.Errorf("authority: %q", got)
	}
	if got := tally.line("QM1", 2053, "APP.IN"); !strings.HasPrefix(got, "1× Queue Full event on APP.IN") {
		t.Errorf("queue full: %q", got)
	}
	for _, miss := range [][3]any{{"QM1", int32(2035), "APP.IN"}, {"QM2", int32(2053), "APP.IN"}, {"QM1", int32(2053), ""}} {
		if got := tally.line(miss[0].(string), miss[1].(int32), miss[2].(string)); got != "" {
			t.Errorf("%v: %q", miss, got)
		}
	}
	st, err := c.QueueStatus(ctx, "SYSTEM.ADMIN.QMGR.EVENT")
	if err != nil || st[0].Depth != 2 {
		t.Errorf("the events were taken off their queue: %v %v", st, err)
	}
}
