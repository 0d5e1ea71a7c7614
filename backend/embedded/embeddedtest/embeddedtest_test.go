package embeddedtest_test

import (
	"context"
	"fmt"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/poisonwatch/poisonwatch/backend/embedded/embeddedtest"
	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
	"github.com/poisonwatch/poisonwatch/mqwatch"
	"github.com/poisonwatch/poisonwatch/mqwatch/pcf"
)

// A message put with set-all context keeps its identity and origin
// context, the clock stamps nothing else, and Browse leaves it on the
// queue.
func TestPutKeepsContextAndBrowseLeavesTheMessage(t *testing.T) {
	at := time.Date(2026, 3, 9, 14, 30, 0, 0, time.UTC)
	qm := embeddedtest.New(t, embeddedtest.Options{Name: "QMT", Now: embeddedtest.At(at), ProcessUser: "mqm",
		MQSC: "DEFINE QLOCAL(APP.IN)\n"})
	md := mqfmt.NewMQMD()
	md.Format, md.UserIdentifier, md.PutApplName = mqfmt.FmtString, "alice", "orders-app"
	md.PutDate, md.PutTime = "20260101", "12000000"
	copy(md.MsgId[:], "TESTMSG")
	qm.Put("APP.IN", md, []byte("order 1"))
	for range 2 {
		msgs := qm.Browse("APP.IN")
		if len(msgs) != 1 || string(msgs[0].Data) != "order 1" {
			t.Fatalf("browsed %d messages", len(msgs))
		}
		got := msgs[0].MD
		if got.MsgId != md.MsgId || mqfmt.Trim(got.UserIdentifier) != "alice" || mqfmt.Trim(got.PutApplName) != "orders-app" ||
			got.PutDate != "20260101" {
			t.Errorf("context not kept: %+v", got)
		}
	}
	if d := qm.Depth("APP.IN"); d != 1 {
		t.Errorf("depth %d", d)
	}
	if qm.Name() != "QMT" {
		t.Errorf("name %q", qm.Name())
	}
}

// A failing MQSC command fails the test and names its line.
func TestMQSCFailureNamesTheLine(t *testing.T) {
	ft := &fatalT{TB: t}
	qm := embeddedtest.New(t, embeddedtest.Options{})
	done := make(chan struct{})
	go func() { // Fatalf ends the goroutine, as it ends a test
		defer close(done)
		embeddedtest.New(ft, embeddedtest.Options{}).MQSC("DEFINE QLOCAL(A)\nDEFINE QLOCAL(A)\n")
	}()
	<-done
	if !strings.Contains(ft.msg, "line 2: DEFINE QLOCAL(A)") {
		t.Errorf("the failure says %q", ft.msg)
	}
	qm.MQSC("DEFINE QLOCAL(A)\n") // another queue manager: no clash
}

// fatalT records Fatalf's message and ends the goroutine as testing does.
type fatalT struct {
	testing.TB
	msg string
}

func (f *fatalT) Helper() {}
func (f *fatalT) Fatalf(format string, args ...any) {
	f.msg = strings.TrimSpace(strings.ReplaceAll(fmt.Sprintf(format, args...), "\n", " "))
	runtime.Goexit()
}

// The command server answers, as the connection's user, until the test
// ends.
func TestCommandServerAnswers(t *testing.T) {
	qm := embeddedtest.New(t, embeddedtest.Options{ProcessUser: "mqm", MQSC: "DEFINE QLOCAL(APP.IN)\n", CommandServer: true})
	via := &pcf.Connector{Connector: qm, Wait: 5 * time.Second}
	c, err := via.Connect(context.Background(), mqwatch.ConnectOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	qs, err := c.Queues(context.Background(), "APP.*")
	if err != nil || len(qs) != 1 || qs[0].Name != "APP.IN" {
		t.Fatalf("queues %v: %v", qs, err)
	}
	if qm.Server == nil {
		t.Error("no Server")
	}
}
