package mqfmt

import (
	"fmt"
	"strings"
)

// MQENC_* field masks and values. An Encoding is three independent fields
// (integers, packed decimals, floats) plus reserved bits, so it is named as a
// whole where IBM has a name for the combination and field by field otherwise.
const (
	encDecimalMask  = 0x000000F0
	encFloatMask    = 0x00000F00
	encReservedMask = 0xFFFFF000
	encAsPublished  = -1
)

// encWhole names the combinations IBM names. MQENC_NATIVE is left out: it
// is 546 on x86 and 273 on AIX, so naming a value "native" would depend on
// where the tool runs rather than on the message.
var encWhole = [...]struct {
	v             Encoding
	name, meaning string
}{
	{EncodingNormal, "MQENC_NORMAL", "big-endian integers, normal packed decimal, IEEE big-endian floats (AIX, IBM i, Java's default)"},
	{EncodingNative, "MQENC_REVERSED", "little-endian integers, reversed packed decimal, IEEE little-endian floats (x86 Linux and Windows: MQENC_NATIVE there)"},
	{EncodingS390, "MQENC_S390", "big-endian integers, normal packed decimal, System/390 floats (z/OS)"},
	{1041, "MQENC_TNS", "big-endian integers, normal packed decimal, TNS floats (HPE NonStop)"},
	{encAsPublished, "MQENC_AS_PUBLISHED", "take the encoding of each publication (a subscription setting)"},
}

// encField is one field of an Encoding: its mask and the names and meanings
// of its values.
type encField struct {
	mask   uint32
	values []encValue
}

type encValue struct {
	bits          uint32
	name, meaning string
}

var encFields = [...]encField{
	{encIntegerMask, []encValue{
		{0x0, "MQENC_INTEGER_UNDEFINED", "integer encoding undefined"},
		{encIntegerNorm, "MQENC_INTEGER_NORMAL", "big-endian integers"},
		{encIntegerRev, "MQENC_INTEGER_REVERSED", "little-endian integers"},
	}},
	{encDecimalMask, []encValue{
		{0x00, "MQENC_DECIMAL_UNDEFINED", "packed-decimal encoding undefined"},
		{0x10, "MQENC_DECIMAL_NORMAL", "normal packed decimal"},
		{0x20, "MQENC_DECIMAL_REVERSED", "reversed packed decimal"},
	}},
	{encFloatMask, []encValue{
		{0x000, "MQENC_FLOAT_UNDEFINED", "float encoding undefined"},
		{0x100, "MQENC_FLOAT_IEEE_NORMAL", "IEEE big-endian floats"},
		{0x200, "MQENC_FLOAT_IEEE_REVERSED", "IEEE little-endian floats"},
		{0x300, "MQENC_FLOAT_S390", "System/390 floats"},
		{0x400, "MQENC_FLOAT_TNS", "TNS floats"},
	}},
}

// EncodingName returns IBM's name of an Encoding: "MQENC_NORMAL" (273),
// "MQENC_REVERSED" (546), "MQENC_S390" (785), "MQENC_TNS" (1041) or
// "MQENC_AS_PUBLISHED" (-1); any other value is named field by field, e.g.
// "MQENC_INTEGER_REVERSED+MQENC_DECIMAL_NORMAL+MQENC_FLOAT_IEEE_NORMAL",
// with field values and reserved bits IBM does not define in hex.
func EncodingName(e Encoding) string {
	for _, w := range encWhole {
		if w.v == e {
			return w.name
		}
	}
	return strings.Join(encParts(e, func(v encValue) string { return v.name }, "0x%08X"), "+")
}

// EncodingMeaning says, in words, how the Encoding lays out numbers.
func EncodingMeaning(e Encoding) string {
	for _, w := range encWhole {
		if w.v == e {
			return w.meaning
		}
	}
	return strings.Join(encParts(e, func(v encValue) string { return v.meaning }, "reserved bits 0x%08X set"), ", ")
}

// encParts describes each field of e with pick, field values IBM does not
// define in hex, and reserved bits, if any are set, with reserved.
func encParts(e Encoding, pick func(encValue) string, reserved string) []string {
	u := uint32(e)
	parts := make([]string, 0, len(encFields)+1)
	for _, f := range encFields {
		parts = append(parts, encFieldPart(f, u&f.mask, pick))
	}
	if r := u & encReservedMask; r != 0 {
		parts = append(parts, fmt.Sprintf(reserved, r))
	}
	return parts
}

func encFieldPart(f encField, bits uint32, pick func(encValue) string) string {
	for _, v := range f.values {
		if v.bits == bits {
			return pick(v)
		}
	}
	return fmt.Sprintf("0x%08X", bits)
}
