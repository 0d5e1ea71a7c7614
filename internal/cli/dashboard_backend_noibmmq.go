//go:build !ibmmq

package cli

import (
	"errors"
	"flag"

	"github.com/poisonwatch/poisonwatch/internal/doctor"
	"github.com/poisonwatch/poisonwatch/mqwatch"
	"github.com/poisonwatch/poisonwatch/mqwatch/ibmmq"
)

func registerMQFlags(*flag.FlagSet) {}

func mqQMgrName() string { return "" }

func ibmmqBackends(ibmmq.PasswordPrompter, string) ([]qmgrConn, error) {
	return nil, errNoIBMMQ
}

var errNoIBMMQ = errors.New("this poisonwatch was built without IBM MQ support: build it with `make build-mq` on a machine with the IBM MQ client")

func ibmmqDoctorTargets(ibmmq.PasswordPrompter, string) ([]doctor.Target, error) {
	return nil, errNoIBMMQ
}

func ibmmqDoctorTarget(qmgrConn) (doctor.Target, bool) { return doctor.Target{}, false }

func ibmmqBackend(ibmmq.PasswordPrompter) (mqwatch.Connector, error) {
	return nil, errNoIBMMQ
}

// defaultBackend: without IBM MQ support, the embedded demo.
const defaultBackend = "embedded"
