package dlqrules

import (
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
)

// patternSpec describes a pattern keyword: the MQ field it matches, its length
// for a string field, or the families of symbolic names a numeric one takes.
type patternSpec struct {
	field   string
	length  int      // string fields: the MQ field's length
	symbols []string // numeric fields: accepted name prefixes
}

// patternKeywords are IBM's pattern keywords, in the order IBM lists them.
var patternKeywords = map[string]patternSpec{
	"APPLIDAT": {field: "MQMD ApplIdentityData", length: 32},
	"APPLNAME": {field: "MQMD PutApplName", length: 28},
	"APPLTYPE": {field: "MQMD PutApplType", symbols: []string{"MQAT_"}},
	"DESTQ":    {field: "MQDLH DestQName", length: 48},
	"DESTQM":   {field: "MQDLH DestQMgrName", length: 48},
	"FEEDBACK": {field: "MQMD Feedback", symbols: []string{"MQFB_", "MQRC_"}},
	"FORMAT":   {field: "MQDLH Format", length: 8},
	"MSGTYPE":  {field: "MQMD MsgType", symbols: []string{"MQMT_"}},
	"PERSIST":  {field: "MQMD Persistence", symbols: []string{"MQPER_"}},
	"REASON":   {field: "MQDLH Reason", symbols: []string{"MQRC_", "MQFB_"}},
	"REPLYQ":   {field: "MQMD ReplyToQ", length: 48},
	"REPLYQM":  {field: "MQMD ReplyToQMgr", length: 48},
	"USERID":   {field: "MQMD UserIdentifier", length: 12},
}

var (
	patternOrder  = []string{"APPLIDAT", "APPLNAME", "APPLTYPE", "DESTQ", "DESTQM", "FEEDBACK", "FORMAT", "MSGTYPE", "PERSIST", "REASON", "REPLYQ", "REPLYQM", "USERID"}
	actionWords   = []string{"ACTION", "FWDQ", "FWDQM", "HEADER", "PUTAUT", "RETRY"}
	controlWords  = []string{"INPUTQ", "INPUTQM", "RETRYINT", "WAIT"}
	nameFieldSize = 48 // MQ_Q_NAME_LENGTH and MQ_Q_MGR_NAME_LENGTH
)

// isControl reports whether an entry holds only control-data keywords.
func isControl(its []item) bool {
	for _, it := range its {
		if !slices.Contains(controlWords, it.kw) {
			return false
		}
	}
	return len(its) > 0
}

// unknownKeyword explains a keyword IBM does not define. IBM's rules tables
// take keywords in full: an abbreviation is named as such.
func unknownKeyword(it *item, where string) *Error {
	all := append(append(append([]string{}, patternOrder...), actionWords...), controlWords...)
	var full []string
	for _, k := range all {
		if strings.HasPrefix(k, it.kw) {
			full = append(full, k)
		}
	}
	msg := fmt.Sprintf("unknown keyword %s %s", it.kw, where)
	if len(full) > 0 {
		msg += fmt.Sprintf(": runmqdlq takes keywords in full, not abbreviated (%s)", strings.Join(full, " or "))
	} else {
		msg += "; expected one of " + strings.Join(all, ", ")
	}
	return &Error{Pos: it.kwPos, Msg: msg}
}

// once reports a keyword given twice in one entry.
func once(seen map[string]bool, it *item) *Error {
	if seen[it.kw] {
		return &Error{Pos: it.kwPos, Msg: fmt.Sprintf("%s appears twice in this entry: a keyword may be given once", it.kw)}
	}
	seen[it.kw] = true
	return nil
}

// parse reads the control-data entry.
func (c *Control) parse(its []item, at Pos) Errors {
	c.Present, c.Pos = true, at
	var errs Errors
	seen := map[string]bool{}
	for i := range its {
		it := &its[i]
		if e := once(seen, it); e != nil {
			errs = append(errs, e)
			continue
		}
		var e *Error
		switch it.kw {
		case "INPUTQ":
			c.InputQ, e = name(it, nameFieldSize, true)
		case "INPUTQM":
			c.InputQM, e = name(it, nameFieldSize, true)
		case "RETRYINT":
			var n int32
			n, e = number(it)
			c.RetryInt = time.Duration(n) * time.Second
		case "WAIT":
			e = c.parseWait(it)
		}
		if e != nil {
			errs = append(errs, e)
		}
	}
	return errs
}

