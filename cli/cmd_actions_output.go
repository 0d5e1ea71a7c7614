package cli

import (
	"context"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/poisonwatch/poisonwatch/actions/ops"
	"github.com/poisonwatch/poisonwatch/backend/embedded"
	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
	"github.com/poisonwatch/poisonwatch/mqwatch"
)

// maxListed bounds the per-message lines of a real run's text output (every
// line is in the audit log); a dry run lists every message.
const maxListed = 200

// queueDepth is a queue's CURDEPTH after the run.
type queueDepth struct {
	Queue string `json:"queue"`
	Depth int32  `json:"depth"`
}

// queueDepths reports the source and local targets after the run: on the
// embedded queue manager nothing outlives the command, so this is where the
// effect shows.
func queueDepths(ctx context.Context, qm *embedded.QMgr, res *ops.OpResult) []queueDepth {
	names := []string{res.Plan.Request.Queue}
	for t := range res.Plan.Targets {
		if !strings.Contains(t, "@") {
			names = append(names, t)
		}
	}
	slices.Sort(names)
	names = slices.Compact(names)
	c, err := qm.Connect(context.WithoutCancel(ctx), mqwatch.ConnectOptions{})
	if err != nil {
		return nil
	}
	defer c.Close()
	var out []queueDepth
	for _, n := range names {
		if st, err := c.QueueStatus(context.WithoutCancel(ctx), n); err == nil && len(st) == 1 {
			out = append(out, queueDepth{n, st[0].Depth})
		}
	}
	return out
}

func writeTextResult(w io.Writer, res *ops.OpResult, err error, depths []queueDepth) {
	w = mqfmt.NewSafeWriter(w) // queue names in the depths line come from messages too
	req := &res.Plan.Request
	if res.Plan.Summary != "" {
		prefix := ""
		if req.DryRun {
			prefix = "dry run: "
		}
		fmt.Fprintln(w, prefix+mqfmt.Sanitize(res.Plan.Summary))
	}
	for _, warn := range res.Plan.Warnings {
		fmt.Fprintln(w, "warning: "+mqfmt.Sanitize(warn))
	}
	listed := 0
	for i := range res.Items {
		it := &res.Items[i]
		if !req.DryRun && it.Kind == ops.Done {
			continue
		}
		if listed++; !req.DryRun && listed > maxListed {
			continue
		}
		fmt.Fprintln(w, itemLine(req.Op, it))
	}
	if listed > maxListed && !req.DryRun {
		fmt.Fprintf(w, "  … and %d more, each in the audit log\n", listed-maxListed)
	}
	fmt.Fprintln(w, countsLine(res))
	for _, l := range reasonLines(res) {
		fmt.Fprintln(w, l)
	}
	if v := res.Verify.Sentence(); v != "" {
		fmt.Fprintln(w, "check: "+mqfmt.Sanitize(v))
	}
	if res.Stopped != "" {
		fmt.Fprintln(w, "stopped: "+mqfmt.Sanitize(res.Stopped))
	}
	if err != nil && (res.Stopped == "" || !strings.Contains(err.Error(), res.Stopped)) {
		fmt.Fprintln(w, "error: "+mqfmt.Sanitize(err.Error()))
	}
	if res.AuditFile != "" {
		fmt.Fprintln(w, "audit: "+res.AuditFile)
	}
	if res.ArchiveFile != "" {
		fmt.Fprintln(w, "archive: "+res.ArchiveFile)
	}
	if len(depths) > 0 {
		parts := make([]string, len(depths))
		for i, d := range depths {
			parts[i] = fmt.Sprintf("%s %d", d.Queue, d.Depth)
		}
		fmt.Fprintf(w, "depths now (embedded %s, in memory): %s\n", req.QMgr, strings.Join(parts, ", "))
	}
}

func itemLine(op ops.Op, it *ops.OpItem) string {
	target := ""
	if it.Target != "" {
		target = "→ " + it.Target
		if it.TargetQMgr != "" {
			target += "@" + it.TargetQMgr
		}
	}
	line := fmt.Sprintf("  %s  %-22s %s", hex.EncodeToString(it.Msg.MsgId[:]), target, it.Text(op))
	if it.Index > 0 {
		line = fmt.Sprintf("  #%-5d", it.Index) + line[1:]
	}
	if it.Why != "" {
		line += "  (" + it.Why + ")"
	}
	return mqfmt.Sanitize(line)
}

