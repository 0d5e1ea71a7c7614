package cli

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/poisonwatch/poisonwatch/internal/sshkey"
)

// A bad --prometheus URL is a usage error, said before anything starts;
// a Prometheus that cannot be reached, or is not a query API, fails the
// start with what is wrong; --alertmanager alone is a usage error. The
// dashboard and serve say it alike.
func TestPrometheusFlagsAreChecked(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	closed := "http://" + l.Addr().String()
	l.Close()
	page := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		fmt.Fprint(w, "<html>Grafana</html>")
	}))
	defer page.Close()
	dir := t.TempDir()
	keys := filepath.Join(dir, "keys")
	if err := os.WriteFile(keys, []byte(sshkey.Client(t, filepath.Join(dir, "k"), "alice")+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	serve := []string{"serve", "--listen", "127.0.0.1:0", "--host-key", filepath.Join(dir, "host"), "--authorized-keys", keys}
	for _, tc := range []struct {
		name string
		args []string
		code int
		want string
	}{
		{"not_a_url", []string{"--prometheus", "prometheus:9090"}, ExitUsage, `--prometheus "prometheus:9090": not an http or https URL (for example http://prometheus:9090)`},
		{"alertmanager_alone", []string{"--alertmanager", "http://am:9093"}, ExitUsage, "--alertmanager needs --prometheus"},
		{"bad_alertmanager", []string{"--prometheus", closed, "--alertmanager", "am"}, ExitUsage, `--alertmanager "am": not an http or https URL`},
		{"unreachable", []string{"--prometheus", closed}, 1, "cannot reach Prometheus at " + closed + ": dial tcp"},
		{"not_a_query_api", []string{"--prometheus", page.URL}, 1, page.URL + " is not a Prometheus query API"},
	} {
		for _, cmd := range [][]string{nil, serve} {
			name := tc.name
			if cmd != nil {
				name = "serve_" + name
			}
			t.Run(name, func(t *testing.T) {
				_, errOut, code := runCLI(append(append([]string{}, cmd...), tc.args...)...)
				if code != tc.code || !strings.Contains(errOut, tc.want) {
					t.Fatalf("exit %d, stderr %q; want %d with %q", code, errOut, tc.code, tc.want)
				}
			})
		}
	}
}

// With --prometheus, the dashboard connects only to the queue managers the
// backend flags name: none at all without any (not even the built-in
// demo), the --qmgrs file's of a scenario with one.
func TestPrometheusConnectsOnlyToNamedQueueManagers(t *testing.T) {
	fleet := fleetFlags{prometheus: "http://prometheus:9090"}
	be, err := fleetBackend(context.Background(), tuiOpts{backend: "embedded", fleet: fleet})
	if err != nil {
		t.Fatal(err)
	}
	be.stop()
	if len(be.qmgrs) != 0 {
		t.Fatalf("connected to %d queue managers nobody named", len(be.qmgrs))
	}
	file := filepath.Join(t.TempDir(), "qmgrs.toml")
	if err := os.WriteFile(file, []byte("[[qmgr]]\nname = \"QM02\"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	be, err = fleetBackend(ctx, tuiOpts{backend: "embedded", scenario: "fleet:3x20", qmgrs: file, fleet: fleet})
	if err != nil {
		t.Fatal(err)
	}
	defer be.stop()
	if len(be.qmgrs) != 1 || be.qmgrs[0].name != "QM02" {
		t.Fatalf("connected to %v, want QM02 alone", be.qmgrs)
	}
}
