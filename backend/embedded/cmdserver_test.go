package embedded_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/poisonwatch/poisonwatch/backend/embedded/embeddedtest"
	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
	"github.com/poisonwatch/poisonwatch/mqwatch"
	"github.com/poisonwatch/poisonwatch/mqwatch/pcf"
)

// altered sends PCF requests with a changed descriptor, as an older or
// careless client would.
type altered struct {
	*pcf.PortTransport
	replyQ string
	edit   func(*mqfmt.MQMD)
}

func (a altered) ReplyQueue() string {
	if a.replyQ != "" {
		return a.replyQ
	}
	return a.PortTransport.ReplyQueue()
}

func (a altered) Put(ctx context.Context, md *mqfmt.MQMD, data []byte) error {
	if a.edit != nil {
		a.edit(md)
	}
	return a.PortTransport.Put(ctx, md, data)
}

// deadLetters waits for the command server to have handled the request and
// returns the dead-letter queue's messages.
func deadLetters(t *testing.T, c mqwatch.Conn, want int) []mqwatch.Summary {
	t.Helper()
	ctx := context.Background()
	deadline := time.Now().Add(2 * time.Second)
	for {
		st, err := c.QueueStatus(ctx, "SYSTEM.DEAD.LETTER.QUEUE")
		if err != nil {
			t.Fatal(err)
		}
		if int(st[0].Depth) >= want || time.Now().After(deadline) {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	q, err := c.Open(ctx, mqwatch.ObjectDesc{Name: "SYSTEM.DEAD.LETTER.QUEUE"}, mqwatch.OpenOptions{Browse: true})
	if err != nil {
		t.Fatal(err)
	}
	defer q.Close(ctx)
	var out []mqwatch.Summary
	for opts := (mqwatch.BrowseOptions{First: true}); ; opts.First = false {
		m, err := q.Browse(ctx, opts)
		if err != nil {
			return out
		}
		out = append(out, mqwatch.Summarize(&m))
	}
}

// TestCommandServerRepliesThatCannotBeDelivered is defect 3 seen from the
// queue manager: a reply whose queue has gone is discarded when the request
// asks for MQRO_DISCARD_MSG, as the tool now does, and dead-lettered
// otherwise; a persistent request's persistent reply is refused by a
// temporary dynamic reply queue (2048) and dead-lettered too. A
// dead-lettered reply to this tool is recognised as such, never an incident.
func TestCommandServerRepliesThatCannotBeDelivered(t *testing.T) {
	tests := []struct {
		name   string
		replyQ string
		edit   func(*mqfmt.MQMD)
		dead   mqfmt.Reason // 0: nothing dead-lettered
	}{
		{"reply_queue_gone_with_discard", "POISONWATCH.GONE", nil, 0},
		{"reply_queue_gone_without_discard", "POISONWATCH.GONE",
			func(md *mqfmt.MQMD) { md.Report &^= mqfmt.RODiscardMsg }, mqfmt.RCUnknownObjectName},
		{"persistent_reply_to_a_temporary_queue", "", func(md *mqfmt.MQMD) {
			md.Report &^= mqfmt.RODiscardMsg
			md.Persistence = mqfmt.PerPersistent
		}, mqfmt.RCPersistentNotAllowed},
		{"persistent_request_with_discard", "", func(md *mqfmt.MQMD) { md.Persistence = mqfmt.PerPersistent }, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			qm := embeddedtest.New(t, embeddedtest.Options{Name: "QM1", MQSC: "ALTER QMGR DEADQ(SYSTEM.DEAD.LETTER.QUEUE)", CommandServer: true})
			ctx := context.Background()
			c := qm.Conn(mqwatch.ConnectOptions{ApplName: "poisonwatch"})
			pt, err := pcf.OpenPort(ctx, c, pcf.DefaultCommandQueue, pcf.DefaultReplyModel)
			if err != nil {
				t.Fatal(err)
			}
			defer pt.Close(ctx)
			cl := &pcf.Client{T: altered{PortTransport: pt, replyQ: tt.replyQ, edit: tt.edit}, Wait: 300 * time.Millisecond}
			if _, err := cl.Queues(ctx, "*"); err == nil {
				t.Fatal("an undeliverable reply arrived")
			}
			want := 0
			if tt.dead != 0 {
				want = 1
			}
			dead := deadLetters(t, c, want)
			if tt.dead == 0 {
				if len(dead) != 0 {
					t.Fatalf("dead-lettered although the request said discard: %+v", dead[0])
				}
				return
			}
			if len(dead) == 0 {
				t.Fatal("nothing dead-lettered")
			}
			d := dead[0]
			if d.DLHReason != int32(tt.dead) || !strings.HasPrefix(d.DLHDestQ, "POISONWATCH.") || !d.ToolReply {
				t.Errorf("dead letter: reason %d dest %q toolReply %v", d.DLHReason, d.DLHDestQ, d.ToolReply)
			}
		})
	}
}

// TestCommandServerChecksTheRequestersAuthority: queues the requesting
// user may not display are left out of a generic answer.
func TestCommandServerChecksTheRequestersAuthority(t *testing.T) {
	qm := embeddedtest.New(t, embeddedtest.Options{Name: "QM1", ProcessUser: "mqm", CommandServer: true, MQSC: `
DEFINE QLOCAL(APP.IN)
DEFINE QLOCAL(SECRET.IN)
SET AUTHREC PROFILE(QM1) OBJTYPE(QMGR) PRINCIPAL('app') AUTHADD(CONNECT,INQ,DSP)
SET AUTHREC PROFILE(APP.**) OBJTYPE(QUEUE) PRINCIPAL('app') AUTHADD(DSP,INQ,GET,PUT,BROWSE)
SET AUTHREC PROFILE(SYSTEM.ADMIN.COMMAND.QUEUE) OBJTYPE(QUEUE) PRINCIPAL('app') AUTHADD(PUT)
SET AUTHREC PROFILE(SYSTEM.DEFAULT.MODEL.QUEUE) OBJTYPE(QUEUE) PRINCIPAL('app') AUTHADD(GET,INQ,DSP)
`})
	via := &pcf.Connector{Connector: qm, Wait: 2 * time.Second}
	c, err := via.Connect(context.Background(), mqwatch.ConnectOptions{User: "app"})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	qs, err := c.Queues(context.Background(), "*")
	seen := map[string]bool{}
	for _, q := range qs {
		seen[q.Name] = true
	}
	if err != nil || !seen["APP.IN"] || seen["SECRET.IN"] {
		t.Errorf("app sees %v (%v)", seen, err)
	}
}
