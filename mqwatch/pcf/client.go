package pcf

import (
	"context"
	"encoding/binary"
	"fmt"
	"time"

	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
	"github.com/poisonwatch/poisonwatch/mqwatch"
)

// Transport carries one PCF conversation: requests to the command queue,
// replies from a reply queue of its own. It is the only part that differs
// between the IBM MQ backend (MQPUT and MQGET through mq-golang) and a port
// connection (PortTransport).
type Transport interface {
	// ReplyQueue is the name of the queue replies come back on.
	ReplyQueue() string
	// Put puts a request on the command queue with a new MsgId, which it
	// writes back into md.
	Put(ctx context.Context, md *mqfmt.MQMD, data []byte) error
	// Get gets the next reply whose CorrelId is correlID, converted to UTF-8
	// where the queue manager can (MQGMO_CONVERT), waiting at most wait, into
	// a buffer of size bytes. After MQRC_TRUNCATED_MSG_FAILED the message's
	// Length is set; after MQRC_NOT_CONVERTED or MQRC_CONVERTED_MSG_TOO_BIG
	// (warnings) the message is returned unconverted, with the error.
	Get(ctx context.Context, correlID [24]byte, wait time.Duration, size int) (mqwatch.Message, error)
}

// Slice bounds one wait for a reply: an MQGET cannot be interrupted, so the
// command's wait runs as several short ones with the context checked in
// between, and quitting or a cancelled poll ends it within a slice.
const Slice = time.Second

// requestOrder is the byte order commands are written in: the MQMD's
// Encoding says so, and the command server converts what it reads.
var requestOrder = binary.LittleEndian

// initialReplyBuffer fits most PCF replies; a larger one is read again.
const initialReplyBuffer = 64 << 10

// Client sends PCF commands over a Transport and maps the answers to the
// port's types. A Client is used by one goroutine at a time.
type Client struct {
	T Transport
	// Wait is how long the command server may take to answer a command.
	Wait time.Duration
	// Loc is the zone the queue manager writes status dates and times in.
	Loc *time.Location
	// MaxMsgLen bounds the reply buffer (the queue manager's MAXMSGL).
	MaxMsgLen int
	// ZOS leaves out of handle and connection inquiries what z/OS refuses
	// (zos.go).
	ZOS bool
}

// requestMD is the descriptor of a command: a request whose replies come to
// the reply queue with the command's MsgId as CorrelId. It is not persistent
// (a DEFPSIST(YES) command queue would otherwise make it persistent, and so
// its replies, which a temporary dynamic reply queue refuses with 2048); it
// expires after the command wait, and MQRO_PASS_DISCARD_AND_EXPIRY with
// MQRO_DISCARD_MSG gives its replies the same expiry and has them discarded,
// not dead-lettered, when the reply queue has gone: this tool's own replies
// must never land on the dead-letter queue it watches.
func (c *Client) requestMD() mqfmt.MQMD {
	md := mqfmt.NewMQMD()
	md.Format = fmtAdmin
	md.MsgType = mtRequest
	md.Encoding = mqfmt.EncodingFor(requestOrder)
	md.CodedCharSetId = mqfmt.CCSIDUTF8
	md.Persistence = perNotPersistent
	md.Report = roPassDiscardAndExpiry | roDiscardMsg
	md.Expiry = int32(c.Wait/(100*time.Millisecond)) + 50
	md.ReplyToQ = c.T.ReplyQueue()
	return md
}

// Run sends one command and collects its replies. verb names the command in
// errors; empty lists the reasons that mean "nothing found".
func (c *Client) Run(ctx context.Context, verb, object string, command int32, params []Param, empty []int32) ([]Message, []mqwatch.ObjectError, error) {
	md := c.requestMD()
	data, err := encodeCommand(requestOrder, command, params)
	if err != nil {
		return nil, nil, fmt.Errorf("%s %s: %w", verb, object, err)
	}
	if err := c.T.Put(ctx, &md, data); err != nil {
		return nil, nil, err
	}
	deadline := time.Now().Add(c.Wait)
	set := replySet{verb: verb, object: object}
	for !set.done {
		m, err := c.next(ctx, md.MsgId, deadline, verb, object)
		if err != nil {
			return nil, nil, err
		}
		set.add(m)
	}
	return set.result(empty)
}

