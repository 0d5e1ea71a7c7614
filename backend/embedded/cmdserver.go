package embedded

import (
	"context"
	"encoding/hex"
	"errors"
	"sync"
	"time"

	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
	"github.com/poisonwatch/poisonwatch/mqwatch"
	"github.com/poisonwatch/poisonwatch/mqwatch/pcf"
)

// CommandQueue is the queue the command server reads PCF commands from.
const CommandQueue = pcf.DefaultCommandQueue

// cmdServerAppl is the application tag of IBM's command server on
// Multiplatforms, shown in its handle and connection status and in the
// MQDLH of a reply it could not deliver.
const cmdServerAppl = "amqpcsea"

// CommandServer answers PCF inquiries put on SYSTEM.ADMIN.COMMAND.QUEUE as
// IBM's command server (strmqcsv) does, for the commands this tool sends:
// MQCMD_INQUIRE_Q, MQCMD_INQUIRE_Q_STATUS (queue and handle status),
// MQCMD_INQUIRE_Q_MGR and MQCMD_INQUIRE_CONNECTION, and the changes a fix
// applies (MQCMD_CHANGE_Q, MQCMD_COPY_Q, MQCMD_CREATE_Q, MQCMD_CHANGE_Q_MGR:
// cmdserver_change.go). It checks display
// authority as the request's UserIdentifier, replies to ReplyToQ with the
// request's MsgId as CorrelId, the request's persistence and, with
// MQRO_PASS_DISCARD_AND_EXPIRY, its expiry and MQRO_DISCARD_MSG; a reply it
// cannot deliver is discarded when the request asked so, else dead-lettered.
type CommandServer struct {
	qm     *QMgr
	conn   mqwatch.Conn
	in     mqwatch.Queue
	cancel context.CancelFunc
	done   chan struct{}

	mu   sync.Mutex
	fail map[string]mqfmt.Reason
	err  error
}

// StartCommandServer starts the command server on its own connection.
func (qm *QMgr) StartCommandServer() (*CommandServer, error) {
	ctx, cancel := context.WithCancel(context.Background())
	c, err := qm.Connect(ctx, mqwatch.ConnectOptions{ApplName: cmdServerAppl})
	if err != nil {
		cancel()
		return nil, err
	}
	in, err := c.Open(ctx, mqwatch.ObjectDesc{Name: CommandQueue}, mqwatch.OpenOptions{Input: true})
	if err != nil {
		cancel()
		return nil, errors.Join(err, c.Close())
	}
	s := &CommandServer{qm: qm, conn: c, in: in, cancel: cancel, done: make(chan struct{}), fail: map[string]mqfmt.Reason{}}
	go s.run(ctx)
	return s, nil
}

// FailObject makes every later inquiry that covers queue name report it as
// failed with rc, as a queue deleted while the command runs (2085), a damaged
// one (2101) or one the requester may not display (2035) is reported among
// the others; rc 0 clears it. The queue need not exist.
func (s *CommandServer) FailObject(name string, rc mqfmt.Reason) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if rc == 0 {
		delete(s.fail, name)
		return
	}
	s.fail[name] = rc
}

// Stop ends the command server (endmqcsv) and reports why it stopped if it
// stopped on its own.
func (s *CommandServer) Stop() error {
	s.cancel()
	<-s.done
	s.mu.Lock()
	defer s.mu.Unlock()
	return errors.Join(s.err, s.conn.Close())
}

func (s *CommandServer) run(ctx context.Context) {
	defer close(s.done)
	for ctx.Err() == nil {
		m, err := s.in.Get(ctx, mqwatch.GetOptions{Wait: 100 * time.Millisecond})
		switch {
		case mqwatch.IsReason(err, mqfmt.RCNoMsgAvailable), ctx.Err() != nil:
			continue
		case err != nil:
			s.mu.Lock()
			s.err = err
			s.mu.Unlock()
			return
		}
		s.serve(ctx, &m)
	}
}

