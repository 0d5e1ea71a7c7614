package dlqrules

import (
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/poisonwatch/poisonwatch/internal/safeload"
)

// Action is what a rule does with a matching message.
type Action string

// Actions of a rule.
const (
	Discard Action = "DISCARD" // remove it from the DEADQ (archived first here)
	Ignore  Action = "IGNORE"  // leave it on the DEADQ
	Retry   Action = "RETRY"   // put it to its destination (MQDLH DestQName), MQDLH removed
	Fwd     Action = "FWD"     // forward it to FWDQ on FWDQM
)

// Symbolic values of FWDQ and FWDQM, taken from the message.
const (
	RefDestQ   = "&DESTQ"   // MQDLH DestQName
	RefReplyQ  = "&REPLYQ"  // MQMD ReplyToQ
	RefDestQM  = "&DESTQM"  // MQDLH DestQMgrName
	RefReplyQM = "&REPLYQM" // MQMD ReplyToQMgr
)

// WaitMode is the control data's WAIT.
type WaitMode int

// WAIT(YES) waits for messages forever, WAIT(NO) stops when nothing is left
// to process, WAIT(nnn) waits that many seconds for more.
const (
	WaitYes WaitMode = iota
	WaitNo
	WaitFor
)

// Defaults of the control data and of RETRY, as IBM documents them.
const (
	DefaultRetryInt = 60 * time.Second
	DefaultRetry    = 1
	maxNumber       = 999_999_999
)

// Control is the table's control data.
type Control struct {
	// Present says the table has a control-data entry; Pos is where.
	Present bool
	Pos     Pos
	// InputQ and InputQM are the DEADQ and its queue manager; blank means
	// the queue manager's DEADQ and the default queue manager.
	InputQ, InputQM string
	RetryInt        time.Duration
	Wait            WaitMode
	WaitFor         time.Duration // with WaitFor
}

// Pattern is one pattern keyword of a rule.
type Pattern struct {
	Keyword string // APPLIDAT, ..., USERID
	Text    string // the value as written (upper-cased unless quoted)
	// Value is the string to match, trailing blanks removed, or, for a
	// numeric keyword, "" with Num set.
	Value string
	Num   int32
	// Any is set for '*': every message matches.
	Any bool
}

// Rule is one rule: a pattern and an action.
type Rule struct {
	// Number is the rule's 1-based place in the table; Pos where it starts.
	Number    int
	Pos       Pos
	Patterns  []Pattern // in keyword order; absent keywords match anything
	Action    Action
	FwdQ      string // a queue name or RefDestQ/RefReplyQ
	FwdQM     string // a name, RefDestQM/RefReplyQM, or "" for the local one
	Header    bool   // HEADER(YES): the MQDLH stays on a forwarded message
	PutAutCtx bool   // PUTAUT(CTX): put with the message's user's authority
	Retry     int    // attempts of the action (RETRY), at least 1
}

// Table is a parsed rules table.
type Table struct {
	Control Control
	Rules   []Rule
	// Warnings are what runmqdlq accepts but portability or safety advise
	// against (lines over 72 characters).
	Warnings []string
}

// ParseFile reads and parses a rules table file.
func ParseFile(path string) (*Table, error) {
	f, err := safeload.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return Parse(f)
}

// maxTableBytes bounds what Parse reads: real tables are a few kilobytes.
const maxTableBytes = 4 << 20

// Parse parses a rules table. Any error refuses the whole table; the error is
// an Errors listing every problem found, each with its line and column.
func Parse(r io.Reader) (*Table, error) {
	data, err := io.ReadAll(io.LimitReader(r, maxTableBytes+1))
	if err != nil {
		return nil, err
	}
	if len(data) > maxTableBytes {
		return nil, Errors{{Pos: Pos{1, 1}, Msg: fmt.Sprintf("more than %d bytes: not a rules table", maxTableBytes)}}
	}
	ents, warns, err := entries(data)
	if err != nil {
		return nil, Errors{err.(*Error)}
	}
	t := &Table{Warnings: warns, Control: Control{RetryInt: DefaultRetryInt, Wait: WaitYes}}
	var errs Errors
	for i := range ents {
		its, e := items(&ents[i])
		if e != nil {
			errs = append(errs, e)
			continue
		}
		if i == 0 && isControl(its) {
			errs = append(errs, t.Control.parse(its, ents[i].at(0))...)
			continue
		}
		if len(t.Rules) == MaxRules {
			errs = append(errs, &Error{Pos: ents[i].at(0), Msg: fmt.Sprintf("more than %d rules: poisonwatch reads tables of up to %d (runmqdlq tables have tens); split the table", MaxRules, MaxRules)})
			break
		}
		r := Rule{Number: len(t.Rules) + 1, Pos: ents[i].at(0)}
		errs = append(errs, r.parse(its)...)
		t.Rules = append(t.Rules, r)
	}
	if len(t.Rules) == 0 && len(errs) == 0 {
		errs = append(errs, &Error{Pos: Pos{1, 1}, Msg: "no rules: a rules table needs at least one rule (ACTION keyword)"})
	}
	if len(errs) > 0 {
		return nil, errs
	}
	return t, nil
}

// String is the control data as a table entry.
func (c *Control) String() string {
	parts := []string{"INPUTQM(" + quote(c.InputQM) + ")", "INPUTQ(" + quote(c.InputQ) + ")"}
	if c.RetryInt != DefaultRetryInt {
		parts = append(parts, fmt.Sprintf("RETRYINT(%d)", int(c.RetryInt/time.Second)))
	}
	switch c.Wait {
	case WaitNo:
		parts = append(parts, "WAIT(NO)")
	case WaitFor:
		parts = append(parts, fmt.Sprintf("WAIT(%d)", int(c.WaitFor/time.Second)))
	}
	return strings.Join(parts, " ")
}

// String is the rule as a table entry, its keywords in IBM's order.
func (r *Rule) String() string {
	var parts []string
	for _, p := range r.Patterns {
		parts = append(parts, p.Keyword+"("+p.Text+")")
	}
	parts = append(parts, "ACTION("+string(r.Action)+")")
	if r.Action == Fwd {
		parts = append(parts, "FWDQ("+quoteRef(r.FwdQ)+")")
		if r.FwdQM != "" {
			parts = append(parts, "FWDQM("+quoteRef(r.FwdQM)+")")
		}
		if !r.Header {
			parts = append(parts, "HEADER(NO)")
		}
	}
	if r.PutAutCtx {
		parts = append(parts, "PUTAUT(CTX)")
	}
	if r.Retry != DefaultRetry {
		parts = append(parts, fmt.Sprintf("RETRY(%d)", r.Retry))
	}
	return strings.Join(parts, " ")
}

// quote writes a string value as runmqdlq reads it back unchanged.
func quote(s string) string {
	if s == "" {
		return "' '"
	}
	return "'" + strings.ReplaceAll(s, "'", "''") + "'"
}

func quoteRef(s string) string {
	if strings.HasPrefix(s, "&") {
		return s
	}
	return quote(s)
}
