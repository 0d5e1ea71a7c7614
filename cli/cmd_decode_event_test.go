package cli

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
	"github.com/poisonwatch/poisonwatch/mqwatch/pcf"
)

// TestDecodeShowsAnEvent: a message of SYSTEM.ADMIN.QMGR.EVENT is shown
// as the event it is, by name and parameters, in text and JSON.
func TestDecodeShowsAnEvent(t *testing.T) {
	data, err := pcf.EncodeEvent(mqfmt.EncodingNormal, mqfmt.EventCmdQMgr, mqfmt.RCNotAuthorized, []pcf.Param{
		pcf.Str(pcf.EventParamQMgrName, "QM1"), pcf.Int(pcf.EventParamReasonQualifier, 2),
		pcf.Str(pcf.EventParamUserIdentifier, "app1\x1b[2J"), pcf.Str(pcf.EventParamQName, "APP.IN")})
	if err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(t.TempDir(), "event.bin")
	if err := os.WriteFile(file, data, 0o600); err != nil {
		t.Fatal(err)
	}
	for _, asJSON := range []bool{false, true} {
		args := []string{"decode", "--mqmd-format", "MQEVENT", "--encoding", "273", file}
		if asJSON {
			args = append(args[:1], append([]string{"--json"}, args[1:]...)...)
		}
		var out, errb bytes.Buffer
		if code := Run(context.Background(), args, &out, &errb); code != 0 {
			t.Fatalf("exit %d: %s", code, errb.String())
		}
		for _, want := range []string{"Not Authorized (type 2: open)", "MQRC_NOT_AUTHORIZED (2035)", "MQCMD_Q_MGR_EVENT",
			"MQRQ_OPEN_NOT_AUTHORIZED", "APP.IN"} {
			if !strings.Contains(out.String(), want) {
				t.Errorf("json=%v: output lacks %q:\n%s", asJSON, want, out.String())
			}
		}
		if strings.Contains(out.String(), "\x1b") {
			t.Errorf("json=%v: an escape reached the output", asJSON)
		}
	}
}
