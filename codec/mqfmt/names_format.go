package mqfmt

import "strings"

// FormatName returns IBM's MQFMT_* name of an MQMD or header Format field,
// e.g. "MQHRF2  " gives "MQFMT_RF_HEADER_2", and "" when the format is not one
// IBM defines (an application's own format name). Only trailing blanks are
// ignored, as the queue manager compares all eight bytes: "MQSTR\x00\x00\x00"
// is not MQFMT_STRING, it will not be converted, and showing it as such would
// hide exactly the fault an operator is looking for. The result never echoes
// the input, so it is safe to print.
func FormatName(format string) string {
	v := strings.TrimRight(format, " ")
	if len(v) > 8 {
		return ""
	}
	for _, f := range mqfmtNames {
		if f.v == v {
			return f.name
		}
	}
	return ""
}

// FormatMeaning says what a Format value announces about the data that
// follows. An application-defined format gets a line saying so.
func FormatMeaning(format string) string {
	if n := FormatName(format); n != "" {
		return mqfmtMeaning[n]
	}
	return "an application-defined format: the queue manager converts it only through a data-conversion exit of that name"
}

var mqfmtMeaning = map[string]string{
	"MQFMT_NONE":               "no format name: the data is opaque to MQ and never converted",
	"MQFMT_ADMIN":              "a PCF command or response for the command server",
	"MQFMT_AMQP":               "a message from an AMQP channel",
	"MQFMT_CHANNEL_COMPLETED":  "a channel-completed notification",
	"MQFMT_CICS":               "the data starts with a CICS bridge header (MQCIH)",
	"MQFMT_COMMAND_1":          "a command-server reply holding the object count, completion and reason code",
	"MQFMT_COMMAND_2":          "a command-server reply holding information about the objects requested",
	"MQFMT_DEAD_LETTER_HEADER": "the data starts with a dead-letter header (MQDLH)",
	"MQFMT_DIST_HEADER":        "the data starts with a distribution-list header (MQDH)",
	"MQFMT_EMBEDDED_PCF":       "the data starts with an embedded PCF header (MQEPH)",
	"MQFMT_EVENT":              "an MQ event message in PCF format",
	"MQFMT_IMS":                "the data starts with an IMS information header (MQIIH)",
	"MQFMT_IMS_VAR_STRING":     "an IMS variable string (segments with LLZZ prefixes)",
	"MQFMT_MD_EXTENSION":       "the data starts with a message descriptor extension (MQMDE)",
	"MQFMT_PCF":                "user-defined PCF data",
	"MQFMT_REF_MSG_HEADER":     "the data starts with a reference message header (MQRMH)",
	"MQFMT_RF_HEADER_1":        "the data starts with a version-1 rules and formatting header (MQRFH); MQFMT_RF_HEADER is the same value",
	"MQFMT_RF_HEADER_2":        "the data starts with an MQRFH2 header (JMS and user properties)",
	"MQFMT_STRING":             "character data in the message's CCSID, converted on request",
	"MQFMT_TRIGGER":            "a trigger message (MQTM) for a trigger monitor",
	"MQFMT_WORK_INFO_HEADER":   "the data starts with a work information header (MQWIH)",
	"MQFMT_XMIT_Q_HEADER":      "the data starts with a transmission queue header (MQXQH): a message in transit on a transmission queue",
}
