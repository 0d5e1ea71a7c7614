package cli

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestR10f_RequeueLoopOnTheDemo: on the built-in demo, QM1's dead letters
// for ORDERS.EXPRESS (2053, written by its consumer while ORDERS.BO is full)
// are predicted to come back, and a requeue sees them come back: the
// consumers keep running through the check, the result says so, --json
// counts came_back per message and in the totals, and the exit code is 1.
func TestR10f_RequeueLoopOnTheDemo(t *testing.T) {
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	args := []string{"requeue", "--scenario", "builtin", "--qmgr", "QM1", "--queue", "SYSTEM.DEAD.LETTER.QUEUE", "--reason", "2053"}
	code, out, _ := runActionCLI(t, append(args, "--dry-run")...)
	if code != ExitFailed || !strings.Contains(out, "would come back: 7 (consumer of ORDERS.EXPRESS.IN (sync-transacted) dead-letters them while ORDERS.BO is full (40/40))") {
		t.Fatalf("dry run: exit %d\n%s", code, out)
	}
	code, out, errOut := runActionCLI(t, append(args, "--verify", "20s", "--json")...)
	var res struct {
		Done     int `json:"done"`
		CameBack int `json:"came_back"`
		Items    []struct {
			CameBack bool `json:"came_back"`
		} `json:"items"`
	}
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatalf("%v\n%s%s", err, out, errOut)
	}
	back := 0
	for _, it := range res.Items {
		if it.CameBack {
			back++
		}
	}
	if code != ExitPartial || res.Done != 7 || res.CameBack != 7 || back != 7 {
		t.Fatalf("exit %d, done %d, came back %d (%d items)\n%s", code, res.Done, res.CameBack, back, out)
	}
}

// TestR10f_ReplayLoopOnTheDemo: a replay of the same dead letters puts
// copies with new MsgIds, which the consumer of ORDERS.EXPRESS.IN
// dead-letters again: the check tells them from the originals still on the
// DEADQ, --json names each copy's MsgId and counts it back, exit code 1.
func TestR10f_ReplayLoopOnTheDemo(t *testing.T) {
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	code, out, errOut := runActionCLI(t, "replay", "--scenario", "builtin", "--qmgr", "QM1", "--queue", "SYSTEM.DEAD.LETTER.QUEUE",
		"--reason", "2053", "--verify", "20s", "--json")
	var res struct {
		Done     int `json:"done"`
		CameBack int `json:"came_back"`
		Items    []struct {
			MsgId     string `json:"msg_id"`
			CopyMsgId string `json:"copy_msg_id"`
			CameBack  bool   `json:"came_back"`
		} `json:"items"`
	}
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatalf("%v\n%s%s", err, out, errOut)
	}
	back := 0
	for _, it := range res.Items {
		if it.CopyMsgId == "" || it.CopyMsgId == it.MsgId {
			t.Errorf("copy MsgId %q of %s", it.CopyMsgId, it.MsgId)
		}
		if it.CameBack {
			back++
		}
	}
	if code != ExitPartial || res.Done != 7 || res.CameBack != 7 || back != 7 {
		t.Fatalf("exit %d, done %d, came back %d (%d items)\n%s", code, res.Done, res.CameBack, back, out)
	}
}

// TestR10_DryRunPredicts2087OnTheDemo: QM2's dead letters for STOCK.IN@QM9
// would fail with 2087 in requeue --dry-run, which exits 3 (none would go).
func TestR10_DryRunPredicts2087OnTheDemo(t *testing.T) {
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	code, out, _ := runActionCLI(t, "requeue", "--scenario", "builtin", "--qmgr", "QM2", "--queue", "QM2.DEAD.LETTER.QUEUE",
		"--dest", "STOCK.IN", "--dry-run")
	if code != ExitFailed || !strings.Contains(out, "would be acted on, 32 would fail") ||
		!strings.Contains(out, "STOCK.IN@QM9 cannot be reached") || !strings.Contains(out, "MQRC_UNKNOWN_REMOTE_Q_MGR 2087") {
		t.Fatalf("exit %d\n%s", code, out)
	}
}
