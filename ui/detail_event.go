package ui

import (
	"fmt"

	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
	"github.com/poisonwatch/poisonwatch/mqwatch/pcf"
)

// eventLines shows a body in MQFMT_EVENT (a message of
// SYSTEM.ADMIN.QMGR.EVENT, PERFM.EVENT or CHANNEL.EVENT) as its event: the
// name, then each parameter. Masked (war room), only the name is shown:
// the parameters name users and applications.
func eventLines(st *Styles, data []byte, b mqfmt.Body, masked bool) []string {
	if b.Format != mqfmt.FmtEvent {
		return nil
	}
	e, err := pcf.DecodeEvent(data, b.Encoding, b.CCSID)
	if err != nil {
		return []string{st.Warning.Render(" event not decoded: " + mqfmt.Sanitize(err.Error()))}
	}
	out := []string{st.Title.Render(" event: "+mqfmt.Sanitize(e.Name)) + st.Muted.Render("  "+e.Reason.Describe()+", "+e.Category)}
	if masked {
		return out
	}
	for _, f := range e.Params {
		line := fmt.Sprintf("   %-18s %s", mqfmt.Sanitize(f.Name), mqfmt.Sanitize(f.Value))
		if f.Meaning != "" {
			line += st.Muted.Render("  " + mqfmt.Sanitize(f.Meaning))
		}
		out = append(out, line)
	}
	return append(out, "")
}
