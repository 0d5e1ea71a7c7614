package actions

import (
	"fmt"
	"strings"

	"github.com/poisonwatch/poisonwatch/mqwatch/pcf"
)

// ChangeMQSC writes a change as the MQSC command it is, every name quoted
// where MQSC would otherwise fold it (pcf.MQSCName): what the plan shows, the
// audit records and a user may copy into runmqsc.
func ChangeMQSC(ch pcf.Change) string {
	var b strings.Builder
	switch ch.Command {
	case pcf.CmdChangeQMgr:
		b.WriteString("ALTER QMGR")
	case pcf.CmdChangeQ:
		fmt.Fprintf(&b, "ALTER %s(%s)", queueKind(ch), pcf.MQSCName(ch.Queue))
	default:
		fmt.Fprintf(&b, "DEFINE %s(%s)", queueKind(ch), pcf.MQSCName(ch.Queue))
		if ch.Command == pcf.CmdCopyQ {
			fmt.Fprintf(&b, " LIKE(%s)", pcf.MQSCName(ch.Like))
		}
	}
	for _, a := range ch.Attrs {
		switch {
		case a.Keyword == "HARDENBO" && a.Value == "NO":
			b.WriteString(" NOHARDENBO")
		case a.Keyword == "HARDENBO":
			b.WriteString(" HARDENBO")
		case a.Keyword == "TRIGGER" && a.Value == "NO":
			b.WriteString(" NOTRIGGER")
		case a.Keyword == "TRIGGER":
			b.WriteString(" TRIGGER")
		case a.Keyword == "BOQNAME" || a.Keyword == "DEADQ" || a.Keyword == "INITQ" || a.Keyword == "PROCESS":
			fmt.Fprintf(&b, " %s(%s)", a.Keyword, pcf.MQSCName(a.Value))
		default:
			fmt.Fprintf(&b, " %s(%s)", a.Keyword, a.Value)
		}
	}
	return b.String()
}

func queueKind(ch pcf.Change) string {
	for k, t := range fixQueueTypes {
		if t == ch.Type {
			return k
		}
	}
	return "QLOCAL"
}

// MQSCName is pcf.MQSCName: a name as MQSC reads it back unchanged.
func MQSCName(name string) string { return pcf.MQSCName(name) }
