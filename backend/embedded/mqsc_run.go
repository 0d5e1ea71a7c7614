package embedded

import (
	"fmt"
	"io"
	"strings"

	"github.com/poisonwatch/poisonwatch/codec/mqsc"
)

// Outcome is what became of one MQSC command.
type Outcome int

// Outcomes of an MQSC command.
const (
	// Applied: the command took effect (runmqsc's AMQ8006I and friends).
	Applied Outcome = iota
	// Failed: a valid command the queue manager refused (the object exists,
	// is missing, is in use...). Later commands still run, as in runmqsc.
	Failed
	// NotModelled: a valid command for something the embedded queue manager
	// does not model (channels, CHLAUTH, AUTHINFO, listeners, DISPLAY, ...).
	// It is accepted and changes nothing.
	NotModelled
)

// String names the outcome for reports.
func (o Outcome) String() string {
	switch o {
	case Applied:
		return "applied"
	case Failed:
		return "failed"
	}
	return "not modelled"
}

// Result reports one command.
type Result struct {
	Line    int    // input line the command starts on
	Command string // e.g. "DEFINE QLOCAL"
	Object  string // the object name, "" when none
	Outcome Outcome
	Message string // runmqsc-style, e.g. "AMQ8006I: IBM MQ queue created."
	// Ignored lists attributes IBM MQ knows that the embedded queue manager
	// accepted without acting on them (TRIGGER, INITQ, CONNAUTH, ...).
	Ignored []string
}

// Report lists every command of a script with its outcome.
type Report struct {
	Results []Result
}

// Failed returns the commands that failed.
func (r Report) Failed() []Result { return r.filter(Failed) }

// NotModelled returns the commands accepted without effect.
func (r Report) NotModelled() []Result { return r.filter(NotModelled) }

func (r Report) filter(o Outcome) []Result {
	var out []Result
	for _, res := range r.Results {
		if res.Outcome == o {
			out = append(out, res)
		}
	}
	return out
}

// String renders the report as a runmqsc transcript.
func (r Report) String() string {
	var b strings.Builder
	for _, res := range r.Results {
		fmt.Fprintf(&b, "%6d : %s", res.Line, res.Command)
		if res.Object != "" {
			fmt.Fprintf(&b, "(%s)", res.Object)
		}
		fmt.Fprintf(&b, "\n%s\n", res.Message)
		if len(res.Ignored) > 0 {
			fmt.Fprintf(&b, "  not modelled: %s\n", strings.Join(res.Ignored, ", "))
		}
	}
	fmt.Fprintf(&b, "%d MQSC commands read.\n", len(r.Results))
	if n := len(r.Failed()); n > 0 {
		fmt.Fprintf(&b, "%d commands failed.\n", n)
	} else {
		b.WriteString("All valid MQSC commands were processed.\n")
	}
	return b.String()
}

// RunError is returned by RunMQSC when some commands failed; the Report still
// lists every command.
type RunError struct {
	Failed, Total int
	First         Result
}

// Error summarises the failures and names the first.
func (e *RunError) Error() string {
	return fmt.Sprintf("mqsc: %d of %d commands failed; first at line %d: %s: %s",
		e.Failed, e.Total, e.First.Line, e.First.Command, e.First.Message)
}

// RunMQSC applies an MQSC script as runmqsc would. A syntax error (with its
// line) stops everything before any command runs, as `runmqsc -v` would find
// it; otherwise every command runs in order, and failures are reported per
// command and summarised in a *RunError.
func (qm *QMgr) RunMQSC(r io.Reader) (Report, error) {
	cmds, err := mqsc.Parse(r)
	if err != nil {
		return Report{}, fmt.Errorf("mqsc: %w", err)
	}
	var rep Report
	qm.mu.Lock()
	defer qm.mu.Unlock()
	for i := range cmds {
		c := &cmds[i]
		res := qm.applyCommand(c)
		res.Line, res.Command, res.Object = c.Line, c.Kind(), c.Name
		if res.Outcome != NotModelled {
			res.Ignored = unmodelledParams(c)
		}
		rep.Results = append(rep.Results, res)
		if c.Verb == "END" {
			break
		}
	}
	if failed := rep.Failed(); len(failed) > 0 {
		return rep, &RunError{Failed: len(failed), Total: len(rep.Results), First: failed[0]}
	}
	return rep, nil
}

func unmodelledParams(c *mqsc.Command) []string {
	var out []string
	for _, p := range c.Params {
		if p.Unmodelled {
			out = append(out, p.Key)
		}
	}
	return out
}

func applied(msg string) Result { return Result{Outcome: Applied, Message: msg} }

func failed(format string, args ...any) Result {
	return Result{Outcome: Failed, Message: fmt.Sprintf(format, args...)}
}

// applyCommand runs one parsed command. Caller holds mu.
func (qm *QMgr) applyCommand(c *mqsc.Command) Result {
	if res, bad := checkCommandNames(c); bad {
		return res
	}
	switch {
	case c.Verb == "END":
		return applied("End of MQSC input.")
	case !c.Modelled:
		return Result{Outcome: NotModelled,
			Message: "Accepted: the embedded queue manager does not model " + c.Kind() + "; nothing changed."}
	}
	switch c.Object {
	case "QLOCAL", "QALIAS", "QREMOTE", "QMODEL":
		return qm.applyQueueCommand(c)
	case "TOPIC":
		return qm.applyTopicCommand(c)
	case "QMGR":
		return qm.alterQMgr(c)
	case "AUTHREC":
		return qm.applyAuthRec(c)
	}
	return Result{Outcome: NotModelled, Message: "Accepted: " + c.Kind() + " is not modelled; nothing changed."}
}
