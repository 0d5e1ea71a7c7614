package cli

import (
	"github.com/poisonwatch/poisonwatch/backend/embedded"
	"github.com/poisonwatch/poisonwatch/mqwatch"
)

// embeddedOf is the embedded queue manager behind a connector: the demo's
// queue managers are connectors that wait until they are defined
// (demo), so a type check on *embedded.QMgr alone misses them and
// their command server is never started. nil for IBM MQ.
func embeddedOf(c mqwatch.Connector) *embedded.QMgr {
	switch c := c.(type) {
	case *embedded.QMgr:
		return c
	case interface{ Embedded() *embedded.QMgr }:
		return c.Embedded()
	}
	return nil
}
