package mqfmt

import "testing"

// Every name the XName functions give reads back to its value, aliases too.
func TestConstByNameReadsBackEveryName(t *testing.T) {
	for _, tab := range [][]constName{mqrcNamesLow[:], mqrcNamesHigh[:], mqfbNames[:], mqmtNames[:], mqperNames[:], mqatNames[:]} {
		for _, c := range tab {
			if v, ok := ConstByName(c.name); !ok || v != c.v {
				t.Errorf("ConstByName(%s) = %d, %v; want %d", c.name, v, ok, c.v)
			}
		}
	}
	for name, want := range map[string]int32{"mqrc_q_full": 2053, "MQAT_AIX": ATUnix, "MQAT_OS390": ATMVS, "MQAT_QMGR_PUBLISH": 26} {
		if v, ok := ConstByName(name); !ok || v != want {
			t.Errorf("ConstByName(%s) = %d, %v; want %d", name, v, ok, want)
		}
	}
	if _, ok := ConstByName("MQRC_NOT_A_NAME"); ok {
		t.Error("an unknown name was found")
	}
	if v, ok := FormatByName("mqfmt_string"); !ok || v != "MQSTR" {
		t.Errorf("FormatByName(mqfmt_string) = %q, %v", v, ok)
	}
	if v, ok := FormatByName("MQFMT_NONE"); !ok || v != "" {
		t.Errorf("FormatByName(MQFMT_NONE) = %q, %v", v, ok)
	}
}
