package pcf

import (
	"encoding/binary"
	"fmt"
	"testing"
)

// The helpers below write PCF replies as a queue manager does, in either byte
// order, so the decoder and the mappings are tested on the exact layouts IBM
// documents (MQCFH, MQCFIN, MQCFIN64, MQCFST, MQCFIL, MQCFIL64, MQCFSL,
// MQCFBS, MQCFGR) rather than on the encoder's own output.

type pcfWriter struct {
	bo binary.AppendByteOrder
	b  []byte
}

func (w *pcfWriter) i32(vs ...int32) {
	for _, v := range vs {
		w.b = w.bo.AppendUint32(w.b, uint32(v))
	}
}

func (w *pcfWriter) i64(v int64) { w.b = w.bo.AppendUint64(w.b, uint64(v)) }

func (w *pcfWriter) padded(s []byte, size int) {
	w.b = append(w.b, s...)
	for i := len(s); i < size; i++ {
		w.b = append(w.b, ' ')
	}
}

func (w *pcfWriter) param(p Param) {
	switch p.Type {
	case cftInteger:
		w.i32(cftInteger, cfinStrucLength, p.Param, int32(p.Int))
	case cftInteger64:
		w.i32(cftInteger64, cfin64StrucLength, p.Param, 0)
		w.i64(p.Int)
	case cftString:
		w.i32(cftString, int32(cfstStrucLenFixed+pad4(len(p.Str))), p.Param, p.CCSID, int32(len(p.Str)))
		w.padded([]byte(p.Str), pad4(len(p.Str)))
	case cftIntegerList:
		w.i32(cftIntegerList, int32(cfilStrucLenFixed+4*len(p.Ints)), p.Param, int32(len(p.Ints)))
		for _, v := range p.Ints {
			w.i32(int32(v))
		}
	case cftInteger64List:
		w.i32(cftInteger64List, int32(cfilStrucLenFixed+8*len(p.Ints)), p.Param, int32(len(p.Ints)))
		for _, v := range p.Ints {
			w.i64(v)
		}
	case cftStringList:
		each := 0
		for _, s := range p.Strs {
			each = max(each, len(s))
		}
		total := pad4(each * len(p.Strs))
		w.i32(cftStringList, int32(cfslStrucLenFixed+total), p.Param, p.CCSID, int32(len(p.Strs)), int32(each))
		start := len(w.b)
		for _, s := range p.Strs {
			w.padded([]byte(s), each)
		}
		w.padded(nil, total-(len(w.b)-start))
	case cftByteString:
		w.i32(cftByteString, int32(cfbsStrucLenFixed+pad4(len(p.Bytes))), p.Param, int32(len(p.Bytes)))
		w.b = append(w.b, p.Bytes...)
		w.b = append(w.b, make([]byte, pad4(len(p.Bytes))-len(p.Bytes))...)
	case cftGroup:
		w.i32(cftGroup, cfgrStrucLength, p.Param, int32(len(p.Group)))
		for _, g := range p.Group {
			w.param(g)
		}
	default:
		panic(fmt.Sprintf("test writer: type %d", p.Type))
	}
}

// replyBytes writes a reply message with the given header fields and params.
func replyBytes(bo binary.AppendByteOrder, typ, control, reason int32, params ...Param) []byte {
	w := &pcfWriter{bo: bo}
	cc := int32(0)
	if reason != 0 {
		cc = 2
	}
	w.i32(typ, cfhStrucLength, 1, cmdInquireQ, 1, control, cc, reason, int32(len(params)))
	for _, p := range params {
		w.param(p)
	}
	return w.b
}

func reply(params ...Param) Message {
	return Message{Header: Header{Type: cftResponse, Control: cfcLast}, Params: params}
}

// order is a byte order that both reads (for Decode) and appends (for the writer).
type order interface {
	binary.ByteOrder
	binary.AppendByteOrder
}

var nativeOrder = binary.NativeEndian

func mustEncode(t testing.TB, command int32, params []Param) []byte {
	t.Helper()
	b, err := encodeCommand(nativeOrder, command, params)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
