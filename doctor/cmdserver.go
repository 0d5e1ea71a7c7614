package doctor

import (
	"context"
	"fmt"
	"time"

	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
	"github.com/poisonwatch/poisonwatch/mqwatch"
	"github.com/poisonwatch/poisonwatch/mqwatch/pcf"
)

// commandServer pings the command server (MQCMD_PING_Q_MGR), then inquires
// the queue manager (DISPLAY QMGR) for the facts the later checks need. On
// z/OS, where PING_Q_MGR is not a command (it is Multiplatforms only), the
// probe is DISPLAY QMGR itself, on z/OS's command queues.
func (s *session) commandServer(ctx context.Context) {
	s.qmgrByMQINQ(ctx) // the platform decides the probe and the queues
	s.zos = s.hasInf && s.info.Platform == "ZOS"
	s.cmdQ, s.replyModel = s.t.CommandQueue, s.t.ReplyModel
	switch {
	case s.cmdQ == "" && s.zos:
		s.cmdQ = zosCommandQueue
	case s.cmdQ == "":
		s.cmdQ = pcf.DefaultCommandQueue
	}
	switch {
	case s.replyModel == "" && s.zos:
		s.replyModel = zosReplyModel
	case s.replyModel == "":
		s.replyModel = pcf.DefaultReplyModel
	}
	cl, closeFn, err := s.admin(ctx)
	if err != nil {
		s.add(Check{Name: "command server", Feature: "dashboard", Why: "the PCF queues could not be opened: " + describe(err),
			Details: []string{"the dashboard sends DISPLAY QUEUE and DISPLAY QSTATUS to " + s.cmdQ + " and reads replies on a queue made from " + s.replyModel}})
		return
	}
	s.closers = append(s.closers, closeFn)
	cl.ZOS = s.zos
	if s.zos {
		s.zosProbe(ctx, cl)
		return
	}
	if err := cl.Ping(ctx); err != nil {
		s.add(Check{Name: "command server", Feature: "dashboard", Why: "MQCMD_PING_Q_MGR: " + describe(err),
			Details: []string{"start it on the MQ host with `strmqcsv QMGR` (or ALTER QMGR SCMDSERV(QMGR) so it starts with the queue manager)"}})
		s.qmgrByMQINQ(ctx)
		return
	}
	info, err := cl.QMgr(ctx)
	if err != nil {
		s.add(Check{Name: "command server", Feature: "dashboard", Why: "MQCMD_PING_Q_MGR answered, but DISPLAY QMGR failed: " + describe(err)})
		s.qmgrByMQINQ(ctx)
		s.cl = cl // the ping works: authority inquiries may still be answered
		return
	}
	s.cl, s.info, s.hasInf = cl, info, true
	s.add(Check{Name: "command server", OK: true, Why: fmt.Sprintf("MQCMD_PING_Q_MGR answered; DISPLAY QMGR: %s, %s, CMDLEVEL %d, DEADQ %s",
		info.Name, info.Platform, info.CommandLevel, orNone(info.DeadQ))})
}

// zosProbe is the z/OS command server check: DISPLAY QMGR (INQUIRE_Q_MGR).
func (s *session) zosProbe(ctx context.Context, cl *pcf.Client) {
	info, err := cl.QMgr(ctx)
	if err != nil {
		s.add(Check{Name: "command server", Feature: "dashboard", Why: "DISPLAY QMGR (MQCMD_INQUIRE_Q_MGR; z/OS has no PING QMGR): " + describe(err),
			Details: []string{"the command server (the CHIN's command server, started with the queue manager) reads " + s.cmdQ}})
		return
	}
	s.cl, s.info, s.hasInf = cl, info, true
	s.add(Check{Name: "command server", OK: true, Why: fmt.Sprintf("DISPLAY QMGR answered on %s (z/OS: PING QMGR is Multiplatforms only): %s, CMDLEVEL %d, DEADQ %s",
		s.cmdQ, info.Name, info.CommandLevel, orNone(info.DeadQ))})
}

// qmgrByMQINQ falls back to MQINQ on the queue manager object for the DEADQ.
func (s *session) qmgrByMQINQ(ctx context.Context) {
	if info, err := s.conn.QMgr(ctx); err == nil {
		s.info, s.hasInf = info, true
	}
}

func (s *session) admin(ctx context.Context) (*pcf.Client, func() error, error) {
	if s.t.Admin != nil {
		return s.t.Admin(ctx, s.conn)
	}
	t, err := pcf.OpenPort(ctx, s.conn, s.cmdQ, s.replyModel)
	if err != nil {
		return nil, nil, err
	}
	wait := s.t.Wait
	if wait <= 0 {
		wait = 5 * time.Second
	}
	return &pcf.Client{T: t, Wait: wait}, func() error { return t.Close(context.Background()) }, nil
}

// principal is the user the connection runs as, from DISPLAY CONN of this
// application's connection when exactly one matches; else the configured one.
func (s *session) principal(ctx context.Context) string {
	if s.cl == nil || s.t.Connect.ApplName == "" {
		return s.t.Principal
	}
	conns, err := s.cl.Connections(ctx)
	if _, err = mqwatch.SplitPartial(err); err != nil {
		return s.t.Principal
	}
	user, n := "", 0
	for _, c := range conns {
		if c.ApplTag == s.t.Connect.ApplName {
			user, n = c.User, n+1
		}
	}
	if n == 1 && user != "" {
		return user
	}
	return s.t.Principal
}

func describe(err error) string {
	if rc := mqwatch.ReasonOf(err); rc != 0 {
		return rc.Describe()
	}
	return mqfmt.Sanitize(err.Error())
}

func orNone(s string) string {
	if s == "" {
		return "(none)"
	}
	return s
}
