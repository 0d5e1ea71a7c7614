package pcf

import (
	"encoding/binary"
	"fmt"
)

// The backend speaks PCF with its own codec instead of mq-golang's
// ReadPCFHeader/ReadPCFParameter, because those read in the byte order of the
// machine they run on and trust every length they meet: a reply is decoded
// here in the byte order its MQMD Encoding names, and every length is checked
// against the bytes received, so a damaged or hostile reply is an error with
// a byte offset, never a panic or an allocation the reply does not justify.

// Header is MQCFH.
type Header struct {
	Type           int32
	StrucLength    int32
	Version        int32
	Command        int32
	MsgSeqNumber   int32
	Control        int32
	CompCode       int32
	Reason         int32
	ParameterCount int32
}

// Param is one parameter structure. Type says which fields are meaningful:
// Int for MQCFIN/MQCFIN64, Ints for MQCFIL/MQCFIL64, Str for MQCFST, Strs for
// MQCFSL, Bytes for MQCFBS, Group for MQCFGR. Strings keep their padding;
// readers trim them.
type Param struct {
	Type  int32
	Param int32
	CCSID int32
	Int   int64
	Ints  []int64
	Str   string
	Strs  []string
	Bytes []byte
	Group []Param
}

// Message is one PCF message: the header and its top-level parameters.
type Message struct {
	Header Header
	Params []Param
}

func Int(param, v int32) Param {
	return Param{Type: cftInteger, Param: param, Int: int64(v)}
}

func Str(param int32, v string) Param {
	return Param{Type: cftString, Param: param, Str: v}
}

func IntList(param int32, vs ...int32) Param {
	p := Param{Type: cftIntegerList, Param: param, Ints: make([]int64, len(vs))}
	for i, v := range vs {
		p.Ints[i] = int64(v)
	}
	return p
}

// ByteStr is an MQCFBS parameter.
func ByteStr(param int32, b []byte) Param {
	return Param{Type: cftByteString, Param: param, Bytes: b}
}

// encodeCommand builds a PCF command message (MQCFH type MQCFT_COMMAND_XR,
// version 3, as IBM's own Go tooling sends to every platform) in byte order bo.
func encodeCommand(bo binary.ByteOrder, command int32, params []Param) ([]byte, error) {
	return Encode(bo, Header{Type: cftCommandXR, Command: command, MsgSeqNumber: 1, Control: cfcLast}, params)
}

// Encode writes one PCF message in byte order bo: the header h (its
// StrucLength, Version and ParameterCount are filled in) and params. Only
// the structure types commands and inquiry answers need are supported
// (MQCFIN, MQCFST, MQCFIL, MQCFBS).
func Encode(bo binary.ByteOrder, h Header, params []Param) ([]byte, error) {
	h.StrucLength, h.Version, h.ParameterCount = cfhStrucLength, cfhVersion3, int32(len(params))
	b := make([]byte, 0, 256)
	b = appendInts(b, bo, h.Type, h.StrucLength, h.Version, h.Command, h.MsgSeqNumber,
		h.Control, h.CompCode, h.Reason, h.ParameterCount)
	for i := range params {
		var err error
		if b, err = appendParam(b, bo, &params[i]); err != nil {
			return nil, fmt.Errorf("PCF command %d parameter %d: %w", h.Command, i, err)
		}
	}
	return b, nil
}

func appendParam(b []byte, bo binary.ByteOrder, p *Param) ([]byte, error) {
	switch p.Type {
	case cftInteger:
		if p.Int < -1<<31 || p.Int > 1<<31-1 {
			return nil, fmt.Errorf("MQCFIN %d: value %d does not fit 32 bits", p.Param, p.Int)
		}
		return appendInts(b, bo, cftInteger, cfinStrucLength, p.Param, int32(p.Int)), nil
	case cftString:
		n := len(p.Str)
		sl := cfstStrucLenFixed + pad4(n)
		b = appendInts(b, bo, cftString, int32(sl), p.Param, p.CCSID, int32(n))
		b = append(b, p.Str...)
		return append(b, make([]byte, pad4(n)-n)...), nil
	case cftIntegerList:
		b = appendInts(b, bo, cftIntegerList, int32(cfilStrucLenFixed+4*len(p.Ints)), p.Param, int32(len(p.Ints)))
		for _, v := range p.Ints {
			if v < -1<<31 || v > 1<<31-1 {
				return nil, fmt.Errorf("MQCFIL %d: value %d does not fit 32 bits", p.Param, v)
			}
			b = appendInts(b, bo, int32(v))
		}
		return b, nil
	case cftByteString:
		n := len(p.Bytes)
		b = appendInts(b, bo, cftByteString, int32(cfbsStrucLenFixed+pad4(n)), p.Param, int32(n))
		b = append(b, p.Bytes...)
		return append(b, make([]byte, pad4(n)-n)...), nil
	}
	return nil, fmt.Errorf("parameter %d: structure type %d cannot be encoded", p.Param, p.Type)
}

func appendInts(b []byte, bo binary.ByteOrder, vs ...int32) []byte {
	var tmp [4]byte
	for _, v := range vs {
		bo.PutUint32(tmp[:], uint32(v))
		b = append(b, tmp[:]...)
	}
	return b
}

func pad4(n int) int { return (n + 3) &^ 3 }

// find returns the first top-level parameter with identifier param.
func (m *Message) find(param int32) *Param {
	for i := range m.Params {
		if m.Params[i].Param == param {
			return &m.Params[i]
		}
	}
	return nil
}
