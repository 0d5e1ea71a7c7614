package conformance

import (
	"encoding/binary"
	"errors"
	"fmt"

	"github.com/poisonwatch/poisonwatch/mqwatch/mqfmt"
)

// MQXQH layout (IBM MQ "MQXQH - Transmission-queue header"): StrucId, Version,
// RemoteQName (48), RemoteQMgrName (48), then the original message descriptor
// as a version-1 MQMD (324 bytes).
const (
	xqhLen       = 428
	xqhMDOffset  = 104
	xqhStrucID   = "XQH "
	xqhVersion1  = 1
	nameFieldLen = 48
)

// xqh is the part of a transmission-queue header the suite checks. The suite
// decodes it itself so that it judges a backend without trusting the codec
// that backend may use.
type xqh struct {
	RemoteQName    string // trimmed
	RemoteQMgrName string // trimmed
	MD             mqfmt.MQMD
}

// decodeXQH reads an MQXQH from the start of b in byte order bo. Errors are
// *mqfmt.DecodeError with the offset of the offending field.
func decodeXQH(b []byte, bo binary.ByteOrder) (xqh, error) {
	var h xqh
	if len(b) < xqhLen {
		return h, &mqfmt.DecodeError{Struct: "MQXQH", Offset: len(b), Err: mqfmt.ErrTruncated,
			Msg: fmt.Sprintf("truncated: needs %d bytes, %d remain", xqhLen, len(b))}
	}
	if string(b[:4]) != xqhStrucID {
		return h, &mqfmt.DecodeError{Struct: "MQXQH", Offset: 0, Msg: fmt.Sprintf("StrucId %q, want %q", printable(b[:4]), xqhStrucID)}
	}
	if v := int32(bo.Uint32(b[4:])); v != xqhVersion1 {
		return h, &mqfmt.DecodeError{Struct: "MQXQH", Offset: 4, Msg: fmt.Sprintf("Version %d, want 1", v)}
	}
	h.RemoteQName = mqfmt.Trim(string(b[8 : 8+nameFieldLen]))
	h.RemoteQMgrName = mqfmt.Trim(string(b[56 : 56+nameFieldLen]))
	// The embedded MQMD is version 1; DecodeMQMD reads the version-2 layout,
	// so the version-2 fields are supplied as zeros.
	var md [mqfmt.MQMDLenV2]byte
	copy(md[:], b[xqhMDOffset:xqhLen])
	d, err := mqfmt.DecodeMQMD(md[:], bo)
	if err != nil {
		var de *mqfmt.DecodeError
		if errors.As(err, &de) {
			de.Offset += xqhMDOffset
			de.Struct = "MQXQH.MsgDesc"
		}
		return h, err
	}
	h.MD = d
	return h, nil
}

// printable renders raw bytes for an error message without control characters.
func printable(b []byte) string {
	out := make([]byte, 0, len(b))
	for _, c := range b {
		if c < 0x20 || c >= 0x7f {
			c = '.'
		}
		out = append(out, c)
	}
	return string(out)
}