func countsLine(res *ops.OpResult) string {
	req := &res.Plan.Request
	if req.DryRun {
		b := res.Breakdown()
		s := fmt.Sprintf("dry run: %d of %d messages would be acted on", b.Act, b.Total)
		var parts []string
		for _, p := range []struct {
			n    int
			what string
		}{{sumCounts(b.ComesBack), "would come back"}, {sumCounts(b.Fail), "would fail"},
			{sumCounts(b.DeadLetterAgain), "would be dead-lettered again"}, {sumCounts(b.Skipped), "skipped"}} {
			if p.n > 0 {
				parts = append(parts, fmt.Sprintf("%d %s", p.n, p.what))
			}
		}
		if len(parts) > 0 {
			s += ", " + strings.Join(parts, ", ")
		}
		return s + "; nothing changed"
	}
	word := req.Op.PastTense()
	s := fmt.Sprintf("%s %d · skipped %d · failed %d · in doubt %d · not done %d · %.2f s",
		word, res.Done, res.Skipped, res.Failed, res.InDoubt, res.NotDone, res.Elapsed.Seconds())
	if res.Elapsed > 0 && res.Done > 0 {
		s += fmt.Sprintf(" (%.0f msgs/s)", float64(res.Done)/res.Elapsed.Seconds())
	}
	return s
}

func sumCounts(cs []ops.OpCount) int {
	n := 0
	for _, c := range cs {
		n += c.Count
	}
	return n
}

// reasonLines list the failures and skips by reason, most first: the
// per-message lines may be cut, these never are.
func reasonLines(res *ops.OpResult) []string {
	b := res.Breakdown()
	fail, skip, dla, back := "failed", "skipped", "dead-lettered again", "came back"
	if res.Plan.Request.DryRun {
		fail, dla, back = "would fail", "would be dead-lettered again", "would come back"
	}
	var out []string
	for _, g := range []struct {
		what string
		cs   []ops.OpCount
	}{{back, b.ComesBack}, {fail, b.Fail}, {dla, b.DeadLetterAgain}, {skip, b.Skipped}} {
		for _, c := range g.cs {
			out = append(out, mqfmt.Sanitize(fmt.Sprintf("  %s ×%d: %s", g.what, c.Count, c.Cause)))
		}
	}
	return out
}

// jsonItem and jsonResult are the --json output.
type jsonItem struct {
	MsgId      string `json:"msg_id"`
	CorrelId   string `json:"correl_id"`
	PutTime    string `json:"put_time,omitempty"`
	Index      int    `json:"index,omitempty"`
	Target     string `json:"target,omitempty"`
	TargetQMgr string `json:"target_qmgr,omitempty"`
	Outcome    string `json:"outcome"`
	Reason     int32  `json:"reason,omitempty"`
	Why        string `json:"why,omitempty"`
	CameBack   bool   `json:"came_back,omitempty"`
	// CopyMsgId is the MsgId a replay's copy was put with.
	CopyMsgId string `json:"copy_msg_id,omitempty"`
}

type jsonResult struct {
	Action      ops.Op         `json:"action"`
	QMgr        string         `json:"qmgr"`
	Queue       string         `json:"queue"`
	DryRun      bool           `json:"dry_run"`
	Summary     string         `json:"summary"`
	Warnings    []string       `json:"warnings"`
	Targets     map[string]int `json:"targets"`
	Done        int            `json:"done"`
	Skipped     int            `json:"skipped"`
	Failed      int            `json:"failed"`
	InDoubt     int            `json:"in_doubt"`
	NotDone     int            `json:"not_done"`
	Stopped     string         `json:"stopped,omitempty"`
	Error       string         `json:"error,omitempty"`
	ElapsedMs   int64          `json:"elapsed_ms"`
	AuditFile   string         `json:"audit_file,omitempty"`
	ArchiveFile string         `json:"archive_file,omitempty"`
	Depths      []queueDepth   `json:"depths,omitempty"`
	ExitCode    int            `json:"exit_code"`
	// CameBack counts the messages the check after the run saw come back
	// (R10f); Verify is that check in full.
	CameBack int           `json:"came_back"`
	Verify   *ops.OpVerify `json:"verify,omitempty"`
	// Define is what --create-like defined (or would) before the move.
	Define *parked `json:"define,omitempty"`
	// Breakdown counts the messages by outcome, failures and skips per
	// reason (for a dry run: what would happen).
	Breakdown ops.OpBreakdown `json:"breakdown"`
	Items     []jsonItem      `json:"items"`
}

