//go:build ibmmq

package main

import (
	"flag"
	"os"

	"github.com/poisonwatch/poisonwatch/mqwatch"
	"github.com/poisonwatch/poisonwatch/mqwatch/ibmmq"
)

// mqSettings is filled from the environment, then from the flags.
var mqSettings = ibmmq.FromEnv(os.Getenv)

func registerMQFlags(fs *flag.FlagSet) { mqSettings.RegisterFlags(fs) }

func mqQMgrName() string { return mqSettings.QMgr }

// ibmmqBackend builds the backend after flag parsing.
func ibmmqBackend(prompt ibmmq.PasswordPrompter) (mqwatch.Connector, error) {
	if err := mqSettings.Resolve(prompt); err != nil {
		return nil, err
	}
	return ibmmq.New(mqSettings)
}
