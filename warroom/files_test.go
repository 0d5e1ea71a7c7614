package warroom

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/poisonwatch/poisonwatch/actions/ops"
	"github.com/poisonwatch/poisonwatch/internal/confine"
)

// A viewer whose bodies are unmasked (serve --viewer-bodies) still reads no
// host file: file access is the session's capability, not its masking.
// An operator reads only inside the server's files directory.
func TestServerViewerBodiesReadNoHostFile(t *testing.T) {
	ts := startTestServer(t, nil)
	ts.viewerBodies.Store(true)
	if err := os.WriteFile(filepath.Join(ts.srv.cfg.Files.Path(), "ok.rules"), []byte("ACTION(RETRY)\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	bob := ts.open("bob")
	bob.waitFor("in the room (1)")
	bob.in.Write([]byte(":rules /etc/passwd\r"))
	bob.waitFor("a viewer reads and writes no files on the host")

	alice := ts.open("alice")
	alice.waitFor("in the room (2)")
	alice.in.Write([]byte(":rules /etc/passwd\r"))
	alice.waitFor("outside the server's files directory")
	alice.reset()
	alice.in.Write([]byte("\x1b"))
	alice.waitFor("Queues by severity")
	alice.in.Write([]byte(":rules ok.rules\r"))
	alice.waitFor("ok.rules loaded: 1 rules")
}

// Every file a request names is resolved in the files directory before the
// engine sees it: an export to /tmp or through a link out is refused, a
// viewer's is refused whatever the path.
func TestSessionOpsConfineRequestFiles(t *testing.T) {
	e := newOpsEnv(t)
	base := t.TempDir()
	files, err := confine.Open(filepath.Join(base, "room"))
	if err != nil {
		t.Fatal(err)
	}
	defer files.Close()
	if err := os.Symlink(base, filepath.Join(files.Path(), "out")); err != nil {
		t.Fatal(err)
	}
	op := e.seat(alice)
	op.Files = files
	export := ops.OpRequest{Op: ops.OpExport, QMgr: "QM1", Queue: "QM1.DEADQ", All: true}
	for _, p := range []string{filepath.Join(base, "stolen.dmp"), "../stolen.dmp", "out/stolen.dmp"} {
		req := export
		req.File = p
		if _, err := op.Run(context.Background(), req, nil); !errors.Is(err, confine.ErrOutside) {
			t.Errorf("export to %s: err = %v, want outside", p, err)
		}
	}
	if _, err := os.Stat(filepath.Join(base, "stolen.dmp")); err == nil {
		t.Fatal("an export was written outside the files directory")
	}
	req := export
	req.File = "QM1.dmp"
	res, err := op.Run(context.Background(), req, nil)
	if err != nil || res.Done != 3 {
		t.Fatalf("export inside: done %d, err %v", res.Done, err)
	}
	if _, err := os.Stat(filepath.Join(files.Path(), "QM1.dmp")); err != nil {
		t.Fatal(err)
	}
	for _, op := range []ops.Op{ops.OpImport, ops.OpDiscard} {
		req := export
		req.Op, req.File = op, "/etc/passwd"
		if _, err := e.seat(carol).Plan(context.Background(), req); err == nil || !strings.Contains(err.Error(), noFilesServer) {
			t.Errorf("%s with no files directory: err = %v", op, err)
		}
	}
}
