package pcf

import (
	"fmt"
	"strings"
	"time"

	"github.com/poisonwatch/poisonwatch/mqwatch"
)

// queueStatusSelectors are the DISPLAY QSTATUS TYPE(QUEUE) figures the port needs.
var queueStatusSelectors = []int32{
	caQName, iaCurrentQDepth, iaOpenInputCount, iaOpenOutputCount, iacfUncommitted,
	iacfOldestMsgAge, cacfLastPutDate, cacfLastPutTime, cacfLastGetDate, cacfLastGetTime,
	iaMonitoringQ,
}

func inquireQueueParams(pattern string) []Param {
	return []Param{Str(caQName, pattern), IntList(iacfQAttrs, queueAttrSelectors...)}
}

func inquireQueueStatusParams(pattern string) []Param {
	return []Param{
		Str(caQName, pattern),
		Int(iacfQStatusType, iacfQStatus),
		IntList(iacfQStatusAttrs, queueStatusSelectors...),
	}
}

// queueStatusFrom maps one DISPLAY QSTATUS TYPE(QUEUE) reply. loc is the zone
// the queue manager keeps LPUT/LGET times in (they carry none).
//
// The monitoring figures (MSGAGE, LPUT*, LGET*) exist only while queue
// monitoring is on: IBM then reports MSGAGE -1 and blank times, which must
// read as "unknown", never as "0 seconds old" or "never". Monitored is taken
// from the effective MONQ the reply carries, or from MSGAGE when it has none.
// UNCOM is a count on distributed queue managers and YES/NO (1/0) on z/OS.
func queueStatusFrom(m *Message, loc *time.Location) (mqwatch.QueueStatus, error) {
	var s mqwatch.QueueStatus
	name, ok := m.strAttr(caQName)
	if !ok || name == "" {
		return s, fmt.Errorf("queue status without a queue name (MQCA_Q_NAME)")
	}
	s.Name = name
	s.Depth = int32(m.num(iaCurrentQDepth))
	s.OpenInput, s.OpenOutput = int32(m.num(iaOpenInputCount)), int32(m.num(iaOpenOutputCount))
	s.Uncommitted = int32(m.num(iacfUncommitted))
	age, hasAge := m.intAttr(iacfOldestMsgAge)
	if monq, ok := m.intAttr(iaMonitoringQ); ok && monq != monQMgr {
		s.Monitored = monq != monOff && monq != monNotAvailable
	} else {
		s.Monitored = hasAge && age != monNotAvailable
	}
	if !s.Monitored {
		return s, nil
	}
	if hasAge && age > 0 && s.Depth > 0 {
		s.OldestAge = time.Duration(age) * time.Second
	}
	s.LastPut, _ = statusTime(m.str(cacfLastPutDate), m.str(cacfLastPutTime), loc)
	s.LastGet, _ = statusTime(m.str(cacfLastGetDate), m.str(cacfLastGetTime), loc)
	return s, nil
}

// statusTime reads LPUTDATE/LPUTTIME or LGETDATE/LGETTIME: "yyyy-mm-dd" and
// "hh.mm.ss" (some levels write "hh:mm:ss") in the queue manager's local time.
// Blank (no put or get since the queue manager started or monitoring was
// switched on) or unreadable values give the zero time and false.
func statusTime(date, clock string, loc *time.Location) (time.Time, bool) {
	if len(date) != 10 || len(clock) != 8 {
		return time.Time{}, false
	}
	if loc == nil {
		loc = time.Local
	}
	clock = strings.ReplaceAll(clock, ":", ".")
	t, err := time.ParseInLocation("2006-01-02 15.04.05", date+" "+clock, loc)
	if err != nil {
		return time.Time{}, false
	}
	return t, true
}
