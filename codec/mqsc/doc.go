// Package mqsc reads MQSC command scripts as runmqsc reads them: `*` comment
// lines, blank lines, `+` and `-` continuations, `;` terminators, keywords in any
// case and abbreviated as IBM allows (DEF QL, ALT QMGR), unquoted names folded to
// upper case and quoted names kept exactly (two apostrophes stand for one).
//
// Parse checks the attributes of the objects the embedded queue manager models
// (queues, topics, the queue manager, authority records) against IBM's attribute
// names, abbreviations, value sets and ranges, so a typo fails with its line
// number instead of silently changing nothing. Commands for objects outside the
// model (channels, CHLAUTH, AUTHINFO, listeners, ...) are checked for syntax only
// and handed on; the caller reports them as not modelled.
package mqsc
