package mqsc

import (
	"io"
	"strings"
)

// Command is one MQSC command with its keywords in canonical form: verbs and
// object types unabbreviated (DEF QL becomes DEFINE QLOCAL), attribute synonyms
// resolved (TARGQ becomes TARGET).
type Command struct {
	Line    int    // input line the command starts on
	Text    string // the command as joined from its lines
	Verb    string // DEFINE, ALTER, DELETE, DISPLAY, SET, CLEAR, REFRESH, ...
	Object  string // QLOCAL, QALIAS, QREMOTE, QMODEL, QMGR, TOPIC, AUTHREC, CHANNEL, ...; "" when none
	Name    string // object name: folded to upper case unless it was quoted
	HasName bool
	Params  []Param
	// Modelled reports whether the attributes were checked against the
	// embedded queue manager's schema for this object type.
	Modelled bool
}

// Param is one keyword with its values, if any.
type Param struct {
	Key      string   // canonical keyword, upper case
	Values   []string // values inside the parentheses; nil for a bare keyword
	HasValue bool     // the keyword had parentheses (possibly empty)
	Line     int      // input line of the keyword
	// Unmodelled marks an IBM attribute the embedded queue manager accepts
	// but does not act on (TRIGGER, INITQ, ...).
	Unmodelled bool
}

// Value returns the first value, or "" for a bare keyword.
func (p Param) Value() string {
	if len(p.Values) == 0 {
		return ""
	}
	return p.Values[0]
}

// Param returns the parameter with canonical keyword key.
func (c *Command) Param(key string) (Param, bool) {
	for _, p := range c.Params {
		if p.Key == key {
			return p, true
		}
	}
	return Param{}, false
}

// Has reports whether the command has the keyword key.
func (c *Command) Has(key string) bool {
	_, ok := c.Param(key)
	return ok
}

// Kind names the command as runmqsc's messages do, e.g. "DEFINE QLOCAL".
func (c *Command) Kind() string {
	if c.Object == "" {
		return c.Verb
	}
	return c.Verb + " " + c.Object
}

// Parse reads an MQSC script. It stops at the first error, which is an *Error
// naming the input line.
func Parse(r io.Reader) ([]Command, error) {
	raws, err := joinLines(r)
	if err != nil {
		return nil, err
	}
	cmds := make([]Command, 0, len(raws))
	for _, rc := range raws {
		c, err := parseCommand(rc)
		if err != nil {
			return nil, err
		}
		cmds = append(cmds, c)
	}
	return cmds, nil
}

// ParseString parses a script held in a string.
func ParseString(s string) ([]Command, error) { return Parse(strings.NewReader(s)) }

func parseCommand(rc rawCommand) (Command, error) {
	toks, err := lex(rc)
	if err != nil {
		return Command{}, err
	}
	c := Command{Line: rc.first, Text: strings.TrimSpace(rc.text)}
	if len(toks) == 0 || toks[0].kind != tokWord {
		return c, errorf(rc.first, "a command must start with a verb")
	}
	verb, ok := lookupVerb(toks[0].text)
	if !ok {
		return c, errorf(toks[0].line, "unknown command %q", clip(toks[0].text))
	}
	c.Verb = verb
	rest := toks[1:]
	if verbTakesObject(verb) {
		if len(rest) == 0 || rest[0].kind != tokWord {
			return c, errorf(rc.first, "%s needs an object type", verb)
		}
		c.Object = lookupObject(verb, rest[0].text)
		rest = rest[1:]
		if len(rest) > 0 && rest[0].kind == tokOpen {
			name, n, err := parseValues(rest, c.Object)
			if err != nil {
				return c, err
			}
			if len(name) != 1 {
				return c, errorf(rest[0].line, "%s needs one name in parentheses", c.Kind())
			}
			c.Name, c.HasName = name[0], true
			rest = rest[n:]
		}
	}
	if err := parseParams(&c, rest); err != nil {
		return c, err
	}
	return c, checkCommand(&c)
}

// parseParams reads `KEYWORD` and `KEYWORD(value, ...)` pairs.
func parseParams(c *Command, toks []token) error {
	for len(toks) > 0 {
		t := toks[0]
		if t.kind != tokWord {
			return errorf(t.line, "expected a keyword, found %q", clip(t.text))
		}
		p := Param{Key: strings.ToUpper(t.text), Line: t.line}
		toks = toks[1:]
		if len(toks) > 0 && toks[0].kind == tokOpen {
			vals, n, err := parseValues(toks, p.Key)
			if err != nil {
				return err
			}
			p.Values, p.HasValue = vals, true
			toks = toks[n:]
		}
		c.Params = append(c.Params, p)
	}
	return nil
}

// parseValues reads "( v1 v2 ... )" starting at toks[0] == "(" and returns the
// values and the number of tokens consumed. Unquoted values fold to upper case.
func parseValues(toks []token, what string) ([]string, int, error) {
	vals := []string{}
	for i := 1; i < len(toks); i++ {
		switch t := toks[i]; t.kind {
		case tokClose:
			return vals, i + 1, nil
		case tokWord:
			vals = append(vals, strings.ToUpper(t.text))
		case tokQuoted:
			vals = append(vals, t.text)
		case tokOpen:
			return nil, 0, errorf(t.line, "%s: unexpected '(' inside a value; quote values that contain parentheses", what)
		}
	}
	return nil, 0, errorf(toks[0].line, "%s: '(' is not closed", what)
}
