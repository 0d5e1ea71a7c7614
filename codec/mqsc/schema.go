package mqsc

import (
	"slices"
	"strconv"
	"strings"
)

// verbs maps every accepted spelling of a command verb to its full name. The
// abbreviations are the ones IBM documents for the MQSC verbs.
var verbs = map[string]string{
	"DEFINE": "DEFINE", "DEF": "DEFINE",
	"ALTER": "ALTER", "ALT": "ALTER",
	"DELETE":  "DELETE",
	"DISPLAY": "DISPLAY", "DIS": "DISPLAY",
	"REFRESH": "REFRESH", "REF": "REFRESH",
	"START": "START", "STA": "START",
	"STOP": "STOP", "SET": "SET", "CLEAR": "CLEAR", "RESET": "RESET",
	"PING": "PING", "RESOLVE": "RESOLVE", "RESUME": "RESUME", "SUSPEND": "SUSPEND",
	"PURGE": "PURGE", "RECOVER": "RECOVER", "END": "END",
}

// objects maps object-type spellings, abbreviations included, to full names.
var objects = map[string]string{
	"QLOCAL": "QLOCAL", "QL": "QLOCAL",
	"QALIAS": "QALIAS", "QA": "QALIAS",
	"QREMOTE": "QREMOTE", "QR": "QREMOTE",
	"QMODEL": "QMODEL", "QM": "QMODEL",
	"QUEUE": "QUEUE", "Q": "QUEUE",
	"QSTATUS": "QSTATUS", "QS": "QSTATUS",
	"CHANNEL": "CHANNEL", "CHL": "CHANNEL",
	"CHSTATUS": "CHSTATUS", "CHS": "CHSTATUS",
	"LISTENER": "LISTENER", "LSTR": "LISTENER",
	"NAMELIST": "NAMELIST", "NL": "NAMELIST",
	"PROCESS": "PROCESS", "PRO": "PROCESS",
}

func lookupVerb(s string) (string, bool) {
	v, ok := verbs[strings.ToUpper(s)]
	return v, ok
}

// verbTakesObject reports whether the verb is followed by an object type.
func verbTakesObject(verb string) bool { return verb != "END" }

func lookupObject(_ string, s string) string {
	u := strings.ToUpper(s)
	if o, ok := objects[u]; ok {
		return o
	}
	return u
}

// kind is how an attribute's value is written.
type kind int

const (
	kFlag   kind = iota // bare keyword: REPLACE, HARDENBO
	kInt                // integer in [min, max], or one of enum
	kEnum               // one of enum
	kName               // an object name, at most maxLen characters
	kString             // free text, at most maxLen characters
	kList               // one or more of enum
	kAny                // an IBM attribute accepted as written and not modelled
)

type attr struct {
	kind     kind
	min, max int
	enum     []string
	maxLen   int
	opposite string // the flag that contradicts this one (REPLACE/NOREPLACE)
	canon    string // canonical keyword when this one is a synonym
}

type schema map[string]attr

func flag(opposite string) attr { return attr{kind: kFlag, opposite: opposite} }
func intRange(lo, hi int, extra ...string) attr {
	return attr{kind: kInt, min: lo, max: hi, enum: extra}
}
func enum(vals ...string) attr       { return attr{kind: kEnum, enum: vals} }
func name(n int) attr                { return attr{kind: kName, maxLen: n} }
func text(n int) attr                { return attr{kind: kString, maxLen: n} }
func list(vals ...string) attr       { return attr{kind: kList, enum: vals} }
func synonym(of string, a attr) attr { a.canon = of; return a }

// merge builds a schema from parts; unmodelled names become kAny.
func merge(unmodelled []string, parts ...schema) schema {
	s := schema{}
	for _, k := range unmodelled {
		s[k] = attr{kind: kAny}
	}
	for _, p := range parts {
		for k, v := range p {
			s[k] = v
		}
	}
	return s
}

// checkCommand validates the attributes of modelled commands and resolves
// synonyms. Commands without a schema pass through unchecked.
func checkCommand(c *Command) error {
	sc, ok := schemaFor(c.Verb, c.Object)
	if !ok {
		return nil
	}
	c.Modelled = true
	if err := checkName(c); err != nil {
		return err
	}
	seen := map[string]bool{}
	for i := range c.Params {
		p := &c.Params[i]
		a, ok := sc[p.Key]
		if !ok {
			return errorf(p.Line, "unknown attribute %s for %s", clip(p.Key), c.Object)
		}
		if a.canon != "" {
			p.Key = a.canon
		}
		if seen[p.Key] {
			return errorf(p.Line, "attribute %s is given twice", p.Key)
		}
		seen[p.Key] = true
		if a.opposite != "" && seen[a.opposite] {
			return errorf(p.Line, "%s and %s contradict each other", p.Key, a.opposite)
		}
		p.Unmodelled = a.kind == kAny
		if err := checkValue(*p, a); err != nil {
			return err
		}
	}
	return nil
}

func checkName(c *Command) error {
	needs := c.Object != "QMGR" && c.Object != "AUTHREC"
	switch {
	case needs && !c.HasName:
		return errorf(c.Line, "%s needs an object name in parentheses", c.Kind())
	case !needs && c.HasName:
		return errorf(c.Line, "%s takes no name in parentheses", c.Kind())
	case c.HasName && c.Name == "":
		return errorf(c.Line, "%s: the object name is empty", c.Kind())
	case len(c.Name) > 48:
		return errorf(c.Line, "%s: name %q is longer than 48 characters", c.Kind(), clip(c.Name))
	}
	return nil
}

func checkValue(p Param, a attr) error {
	switch a.kind {
	case kAny:
		return nil
	case kFlag:
		if p.HasValue {
			return errorf(p.Line, "%s takes no value", p.Key)
		}
		return nil
	}
	if !p.HasValue {
		return errorf(p.Line, "%s needs a value in parentheses", p.Key)
	}
	if a.kind != kList && len(p.Values) != 1 {
		return errorf(p.Line, "%s takes one value, found %d", p.Key, len(p.Values))
	}
	switch a.kind {
	case kInt:
		return checkInt(p, a)
	case kEnum:
		if !slices.Contains(a.enum, p.Value()) {
			return errorf(p.Line, "%s(%s): want one of %s", p.Key, clip(p.Value()), strings.Join(a.enum, ", "))
		}
	case kName, kString:
		if len(p.Value()) > a.maxLen {
			return errorf(p.Line, "%s: value is longer than %d characters", p.Key, a.maxLen)
		}
	case kList:
		if len(p.Values) == 0 {
			return errorf(p.Line, "%s needs at least one value", p.Key)
		}
		for _, v := range p.Values {
			if !slices.Contains(a.enum, strings.ToUpper(v)) {
				return errorf(p.Line, "%s(%s): not a valid value", p.Key, clip(v))
			}
		}
	}
	return nil
}

func checkInt(p Param, a attr) error {
	v := p.Value()
	if slices.Contains(a.enum, v) {
		return nil
	}
	n, err := strconv.Atoi(v)
	if err != nil {
		return errorf(p.Line, "%s(%s): not a number", p.Key, clip(v))
	}
	if n < a.min || n > a.max {
		return errorf(p.Line, "%s(%d): out of range %d..%d", p.Key, n, a.min, a.max)
	}
	return nil
}