func writeJSONResult(w io.Writer, res *ops.OpResult, err error, depths []queueDepth, code int, park *parked) {
	req := &res.Plan.Request
	out := jsonResult{Action: req.Op, QMgr: req.QMgr, Queue: req.Queue, DryRun: req.DryRun, Summary: res.Plan.Summary,
		Warnings: res.Plan.Warnings, Targets: res.Plan.Targets, Done: res.Done, Skipped: res.Skipped, Failed: res.Failed,
		InDoubt: res.InDoubt, NotDone: res.NotDone, Stopped: res.Stopped, ElapsedMs: res.Elapsed.Milliseconds(),
		AuditFile: res.AuditFile, ArchiveFile: res.ArchiveFile, Depths: depths, ExitCode: code, Items: []jsonItem{},
		Breakdown: res.Breakdown(), Verify: res.Verify, Define: park}
	if res.Verify != nil {
		out.CameBack = res.Verify.CameBack
	}
	for _, cs := range []*[]ops.OpCount{&out.Breakdown.Fail, &out.Breakdown.DeadLetterAgain, &out.Breakdown.Skipped, &out.Breakdown.ComesBack} {
		if *cs == nil {
			*cs = []ops.OpCount{}
		}
	}
	if err != nil {
		out.Error = err.Error()
	}
	if out.Warnings == nil {
		out.Warnings = []string{}
	}
	for i := range res.Items {
		it := &res.Items[i]
		j := jsonItem{MsgId: hex.EncodeToString(it.Msg.MsgId[:]), CorrelId: hex.EncodeToString(it.Msg.CorrelId[:]),
			Index: it.Index, Target: it.Target, TargetQMgr: it.TargetQMgr, Outcome: it.Text(req.Op), Reason: it.Reason, Why: it.Why,
			CameBack: it.CameBack}
		if it.CopyMsgId != ([24]byte{}) {
			j.CopyMsgId = hex.EncodeToString(it.CopyMsgId[:])
		}
		if !it.Msg.PutTime.IsZero() {
			j.PutTime = it.Msg.PutTime.UTC().Format(time.RFC3339Nano)
		}
		out.Items = append(out.Items, j)
	}
	enc := json.NewEncoder(mqfmt.NewJSONSafeWriter(w)) // exact values, C1 and bidi escaped
	enc.SetIndent("", "  ")
	_ = enc.Encode(out)
}

// progressPrinter shows done / total, rate and ETA on a terminal's stderr,
// at most a few times a second; nothing when stderr is not a terminal.
type progressPrinter struct {
	mu    sync.Mutex
	w     io.Writer
	label string
	on    bool
	last  time.Time
	shown bool
}

func newProgressPrinter(w io.Writer, label string, quiet bool) *progressPrinter {
	f, ok := w.(*os.File)
	on := ok && !quiet
	if on {
		st, err := f.Stat()
		on = err == nil && st.Mode()&os.ModeCharDevice != 0
	}
	return &progressPrinter{w: w, label: label, on: on}
}

func (p *progressPrinter) report(ev ops.OpProgress) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if !p.on || time.Since(p.last) < 200*time.Millisecond {
		return
	}
	p.last, p.shown = time.Now(), true
	fmt.Fprintf(p.w, "\r%s: %d/%d done · %d skipped · %d failed · %.0f msgs/s · ETA %s   ",
		p.label, ev.Done, ev.Total, ev.Skipped, ev.Failed, ev.Rate, ev.ETA.Round(time.Second))
}

func (p *progressPrinter) done() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.shown {
		fmt.Fprintln(p.w)
	}
}
