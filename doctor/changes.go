package doctor

import (
	"slices"

	"github.com/poisonwatch/poisonwatch/actions"
	"github.com/poisonwatch/poisonwatch/mqwatch"
	"github.com/poisonwatch/poisonwatch/mqwatch/pcf"
)

// FeatureRules is `poisonwatch rules run` (and `W`): a runmqdlq rules table
// run through the actions engine.
const FeatureRules = "rules"

// parkProbe stands for the parking queue an operator would name.
const parkProbe = "PARKING.QUEUE"

// changeNeeds are the authorities the object changes need, derived from
// the steps of the fixes poisonwatch would offer now (the lint's findings,
// planned as the change gate runs them: actions.PlanFix, one PCF change
// per step) and of a parking queue LIKE the DEADQ, each step's from
// pcf.ChangeAuthorities: the same function the change gate's dry run
// predicts 2035 from. Duplicates (the same authorities on the same
// object) are listed once, at their first step.
func changeNeeds(info mqwatch.QMgrInfo, queues []mqwatch.QueueInfo) []need {
	var steps []actions.FixStep
	deadSeen := slices.ContainsFunc(queues, func(q mqwatch.QueueInfo) bool { return q.Name == info.DeadQ })
	for _, f := range actions.Lint(actions.LintInput{QMgr: info, Queues: queues}) {
		// Info findings (a MAXMSGL only equal to its feeder's) do not fail
		// the doctor; a DEADQ the user cannot display looks missing, but
		// whether it is cannot be told (its dsp check says what to grant).
		if len(f.Fix) == 0 || f.Severity < actions.Warning || (!deadSeen && f.Queue == info.DeadQ) {
			continue
		}
		p := actions.PlanFix(actions.FixInput{QMgr: info, Queues: queues, ID: f.Rule, Commands: f.Fix})
		steps = append(steps, p.Steps...)
	}
	if info.DeadQ != "" {
		// A parking queue (ctrl+n, --create-like) is defined LIKE the DEADQ,
		// whether or not the user may display it yet.
		ch := pcf.Change{Command: pcf.CmdCopyQ, Queue: parkProbe, Like: info.DeadQ, Type: mqwatch.QLocal}
		steps = append(steps, actions.FixStep{MQSC: actions.ChangeMQSC(ch), Change: ch})
	}
	seen := map[string]bool{}
	var out []need
	for _, st := range steps {
		for _, n := range pcf.ChangeAuthorities(st.Change) {
			key := n.Type.Keyword() + "/" + n.Object + "/" + pcf.AuthWords(n.Auths, "+")
			if seen[key] {
				continue
			}
			seen[key] = true
			out = append(out, need{feature: FeatureChanges, what: changeWhat(st, n), ot: n.Type, object: n.Object, auths: n.Auths})
		}
	}
	if len(out) == 0 {
		// No fix to offer now: GET/PUT inhibit (I) still changes queues.
		out = append(out, need{feature: FeatureChanges, what: "send a PCF command", ot: pcf.ObjQMgr, auths: []pcf.Auth{pcf.AuthDsp}})
	}
	return out
}

// changeWhat names a change need by the step it comes from.
func changeWhat(st actions.FixStep, n pcf.AuthNeed) string {
	if n.Type == pcf.ObjQMgr && slices.Contains(n.Auths, pcf.AuthDsp) {
		return "send a PCF command"
	}
	if st.Change.Queue == parkProbe {
		return "define a parking queue: " + n.Why
	}
	return n.Why + " (" + st.MQSC + ")"
}

// rulesNeeds are what `rules run` opens: it browses the DEADQ and gets
// each message it acts on, and puts each copy with MQOO_SET_ALL_CONTEXT
// (setall on the target and the queue manager) where runmqdlq passes it
// (passall): the engine puts the copy before it gets the original (R10a),
// so there is no got message whose context could be passed, and it sets
// every context field from the browsed MQMD instead. PUTAUT(CTX) rules
// open the target as the message's user: altusr on the queue manager. The
// targets are the messages' destinations and the tables' FWD queues, so
// the input queues stand for them here.
func rulesNeeds(info mqwatch.QMgrInfo, inputs []string) []need {
	if info.DeadQ == "" {
		return nil
	}
	out := []need{
		{feature: FeatureRules, what: "browse the DEADQ and get what the rules act on", ot: pcf.ObjQueue, object: info.DeadQ, auths: []pcf.Auth{pcf.AuthBrowse, pcf.AuthGet}},
		{feature: FeatureRules, what: "set all context (runmqdlq passes it: passall)", ot: pcf.ObjQMgr, auths: []pcf.Auth{pcf.AuthSetAll}},
		{feature: FeatureRules, what: "PUTAUT(CTX): put as the message's user", ot: pcf.ObjQMgr, auths: []pcf.Auth{pcf.AuthAltUsr}},
	}
	for _, in := range inputs {
		out = append(out, need{feature: FeatureRules, what: "RETRY to an input queue with the message's context", ot: pcf.ObjQueue, object: in, auths: []pcf.Auth{pcf.AuthPut, pcf.AuthSetAll}})
	}
	return out
}
