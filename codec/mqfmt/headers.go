package mqfmt

import (
	"encoding/binary"
	"fmt"
	"math/bits"
)

// StrucIds of the headers that can sit in front of message data, as IBM defines
// them (MQDLH_STRUC_ID, MQXQH_STRUC_ID, ...): four characters, blank padded.
const (
	StrucIdDLH = "DLH "
	StrucIdXQH = "XQH "
	StrucIdMDE = "MDE "
	StrucIdRFH = "RFH "
	StrucIdTM  = "TM  "
)

// Lengths of the fixed-size headers (MQDLH_LENGTH_1, MQXQH_LENGTH_1,
// MQMDE_LENGTH_2, MQTM_LENGTH_1) and of the MQRFH2's fixed part
// (MQRFH_STRUC_LENGTH_FIXED_2).
const (
	DLHLen       = 172
	XQHLen       = 428 // 4 + 4 + 48 + 48 + a version-1 MQMD (324)
	MDELen       = 72
	TMLen        = 684
	RFH2FixedLen = 36
)

// CCSIDInherit is MQCCSI_INHERIT: a header whose CodedCharSetId holds it says
// the data after it is in the header's own character set.
const CCSIDInherit = -2

// MaxMsgLength is the largest message IBM MQ can hold (100 MB, the MAXMSGL
// ceiling). A length field claiming more than this is corrupt or read in the
// wrong byte order.
const MaxMsgLength = 104857600

// fixedView reads one fixed-layout header. Its character fields are substrings
// of a single string copy of the header, so a decoded header costs one
// allocation however many fields it has; integers are read from the bytes.
type fixedView struct {
	b   []byte // the header's bytes, starting at its StrucId
	s   string // string(b), shared by every character field
	bo  binary.ByteOrder
	pos int
	cs  *charCodec // nil: the bytes are the text; else an EBCDIC code page
}

func newFixedView(b []byte, bo binary.ByteOrder) fixedView {
	return fixedView{b: b, s: string(b), bo: bo}
}

func (v *fixedView) i32() int32 {
	x := int32(v.bo.Uint32(v.b[v.pos:]))
	v.pos += 4
	return x
}

func (v *fixedView) str(n int) string {
	var x string
	if v.cs == nil {
		x = v.s[v.pos : v.pos+n]
	} else {
		x = v.cs.text(v.b[v.pos : v.pos+n])
	}
	v.pos += n
	return x
}

func (v *fixedView) bytes(dst []byte) {
	v.pos += copy(dst, v.b[v.pos:v.pos+len(dst)])
}

// checkHeaderStart verifies that b[off:] holds at least need bytes and starts
// with strucId. Offsets in the errors are absolute.
func checkHeaderStart(strc string, b []byte, off, need int, strucId string) error {
	if off < 0 || off > len(b) {
		return decodeErr(strc, off, "offset %d outside a %d-byte buffer", off, len(b))
	}
	have := len(b) - off
	if have < 4 {
		return truncErr(strc, off, need, have)
	}
	if string(b[off:off+4]) != strucId {
		return decodeErr(strc, off, "StrucId %q, want %q", sanitizeShort(b[off:off+4]), strucId)
	}
	if have < need {
		return truncErr(strc, off, need, have)
	}
	return nil
}

// checkHeader is checkHeaderStart for the headers whose StrucId and
// character fields are in the character set ccsid that the preceding
// structure names: it accepts the StrucId in ASCII or EBCDIC and returns how
// the fields are to be read (see headerCodec).
func checkHeader(strc string, b []byte, off, need int, strucId string, ccsid int32) (*charCodec, error) {
	if off < 0 || off > len(b) {
		return nil, decodeErr(strc, off, "offset %d outside a %d-byte buffer", off, len(b))
	}
	have := len(b) - off
	if have < 4 {
		return nil, truncErr(strc, off, need, have)
	}
	cs, ok := headerCodec(b, off, strucId, ccsid)
	if !ok {
		return nil, decodeErr(strc, off, "StrucId %q (% X), want %q in ASCII or EBCDIC", sanitizeShort(b[off:off+4]), b[off:off+4], strucId)
	}
	if have < need {
		return nil, truncErr(strc, off, need, have)
	}
	return cs, nil
}

// versionErr reports a Version field that is not the one IBM defines; when the
// value is the wanted one with its bytes reversed, it says so, because that is
// nearly always a byte-order mix-up rather than a new structure version.
func versionErr(strc string, off int, got int32, want string) *DecodeError {
	swapped := int32(bits.ReverseBytes32(uint32(got)))
	if swapped >= 1 && swapped <= 3 {
		return decodeErr(strc, off, "Version %d (0x%08X), want %s: the integers look byte-swapped, so the preceding structure's Encoding is probably wrong", got, uint32(got), want)
	}
	return decodeErr(strc, off, "Version %d, want %s", got, want)
}

// detectOrderByVersion tells the byte order of a header from its Version field
// when nothing in front of it says which order it was written in: a small
// version number reads as 0x0N000000 in the wrong order.
func detectOrderByVersion(strc string, b []byte, off int, strucId string, versions ...int32) (binary.ByteOrder, error) {
	if _, err := checkHeader(strc, b, off, 8, strucId, 0); err != nil {
		return nil, err
	}
	for _, bo := range []binary.ByteOrder{binary.BigEndian, binary.LittleEndian} {
		v := int32(bo.Uint32(b[off+4:]))
		for _, want := range versions {
			if v == want {
				return bo, nil
			}
		}
	}
	return nil, decodeErr(strc, off+4, "Version is %v in neither byte order", versions)
}

// format8 returns a format name as the 8-byte field it occupies: shorter names
// (e.g. "MQSTR") are blank padded as the MQI pads them.
func format8(f string) string {
	if len(f) >= 8 {
		return f[:8]
	}
	return f + "        "[:8-len(f)]
}

// checkFormatField rejects a Format that cannot be written into its 8-byte
// field without losing characters.
func checkFormatField(strc, f string) error {
	if len(f) > 8 {
		return fmt.Errorf("%s: Format %q is longer than 8 characters", strc, f)
	}
	return nil
}

// appendU16 and appendU32 append an integer in byte order bo (binary.ByteOrder
// itself has no append methods).
func appendU16(dst []byte, bo binary.ByteOrder, v uint16) []byte {
	var tmp [2]byte
	bo.PutUint16(tmp[:], v)
	return append(dst, tmp[:]...)
}

func appendU32(dst []byte, bo binary.ByteOrder, v uint32) []byte {
	var tmp [4]byte
	bo.PutUint32(tmp[:], v)
	return append(dst, tmp[:]...)
}
