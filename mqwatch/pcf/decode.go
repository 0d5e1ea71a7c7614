package pcf

import (
	"encoding/binary"
	"fmt"

	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
)

// maxGroupDepth bounds MQCFGR nesting: IBM nests groups one or two deep; a
// deeper reply is damaged, and unbounded recursion would let it exhaust the stack.
const maxGroupDepth = 8

// minParamLen is the smallest parameter structure (MQCFIN, MQCFGR, MQCFIL and
// MQCFBS with no data). Counts are checked against it before anything is
// allocated, so a count field cannot ask for more than the bytes can hold.
const minParamLen = 16

// pcfDecoder walks one PCF message. Offsets in its errors are absolute
// offsets into the message data.
type pcfDecoder struct {
	b  []byte
	bo binary.ByteOrder
}

// Decode decodes one PCF message (an MQCFH and its parameters) written in
// byte order bo: the order named by the Encoding of the MQMD it arrived with.
// Bytes after the last parameter are ignored.
func Decode(b []byte, bo binary.ByteOrder) (Message, error) {
	var m Message
	d := pcfDecoder{b: b, bo: bo}
	if len(b) < cfhStrucLength {
		return m, truncated("MQCFH", 0, cfhStrucLength, len(b))
	}
	h := &m.Header
	h.Type, h.StrucLength, h.Version = d.i32(0), d.i32(4), d.i32(8)
	h.Command, h.MsgSeqNumber, h.Control = d.i32(12), d.i32(16), d.i32(20)
	h.CompCode, h.Reason, h.ParameterCount = d.i32(24), d.i32(28), d.i32(32)
	if h.StrucLength != cfhStrucLength {
		return m, malformed("MQCFH", 4, "StrucLength %d, want %d", h.StrucLength, cfhStrucLength)
	}
	if h.Version < 1 || h.Version > cfhVersion3 {
		return m, malformed("MQCFH", 8, "Version %d, want 1 to 3", h.Version)
	}
	params, _, err := d.params(cfhStrucLength, h.ParameterCount, 32, 0)
	m.Params = params
	return m, err
}

// params decodes count parameters starting at off; countAt is the offset of
// the count field, for the error.
func (d *pcfDecoder) params(off int, count int32, countAt, depth int) ([]Param, int, error) {
	if count < 0 || int64(count)*minParamLen > int64(len(d.b)-off) {
		return nil, off, malformed("PCF", countAt, "parameter count %d does not fit the %d bytes that follow", count, len(d.b)-off)
	}
	params := make([]Param, 0, count)
	for i := int32(0); i < count; i++ {
		p, next, err := d.param(off, depth)
		if err != nil {
			return params, off, err
		}
		params = append(params, p)
		off = next
	}
	return params, off, nil
}

// param decodes the parameter structure at off and returns the offset after
// it (and after the members of a group).
func (d *pcfDecoder) param(off, depth int) (Param, int, error) {
	var p Param
	if len(d.b)-off < 12 {
		return p, off, truncated("PCF parameter", off, 12, len(d.b)-off)
	}
	p.Type, p.Param = d.i32(off), d.i32(off+8)
	sl := int(d.i32(off + 4))
	name, fixedLen := structName(p.Type)
	if sl < fixedLen || sl%4 != 0 {
		return p, off, malformed(name, off+4, "StrucLength %d, want a multiple of 4 of at least %d", sl, fixedLen)
	}
	if sl > len(d.b)-off {
		return p, off, truncated(name, off, sl, len(d.b)-off)
	}
	end := off + sl
	var err error
	switch p.Type {
	case cftInteger:
		p.Int = int64(d.i32(off + 12))
	case cftInteger64:
		p.Int = int64(d.bo.Uint64(d.b[off+16:]))
	case cftString:
		err = d.str(&p, off, end)
	case cftIntegerList:
		err = d.ints(&p, off, end, 4)
	case cftInteger64List:
		err = d.ints(&p, off, end, 8)
	case cftStringList:
		err = d.strs(&p, off, end)
	case cftByteString:
		err = d.byteStr(&p, off, end)
	case cftGroup:
		return d.group(p, off, end, depth)
	}
	// Filters and structure types this backend never asks for are skipped by
	// their StrucLength: the reply stays readable if a queue manager adds one.
	return p, end, err
}

