package mqfmt

import (
	"fmt"
	"time"
)

// ParsePutTime turns the MQMD's PutDate (YYYYMMDD) and PutTime (HHMMSSTH, in
// hundredths) into a UTC time. Queue managers write both in GMT. Junk fields
// (blanks, NULs — tools that save messages leave them so) are an error, which
// callers show as "not set". So is a date no calendar has (20240230): time.Date
// would quietly make it 1 March, and a put time shown a day off misleads more
// than one shown as not set.
func ParsePutTime(date, tod string) (time.Time, error) {
	t, why := putTime(date, tod)
	switch why {
	case putTimeLength:
		return time.Time{}, fmt.Errorf("PutDate/PutTime %q %q: want 8 digits each", sanitizeShort([]byte(date)), sanitizeShort([]byte(tod)))
	case putTimeDigits:
		return time.Time{}, fmt.Errorf("PutDate/PutTime %q %q: not digits", sanitizeShort([]byte(date)), sanitizeShort([]byte(tod)))
	case putTimeRange:
		return time.Time{}, fmt.Errorf("PutDate/PutTime %s %s: out of range", date, tod)
	case putTimeCalendar:
		return time.Time{}, fmt.Errorf("PutDate %s: not a calendar date", date)
	}
	return t, nil
}

// PutTimeOf is ParsePutTime for callers that show a junk time as not set:
// the zero time, and no error built for each message of a million whose
// fields are blank.
func PutTimeOf(date, tod string) time.Time {
	t, _ := putTime(date, tod)
	return t
}

type putTimeFault int

const (
	putTimeOK putTimeFault = iota
	putTimeLength
	putTimeDigits
	putTimeRange
	putTimeCalendar
)

func putTime(date, tod string) (time.Time, putTimeFault) {
	if len(date) != 8 || len(tod) != 8 {
		return time.Time{}, putTimeLength
	}
	if !allDigits(date) || !allDigits(tod) {
		return time.Time{}, putTimeDigits
	}
	num := func(s string) int {
		n := 0
		for i := 0; i < len(s); i++ {
			n = n*10 + int(s[i]-'0')
		}
		return n
	}
	var v [8]int
	v[0], v[1], v[2] = num(date[:4]), num(date[4:6]), num(date[6:8])
	v[3], v[4], v[5], v[6] = num(tod[:2]), num(tod[2:4]), num(tod[4:6]), num(tod[6:8])
	if v[1] < 1 || v[1] > 12 || v[2] < 1 || v[2] > 31 || v[3] > 23 || v[4] > 59 || v[5] > 59 {
		return time.Time{}, putTimeRange
	}
	t := time.Date(v[0], time.Month(v[1]), v[2], v[3], v[4], v[5], v[6]*10_000_000, time.UTC)
	if t.Day() != v[2] {
		return time.Time{}, putTimeCalendar
	}
	return t, putTimeOK
}

func allDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// FormatPutTime returns the MQMD PutDate and PutTime fields for t (in GMT).
func FormatPutTime(t time.Time) (date, tod string) {
	t = t.UTC()
	return t.Format("20060102"), fmt.Sprintf("%02d%02d%02d%02d", t.Hour(), t.Minute(), t.Second(), t.Nanosecond()/10_000_000)
}
