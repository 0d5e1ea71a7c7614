package mqfmt

import "encoding/binary"

// TM is a trigger message (MQTM, version 1, 684 bytes): what a queue manager
// puts on an initiation queue for a trigger monitor. When the monitor cannot
// start the application it dead-letters the trigger message behind an MQDLH
// (Reason MQFB_APPL_CANNOT_BE_STARTED and friends), which is how a TM reaches
// the dashboard.
type TM struct {
	Version     int32
	QName       string // 48: the queue whose trigger fired
	ProcessName string // 48
	TriggerData string // 64
	ApplType    int32
	ApplId      string // 256: the program the monitor tried to start
	EnvData     string // 128
	UserData    string // 128
	// Length is how many of the structure's bytes were present: TMLen for a
	// whole MQTM, less when DecodeTM returned a partial one. Character fields
	// cut by the end of the data hold what was there; later fields are empty.
	Length int
}

// tmField describes one MQTM field for the partial decoder.
type tmField struct {
	off, n int
	str    *string
	i32    *int32
}

func (t *TM) fields() [8]tmField {
	return [...]tmField{
		{off: 4, n: 4, i32: &t.Version},
		{off: 8, n: 48, str: &t.QName},
		{off: 56, n: 48, str: &t.ProcessName},
		{off: 104, n: 64, str: &t.TriggerData},
		{off: 168, n: 4, i32: &t.ApplType},
		{off: 172, n: 256, str: &t.ApplId},
		{off: 428, n: 128, str: &t.EnvData},
		{off: 556, n: 128, str: &t.UserData},
	}
}

// DecodeTM reads an MQTM at b[off:] in byte order bo. When the data ends inside
// the structure (a dump that shows only the start of a message), it returns
// the fields that were there together with an error wrapping ErrTruncated, so
// the operator still sees which queue and application the trigger named.
func DecodeTM(b []byte, off int, bo binary.ByteOrder) (TM, error) {
	var t TM
	if err := checkHeaderStart("MQTM", b, off, 8, StrucIdTM); err != nil {
		return t, err
	}
	have := min(len(b)-off, TMLen)
	v := newFixedView(b[off:off+have], bo)
	t.Version = int32(bo.Uint32(b[off+4:]))
	if t.Version != 1 {
		return TM{}, versionErr("MQTM", off+4, t.Version, "1")
	}
	t.Length = have
	for _, f := range t.fields() {
		if f.off >= have {
			break
		}
		end := min(f.off+f.n, have)
		switch {
		case f.str != nil:
			*f.str = v.s[f.off:end]
		case end == f.off+f.n:
			*f.i32 = int32(bo.Uint32(v.b[f.off:]))
		}
	}
	if have < TMLen {
		return t, truncErr("MQTM", off, TMLen, have)
	}
	return t, nil
}

// DetectTMOrder tells the byte order of an MQTM at b[off:] that no MQMD
// describes, from its Version.
func DetectTMOrder(b []byte, off int) (binary.ByteOrder, error) {
	return detectOrderByVersion("MQTM", b, off, StrucIdTM, 1)
}

// Complete reports whether every byte of the structure was decoded.
func (t *TM) Complete() bool { return t.Length == TMLen }

// Encode writes the 684-byte MQTM in byte order bo.
func (t *TM) Encode(bo binary.ByteOrder) []byte {
	w := writer{b: make([]byte, 0, TMLen), bo: bo}
	w.str(StrucIdTM, 4)
	w.i32(t.Version)
	w.str(t.QName, 48)
	w.str(t.ProcessName, 48)
	w.str(t.TriggerData, 64)
	w.i32(t.ApplType)
	w.str(t.ApplId, 256)
	w.str(t.EnvData, 128)
	w.str(t.UserData, 128)
	return w.b
}