func (d *pcfDecoder) str(p *Param, off, end int) error {
	p.CCSID = d.i32(off + 12)
	n := d.i32(off + 16)
	if n < 0 || int(n) > end-off-cfstStrucLenFixed {
		return malformed("MQCFST", off+16, "StringLength %d does not fit StrucLength %d", n, end-off)
	}
	start := off + cfstStrucLenFixed
	p.Str = string(d.b[start : start+int(n)])
	return nil
}

func (d *pcfDecoder) ints(p *Param, off, end, size int) error {
	name := "MQCFIL"
	if size == 8 {
		name = "MQCFIL64"
	}
	n := d.i32(off + 12)
	if n < 0 || int64(n)*int64(size) > int64(end-off-cfilStrucLenFixed) {
		return malformed(name, off+12, "Count %d does not fit StrucLength %d", n, end-off)
	}
	p.Ints = make([]int64, n)
	for i := range p.Ints {
		at := off + cfilStrucLenFixed + i*size
		if size == 8 {
			p.Ints[i] = int64(d.bo.Uint64(d.b[at:]))
		} else {
			p.Ints[i] = int64(d.i32(at))
		}
	}
	return nil
}

func (d *pcfDecoder) strs(p *Param, off, end int) error {
	p.CCSID = d.i32(off + 12)
	n, each := d.i32(off+16), d.i32(off+20)
	room := int64(end - off - cfslStrucLenFixed)
	// A zero StringLength would let any Count pass the product test; the count
	// is bounded by the structure's size too.
	if n < 0 || each < 0 || int64(n)*int64(each) > room || int64(n) > int64(end-off) {
		return malformed("MQCFSL", off+16, "Count %d of StringLength %d does not fit StrucLength %d", n, each, end-off)
	}
	p.Strs = make([]string, n)
	for i := range p.Strs {
		at := off + cfslStrucLenFixed + i*int(each)
		p.Strs[i] = string(d.b[at : at+int(each)])
	}
	return nil
}

func (d *pcfDecoder) byteStr(p *Param, off, end int) error {
	n := d.i32(off + 12)
	if n < 0 || int(n) > end-off-cfbsStrucLenFixed {
		return malformed("MQCFBS", off+12, "StringLength %d does not fit StrucLength %d", n, end-off)
	}
	start := off + cfbsStrucLenFixed
	p.Bytes = append([]byte(nil), d.b[start:start+int(n)]...)
	return nil
}

// group decodes an MQCFGR: its members follow the group structure itself.
func (d *pcfDecoder) group(p Param, off, end, depth int) (Param, int, error) {
	if depth >= maxGroupDepth {
		return p, off, malformed("MQCFGR", off, "groups nested deeper than %d", maxGroupDepth)
	}
	members, next, err := d.params(end, d.i32(off+12), off+12, depth+1)
	p.Group = members
	return p, next, err
}

func (d *pcfDecoder) i32(off int) int32 { return int32(d.bo.Uint32(d.b[off:])) }

// structName names a structure type for errors and gives its fixed length.
func structName(t int32) (string, int) {
	switch t {
	case cftInteger:
		return "MQCFIN", cfinStrucLength
	case cftInteger64:
		return "MQCFIN64", cfin64StrucLength
	case cftString:
		return "MQCFST", cfstStrucLenFixed
	case cftIntegerList:
		return "MQCFIL", cfilStrucLenFixed
	case cftInteger64List:
		return "MQCFIL64", cfilStrucLenFixed
	case cftStringList:
		return "MQCFSL", cfslStrucLenFixed
	case cftByteString:
		return "MQCFBS", cfbsStrucLenFixed
	case cftGroup:
		return "MQCFGR", cfgrStrucLength
	}
	return fmt.Sprintf("PCF structure type %d", t), 12
}

func truncated(strc string, off, need, have int) *mqfmt.DecodeError {
	return &mqfmt.DecodeError{Struct: strc, Offset: off, Err: mqfmt.ErrTruncated,
		Msg: fmt.Sprintf("truncated: needs %d bytes, %d remain", need, have)}
}

func malformed(strc string, off int, format string, args ...any) *mqfmt.DecodeError {
	return &mqfmt.DecodeError{Struct: strc, Offset: off, Msg: fmt.Sprintf(format, args...)}
}