func (c *Control) parseWait(it *item) *Error {
	switch it.value {
	case "YES":
		c.Wait = WaitYes
	case "NO":
		c.Wait = WaitNo
	default:
		n, e := number(it)
		if e != nil {
			return &Error{Pos: it.valPos, Msg: fmt.Sprintf("WAIT(%s): expected YES, NO or a number of seconds", it.value)}
		}
		c.Wait, c.WaitFor = WaitFor, time.Duration(n)*time.Second
	}
	return nil
}

// parse reads a rule entry.
func (r *Rule) parse(its []item) Errors {
	var errs Errors
	r.Header, r.Retry = true, DefaultRetry
	seen := map[string]bool{}
	for i := range its {
		it := &its[i]
		var e *Error
		switch _, isPat := patternKeywords[it.kw]; {
		case slices.Contains(controlWords, it.kw):
			e = &Error{Pos: it.kwPos, Msg: fmt.Sprintf("%s is control data: it belongs in the first entry of the table, with no rule keywords", it.kw)}
		case !isPat && !slices.Contains(actionWords, it.kw):
			e = unknownKeyword(it, "in a rule")
		default:
			if e = once(seen, it); e == nil {
				e = r.keyword(it, isPat)
			}
		}
		if e != nil {
			errs = append(errs, e)
		}
	}
	if len(errs) > 0 {
		return errs
	}
	sort.Slice(r.Patterns, func(i, j int) bool {
		return slices.Index(patternOrder, r.Patterns[i].Keyword) < slices.Index(patternOrder, r.Patterns[j].Keyword)
	})
	return r.check(its, seen)
}

// keyword reads one pattern or action keyword into the rule.
func (r *Rule) keyword(it *item, isPat bool) *Error {
	if isPat {
		p, e := pattern(it)
		r.Patterns = append(r.Patterns, p)
		return e
	}
	if it.kw != "FWDQ" && it.kw != "FWDQM" && strings.ContainsAny(it.value, "*?") {
		return &Error{Pos: it.valPos, Msg: fmt.Sprintf("%s(%s): wildcards are not allowed in %s", it.kw, it.value, it.kw)}
	}
	var e *Error
	switch it.kw {
	case "ACTION":
		e = choice(it, []string{"DISCARD", "IGNORE", "RETRY", "FWD"})
		r.Action = Action(it.value)
	case "FWDQ":
		r.FwdQ, e = target(it, RefDestQ, RefReplyQ)
	case "FWDQM":
		r.FwdQM, e = target(it, RefDestQM, RefReplyQM)
	case "HEADER":
		e = choice(it, []string{"YES", "NO"})
		r.Header = it.value == "YES"
	case "PUTAUT":
		e = choice(it, []string{"DEF", "CTX"})
		r.PutAutCtx = it.value == "CTX"
	case "RETRY":
		var n int32
		n, e = number(it)
		if e == nil && n < 1 {
			e = &Error{Pos: it.valPos, Msg: "RETRY(0): the number of attempts is 1 to 999 999 999"}
		}
		r.Retry = int(n)
	}
	return e
}

// check applies the rules that tie keywords together.
func (r *Rule) check(its []item, seen map[string]bool) Errors {
	at := func(kw string) Pos {
		for _, it := range its {
			if it.kw == kw {
				return it.kwPos
			}
		}
		return r.Pos
	}
	var errs Errors
	switch {
	case !seen["ACTION"]:
		errs = append(errs, &Error{Pos: r.Pos, Msg: "expected ACTION: every rule needs ACTION(DISCARD|IGNORE|RETRY|FWD)"})
	case r.Action == Fwd && !seen["FWDQ"]:
		errs = append(errs, &Error{Pos: at("ACTION"), Msg: "expected FWDQ: ACTION(FWD) needs the queue to forward to"})
	}
	if seen["ACTION"] && r.Action != Fwd {
		for _, kw := range []string{"FWDQ", "FWDQM", "HEADER"} {
			if seen[kw] {
				errs = append(errs, &Error{Pos: at(kw), Msg: fmt.Sprintf("%s conflicts with ACTION(%s): it applies to ACTION(FWD) only", kw, r.Action)})
			}
		}
	}
	return errs
}

// choice checks a value against its alternatives.
func choice(it *item, alts []string) *Error {
	if slices.Contains(alts, it.value) {
		return nil
	}
	return &Error{Pos: it.valPos, Msg: fmt.Sprintf("%s(%s): expected %s", it.kw, it.value, strings.Join(alts, ", "))}
}

