package cli

import (
	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
	"github.com/poisonwatch/poisonwatch/mqwatch/pcf"
)

// decodeEventBody reads a body in MQFMT_EVENT (the messages of
// SYSTEM.ADMIN.QMGR.EVENT, PERFM.EVENT and CHANNEL.EVENT) as the event
// it is: its name and parameters. A body that does not decode is left to
// the hex dump, with nothing said here.
func decodeEventBody(body []byte, b mqfmt.Body) []mqfmt.Field {
	if b.Format != mqfmt.FmtEvent {
		return nil
	}
	e, err := pcf.DecodeEvent(body, b.Encoding, b.CCSID)
	if err != nil {
		return []mqfmt.Field{{Name: "Event", Value: "not decoded", Meaning: mqfmt.Sanitize(err.Error())}}
	}
	return e.Fields()
}
