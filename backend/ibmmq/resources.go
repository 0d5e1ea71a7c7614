package ibmmq

import (
	"errors"
	"fmt"
	"sync"

	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
	"github.com/poisonwatch/poisonwatch/mqwatch"
)

// objectCloser is an object handle's MQCLOSE (mq-golang's *MQObject).
type objectCloser interface{ Close(options int32) error }

// closeSubscription closes a subscription handle and then the handle of its
// managed queue. The second close runs even when the first failed: returning
// at the first failure, as this backend once did, left the managed queue's
// handle open for the life of the connection.
func closeSubscription(sub, managed objectCloser) (subErr, queueErr error) {
	if sub != nil {
		subErr = sub.Close(coNone)
	}
	return subErr, managed.Close(coNone)
}

// backer is a connection that can be backed out and disconnected
// (mq-golang's *MQQueueManager).
type backer interface {
	Back() error
	Disc() error
}

// maxAbandoned bounds the connections held open because MQBACK failed.
const maxAbandoned = 2

// abandonedConns holds the connections Close left open because MQBACK
// failed on them: MQDISC would commit their unit of work on Multiplatforms,
// so they stay until a retried MQBACK succeeds or the connection is lost
// (then the queue manager backs the work out). Without this, every
// reconnect after such a failure leaked a connection; with it, Connect
// retries them first and refuses to open a new one while maxAbandoned are
// still held, saying why.
type abandonedConns struct {
	mu    sync.Mutex
	conns []backer
	last  error
}

// add records a connection whose MQBACK failed with err.
func (a *abandonedConns) add(c backer, err error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.conns = append(a.conns, c)
	a.last = err
}

// retry backs out each held connection again and disconnects those that
// backed out or whose connection is gone; reason reads an MQ error's code.
func (a *abandonedConns) retry(reason func(error) mqfmt.Reason) {
	a.mu.Lock()
	defer a.mu.Unlock()
	kept := a.conns[:0]
	for _, c := range a.conns {
		err := c.Back()
		if err != nil && !mqwatch.ConnectionLost(reason(err)) {
			a.last = err
			kept = append(kept, c)
			continue
		}
		_ = c.Disc()
	}
	clear(a.conns[len(kept):])
	a.conns = kept
}

// admit refuses a new connection while maxAbandoned are held.
func (a *abandonedConns) admit() error {
	a.mu.Lock()
	defer a.mu.Unlock()
	if len(a.conns) < maxAbandoned {
		return nil
	}
	return fmt.Errorf("%d connections are held open because MQBACK failed on them (last: %w); "+
		"poisonwatch opens no more so as not to exhaust MAXHANDS/MAXINST: restart it, and the queue manager backs their work out",
		len(a.conns), a.last)
}

// held returns how many connections are held.
func (a *abandonedConns) held() int {
	a.mu.Lock()
	defer a.mu.Unlock()
	return len(a.conns)
}

// errAbandoned marks the error of a Close that left its connection open.
var errAbandoned = errors.New("connection left open so that its unit of work is never committed")
