//go:build !ibmmq

package cli

import (
	"errors"
	"flag"

	"github.com/poisonwatch/poisonwatch/backend/ibmmq"
	"github.com/poisonwatch/poisonwatch/doctor"
	"github.com/poisonwatch/poisonwatch/mqwatch"
)

// mqFlags are the IBM MQ connection flags, which this build does not have.
type mqFlags struct{}

func newMQFlags() *mqFlags { return &mqFlags{} }

func (*mqFlags) register(*flag.FlagSet) {}

func (*mqFlags) qmgrName() string { return "" }

func (*mqFlags) backends(ibmmq.PasswordPrompter, string) ([]qmgrConn, error) {
	return nil, errNoIBMMQ
}

var errNoIBMMQ = errors.New("this poisonwatch was built without IBM MQ support: build it with `make build-mq` on a machine with the IBM MQ client")

func (*mqFlags) doctorTargets(ibmmq.PasswordPrompter, string) ([]doctor.Target, error) {
	return nil, errNoIBMMQ
}

func ibmmqDoctorTarget(qmgrConn) (doctor.Target, bool) { return doctor.Target{}, false }

func (*mqFlags) backend(ibmmq.PasswordPrompter) (mqwatch.Connector, error) {
	return nil, errNoIBMMQ
}

// defaultBackend: without IBM MQ support, the embedded demo.
const defaultBackend = "embedded"

func (*mqFlags) listedBackend(ibmmq.PasswordPrompter, string, string) (mqwatch.Connector, error) {
	return nil, errNoIBMMQ
}

// pcfQueues are --command-queue and --reply-model when IBM MQ's flags
// declare them; this build's commands declare their own.
func (*mqFlags) pcfQueues() (commandQueue, replyModel string) { return "", "" }
