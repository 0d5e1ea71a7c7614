package actions

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/poisonwatch/poisonwatch/codec/mqsc"
	"github.com/poisonwatch/poisonwatch/mqwatch"
	"github.com/poisonwatch/poisonwatch/mqwatch/pcf"
)

// Applying a finding's fix (docs/poison-rules.md R10h): each MQSC command of
// the fix is sent as the one PCF change it means, with exactly its
// attributes, in the order the lint put them (R8e: what the fix would
// otherwise make worse first). Only the attributes the poison rules cover
// are ever sent; any other command stays MQSC to copy.

// ErrCopyOnly marks a command the dashboard shows but does not apply.
var ErrCopyOnly = errors.New("copy-only: not an attribute the poison rules cover")

// AttrDiff is one attribute a step changes: its value before and after.
type AttrDiff struct {
	Keyword string `json:"keyword"`
	Before  string `json:"before"`
	After   string `json:"after"`
}

// FixStep is one command of a fix.
type FixStep struct {
	MQSC      string     `json:"mqsc"`
	PCF       string     `json:"pcf"` // MQCMD_CHANGE_Q, ...
	Change    pcf.Change `json:"-"`
	Diff      []AttrDiff `json:"attributes"`
	Authority string     `json:"authority"`       // "+chg on queue ORDERS.BO"
	Fixes     string     `json:"fixes,omitempty"` // for a step that runs first: the finding it fixes
}

// FixPlan is a fix ready to apply.
type FixPlan struct {
	QMgr  string    `json:"qmgr"`
	ID    string    `json:"id"` // the finding's id, "R8b:ORDERS.BO"
	Steps []FixStep `json:"steps"`
	Notes []string  `json:"notes,omitempty"`
	// CopyOnly lists the commands that cannot be applied, with why; a plan
	// with any is shown, never applied in part.
	CopyOnly []string `json:"copy_only,omitempty"`
}

// FixInput is a finding's fix and the state it is planned against.
type FixInput struct {
	QMgr     mqwatch.QMgrInfo
	Queues   []mqwatch.QueueInfo
	ID       string
	Commands []string // MQSC, in order
	Prereq   int      // how many of Commands fix other findings first
	After    []string // those findings
	Notes    []string
}

// PlanFix turns a fix into PCF changes with each attribute's value before
// and after, and the authority each needs.
func PlanFix(in FixInput) FixPlan {
	p := FixPlan{QMgr: in.QMgr.Name, ID: in.ID, Notes: in.Notes}
	idx := map[string]mqwatch.QueueInfo{}
	for _, q := range in.Queues {
		idx[q.Name] = q
	}
	for i, c := range in.Commands {
		ch, err := ParseFixCommand(c)
		if err != nil {
			p.CopyOnly = append(p.CopyOnly, fmt.Sprintf("%s: %v", c, err))
			continue
		}
		s := FixStep{MQSC: c, PCF: pcf.CommandName(ch.Command), Change: ch}
		if i < in.Prereq && i < len(in.After) {
			s.Fixes = in.After[i]
		}
		s.Diff, s.Authority = diffOf(ch, in.QMgr, idx)
		p.Steps = append(p.Steps, s)
	}
	return p
}

var fixQueueTypes = map[string]mqwatch.QueueType{"QLOCAL": mqwatch.QLocal, "QMODEL": mqwatch.QModel, "QALIAS": mqwatch.QAlias}

// IsMQSC says line reads as one MQSC command (whether or not a fix may
// send it): a fix none of whose lines does is advice to follow, not
// commands to apply.
func IsMQSC(line string) bool {
	cmds, err := mqsc.ParseString(strings.TrimSpace(line))
	return err == nil && len(cmds) == 1
}

