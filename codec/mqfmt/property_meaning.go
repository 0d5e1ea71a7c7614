package mqfmt

import (
	"strconv"
	"time"
)

// maxMillis is 9999-12-31T23:59:59Z: past it a time has no four-digit year.
const maxMillis = 253402300799999

// PropertyMeaning is what a decoder shows beside an RFH2 property of a
// folder's top level: its data type, and for the JMS folder's times (Tms,
// the JMSTimestamp, and Exp, the JMSExpiration: milliseconds since 1970,
// 0 for a message that never expires) the date in GMT too, as no reader
// converts 1446139225436 in their head.
func PropertyMeaning(folder, name, dataType, value string) string {
	if folder != "jms" || (name != "Tms" && name != "Exp") {
		return dataType
	}
	ms, err := strconv.ParseInt(value, 10, 64)
	if err != nil || ms <= 0 || ms > maxMillis {
		return dataType
	}
	date := time.UnixMilli(ms).UTC().Format("2006-01-02 15:04:05.000 GMT")
	if dataType == "" {
		return date
	}
	return dataType + ", " + date
}
