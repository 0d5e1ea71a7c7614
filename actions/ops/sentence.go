package ops

import (
	"cmp"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/poisonwatch/poisonwatch/internal/words"
)

// planSentence is the one-sentence effect of a plan, as a confirmation dialog
// shows it, e.g. "Requeue 37 messages from QM1.DEADQ to their original
// queues: ORDERS.IN ×30, PAYMENTS.IN ×7; move, not copy; MQDLH removed".
func planSentence(p *opPlanned, archiveDir string) string {
	req := &p.Request
	n, dlh := 0, 0
	for i := range p.Items {
		if p.Items[i].planned() {
			n++
			if factsOfSummary(&p.Items[i].Msg).deadLetter {
				dlh++
			}
		}
	}
	var b strings.Builder
	verb := strings.ToUpper(string(req.Op[:1])) + string(req.Op[1:])
	fmt.Fprintf(&b, "%s %s", verb, words.Count(n, "message"))
	switch req.Op {
	case OpRequeue:
		fmt.Fprintf(&b, " from %s %s; move, not copy", req.Queue, requeueDestination(p, n, dlh))
		if dlh > 0 {
			b.WriteString("; MQDLH removed")
		}
	case OpMove:
		fmt.Fprintf(&b, " from %s to %s; move, not copy; headers unchanged", req.Queue, targetName(req))
	case OpReplay:
		fmt.Fprintf(&b, " from %s to %s; copy, originals stay", req.Queue, replayDestination(p))
		if req.KeepMsgId {
			b.WriteString("; MsgIds kept")
		} else {
			b.WriteString("; new MsgIds")
		}
		if dlh > 0 {
			b.WriteString("; MQDLH removed from the copies")
		}
	case OpDiscard:
		where := "a new dmpmqmsg file in " + archiveDir
		if req.File != "" {
			where = req.File
		}
		fmt.Fprintf(&b, " from %s; each is archived to %s before the removal is committed", req.Queue, where)
	case OpExport:
		fmt.Fprintf(&b, " from %s to %s; browse only, %s unchanged", req.Queue, req.File, req.Queue)
	case OpImport:
		fmt.Fprintf(&b, " from %s to %s; MsgIds and context from the file", req.File, targetName(req))
	}
	writeSentenceTail(&b, p, n)
	return b.String()
}

// writeSentenceTail adds what qualifies every action: skipped messages, a
// selection cut at the limit, default context, a rate limit.
func writeSentenceTail(b *strings.Builder, p *opPlanned, n int) {
	req := &p.Request
	if skipped := len(p.Items) - n; skipped > 0 {
		fmt.Fprintf(b, "; %d skipped", skipped)
	}
	switch {
	case p.More && p.MoreCount > 0:
		fmt.Fprintf(b, "; %d more messages match than the limit of %d: run again for the rest", p.MoreCount, req.Limit)
	case p.More:
		fmt.Fprintf(b, "; more messages match than the limit of %d: run again for the rest", req.Limit)
	}
	if req.Context == ContextDefault && req.Op != OpDiscard && req.Op != OpExport {
		b.WriteString("; default context: your user ID and the current time replace the original context")
	}
	if req.Rate > 0 {
		fmt.Fprintf(b, "; at most %s messages per second", strconv.FormatFloat(req.Rate, 'f', -1, 64))
	}
}

// requeueDestination names where a requeue sends its messages.
func requeueDestination(p *opPlanned, n, dlh int) string {
	req := &p.Request
	if req.Target != "" {
		return "to " + targetName(req) + " (target override)"
	}
	if n == 0 {
		return "(no message has a target)"
	}
	kind := "their original queues"
	switch {
	case dlh == 0:
		kind = "their input queues"
	case dlh < n:
		kind = "their original and input queues"
	}
	if len(p.Targets) == 0 {
		return "to " + kind + ", but every put would fail (the reasons follow)"
	}
	return "to " + kind + ": " + targetCounts(p.Targets)
}

func replayDestination(p *opPlanned) string {
	if p.Request.Target != "" {
		return targetName(&p.Request)
	}
	return "their original queues: " + targetCounts(p.Targets)
}

func targetName(req *OpRequest) string {
	if req.TargetQMgr != "" {
		return req.Target + "@" + req.TargetQMgr
	}
	return req.Target
}

// targetCounts lists targets by falling count, then name: "A ×30, B ×7".
func targetCounts(m map[string]int) string {
	keys := slices.SortedFunc(maps.Keys(m), func(a, b string) int {
		return cmp.Or(cmp.Compare(m[b], m[a]), cmp.Compare(a, b))
	})
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = fmt.Sprintf("%s ×%d", k, m[k])
	}
	if len(parts) == 0 {
		return "none"
	}
	return strings.Join(parts, ", ")
}
