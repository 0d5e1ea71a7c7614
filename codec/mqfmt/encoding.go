package mqfmt

import (
	"encoding/binary"
	"fmt"
)

// Encoding is the MQ Encoding field (MQENC_*): how integers, packed decimals and
// floats inside a structure are laid out. Only the integer part matters to headers.
type Encoding int32

// Encodings seen in practice: 273 on big-endian hosts (AIX, z/OS, Java's default)
// and 546 on x86 Linux and Windows.
const (
	EncodingNative Encoding = 546 // MQENC_NATIVE on x86: reversed integers
	EncodingNormal Encoding = 273 // MQENC_NORMAL: big-endian integers, Java's default
	EncodingS390   Encoding = 785 // z/OS: normal integers, S/390 floats
	encIntegerMask          = 0x0F
	encIntegerNorm          = 0x01
	encIntegerRev           = 0x02
)

// ByteOrder returns the integer byte order that e specifies. An Encoding whose
// integer part is undefined (0) or not one MQ defines is an error: guessing would
// turn every length field into garbage.
func (e Encoding) ByteOrder() (binary.ByteOrder, error) {
	switch int32(e) & encIntegerMask {
	case encIntegerNorm:
		return binary.BigEndian, nil
	case encIntegerRev:
		return binary.LittleEndian, nil
	}
	return nil, fmt.Errorf("encoding %d: integer encoding %d is neither normal (1) nor reversed (2)", int32(e), int32(e)&encIntegerMask)
}

// String names the byte order, e.g. "273 (big-endian)".
func (e Encoding) String() string {
	switch int32(e) & encIntegerMask {
	case encIntegerNorm:
		return fmt.Sprintf("%d (big-endian)", int32(e))
	case encIntegerRev:
		return fmt.Sprintf("%d (little-endian)", int32(e))
	}
	return fmt.Sprintf("%d (undefined integer encoding)", int32(e))
}

// EncodingFor returns the Encoding that writes integers in bo, with the float and
// decimal parts of the usual platform (273 for big-endian, 546 for little-endian).
func EncodingFor(bo binary.ByteOrder) Encoding {
	if bo == binary.LittleEndian {
		return EncodingNative
	}
	return EncodingNormal
}
