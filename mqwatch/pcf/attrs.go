package pcf

import (
	"fmt"

	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
	"github.com/poisonwatch/poisonwatch/mqwatch"
)

// AttrSource is where queue and queue manager attributes come from: a PCF
// reply (DISPLAY QUEUE) or an MQINQ result. One mapping serves both, so the
// port reads the same values whichever call produced them.
type AttrSource interface {
	intAttr(sel int32) (int64, bool)
	strAttr(sel int32) (string, bool) // trimmed as an operator reads it
}

func (m *Message) intAttr(sel int32) (int64, bool) {
	if p := m.find(sel); p != nil && (p.Type == cftInteger || p.Type == cftInteger64) {
		return p.Int, true
	}
	return 0, false
}

func (m *Message) strAttr(sel int32) (string, bool) {
	if p := m.find(sel); p != nil && p.Type == cftString {
		return mqfmt.Trim(p.Str), true
	}
	return "", false
}

func (m *Message) bytesAttr(sel int32) ([]byte, bool) {
	if p := m.find(sel); p != nil && p.Type == cftByteString {
		return p.Bytes, true
	}
	return nil, false
}

// InqAttrs is an MQINQ result as mq-golang returns it: int32 for MQIA_*
// selectors, strings (already trimmed) for MQCA_* selectors.
type InqAttrs map[int32]any

func (a InqAttrs) intAttr(sel int32) (int64, bool) {
	v, ok := a[sel].(int32)
	return int64(v), ok
}

func (a InqAttrs) strAttr(sel int32) (string, bool) {
	v, ok := a[sel].(string)
	return mqfmt.Trim(v), ok
}

// queueAttrSelectors are the attributes DISPLAY QUEUE is asked for: what the
// port's QueueInfo holds. The command server returns only those that apply to
// each queue's type.
var queueAttrSelectors = []int32{
	caQName, iaQType, caQDesc, caBaseObjectName, caRemoteQName, caRemoteQMgrName,
	caXmitQName, iaMaxQDepth, iaMaxMsgLength, iaBackoutThreshold, caBackoutReqQName,
	iaHardenGetBackout, iaInhibitPut, iaInhibitGet, iaDefPersistence, iaDefPriority,
	iaUsage, iaMonitoringQ, iaDefinitionType, iaShareability,
	iaTriggerControl, caInitiationQName, caProcessName, iaTriggerType,
}

// InqSelectors returns the MQINQ selectors valid for a queue of type qtype.
// MQINQ fails the whole call (MQRC_SELECTOR_NOT_FOR_TYPE, and mq-golang then
// returns no values at all) when one selector does not apply, so the type is
// inquired first and the rest chosen by it. MONQ is not inquirable by MQINQ.
func InqSelectors(qtype int64) []int32 {
	common := []int32{caQName, iaQType, caQDesc, iaInhibitPut, iaDefPersistence, iaDefPriority}
	switch qtype {
	case qtLocal, qtModel:
		return append(common, iaInhibitGet, iaMaxQDepth, iaMaxMsgLength, iaBackoutThreshold,
			caBackoutReqQName, iaHardenGetBackout, iaUsage, iaDefinitionType, iaShareability,
			iaTriggerControl, caInitiationQName, caProcessName, iaTriggerType)
	case qtAlias:
		return append(common, iaInhibitGet, caBaseObjectName)
	case qtRemote:
		return append(common, caRemoteQName, caRemoteQMgrName, caXmitQName)
	}
	return common
}

// QueueInfoFrom maps queue attributes to the port's QueueInfo.
func QueueInfoFrom(src AttrSource) (mqwatch.QueueInfo, error) {
	var q mqwatch.QueueInfo
	name, ok := src.strAttr(caQName)
	if !ok || name == "" {
		return q, fmt.Errorf("queue attributes without a queue name (MQCA_Q_NAME)")
	}
	qt, ok := src.intAttr(iaQType)
	if !ok {
		return q, fmt.Errorf("queue %s: no queue type (MQIA_Q_TYPE)", name)
	}
	q.Name = name
	if q.Type, ok = queueType(qt); !ok {
		return q, fmt.Errorf("queue %s: queue type %d is not one MQ defines", name, qt)
	}
	str := func(sel int32) string { v, _ := src.strAttr(sel); return v }
	num := func(sel int32) int64 { v, _ := src.intAttr(sel); return v }
	q.Description = str(caQDesc)
	q.Target = str(caBaseObjectName)
	q.RemoteName, q.RemoteQMgr, q.XmitQ = str(caRemoteQName), str(caRemoteQMgrName), str(caXmitQName)
	q.MaxDepth, q.MaxMsgLen = int32(num(iaMaxQDepth)), int32(num(iaMaxMsgLength))
	q.BackoutThresh, q.BackoutQName = int32(num(iaBackoutThreshold)), str(caBackoutReqQName)
	q.HardenBackout = num(iaHardenGetBackout) == qaBackoutHardened
	q.InhibitPut = num(iaInhibitPut) == qaPutInhibited
	q.InhibitGet = num(iaInhibitGet) == qaGetInhibited
	q.DefPersistent = num(iaDefPersistence) == perPersistent
	q.DefPriority = int32(num(iaDefPriority))
	if num(iaUsage) == usTransmission {
		q.Usage = mqwatch.UsageXmitQ
	}
	if monq, ok := src.intAttr(iaMonitoringQ); ok {
		q.Monitoring = monitoring(monq)
	}
	q.DefType = defType(num(iaDefinitionType))
	q.Shareable = num(iaShareability) == qaShareable
	q.Trigger = num(iaTriggerControl) == 1
	q.InitQ, q.Process = str(caInitiationQName), str(caProcessName)
	if tt, ok := src.intAttr(iaTriggerType); ok {
		q.TriggerType = TriggerTypeName(int32(tt))
	}
	return q, nil
}

