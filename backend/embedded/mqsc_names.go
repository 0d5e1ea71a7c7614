package embedded

import (
	"fmt"
	"strings"
	"unicode"

	"github.com/poisonwatch/poisonwatch/codec/mqsc"
)

// nameLimits are IBM MQ's name length limits per object type; the names
// use A-Z a-z 0-9 . / _ % only ("Rules for naming IBM MQ objects").
var nameLimits = map[string]int{
	"QLOCAL": 48, "QALIAS": 48, "QREMOTE": 48, "QMODEL": 48, "QUEUE": 48, "PROCESS": 48, "NAMELIST": 48,
	"TOPIC": 48, "AUTHINFO": 48, "LISTENER": 48, "SERVICE": 48, "COMMINFO": 48, "CHANNEL": 20,
	"STGCLASS": 8, "CFSTRUCT": 12,
}

// nameParams are attributes whose value is an object name of that length.
var nameParams = map[string]int{
	"BOQNAME": 48, "TARGET": 48, "RNAME": 48, "RQMNAME": 48, "XMITQ": 48, "DEADQ": 48, "INITQ": 48,
	"PROCESS": 48, "MDURMDL": 48, "MNDURMDL": 48, "DEFXMITQ": 48,
}

// checkCommandNames refuses a command whose object name, or an attribute
// naming an object, breaks IBM's naming rules, and any value with a control
// or formatting character: names and descriptions are shown on terminals.
func checkCommandNames(c *mqsc.Command) (Result, bool) {
	if c.HasName {
		if max, ok := nameLimits[c.Object]; ok {
			if err := checkObjectName(c.Name, max, c.Verb == "DISPLAY"); err != nil {
				return failed("AMQ8424E: Error detected in a name keyword: %s name %s.", c.Object, err), true
			}
		} else if err := checkPrintableValue(c.Name); err != nil {
			return failed("AMQ8424E: Error detected in a name keyword: %s name %s.", c.Object, err), true
		}
	}
	for _, p := range c.Params {
		for _, v := range p.Values {
			err := checkPrintableValue(v)
			// MQ pads names with blanks: RNAME(' ') is a blank name (a queue
			// manager alias), not a name with a bad character.
			if max, ok := nameParams[p.Key]; ok && err == nil && strings.TrimRight(v, " ") != "" && c.Verb != "DISPLAY" {
				err = checkObjectName(strings.TrimRight(v, " "), max, false)
			}
			if err != nil {
				return failed("AMQ8424E: Error detected in a name keyword: %s: %s.", p.Key, err), true
			}
		}
	}
	return Result{}, false
}

// checkObjectName checks an object name; generic names (a trailing '*') are
// allowed where DISPLAY takes them.
func checkObjectName(n string, max int, generic bool) error {
	if generic && strings.HasSuffix(n, "*") {
		n = strings.TrimSuffix(n, "*")
		if n == "" {
			return nil
		}
	}
	if n == "" || len(n) > max {
		return fmt.Errorf("%s is not valid: want 1 to %d characters", quoteName(n), max)
	}
	for i := 0; i < len(n); i++ {
		c := n[i]
		if !(c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || strings.IndexByte("./_%", c) >= 0) {
			return fmt.Errorf("%s is not valid: character %d is not one of A-Z a-z 0-9 . / _ %%", quoteName(n), i+1)
		}
	}
	return nil
}

// checkPrintableValue refuses values with non-graphic characters.
func checkPrintableValue(v string) error {
	if i := strings.IndexFunc(v, func(r rune) bool { return !unicode.IsGraphic(r) || r == unicode.ReplacementChar }); i >= 0 {
		return fmt.Errorf("%s is not valid: a control or formatting character at byte %d", quoteName(v), i+1)
	}
	return nil
}

// quoteName shows a name safely in a message: Go-quoted, so controls are
// escaped, and cut to 60 bytes.
func quoteName(n string) string {
	if len(n) > 60 {
		n = n[:60]
	}
	return fmt.Sprintf("%q", n)
}
