package mqfmt

import "encoding/binary"

// Saved is a message read from a file of raw bytes: an MQMD followed by the
// message data (as "save with MQMD" tools write it), or the message data alone
// starting with a header, or a bare body.
type Saved struct {
	MD      *MQMD            // nil when the file starts without an MQMD
	MDOrder binary.ByteOrder // byte order of the MQMD's integers; nil without one
	// MDLength is how many bytes the MQMD occupies: 364, or 324 for a
	// version-1 descriptor written in the version-1 layout.
	MDLength int
	// Chain holds the headers and body; its offsets are absolute in the
	// file, so with an MQMD the first header starts at MDLength.
	Chain Chain
}

// DecodeSaved decodes a saved message, working out what the file starts with
// and, where nothing states it, the byte order: an MQMD's or a header's Version
// reads as 0x0N000000 in the wrong order. A file whose first bytes are no MQ
// structure is all body, of format MQFMT_NONE.
//
// Tools disagree on how long a version-1 MQMD is in a file: the corpus'
// RFH2.msg has Version 1 followed by the full 364-byte layout. A version-1
// descriptor is taken as 364 bytes when bytes 324..363 look like the
// version-2 fields (a sequence number from 1, flags IBM defines) and, when its
// Format names a header, that header's StrucId is at 364; otherwise as 324.
func DecodeSaved(b []byte) (Saved, error) {
	var s Saved
	if len(b) >= 4 && string(b[:4]) == StrucIdMD {
		return decodeSavedWithMD(b)
	}
	format, bo, err := detectFirstHeader(b)
	if err != nil {
		s.Chain.Body = Body{Length: len(b), Format: format}
		return s, err
	}
	var enc Encoding
	if bo != nil {
		enc = EncodingFor(bo)
	}
	s.Chain, err = walkChain(format, enc, 0, b, 0)
	return s, err
}

func decodeSavedWithMD(b []byte) (Saved, error) {
	var s Saved
	bo, err := DetectMQMDOrder(b)
	if err != nil {
		return s, err
	}
	var md MQMD
	if n := mqmdLayoutLen(b, bo); n == MQMDLenV1 {
		if len(b) < MQMDLenV1 {
			return s, truncErr("MQMD", 0, MQMDLenV1, len(b))
		}
		md, err = decodeMQMD1(b[:MQMDLenV1], bo, nil)
		s.MDLength = MQMDLenV1
	} else {
		md, err = DecodeMQMD(b, bo)
		s.MDLength = MQMDLenV2
	}
	if err != nil {
		return Saved{}, err
	}
	s.MD, s.MDOrder = &md, bo
	s.Chain, err = walkChain(md.Format, md.Encoding, md.CodedCharSetId, b, s.MDLength)
	return s, err
}

// mqmdLayoutLen decides how many bytes a saved MQMD occupies (see DecodeSaved).
func mqmdLayoutLen(b []byte, bo binary.ByteOrder) int {
	if bo.Uint32(b[4:]) != 1 {
		return MQMDLenV2
	}
	if len(b) < MQMDLenV2 {
		return MQMDLenV1
	}
	seq := int32(bo.Uint32(b[348:]))
	off := int32(bo.Uint32(b[352:]))
	flags := int32(bo.Uint32(b[356:]))
	orig := int32(bo.Uint32(b[360:]))
	const knownMsgFlags = 0x1F // MQMF_SEGMENTATION_ALLOWED .. MQMF_LAST_MSG_IN_GROUP
	if seq < 1 || seq > 999999999 || off < 0 || flags&^knownMsgFlags != 0 || orig < -1 {
		return MQMDLenV1
	}
	if id := strucIdFor(headerKindFor(string(b[32:40]))); id != "" {
		if string(b[MQMDLenV2:min(len(b), MQMDLenV2+4)]) != id {
			return MQMDLenV1
		}
	}
	return MQMDLenV2
}

func strucIdFor(k HeaderKind) string {
	switch k {
	case KindDLH:
		return StrucIdDLH
	case KindXQH:
		return StrucIdXQH
	case KindMDE:
		return StrucIdMDE
	case KindRFH2:
		return StrucIdRFH
	case KindTM:
		return StrucIdTM
	}
	return ""
}

// detectFirstHeader names the header a file without an MQMD starts with and
// the byte order it was written in; for anything else it returns MQFMT_NONE
// and a nil order.
func detectFirstHeader(b []byte) (string, binary.ByteOrder, error) {
	if len(b) < 4 {
		return FmtNone, nil, nil
	}
	var bo binary.ByteOrder
	var err error
	var format string
	switch firstStrucId(b) {
	case StrucIdDLH:
		format = FmtDeadLetter
		bo, err = DetectDLHOrder(b, 0)
	case StrucIdXQH:
		format = FmtXmitQHeader
		bo, err = DetectXQHOrder(b, 0)
	case StrucIdMDE:
		format = FmtMDE
		bo, err = detectOrderByVersion("MQMDE", b, 0, StrucIdMDE, 2)
	case StrucIdRFH:
		format = FmtRFH2
		bo, err = DetectRFH2Order(b, 0)
	case StrucIdTM:
		format = FmtTrigger
		bo, err = DetectTMOrder(b, 0)
	default:
		return FmtNone, nil, nil
	}
	return format, bo, err
}

// firstStrucId returns the StrucId a file starts with, read as ASCII or, for
// the headers IBM writes in the message's character set, as EBCDIC: a dead
// letter saved on z/OS starts with C4 D3 C8 40.
func firstStrucId(b []byte) string {
	id := string(b[:4])
	switch e := ebcdic37().text(b[:4]); e {
	case StrucIdDLH, StrucIdXQH, StrucIdMDE, StrucIdRFH:
		return e
	}
	return id
}