func queueType(qt int64) (mqwatch.QueueType, bool) {
	switch qt {
	case qtLocal:
		return mqwatch.QLocal, true
	case qtModel:
		return mqwatch.QModel, true
	case qtAlias:
		return mqwatch.QAlias, true
	case qtRemote:
		return mqwatch.QRemote, true
	case qtCluster:
		return mqwatch.QCluster, true
	}
	return 0, false
}

// monitoring maps MONQ. An absent value (alias, remote, MQINQ) is not mapped
// at all: it leaves MonQMgr, the port's zero value, rather than MQMON_OFF (0).
func monitoring(v int64) mqwatch.Monitoring {
	switch v {
	case monOff:
		return mqwatch.MonOff
	case monLow:
		return mqwatch.MonLow
	case monMedium:
		return mqwatch.MonMedium
	case monHigh:
		return mqwatch.MonHigh
	}
	return mqwatch.MonQMgr
}

// defType maps DEFTYPE. SHAREDYN (z/OS shared dynamic) outlives its creator
// like a permanent dynamic queue, which is what the port's value means.
func defType(v int64) mqwatch.DefType {
	switch v {
	case qdtPermanentDynamic, qdtSharedDynamic:
		return mqwatch.PermanentDynamic
	case qdtTemporaryDynamic:
		return mqwatch.TemporaryDynamic
	}
	return mqwatch.Predefined
}

// QMgrSelectors are inquired with MQINQ on the queue manager object.
var QMgrSelectors = []int32{caQMgrName, caDeadLetterQName, iaMaxMsgLength, iaCommandLevel, iaPlatform}

func QMgrInfoFrom(src AttrSource) (mqwatch.QMgrInfo, error) {
	var qi mqwatch.QMgrInfo
	name, ok := src.strAttr(caQMgrName)
	if !ok || name == "" {
		return qi, fmt.Errorf("queue manager attributes without a name (MQCA_Q_MGR_NAME)")
	}
	qi.Name = name
	qi.DeadQ, _ = src.strAttr(caDeadLetterQName)
	ml, _ := src.intAttr(iaMaxMsgLength)
	cl, _ := src.intAttr(iaCommandLevel)
	pl, _ := src.intAttr(iaPlatform)
	qi.MaxMsgLen, qi.CommandLevel, qi.Platform = int32(ml), int32(cl), platformName(pl)
	return qi, nil
}

// platformName names MQIA_PLATFORM as DISPLAY QMGR PLATFORM shows it.
func platformName(p int64) string {
	switch p {
	case plZOS:
		return "ZOS"
	case plOS2:
		return "OS2"
	case plUnix:
		return "UNIX"
	case plOS400:
		return "IBMI"
	case plWindows:
		return "WINDOWS"
	case plWindowsNT:
		return "WINDOWSNT"
	case plVMS:
		return "VMS"
	case plNSK:
		return "NSK"
	case plOpenTP1:
		return "OPENTP1"
	case plVM:
		return "VM"
	case plTPF:
		return "TPF"
	case plVSE:
		return "VSE"
	case plAppliance:
		return "APPLIANCE"
	}
	return fmt.Sprintf("PLATFORM(%d)", p)
}

// DefTypeSelectors inquire a queue's definition type with MQINQ: how the
// backend tells a temporary dynamic reply queue from a permanent one.
var DefTypeSelectors = []int32{iaDefinitionType}

// DefTypeOf reads the definition type from an MQINQ or PCF answer.
func DefTypeOf(src AttrSource) mqwatch.DefType {
	v, _ := src.intAttr(iaDefinitionType)
	return defType(v)
}

// SelQType is the MQINQ selector of a queue's type (MQIA_Q_TYPE), inquired
// first because the other selectors depend on it (InqSelectors).
const SelQType = iaQType

// QTypeOf reads the queue type (MQIA_Q_TYPE) from an MQINQ or PCF answer.
func QTypeOf(src AttrSource) int64 {
	v, _ := src.intAttr(iaQType)
	return v
}

// num and str read an attribute that may be absent as its zero value.
func (m *Message) num(sel int32) int64 { v, _ := m.intAttr(sel); return v }

func (m *Message) str(sel int32) string { v, _ := m.strAttr(sel); return v }
