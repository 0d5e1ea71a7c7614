package doctor

import (
	"context"
	"encoding/binary"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/poisonwatch/poisonwatch/backend/embedded"
	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
	"github.com/poisonwatch/poisonwatch/mqwatch"
	"github.com/poisonwatch/poisonwatch/mqwatch/pcf"
)

// platformConnector reports another platform from MQINQ, and a warning
// from MQCONNX when warn is set.
type platformConnector struct {
	*embedded.QMgr
	platform string
	warn     error
}

func (p platformConnector) Connect(ctx context.Context, o mqwatch.ConnectOptions) (mqwatch.Conn, error) {
	c, err := p.QMgr.Connect(ctx, o)
	if err != nil {
		return nil, err
	}
	return platformConn{Conn: c, platform: p.platform}, p.warn
}

type platformConn struct {
	mqwatch.Conn
	platform string
}

func (c platformConn) QMgr(ctx context.Context) (mqwatch.QMgrInfo, error) {
	info, err := c.Conn.QMgr(ctx)
	if c.platform != "" {
		info.Platform = c.platform
	}
	return info, err
}

// countingTransport records the PCF commands sent.
type countingTransport struct {
	pcf.Transport
	cmds *[]int32
}

func (t countingTransport) Put(ctx context.Context, md *mqfmt.MQMD, data []byte) error {
	if m, err := pcf.Decode(data, binary.LittleEndian); err == nil {
		*t.cmds = append(*t.cmds, m.Header.Command)
	}
	return t.Transport.Put(ctx, md, data)
}

// TestDoctorZOSProbeAndQueues: on z/OS the command server is probed with
// DISPLAY QMGR (PING QMGR is Multiplatforms only), never PING; elsewhere
// PING; the PCF queues checked are those given (--command-queue,
// --reply-model) or the platform's.
func TestDoctorZOSProbeAndQueues(t *testing.T) {
	for _, tc := range []struct {
		name, platform string
		ping           bool
		why            string
	}{
		{"zos_display_qmgr_not_ping", "ZOS", false, "DISPLAY QMGR answered on SYSTEM.COMMAND.INPUT (z/OS: PING QMGR is Multiplatforms only)"},
		{"multiplatforms_ping", "", true, "MQCMD_PING_Q_MGR answered"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			qm := newQM(t, baseMQSC, true)
			var cmds []int32
			tg := target(qm, "")
			tg.Connector = platformConnector{QMgr: qm.QMgr, platform: tc.platform}
			tg.Admin = func(ctx context.Context, c mqwatch.Conn) (*pcf.Client, func() error, error) {
				pt, err := pcf.OpenPort(ctx, c, pcf.DefaultCommandQueue, pcf.DefaultReplyModel)
				if err != nil {
					return nil, nil, err
				}
				return &pcf.Client{T: countingTransport{pt, &cmds}, Wait: 2 * time.Second}, func() error { return pt.Close(ctx) }, nil
			}
			r := Run(context.Background(), tg)
			if c := find(t, r, "command server"); !c.OK || !strings.Contains(c.Why, tc.why) {
				t.Errorf("command server %+v", c)
			}
			if slices.Contains(cmds, pcf.CmdPingQMgr) != tc.ping {
				t.Errorf("commands sent %v: PING_Q_MGR sent %v, want %v", cmds, !tc.ping, tc.ping)
			}
		})
	}
	got := needs(mqwatch.QMgrInfo{Name: "QM1"}, nil, "MY.COMMAND.QUEUE", "MY.REPLY.MODEL")
	if got[1].object != "MY.COMMAND.QUEUE" || got[2].object != "MY.REPLY.MODEL" {
		t.Errorf("--command-queue and --reply-model are not the queues checked: %+v", got[:3])
	}
}

// TestDoctorShowsAnMQCONNXWarning: a connection made with MQCC_WARNING is
// a connection; the warning is shown on the MQCONNX line, not lost.
func TestDoctorShowsAnMQCONNXWarning(t *testing.T) {
	qm := newQM(t, baseMQSC, true)
	w := mqwatch.NewError("MQCONNX", "QM1", mqfmt.Reason(2002)) // MQRC_ALREADY_CONNECTED
	w.CC = mqfmt.CCWarning
	tg := target(qm, "")
	tg.Connector = platformConnector{QMgr: qm.QMgr, warn: w}
	r := Run(context.Background(), tg)
	c := find(t, r, "MQCONNX")
	if !c.OK || !strings.Contains(c.Why, "with a warning: MQRC_ALREADY_CONNECTED (2002)") || r.Exit == ExitNoConnection {
		t.Errorf("MQCONNX %+v exit %d", c, r.Exit)
	}
}
