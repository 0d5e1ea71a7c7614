package mqfmt

import (
	"encoding/binary"
	"errors"
)

// HeaderKind names an MQ header the chain walker decodes.
type HeaderKind uint8

// Header kinds, in the order IBM documents them.
const (
	KindDLH  HeaderKind = iota + 1 // MQDLH, format MQDEAD
	KindXQH                        // MQXQH, format MQXMIT
	KindMDE                        // MQMDE, format MQHMDE
	KindRFH2                       // MQRFH2, format MQHRF2
	KindTM                         // MQTM, format MQTRIG
)

// String returns the structure's IBM name, e.g. "MQDLH".
func (k HeaderKind) String() string {
	switch k {
	case KindDLH:
		return "MQDLH"
	case KindXQH:
		return "MQXQH"
	case KindMDE:
		return "MQMDE"
	case KindRFH2:
		return "MQRFH2"
	case KindTM:
		return "MQTM"
	}
	return "unknown header"
}

// headerKindFor returns the header a format name announces, or 0 for formats
// that are message data (MQSTR, MQPCF, blanks, anything unknown).
func headerKindFor(format string) HeaderKind {
	switch format8(format) {
	case FmtDeadLetter:
		return KindDLH
	case FmtXmitQHeader:
		return KindXQH
	case FmtMDE:
		return KindMDE
	case FmtRFH2:
		return KindRFH2
	case FmtTrigger:
		return KindTM
	}
	return 0
}

// MaxChainHeaders bounds the headers WalkChain follows, so a loop of headers
// that announce each other cannot run on; real messages carry at most a few.
const MaxChainHeaders = 32

// Header is one decoded header in a chain. Exactly one of the pointers is set,
// matching Kind.
type Header struct {
	Kind   HeaderKind
	Offset int // absolute offset of its StrucId
	Length int // bytes it occupies (fewer than its size when Partial)
	// Encoding and CCSID are those its own fields were read in: the values
	// the structure before it declared for the data that follows.
	Encoding Encoding
	CCSID    int32
	// FieldsCCSID is what the header's own character fields were read in and
	// what AppendEncodeCCSID takes to write them back byte for byte: CCSID
	// for an EBCDIC header, 37 for one whose EBCDIC StrucId CCSID did not
	// announce, 0 when the bytes are the text (ASCII-based and UTF-8).
	FieldsCCSID int32
	// Partial is set when the data ended inside the header (a bounded
	// browse or a cut dump): the fields present were decoded, the rest is
	// missing, and WalkChain returned an error wrapping ErrTruncated.
	Partial bool

	DLH  *DLH
	XQH  *XQH
	MDE  *MDE
	RFH2 *RFH2
	TM   *TM
}

// Body is the message data after the last header, as the last header (or the
// MQMD when there is none) describes it.
type Body struct {
	Offset   int
	Length   int
	Format   string // 8-character format name
	Encoding Encoding
	CCSID    int32
}

// Chain is a message's headers in order and the body after them.
type Chain struct {
	Headers []Header
	Body    Body
}

// WalkChain decodes the headers at the start of message data: format,
// enc and ccsid are the MQMD's Format, Encoding and CodedCharSetId, and each
// header's own Format, Encoding and CodedCharSetId say what follows it (an
// MQXQH's embedded descriptor does so for it). The first format that names no
// header known here is the body's.
//
// On failure the chain holds the headers decoded so far, Body covers the
// bytes that could not be decoded (Format the format that was expected there),
// and the error is a *DecodeError with the absolute offset. A header cut short
// by the end of data is included as Partial when its decoder can say anything.
func WalkChain(format string, enc Encoding, ccsid int32, data []byte) (Chain, error) {
	return walkChain(format, enc, ccsid, data, 0)
}

