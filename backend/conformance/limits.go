package conformance

import (
	"strings"

	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
	"github.com/poisonwatch/poisonwatch/mqwatch"
)

// Limits and failures with their reason codes (IBM MQ "API completion and
// reason codes").
func limitCases() []testCase {
	return []testCase{
		{"maxdepth_2053", testMaxDepth},
		{"uncommitted_puts_count_toward_maxdepth", testMaxDepthUncommitted},
		{"maxmsgl_2030", testMaxMsgLen},
		{"put_disabled_2051", testPutInhibited},
		{"get_disabled_2016_for_get_and_browse", testGetInhibited},
		{"unknown_object_2085", testUnknownObject},
		{"unknown_alias_base_2082", testUnknownAliasBase},
		{"empty_queue_2033", testEmptyQueue},
		{"calls_need_the_matching_open_option", testHandleOptions},
	}
}

// putErr puts one message and returns the error.
func (e *env) putErr(q mqwatch.Queue, body string, o mqwatch.PutOptions) error {
	md := newMD()
	o.NewMsgId = true
	return q.Put(e.ctx, &md, []byte(body), o)
}

func testMaxDepth(e *env) {
	q := e.open(e.admin(), qSmall, ooOut) // MAXDEPTH(2)
	e.putAll(q, "a", "b")
	e.wantReason(e.putErr(q, "c", mqwatch.PutOptions{}), mqfmt.RCQFull, "third put to a queue with MAXDEPTH(2)")
	e.wantBodies(qSmall, "a", "b")
}

func testMaxDepthUncommitted(e *env) {
	c := e.connect(UserAdmin, "conf-limits")
	uq := e.open(c, qSmall, ooOut)
	for _, b := range []string{"u1", "u2"} {
		e.wantNoErr(e.putErr(uq, b, mqwatch.PutOptions{Syncpoint: true}), "put under syncpoint")
	}
	q := e.open(e.admin(), qSmall, ooOut)
	e.wantReason(e.putErr(q, "c", mqwatch.PutOptions{}), mqfmt.RCQFull, "put while two uncommitted puts fill MAXDEPTH(2)")
	e.wantNoErr(c.Backout(e.ctx), "backout")
	e.wantNoErr(e.putErr(q, "c", mqwatch.PutOptions{}), "put after the uncommitted puts were backed out")
}

func testMaxMsgLen(e *env) {
	q := e.open(e.admin(), qSmall, ooOut) // MAXMSGL(100)
	e.wantNoErr(e.putErr(q, strings.Repeat("x", 100), mqwatch.PutOptions{}), "put of exactly MAXMSGL bytes")
	e.wantReason(e.putErr(q, strings.Repeat("y", 101), mqwatch.PutOptions{}), mqfmt.RCMsgTooBigForQ, "put of MAXMSGL+1 bytes")
	e.wantDepth(qSmall, 1, 0, "after the rejected put")
}

// An inhibited queue opens normally; the put or get fails.
func testPutInhibited(e *env) {
	q := e.open(e.admin(), qPutInh, ooOut)
	e.wantReason(e.putErr(q, "a", mqwatch.PutOptions{}), mqfmt.RCPutInhibited, "put to PUT(DISABLED)")
	e.wantDepth(qPutInh, 0, 0, "after the inhibited put")
}

// InhibitGet: "MQGET calls fail with MQRC_GET_INHIBITED. This includes MQGET
// calls that specify MQGMO_BROWSE_FIRST or MQGMO_BROWSE_NEXT."
func testGetInhibited(e *env) {
	q := e.open(e.admin(), qGetInh, ooInBrw)
	_, err := q.Get(e.ctx, mqwatch.GetOptions{})
	e.wantReason(err, mqfmt.RCGetInhibited, "get from GET(DISABLED)")
	_, err = q.Browse(e.ctx, mqwatch.BrowseOptions{First: true})
	e.wantReason(err, mqfmt.RCGetInhibited, "browse of GET(DISABLED)")
}

func testUnknownObject(e *env) {
	for _, o := range []mqwatch.OpenOptions{ooOut, ooIn, ooBrowse, {Inquire: true}} {
		e.wantOpenFails(e.admin(), mqwatch.ObjectDesc{Name: "CONF.NO.SUCH.QUEUE"}, o,
			mqfmt.RCUnknownObjectName, "open of an undefined queue")
	}
}

func testUnknownAliasBase(e *env) {
	e.wantOpenFails(e.admin(), mqwatch.ObjectDesc{Name: qAliasBad}, ooOut,
		mqfmt.RCUnknownAliasBaseQ, "open of an alias whose TARGET does not exist")
}

func testEmptyQueue(e *env) {
	q := e.open(e.admin(), qMain, ooInBrw)
	_, err := q.Get(e.ctx, mqwatch.GetOptions{})
	e.wantReason(err, mqfmt.RCNoMsgAvailable, "get from an empty queue")
	_, err = q.Browse(e.ctx, mqwatch.BrowseOptions{First: true})
	e.wantReason(err, mqfmt.RCNoMsgAvailable, "browse of an empty queue")
}

// Each call needs its open option: MQRC_NOT_OPEN_FOR_BROWSE (2036), _INPUT
// (2037), _INQUIRE (2038), _OUTPUT (2039).
func testHandleOptions(e *env) {
	e.putTo(qMain, "a")
	in := e.open(e.admin(), qMain, ooIn)
	_, err := in.Browse(e.ctx, bFirst)
	e.wantReason(err, mqfmt.RCNotOpenForBrowse, "browse on an input-only handle")
	e.wantReason(e.putErr(in, "b", mqwatch.PutOptions{}), mqfmt.RCNotOpenForOutput, "put on an input-only handle")
	_, err = in.Inquire(e.ctx)
	e.wantReason(err, mqfmt.RCNotOpenForInquire, "inquire on an input-only handle")
	br := e.open(e.admin(), qMain, ooBrowse)
	_, err = br.Get(e.ctx, mqwatch.GetOptions{})
	e.wantReason(err, mqfmt.RCNotOpenForInput, "get on a browse-only handle")
	e.wantBodies(qMain, "a")
}
