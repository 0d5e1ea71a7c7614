package ibmmq

import (
	"strings"
	"testing"
)

func TestParseQMgrFile(t *testing.T) {
	base := Settings{User: "ops", Channel: "DEFAULT.SVRCONN"}
	got, err := ParseQMgrFile([]byte(`
[[qmgr]]
name = "QM1"
conn = "mq1(1414)"

[[qmgr]]
name = "QM2"
channel = "QM2.SVRCONN"
conn = "mq2(1415)"
time_zone = "Europe/Paris"
`), base)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || got[0].QMgr != "QM1" || got[0].Channel != "DEFAULT.SVRCONN" || got[0].ConnName != "mq1(1414)" ||
		got[1].Channel != "QM2.SVRCONN" || got[1].TimeZone != "Europe/Paris" || got[1].User != "ops" {
		t.Fatalf("%+v", got)
	}
	for name, text := range map[string]string{
		"unknown key": "[[qmgr]]\nname=\"QM1\"\npassword=\"x\"\n",
		"no name":     "[[qmgr]]\nconn=\"h(1)\"\n",
		"twice":       "[[qmgr]]\nname=\"A\"\n[[qmgr]]\nname=\"A\"\n",
		"empty":       "",
		"not toml":    "= =",
	} {
		if _, err := ParseQMgrFile([]byte(text), base); err == nil || !strings.Contains(err.Error(), "queue manager file") {
			t.Errorf("%s: %v", name, err)
		}
	}
}
