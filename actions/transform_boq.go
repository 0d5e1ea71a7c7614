package actions

import (
	"encoding/binary"
	"errors"
	"fmt"
	"time"

	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
)

// MQEI_UNLIMITED: the message never expires.
const expiryUnlimited = -1

// ErrExpiry is wrapped when a descriptor's Expiry cannot be put again: IBM
// returns only values > 0 or MQEI_UNLIMITED from MQGET, and MQPUT rejects
// anything else with MQRC_EXPIRY_ERROR.
var ErrExpiry = errors.New("expiry must be > 0 tenths of a second or -1 (unlimited)")

// ToBackoutQueue returns the descriptor and data an IBM MQ classes for JMS
// consumer puts to the backout queue (R5). md must be the descriptor as MQGET
// returned it: its Expiry is then the lifetime that remained when the message
// was received, which is what R5a keeps (IBM: "When the message is retrieved
// by an application using the MQGET call, the Expiry field represents the
// amount of the original expiry time that still remains").
//
//   - R5a: the message has an MQRFH2 somewhere in its header chain: the data
//     is unchanged; BackoutCount becomes 0.
//   - R5b: it has none: an MQRFH2 (no folders) is put in front whose
//     Encoding, CodedCharSetId and Format are the message's original ones;
//     the MQMD says Format MQHRF2, CodedCharSetId 1208, Encoding 273, and the
//     new header's integers are big-endian because Encoding 273 says so.
//
// Every other MQMD field, the context included, is kept: the consumer puts
// with MQPMO_PASS_ALL_CONTEXT (R7b). The data is never modified in place.
func ToBackoutQueue(md mqfmt.MQMD, data []byte) (mqfmt.MQMD, []byte, error) {
	if err := checkExpiry(md.Expiry); err != nil {
		return md, nil, fmt.Errorf("to backout queue: %w", err)
	}
	md.BackoutCount = 0
	if hasRFH2(&md, data) {
		return md, data, nil
	}
	rfh := mqfmt.NewRFH2(md.Encoding, md.CodedCharSetId, md.Format)
	out := make([]byte, 0, mqfmt.RFH2FixedLen+len(data))
	out, err := rfh.AppendEncode(out, binary.BigEndian)
	if err != nil {
		return md, nil, fmt.Errorf("to backout queue: add MQRFH2: %w", err)
	}
	out = append(out, data...)
	md.Format = mqfmt.FmtRFH2
	md.CodedCharSetId = mqfmt.CCSIDUTF8
	md.Encoding = mqfmt.EncodingNormal
	return md, out, nil
}

// hasRFH2 decides between R5a and R5b. A chain that breaks before any RFH2 is
// still "no RFH2": R5b's header describes the data by the MQMD's own Format,
// Encoding and CCSID, which stay true of those bytes however malformed they
// are, and a poison message is often malformed. A chain that breaks where an
// RFH2 was announced has one, and R5a leaves the data untouched.
func hasRFH2(md *mqfmt.MQMD, data []byte) bool {
	if md.Format == mqfmt.FmtRFH2 {
		return true
	}
	c, err := mqfmt.WalkChain(md.Format, md.Encoding, md.CodedCharSetId, data)
	if c.Header(mqfmt.KindRFH2) != nil {
		return true
	}
	return err != nil && c.Body.Format == mqfmt.FmtRFH2
}

func checkExpiry(e int32) error {
	if e == expiryUnlimited || e > 0 {
		return nil
	}
	return fmt.Errorf("MQMD Expiry %d: %w", e, ErrExpiry)
}

// RemainingExpiry returns what is left of an Expiry (tenths of a second) after
// elapsed, as a queue manager decrements it; false when nothing is left (the
// message has expired and MQGET would not return it). MQEI_UNLIMITED stays.
func RemainingExpiry(expiry int32, elapsed time.Duration) (int32, bool) {
	if expiry == expiryUnlimited {
		return expiryUnlimited, true
	}
	if expiry <= 0 {
		return 0, false
	}
	tenths := elapsed / (100 * time.Millisecond)
	if elapsed < 0 {
		tenths = 0
	}
	if tenths >= time.Duration(expiry) {
		return 0, false
	}
	return expiry - int32(tenths), true
}

// mqDateTime formats t as the MQ PutDate (YYYYMMDD) and PutTime (HHMMSSTH:
// hours, minutes, seconds, tenths, hundredths) in GMT.
func mqDateTime(t time.Time) (string, string) {
	t = t.UTC()
	hundredths := t.Nanosecond() / 10_000_000
	return t.Format("20060102"), fmt.Sprintf("%s%02d", t.Format("150405"), hundredths)
}

// nowOr returns t, or the wall clock when t is zero, so that callers can fix
// the time stamped into headers (tests, replays) or leave it to the clock.
func nowOr(t time.Time) time.Time {
	if t.IsZero() {
		return time.Now()
	}
	return t
}