// next waits for the next reply in slices of at most Slice, so a cancelled
// ctx ends the wait within one, and decodes it.
func (c *Client) next(ctx context.Context, msgID [24]byte, deadline time.Time, verb, object string) (Message, error) {
	size := initialReplyBuffer
	grown := 0
	for {
		if err := ctx.Err(); err != nil {
			return Message{}, fmt.Errorf("%s %s: %w", verb, object, err)
		}
		left := time.Until(deadline)
		if left <= 0 {
			return Message{}, fmt.Errorf("%s %s: no reply from the command server within %s (is it running? strmqcsv): %w",
				verb, object, c.Wait, context.DeadlineExceeded)
		}
		m, err := c.T.Get(ctx, msgID, min(left, Slice), size)
		switch rc := mqwatch.ReasonOf(err); {
		case rc == rcNoMsgAvailable:
			continue
		case rc == rcTruncatedFailed && grown < 2:
			// The message stays on the queue. Its length is the unconverted
			// one and conversion to UTF-8 can make it longer (EBCDIC
			// accented letters take two bytes): the retry leaves room, and a
			// message that still expands too far comes back unconverted
			// (2120) rather than lost.
			if size, err = replyBuffer(m.Length, grown, c.MaxMsgLen); err != nil {
				return Message{}, fmt.Errorf("%s %s: reply: %w", verb, object, err)
			}
			grown++
			continue
		case rc == rcNotConverted || rc == rcConvertedTooBig:
			return decodeUnconverted(&m, verb, object)
		case err != nil:
			return Message{}, err
		}
		return decodeReply(&m, verb, object)
	}
}

// replyBuffer sizes the retry after 2080: the unconverted length, doubled on
// the first retry for conversion to expand into, bounded by limit.
func replyBuffer(need, grown, limit int) (int, error) {
	n, err := GrowBuffer(need, limit)
	if err != nil {
		return 0, err
	}
	if limit <= 0 || limit > maxMsgLength {
		limit = maxMsgLength
	}
	return min(n<<(grown+1), limit), nil
}

// GrowBuffer returns the buffer size for a retry after the data did not fit:
// the message's full length, bounded by limit (the largest message the queue
// manager can hold, MQ's 100 MB when limit is 0), so a corrupt length cannot
// cause a huge allocation.
func GrowBuffer(need, limit int) (int, error) {
	if limit <= 0 || limit > maxMsgLength {
		limit = maxMsgLength
	}
	if need <= 0 || need > limit {
		return 0, fmt.Errorf("message length %d is outside 1..%d", need, limit)
	}
	return need, nil
}

func decodeReply(m *mqwatch.Message, verb, object string) (Message, error) {
	bo, err := m.MD.Encoding.ByteOrder()
	if err != nil {
		return Message{}, fmt.Errorf("%s %s: reply: %w", verb, object, err)
	}
	pm, err := Decode(m.Data, bo)
	if err != nil {
		return Message{}, fmt.Errorf("%s %s: reply: %w", verb, object, err)
	}
	return pm, nil
}

// decodeUnconverted reads a reply the queue manager returned unconverted
// (2119: no conversion to UTF-8 exists; 2120: it would not fit): the MQMD's
// Encoding and CodedCharSetId describe it, as IBM documents, so the integers
// are read in its byte order and each string is converted here from its
// MQCFST/MQCFSL CCSID (or the message's).
func decodeUnconverted(m *mqwatch.Message, verb, object string) (Message, error) {
	pm, err := decodeReply(m, verb, object)
	if err != nil {
		return pm, err
	}
	if err := toUTF8(pm.Params, m.MD.CodedCharSetId); err != nil {
		return Message{}, fmt.Errorf("%s %s: reply in CCSID %d: %w", verb, object, m.MD.CodedCharSetId, err)
	}
	return pm, nil
}

// toUTF8 converts the strings of params in place. CCSID 0 (MQCCSI_DEFAULT)
// in a structure means the message's CCSID.
func toUTF8(params []Param, msgCCSID int32) error {
	for i := range params {
		p := &params[i]
		ccsid := p.CCSID
		if ccsid == 0 {
			ccsid = msgCCSID
		}
		var err error
		switch p.Type {
		case cftString:
			p.Str, err = mqfmt.DecodeText([]byte(p.Str), ccsid)
		case cftStringList:
			for j := range p.Strs {
				if p.Strs[j], err = mqfmt.DecodeText([]byte(p.Strs[j]), ccsid); err != nil {
					break
				}
			}
		case cftGroup:
			err = toUTF8(p.Group, msgCCSID)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// partial turns per-object failures into the port's PartialError.
func partial(verb, pattern string, objs []mqwatch.ObjectError) error {
	if len(objs) == 0 {
		return nil
	}
	return &mqwatch.PartialError{Verb: verb, Pattern: pattern, Objects: objs}
}