// ParseFixCommand reads one MQSC command of a fix: ALTER QLOCAL/QMODEL/
// QALIAS, DEFINE QLOCAL (LIKE) or ALTER QMGR with the attributes the rules
// cover. Anything else is ErrCopyOnly. It reads MQSC as runmqsc does:
// keywords and unquoted names fold to upper case, a quoted name is kept as
// written (” standing for one apostrophe), so the change sent is the one
// the MQSC shown would make.
func ParseFixCommand(line string) (pcf.Change, error) {
	cmds, err := mqsc.ParseString(strings.TrimSpace(line))
	if err != nil || len(cmds) != 1 {
		return pcf.Change{}, ErrCopyOnly
	}
	c := &cmds[0]
	ch := pcf.Change{Type: fixQueueTypes[c.Object]}
	switch {
	case c.Verb == "ALTER" && c.Object == "QMGR" && !c.HasName:
		ch.Command = pcf.CmdChangeQMgr
	case c.Verb == "ALTER" && ch.Type != 0:
		ch.Command = pcf.CmdChangeQ
	case c.Verb == "DEFINE" && c.Object == "QLOCAL":
		ch.Command = pcf.CmdCreateQ
	default:
		return pcf.Change{}, ErrCopyOnly
	}
	if ch.Command != pcf.CmdChangeQMgr {
		if !c.HasName || c.Name == "" {
			return pcf.Change{}, ErrCopyOnly
		}
		ch.Queue = c.Name
	}
	for _, pm := range c.Params {
		if !fixParam(&ch, pm) {
			return pcf.Change{}, ErrCopyOnly
		}
	}
	if _, err := ch.Params(); err != nil {
		return pcf.Change{}, fmt.Errorf("%w (%v)", ErrCopyOnly, err)
	}
	return ch, nil
}

// fixParam adds one keyword of a fix command to ch; false when the rules
// do not cover it (the command is then copy-only).
func fixParam(ch *pcf.Change, pm mqsc.Param) bool {
	kw, v := pm.Key, strings.TrimSpace(pm.Value())
	if len(pm.Values) > 1 {
		return false
	}
	switch {
	case kw == "LIKE" && ch.Command == pcf.CmdCreateQ:
		ch.Command, ch.Like = pcf.CmdCopyQ, v
	case kw == "HARDENBO" || kw == "NOHARDENBO":
		ch.Attrs = append(ch.Attrs, pcf.Attr{Keyword: "HARDENBO", Value: map[bool]string{true: "YES", false: "NO"}[kw == "HARDENBO"]})
	case kw == "NOTRIGGER" && ch.Command != pcf.CmdChangeQ && ch.Command != pcf.CmdChangeQMgr:
		// Only a new queue (a parking queue) is ever sent NOTRIGGER.
		ch.Attrs = append(ch.Attrs, pcf.Attr{Keyword: "TRIGGER", Value: "NO"})
	case kw == "TRIGGER" || kw == "NOTRIGGER" || kw == "INITQ" || kw == "PROCESS" || kw == "TRIGTYPE":
		return false
	default:
		ch.Attrs = append(ch.Attrs, pcf.Attr{Keyword: kw, Value: v})
	}
	return true
}

// PlanChanges plans changes built directly from names (GET/PUT inhibit):
// no MQSC is parsed, so no name is folded; each step's MQSC is written from
// its change (ChangeMQSC).
func PlanChanges(qm mqwatch.QMgrInfo, queues []mqwatch.QueueInfo, id string, chs []pcf.Change) FixPlan {
	p := FixPlan{QMgr: qm.Name, ID: id}
	idx := map[string]mqwatch.QueueInfo{}
	for _, q := range queues {
		idx[q.Name] = q
	}
	for _, ch := range chs {
		s := FixStep{MQSC: ChangeMQSC(ch), PCF: pcf.CommandName(ch.Command), Change: ch}
		s.Diff, s.Authority = diffOf(ch, qm, idx)
		p.Steps = append(p.Steps, s)
	}
	return p
}

