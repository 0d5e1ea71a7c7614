package ibmmq

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// mqHome is a fake IBM MQ install under testdata/mqhome: an inc/cmqc.h
// with only the lines .ci/mq-headers reads.
func mqHome(t *testing.T, name string) string {
	t.Helper()
	d, err := filepath.Abs(filepath.Join("testdata", "mqhome", name))
	if err != nil {
		t.Fatal(err)
	}
	return d
}

func runMQHeaders(t *testing.T, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("no bash")
	}
	cmd := exec.Command(filepath.Join("..", "..", ".ci", "mq-headers"), args...)
	var out, errOut strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err := cmd.Run()
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return strings.TrimSpace(out.String()), errOut.String(), code
}

// .ci/mq-headers reads the command level of the cmqc.h `make build-mq`
// compiles against and says plainly whether --token-file can work (IBM MQ
// 9.3.4, MQCSP version 3); with --tokens, older headers fail.
func TestMQHeadersScript(t *testing.T) {
	for _, tt := range []struct {
		home, flag, level string
		code              int
		says              string
	}{
		{"934", "--tokens", "934", 0, "IBM MQ 9.3.4 (command level 934)"},
		{"vrm", "--tokens", "940", 0, "--token-file works"},
		{"932", "", "932", 0, "this build refuses --token-file"},
		{"932", "--tokens", "", 1, "--token-file needs the headers of IBM MQ 9.3.4 or later"},
		{"none", "", "", 2, "no cmqc.h in"},
	} {
		args := []string{"-O2 -I " + filepath.Join(mqHome(t, tt.home), "inc")}
		if tt.flag != "" {
			args = append([]string{tt.flag}, args...)
		}
		level, says, code := runMQHeaders(t, args...)
		if level != tt.level || code != tt.code || !strings.Contains(says, tt.says) {
			t.Errorf("%s %s: level %q exit %d, want %q and %d saying %q:\n%s", tt.home, tt.flag, level, code, tt.level, tt.code, tt.says, says)
		}
	}
}

// make build-mq runs the check and stamps the level; GO=echo shows the
// build command without building.
func TestMakeBuildMQChecksTheHeaders(t *testing.T) {
	if _, err := exec.LookPath("make"); err != nil {
		t.Skip("no make")
	}
	build := func(home string, vars ...string) (string, error) {
		cmd := exec.Command("make", append([]string{"-s", "-C", filepath.Join("..", ".."), "build-mq", "GO=echo", "MQ_HOME=" + mqHome(t, home)}, vars...)...)
		cmd.Env = append(os.Environ(), "CGO_CFLAGS=", "CGO_LDFLAGS=")
		out, err := cmd.CombinedOutput()
		return string(out), err
	}
	out, err := build("934", "MQ_TOKENS=1")
	if err != nil || !strings.Contains(out, "ibmmq.headerLevel=934") {
		t.Errorf("9.3.4 headers: %v\n%s", err, out)
	}
	out, err = build("932", "MQ_TOKENS=1")
	if err == nil || !strings.Contains(out, "tokens are wanted") || strings.Contains(out, "build -tags") {
		t.Errorf("9.3.2 headers with tokens wanted must fail before building: %v\n%s", err, out)
	}
	out, err = build("932")
	if err != nil || !strings.Contains(out, "ibmmq.headerLevel=932") || !strings.Contains(out, "refuses --token-file") {
		t.Errorf("9.3.2 headers, tokens not wanted: %v\n%s", err, out)
	}
}

// A binary stamped with headers older than 9.3.4 refuses --token-file:
// mq-golang would connect without the token.
func TestTokenNeedsHeadersOf934(t *testing.T) {
	t.Cleanup(func() { headerLevel = "" })
	tok := secretFile(t, 0o600, "eyJhbGciOi")
	vars := map[string]string{EnvMQServer: "C/TCP/h(1)"}
	for level, wantErr := range map[string]string{"": "", "934": "", "945": "", "932": "IBM MQ 9.3.2 headers", "0": "unknown IBM MQ version"} {
		headerLevel = level
		_, err := resolved(t, vars, "-token-file", tok)
		if wantErr == "" && err != nil || wantErr != "" && (err == nil || !strings.Contains(err.Error(), wantErr)) {
			t.Errorf("headers %q: %v, want %q", level, err, wantErr)
		}
		if _, err := resolved(t, vars); err != nil {
			t.Errorf("headers %q without a token: %v", level, err)
		}
	}
}
