package mqfmt

// qfKind is how a field is written: a decimal number, characters, or hex bytes.
type qfKind int

const (
	qfLong qfKind = iota + 1
	qfChar
	qfByte
	qfIgnore // amqsbcg's StrucId: printed, but not a settable field
)

// qloadField describes one MQMD field as qload names it. The same table drives
// the writer (in order), the A-line reader (by key) and the amqsbcg reader (by
// name), as qload's Flds table does.
type qloadField struct {
	key  string // three-letter code of the A line
	name string // MQMD field name, as amqsbcg prints it
	kind qfKind
	size int  // bytes of a char or byte field
	v2   bool // only in a version-2 MQMD
	// alt names the other form of the same field (AID/AIX, AOD/AOX), which the
	// writer chooses between with -dc.
	alt string

	long    func(*MQMD) *int32
	getChar func(*MQMD) string
	setChar func(*MQMD, string)
	getByte func(*MQMD) []byte // may alias the MQMD: read or fill, do not keep
	setByte func(*MQMD, []byte)
}

func longField(key, name string, v2 bool, p func(*MQMD) *int32) qloadField {
	return qloadField{key: key, name: name, kind: qfLong, v2: v2, long: p}
}

func charField(key, name string, size int, p func(*MQMD) *string) qloadField {
	return qloadField{key: key, name: name, kind: qfChar, size: size,
		getChar: func(md *MQMD) string { return *p(md) },
		setChar: func(md *MQMD, s string) { *p(md) = s }}
}

func arrayField(key, name string, v2 bool, p func(*MQMD) []byte) qloadField {
	return qloadField{key: key, name: name, kind: qfByte, size: len(p(&MQMD{})), v2: v2,
		getByte: p,
		setByte: func(md *MQMD, b []byte) { copy(p(md), b) }}
}

// hexCharField is the hex form (AIX, AOX) of a character field: the bytes of the
// blank-padded field, so that binary identity data survives the text file.
func hexCharField(key, name string, size int, p func(*MQMD) *string) qloadField {
	return qloadField{key: key, name: name, kind: qfByte, size: size,
		getByte: func(md *MQMD) []byte { return []byte(padField(*p(md), size)) },
		setByte: func(md *MQMD, b []byte) { *p(md) = string(b) }}
}

// qloadFields lists the MQMD in the order qload writes it. AID precedes AIX and
// AOD precedes AOX so that a lookup by amqsbcg name finds the character form,
// as qload's does.
var qloadFields = []qloadField{
	longField("VER", "Version", false, func(m *MQMD) *int32 { return &m.Version }),
	longField("RPT", "Report", false, func(m *MQMD) *int32 { return &m.Report }),
	longField("MST", "MsgType", false, func(m *MQMD) *int32 { return &m.MsgType }),
	longField("EXP", "Expiry", false, func(m *MQMD) *int32 { return &m.Expiry }),
	longField("FDB", "Feedback", false, func(m *MQMD) *int32 { return &m.Feedback }),
	longField("ENC", "Encoding", false, func(m *MQMD) *int32 { return (*int32)(&m.Encoding) }),
	longField("CCS", "CodedCharSetId", false, func(m *MQMD) *int32 { return &m.CodedCharSetId }),
	charField("FMT", "Format", 8, func(m *MQMD) *string { return &m.Format }),
	longField("PRI", "Priority", false, func(m *MQMD) *int32 { return &m.Priority }),
	longField("PER", "Persistence", false, func(m *MQMD) *int32 { return &m.Persistence }),
	arrayField("MSI", "MsgId", false, func(m *MQMD) []byte { return m.MsgId[:] }),
	arrayField("COI", "CorrelId", false, func(m *MQMD) []byte { return m.CorrelId[:] }),
	longField("BOC", "BackoutCount", false, func(m *MQMD) *int32 { return &m.BackoutCount }),
	charField("RTQ", "ReplyToQ", 48, func(m *MQMD) *string { return &m.ReplyToQ }),
	charField("RTM", "ReplyToQMgr", 48, func(m *MQMD) *string { return &m.ReplyToQMgr }),
	charField("USR", "UserIdentifier", 12, func(m *MQMD) *string { return &m.UserIdentifier }),
	arrayField("ACC", "AccountingToken", false, func(m *MQMD) []byte { return m.AccountingToken[:] }),
	withAlt(charField("AID", "ApplIdentityData", 32, func(m *MQMD) *string { return &m.ApplIdentityData }), "AIX"),
	withAlt(hexCharField("AIX", "ApplIdentityData", 32, func(m *MQMD) *string { return &m.ApplIdentityData }), "AID"),
	longField("PAT", "PutApplType", false, func(m *MQMD) *int32 { return &m.PutApplType }),
	charField("PAN", "PutApplName", 28, func(m *MQMD) *string { return &m.PutApplName }),
	charField("PTD", "PutDate", 8, func(m *MQMD) *string { return &m.PutDate }),
	charField("PTT", "PutTime", 8, func(m *MQMD) *string { return &m.PutTime }),
	withAlt(charField("AOD", "ApplOriginData", 4, func(m *MQMD) *string { return &m.ApplOriginData }), "AOX"),
	withAlt(hexCharField("AOX", "ApplOriginData", 4, func(m *MQMD) *string { return &m.ApplOriginData }), "AOD"),
	{name: "StrucId", kind: qfIgnore, size: 4},
	arrayField("GRP", "GroupId", true, func(m *MQMD) []byte { return m.GroupId[:] }),
	longField("MSQ", "MsgSeqNumber", true, func(m *MQMD) *int32 { return &m.MsgSeqNumber }),
	longField("OFF", "Offset", true, func(m *MQMD) *int32 { return &m.Offset }),
	longField("MSF", "MsgFlags", true, func(m *MQMD) *int32 { return &m.MsgFlags }),
	longField("ORL", "OriginalLength", true, func(m *MQMD) *int32 { return &m.OriginalLength }),
}

func withAlt(f qloadField, alt string) qloadField {
	f.alt = alt
	return f
}

// qloadByKey and qloadByName index qloadFields for the two readers.
var qloadByKey, qloadByName = indexQLoadFields()

func indexQLoadFields() (map[string]*qloadField, map[string]*qloadField) {
	byKey := make(map[string]*qloadField, len(qloadFields))
	byName := make(map[string]*qloadField, len(qloadFields))
	for i := range qloadFields {
		f := &qloadFields[i]
		if f.key != "" {
			byKey[f.key] = f
		}
		if _, dup := byName[f.name]; !dup {
			byName[f.name] = f
		}
	}
	return byKey, byName
}