// QMgrInfoNamed is a queue manager known only by its name.
func QMgrInfoNamed(name string) mqwatch.QMgrInfo { return mqwatch.QMgrInfo{Name: name} }

// DiffNow is the step's diff against the attributes read just now: the
// queue manager's, and the queue's it changes when queues holds it.
func (s FixStep) DiffNow(qm mqwatch.QMgrInfo, queues []mqwatch.QueueInfo) []AttrDiff {
	idx := make(map[string]mqwatch.QueueInfo, len(queues))
	for _, q := range queues {
		idx[q.Name] = q
	}
	d, _ := diffOf(s.Change, qm, idx)
	return d
}

// AuthorityText says what a change needs besides the +dsp on the queue
// manager every PCF command needs, from pcf.ChangeAuthorities (the one
// place): "+chg on queue ORDERS.BO", "+crt on queues (profile @class), +dsp
// on QM1.DEADQ".
func AuthorityText(ch pcf.Change, qmName string) string {
	var ws []string
	for _, n := range pcf.ChangeAuthorities(ch)[1:] {
		on := "queue " + n.Object
		switch {
		case n.Type == pcf.ObjQMgr:
			on = "the queue manager " + qmName
		case n.Object == pcf.ClassProfile:
			on = "queues (profile @class)"
		case ch.Command != pcf.CmdChangeQ:
			on = n.Object
		}
		ws = append(ws, pcf.AuthWords(n.Auths, "+")+" on "+on)
	}
	return strings.Join(ws, ", ")
}

// diffOf reads each attribute's current value and names the authority the
// command needs (AuthorityText).
func diffOf(ch pcf.Change, qm mqwatch.QMgrInfo, idx map[string]mqwatch.QueueInfo) ([]AttrDiff, string) {
	var out []AttrDiff
	q, exists := idx[ch.Queue]
	wrongType := exists && ch.Command == pcf.CmdChangeQ && q.Type != ch.Type
	auth := AuthorityText(ch, qm.Name)
	switch ch.Command {
	case pcf.CmdCreateQ, pcf.CmdCopyQ:
		if ch.Command == pcf.CmdCopyQ {
			out = append(out, AttrDiff{"LIKE", "(new queue)", ch.Like})
		}
		exists = false
	}
	for _, a := range ch.Attrs {
		before := "(new queue)"
		switch {
		case ch.Command == pcf.CmdChangeQMgr:
			before = qmgrValue(qm, a.Keyword)
		case wrongType:
			before = fmt.Sprintf("(a %s, not a %s)", q.Type, ch.Type)
		case exists:
			before = queueValue(q, a.Keyword)
		case ch.Command == pcf.CmdChangeQ:
			before = "(no such queue)"
		}
		out = append(out, AttrDiff{a.Keyword, before, a.Value})
	}
	return out, auth
}

func queueValue(q mqwatch.QueueInfo, kw string) string {
	onOff := func(b bool, on, off string) string {
		if b {
			return on
		}
		return off
	}
	switch kw {
	case "BOTHRESH":
		return strconv.Itoa(int(q.BackoutThresh))
	case "BOQNAME":
		return orNone(strings.TrimSpace(q.BackoutQName))
	case "HARDENBO":
		return onOff(q.HardenBackout, "YES", "NO")
	case "MAXDEPTH":
		return strconv.Itoa(int(q.MaxDepth))
	case "MAXMSGL":
		return strconv.Itoa(int(q.MaxMsgLen))
	case "GET":
		return onOff(q.InhibitGet, "DISABLED", "ENABLED")
	case "PUT":
		return onOff(q.InhibitPut, "DISABLED", "ENABLED")
	}
	return "?"
}

func qmgrValue(qm mqwatch.QMgrInfo, kw string) string {
	switch kw {
	case "DEADQ":
		return orNone(strings.TrimSpace(qm.DeadQ))
	case "MAXMSGL":
		return strconv.Itoa(int(qm.MaxMsgLen))
	}
	return "?"
}