// serve answers one request. A message that is not a PCF request gets no
// answer, as the command server treats it.
func (s *CommandServer) serve(ctx context.Context, req *mqwatch.Message) {
	md := &req.MD
	if md.MsgType != mqfmt.MTRequest || md.Format != mqfmt.FmtAdmin || mqfmt.Trim(md.ReplyToQ) == "" {
		return
	}
	bo, err := md.Encoding.ByteOrder()
	var a pcf.Answer
	var cmd pcf.Command
	if err == nil {
		cmd, err = pcf.ParseCommand(req.Data, bo)
	}
	user := s.principal(md.UserIdentifier)
	if err == nil && cmd.Code != pcf.CmdPingQMgr && !s.mayCommand(user) {
		// IBM MQ: a PCF command needs display authority on the queue
		// manager ("Authorizations for PCF commands"), whatever it does.
		// PING QMGR stays the doctor's probe of whether the server runs.
		a.Reason = int32(mqfmt.RCNotAuthorized)
	} else if err == nil && isChange(cmd.Code) {
		if replies, err := s.change(req.Data, bo, cmd.Code, user); err == nil {
			s.reply(ctx, md, replies)
		}
		return
	}
	switch {
	case err != nil:
		a.Reason = pcf.ReasonCFHTypeError
	case a.Reason == 0:
		a = s.answer(cmd, user)
	}
	replies, err := pcf.EncodeAnswer(bo, cmd.Code, a)
	if err != nil {
		return
	}
	s.reply(ctx, md, replies)
}

// mayCommand reports whether user holds dsp on the queue manager, which
// every PCF command needs.
func (s *CommandServer) mayCommand(user string) bool {
	qm := s.qm
	qm.mu.Lock()
	defer qm.mu.Unlock()
	return qm.auth.check(user, otQMgr, qm.name, authDsp)
}

// principal is the authority principal for a request's UserIdentifier: the
// process user is the administrator, as connections without a user are.
func (s *CommandServer) principal(userID string) string {
	u := mqfmt.Trim(userID)
	if u == s.qm.opts.ProcessUser {
		return ""
	}
	return u
}

// reply puts the answer on the request's ReplyToQ.
func (s *CommandServer) reply(ctx context.Context, req *mqfmt.MQMD, replies [][]byte) {
	q, err := s.conn.Open(ctx, mqwatch.ObjectDesc{Name: mqfmt.Trim(req.ReplyToQ), QMgr: mqfmt.Trim(req.ReplyToQMgr)},
		mqwatch.OpenOptions{Output: true})
	if err != nil {
		s.undeliverable(req, replies, mqwatch.ReasonOf(err))
		return
	}
	defer func() { _ = q.Close(ctx) }()
	for i, data := range replies {
		md := replyMD(req)
		if err := q.Put(ctx, &md, data, mqwatch.PutOptions{NewMsgId: true}); err != nil {
			s.undeliverable(req, replies[i:], mqwatch.ReasonOf(err))
			return
		}
	}
}

// replyMD is the descriptor of a reply to req.
func replyMD(req *mqfmt.MQMD) mqfmt.MQMD {
	md := mqfmt.NewMQMD()
	md.MsgType = mqfmt.MTReply
	md.Format = mqfmt.FmtAdmin
	md.CorrelId = req.MsgId
	md.Encoding = req.Encoding
	md.CodedCharSetId = mqfmt.CCSIDUTF8
	md.Persistence = req.Persistence
	if req.Report&mqfmt.ROPassDiscardAndExpiry != 0 {
		md.Expiry = req.Expiry
		md.Report = req.Report & mqfmt.RODiscardMsg
	}
	return md
}

// undeliverable disposes of replies that could not be put: discarded when
// the request asked for MQRO_DISCARD_MSG (passed on to its replies), else
// put on the dead-letter queue with the reason, as the command server does.
func (s *CommandServer) undeliverable(req *mqfmt.MQMD, replies [][]byte, rc mqfmt.Reason) {
	md := replyMD(req)
	if md.Report&mqfmt.RODiscardMsg != 0 {
		return
	}
	qm := s.qm
	qm.mu.Lock()
	defer qm.mu.Unlock()
	dlq := qm.queues[qm.attrs.deadQ]
	if qm.attrs.deadQ == "" || dlq == nil || dlq.typ != mqwatch.QLocal {
		return
	}
	md.Priority = 0
	md.PutApplName, md.UserIdentifier = cmdServerAppl, qm.opts.ProcessUser
	for _, data := range replies {
		md.MsgId = qm.nextMsgId()
		dmd, payload := qm.deadLetter(md, data, rc, mqfmt.Trim(req.ReplyToQ), qm.name, cmdServerAppl)
		_, _ = qm.putMessage(dlq, dmd, payload, nil)
	}
}

// connIDBytes is a connection id as DISPLAY CONN carries it.
func connIDBytes(idHex string) []byte {
	b, _ := hex.DecodeString(idHex)
	return b
}