// walkChain walks the chain that starts at data[start:], reporting offsets
// absolute in data.
func walkChain(format string, enc Encoding, ccsid int32, data []byte, start int) (Chain, error) {
	c := Chain{}
	pos := start
	for {
		kind := headerKindFor(format)
		c.Body = Body{Offset: pos, Length: len(data) - pos, Format: format8(format), Encoding: enc, CCSID: ccsid}
		if kind == 0 {
			return c, nil
		}
		if len(c.Headers) == MaxChainHeaders {
			return c, decodeErr(kind.String(), pos, "more than %d headers in one message", MaxChainHeaders)
		}
		bo, err := enc.ByteOrder()
		if err != nil {
			return c, decodeErr(kind.String(), pos, "cannot read it: the preceding structure's Encoding %d gives no integer byte order", int32(enc))
		}
		if c.Headers == nil {
			c.Headers = make([]Header, 0, 4)
		}
		h, next, err := decodeHeader(kind, data, pos, bo, ccsid)
		h.Kind, h.Offset, h.Encoding, h.CCSID = kind, pos, enc, ccsid
		if kind != KindTM && len(data)-pos >= 4 {
			cs, _ := headerCodec(data, pos, strucIdFor(kind), ccsid)
			h.FieldsCCSID = fieldsCCSID(cs, ccsid)
		}
		if err != nil {
			if h.Partial {
				c.Headers = append(c.Headers, h)
				c.Body = Body{Offset: len(data), Format: format8(format), Encoding: enc, CCSID: ccsid}
			}
			return c, err
		}
		c.Headers = append(c.Headers, h)
		pos += h.Length
		if next.end {
			// Nothing describes data after it: report it in the header's
			// own encoding and character set.
			c.Body = Body{Offset: pos, Length: len(data) - pos, Format: FmtNone, Encoding: enc, CCSID: ccsid}
			return c, nil
		}
		format, enc = next.Format, next.Encoding
		if next.CCSID != CCSIDInherit {
			ccsid = next.CCSID
		}
	}
}

// nextDesc is what a header says about the data after it.
type nextDesc struct {
	Format   string
	Encoding Encoding
	CCSID    int32
	end      bool // the header describes nothing after it (MQTM)
}

// decodeHeader decodes one header of the given kind at data[pos:], its
// character fields in ccsid.
func decodeHeader(kind HeaderKind, data []byte, pos int, bo binary.ByteOrder, ccsid int32) (Header, nextDesc, error) {
	var h Header
	switch kind {
	case KindDLH:
		d, err := DecodeDLHCCSID(data, pos, bo, ccsid)
		if err != nil {
			return h, nextDesc{}, err
		}
		h.DLH, h.Length = &d, DLHLen
		return h, nextDesc{d.Format, d.Encoding, d.CodedCharSetId, false}, nil
	case KindXQH:
		x, err := DecodeXQHCCSID(data, pos, bo, ccsid)
		if err != nil {
			return h, nextDesc{}, err
		}
		h.XQH, h.Length = &x, XQHLen
		md := &x.MsgDesc
		return h, nextDesc{md.Format, md.Encoding, md.CodedCharSetId, false}, nil
	case KindMDE:
		m, err := DecodeMDECCSID(data, pos, bo, ccsid)
		if err != nil {
			return h, nextDesc{}, err
		}
		h.MDE, h.Length = &m, MDELen
		return h, nextDesc{m.Format, m.Encoding, m.CodedCharSetId, false}, nil
	case KindRFH2:
		r, err := DecodeRFH2CCSID(data, pos, bo, ccsid)
		if err != nil {
			if errors.Is(err, ErrTruncated) && r.Version != 0 {
				h.RFH2, h.Length, h.Partial = &r, len(data)-pos, true
			}
			return h, nextDesc{}, err
		}
		h.RFH2, h.Length = &r, int(r.StrucLength)
		return h, nextDesc{r.Format, r.Encoding, r.CodedCharSetId, false}, nil
	default: // KindTM
		t, err := DecodeTM(data, pos, bo)
		if err != nil {
			if t.Length > 0 {
				h.TM, h.Length, h.Partial = &t, t.Length, true
			}
			return h, nextDesc{}, err
		}
		h.TM, h.Length = &t, TMLen
		return h, nextDesc{end: true}, nil
	}
}

// Header returns the first header of kind k, or nil.
func (c *Chain) Header(k HeaderKind) *Header {
	for i := range c.Headers {
		if c.Headers[i].Kind == k {
			return &c.Headers[i]
		}
	}
	return nil
}

// DLH returns the first dead-letter header, or nil.
func (c *Chain) DLH() *DLH {
	if h := c.Header(KindDLH); h != nil {
		return h.DLH
	}
	return nil
}

// RFH2s returns every MQRFH2 in chain order.
func (c *Chain) RFH2s() []*RFH2 {
	var out []*RFH2
	for i := range c.Headers {
		if c.Headers[i].RFH2 != nil {
			out = append(out, c.Headers[i].RFH2)
		}
	}
	return out
}

// Folder returns the first folder called name in any MQRFH2 of the chain, or
// nil. IBM gives the first header precedence for JMS properties.
func (c *Chain) Folder(name string) *Folder {
	for i := range c.Headers {
		if f := c.Headers[i].RFH2.Folder(name); f != nil {
			return f
		}
	}
	return nil
}
