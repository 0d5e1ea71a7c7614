package ibmmq

import (
	"errors"
	"strings"
	"testing"

	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
	"github.com/poisonwatch/poisonwatch/mqwatch"
)

type fakeObject struct {
	err    error
	closed int
}

func (o *fakeObject) Close(int32) error { o.closed++; return o.err }

// TestClosingASubscriptionAlwaysClosesItsQueue is defect 6: a failed close of
// the subscription handle used to return before the managed queue's handle
// was closed, leaking it for the life of the connection.
func TestClosingASubscriptionAlwaysClosesItsQueue(t *testing.T) {
	sub := &fakeObject{err: mqwatch.NewError("MQCLOSE", "SUB", 2019)}
	managed := &fakeObject{}
	subErr, qErr := closeSubscription(sub, managed)
	if subErr == nil || qErr != nil || managed.closed != 1 {
		t.Errorf("sub %v queue %v, managed closed %d times", subErr, qErr, managed.closed)
	}
	if _, qErr := closeSubscription(nil, managed); qErr != nil || managed.closed != 2 {
		t.Errorf("plain queue: %v", qErr)
	}
}

type fakeConn struct {
	backErr      error
	backs, discs int
}

func (c *fakeConn) Back() error { c.backs++; return c.backErr }
func (c *fakeConn) Disc() error { c.discs++; return nil }

func reasonOf(err error) mqfmt.Reason { return mqwatch.ReasonOf(err) }

// TestConnectionsHeldAfterAFailedBackoutAreBounded is defect 6: every
// reconnect after a failed MQBACK left one more connection open.
func TestConnectionsHeldAfterAFailedBackoutAreBounded(t *testing.T) {
	var a abandonedConns
	stuck := mqwatch.NewError("MQBACK", "", 2195)
	c1, c2 := &fakeConn{backErr: stuck}, &fakeConn{backErr: stuck}
	a.add(c1, stuck)
	if err := a.admit(); err != nil {
		t.Fatalf("one held connection refused a new one: %v", err)
	}
	a.add(c2, stuck)
	a.retry(reasonOf)
	err := a.admit()
	if err == nil || !strings.Contains(err.Error(), "2 connections are held open") || !errors.Is(err, stuck) {
		t.Fatalf("admit with %d held: %v", a.held(), err)
	}
	c1.backErr = nil                                                      // the back-out now works
	c2.backErr = mqwatch.NewError("MQBACK", "", mqfmt.RCConnectionBroken) // or the connection went
	a.retry(reasonOf)
	if a.held() != 0 || c1.discs != 1 || c2.discs != 1 || a.admit() != nil {
		t.Errorf("after retry: held %d, discs %d %d", a.held(), c1.discs, c2.discs)
	}
}

func TestReplyGMOConvertsAndMatchesTheCommand(t *testing.T) {
	w := replyGMO(1000)
	if w.Options != gmoNoSyncpoint|gmoConvert|gmoFailIfQuiescing|gmoWait || w.MatchOptions != moMatchCorrelID || w.WaitInterval != 1000 {
		t.Errorf("reply GMO %+v", w)
	}
	if commandPMO&pmoNoSyncpoint == 0 || commandPMO&pmoNewMsgID == 0 {
		t.Errorf("command PMO %#x", commandPMO)
	}
}
