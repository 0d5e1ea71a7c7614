package pcf

import (
	"bytes"
	"encoding/hex"
	"fmt"
	"strings"
	"time"

	"github.com/poisonwatch/poisonwatch/mqwatch"
)

// handleSelectors are the DISPLAY QSTATUS TYPE(HANDLE) fields the port needs,
// all of them documented response parameters of MQCMD_INQUIRE_Q_STATUS with
// StatusType MQIACF_Q_HANDLE (QName is always returned). The connection id
// is not among them: it belongs to MQCMD_INQUIRE_CONNECTION. The open
// options are asked for as the MQOO_* word (OpenOptions), which every level
// reports, rather than as OpenInputType/OpenOutput/OpenBrowse/OpenInquire.
var handleSelectors = []int32{
	cacfApplTag, iaApplType, cacfUserID, cachChannelName, cachConnName,
	iacfProcessID, iacfThreadID, iacfOpenOptions, bacfQMgrUOWID,
}

// connectionSelectors are the DISPLAY CONN TYPE(CONN) fields that identify a
// connection's handles and its unit of work.
var connectionSelectors = []int32{
	bacfConnectionID, cacfApplTag, cacfUserID, cachChannelName, cachConnName,
	iacfProcessID, iacfThreadID, bacfQMgrUOWID, cacfUOWStartDate, cacfUOWStartTime,
}

func inquireHandlesParams(queue string) []Param {
	return []Param{
		Str(caQName, queue),
		Int(iacfQStatusType, iacfQHandle),
		IntList(iacfQStatusAttrs, handleSelectors...),
	}
}

// inquireConnectionsParams asks for every connection (a generic connection
// id: 24 zero bytes) with TYPE(CONN).
func inquireConnectionsParams() []Param {
	return []Param{
		ByteStr(bacfGenericConnectionID, make([]byte, genericConnectionIDLength)),
		Int(iacfConnInfoType, iacfConnInfoConn),
		IntList(iacfConnectionAttrs, connectionSelectors...),
	}
}

// Connection is one connection as DISPLAY CONN TYPE(CONN) reports it, with
// the fields that tie it to its handles.
type Connection struct {
	ID       string // CONN, hexadecimal
	ApplTag  string
	User     string
	Channel  string
	ConnName string
	PID      int
	TID      int
	UOWID    []byte // QMURID; all zeros when no unit of work is active
	UOWStart time.Time
}

// handleRow is a handle with the fields only used to find its connection.
type handleRow struct {
	mqwatch.Handle
	tid   int
	uowID []byte
}

// handleFrom maps one DISPLAY QSTATUS TYPE(HANDLE) reply. A unit of work is
// active when the queue manager's unit-of-work id (QMURID) is not all zeros;
// the open options come from the MQOO_* word.
func handleFrom(m *Message) (handleRow, error) {
	var h handleRow
	name, ok := m.strAttr(caQName)
	if !ok || name == "" {
		return h, fmt.Errorf("handle status without a queue name (MQCA_Q_NAME)")
	}
	h.Queue = name
	h.ApplTag, h.User = m.str(cacfApplTag), m.str(cacfUserID)
	h.ApplType = int32(m.num(iaApplType))
	h.Channel, h.ConnName = m.str(cachChannelName), m.str(cachConnName)
	h.PID, h.tid = int(m.num(iacfProcessID)), int(m.num(iacfThreadID))
	oo := m.num(iacfOpenOptions)
	h.Input = oo&(ooInputAsQDef|ooInputShared|ooInputExcl) != 0
	h.Output, h.Browse, h.Inquire = oo&ooOutput != 0, oo&ooBrowse != 0, oo&ooInquire != 0
	if uow, ok := m.bytesAttr(bacfQMgrUOWID); ok {
		h.uowID = uow
		h.UOW = !allZero(uow)
	}
	return h, nil
}

// connectionFrom maps one DISPLAY CONN TYPE(CONN) reply. loc is the zone of
// the UOW start date and time.
func connectionFrom(m *Message, loc *time.Location) (Connection, bool) {
	var c Connection
	id, ok := m.bytesAttr(bacfConnectionID)
	if !ok {
		return c, false
	}
	c.ID = strings.ToUpper(hex.EncodeToString(id))
	c.ApplTag, c.User = m.str(cacfApplTag), m.str(cacfUserID)
	c.Channel, c.ConnName = m.str(cachChannelName), m.str(cachConnName)
	c.PID, c.TID = int(m.num(iacfProcessID)), int(m.num(iacfThreadID))
	c.UOWID, _ = m.bytesAttr(bacfQMgrUOWID)
	if !allZero(c.UOWID) {
		c.UOWStart, _ = statusTime(m.str(cacfUOWStartDate), m.str(cacfUOWStartTime), loc)
	}
	return c, true
}

// owns reports whether connection c can be the one that opened handle h:
// the same application, user, channel, process, thread and unit of work.
func (c *Connection) owns(h *handleRow) bool {
	return c.ApplTag == h.ApplTag && c.User == h.User && c.Channel == h.Channel &&
		c.ConnName == h.ConnName && c.PID == h.PID && c.TID == h.tid &&
		bytes.Equal(trimZero(c.UOWID), trimZero(h.uowID))
}

// attachConnections fills ConnID and UOWStart of each handle owned by exactly
// one of conns. Client connections served by one channel process can share
// process and thread; such a handle keeps its fields unknown rather than
// borrow another connection's.
func attachConnections(hs []handleRow, conns []Connection) {
	for i := range hs {
		var found *Connection
		n := 0
		for j := range conns {
			if conns[j].owns(&hs[i]) {
				found, n = &conns[j], n+1
			}
		}
		if n == 1 {
			hs[i].ConnID, hs[i].UOWStart = found.ID, found.UOWStart
		}
	}
}

func allZero(b []byte) bool {
	for _, c := range b {
		if c != 0 {
			return false
		}
	}
	return true
}

// trimZero makes an absent and an all-zero unit-of-work id compare equal.
func trimZero(b []byte) []byte {
	if allZero(b) {
		return nil
	}
	return b
}
