package ops_test

import (
	"context"
	"path/filepath"
	"runtime"
	"sync"
	"testing"

	"github.com/poisonwatch/poisonwatch/actions/ops"
	"github.com/poisonwatch/poisonwatch/mqwatch"
)

// crashConnector models the process dying right after MQCMIT returns (kill -9,
// OOM, host crash before the audit line reaches disk): the first Commit goes
// through, then the goroutine running the engine ends.
type crashConnector struct {
	mqwatch.Connector
	once *sync.Once
}

func (c crashConnector) Connect(ctx context.Context, o mqwatch.ConnectOptions) (mqwatch.Conn, error) {
	conn, err := c.Connector.Connect(ctx, o)
	if err != nil {
		return nil, err
	}
	return crashConn{conn, c.once}, nil
}

type crashConn struct {
	mqwatch.Conn
	once *sync.Once
}

func (c crashConn) Commit(ctx context.Context) error {
	err := c.Conn.Commit(ctx)
	crash := false
	c.once.Do(func() { crash = true })
	if crash {
		runtime.Goexit()
	}
	return err
}

func TestImportRerunAfterACrashAtCommitPutsNothingTwice(t *testing.T) {
	f := newOpFixture(t, "")
	c := f.conn()
	for n := 1; n <= 5; n++ {
		md, data := original(n)
		f.putSetAll(c, "ORDERS.BO", md, data)
	}
	file := filepath.Join(f.dir, "backup.dmp")
	f.run(f.engine(), ops.OpRequest{Op: ops.OpExport, Queue: "ORDERS.BO", All: true, File: file})

	crashing := f.engine(func(o *ops.EngineOptions) { o.Connector = crashConnector{f.qm, &sync.Once{}} })
	done := make(chan struct{})
	go func() {
		defer close(done)
		_, _ = crashing.Run(f.ctx, ops.OpRequest{Op: ops.OpImport, File: file, Target: "PARKING.Q"}, nil)
	}()
	<-done
	t.Logf("after the crashed import: PARKING.Q depth %d", f.depth("PARKING.Q"))

	res := f.run(f.engine(), ops.OpRequest{Op: ops.OpImport, File: file, Target: "PARKING.Q"})
	t.Logf("rerun: imported %d skipped %d", res.Done, res.Skipped)
	if got := f.depth("PARKING.Q"); got != 5 {
		t.Errorf("duplicated: PARKING.Q holds %d messages, the file has 5", got)
	}
}