// target reads FWDQ or FWDQM: a name or one of the message's own names.
func target(it *item, refs ...string) (string, *Error) {
	v := strings.TrimRight(it.value, " ")
	if strings.HasPrefix(v, "&") {
		if !slices.Contains(refs, v) {
			return "", &Error{Pos: it.valPos, Msg: fmt.Sprintf("%s(%s): expected a name or %s", it.kw, v, strings.Join(refs, " or "))}
		}
		return v, nil
	}
	if strings.ContainsAny(v, "*?") {
		return "", &Error{Pos: it.valPos, Msg: fmt.Sprintf("%s(%s): wildcards are not allowed in %s", it.kw, v, it.kw)}
	}
	return name(it, nameFieldSize, it.kw == "FWDQM")
}

// name reads a queue or queue manager name: blank only where allowed.
func name(it *item, n int, blankOK bool) (string, *Error) {
	v := strings.TrimRight(it.value, " ")
	if v == "" && !blankOK {
		return "", &Error{Pos: it.valPos, Msg: fmt.Sprintf("%s(' ') is not valid: give a queue name", it.kw)}
	}
	if len(v) > n {
		return "", &Error{Pos: it.valPos, Msg: fmt.Sprintf("%s: %d characters, more than the %d of the MQ field", it.kw, len(v), n)}
	}
	return v, nil
}

// number reads a decimal in IBM's range 0 to 999 999 999.
func number(it *item) (int32, *Error) {
	v := strings.TrimSpace(it.value)
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil || n < 0 || n > maxNumber || strings.HasPrefix(v, "+") {
		return 0, &Error{Pos: it.valPos, Msg: fmt.Sprintf("%s(%s): expected a number from 0 to 999 999 999", it.kw, it.value)}
	}
	return int32(n), nil
}

// pattern reads a pattern keyword's value.
func pattern(it *item) (Pattern, *Error) {
	spec := patternKeywords[it.kw]
	p := Pattern{Keyword: it.kw, Text: it.value}
	if it.quoted {
		p.Text = quote(it.value)
	}
	if strings.TrimSpace(it.value) == "*" {
		p.Any, p.Text = true, "*"
		return p, nil
	}
	if spec.length == 0 {
		return numericPattern(it, spec, p)
	}
	v := strings.TrimRight(it.value, " ")
	if it.kw == "FORMAT" && strings.HasPrefix(v, "MQFMT_") {
		f, ok := mqfmt.FormatByName(v)
		if !ok {
			return p, &Error{Pos: it.valPos, Msg: fmt.Sprintf("FORMAT(%s): not an MQFMT_ name IBM defines", v)}
		}
		p.Value = f
		return p, nil
	}
	if l := len(strings.ReplaceAll(v, "*", "")); l > spec.length {
		return p, &Error{Pos: it.valPos, Msg: fmt.Sprintf("%s: %d characters (not counting *), more than the %d of %s", it.kw, l, spec.length, spec.field)}
	}
	p.Value = v
	return p, nil
}

// numericPattern reads a number or a symbolic name of the keyword's families.
func numericPattern(it *item, spec patternSpec, p Pattern) (Pattern, *Error) {
	v := strings.TrimSpace(it.value)
	if strings.ContainsAny(v, "*?") {
		return p, &Error{Pos: it.valPos, Msg: fmt.Sprintf("%s(%s): a number takes no wildcard; * alone matches any value", it.kw, v)}
	}
	if strings.HasPrefix(v, "MQ") {
		ok := false
		for _, pre := range spec.symbols {
			ok = ok || strings.HasPrefix(v, pre)
		}
		n, known := mqfmt.ConstByName(v)
		switch {
		case !ok:
			return p, &Error{Pos: it.valPos, Msg: fmt.Sprintf("%s(%s): %s takes %s names", it.kw, v, it.kw, strings.Join(spec.symbols, " or "))}
		case !known:
			return p, &Error{Pos: it.valPos, Msg: fmt.Sprintf("%s(%s): not a name IBM defines", it.kw, v)}
		case n < 0:
			return p, &Error{Pos: it.valPos, Msg: fmt.Sprintf("%s(%s): its value %d is outside 0 to 999 999 999", it.kw, v, n)}
		}
		p.Num = n
		return p, nil
	}
	n, e := number(it)
	p.Num = n
	return p, e
}
