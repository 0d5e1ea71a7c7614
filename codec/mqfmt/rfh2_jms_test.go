package mqfmt

import (
	"encoding/binary"
	"strings"
	"testing"
)

func TestRFH2JMSView(t *testing.T) {
	tests := []struct {
		name    string
		folders []string
		want    JMS
		err     string
	}{
		{"all_fields",
			[]string{
				"<mcd><Msd>jms_map</Msd><Set>s</Set><Type>t</Type><Fmt>f</Fmt></mcd>",
				"<jms><Dst>queue:///IN</Dst><Rto>queue://QM/R</Rto><Tms>1446139225436</Tms><Exp>1446139999999</Exp>" +
					"<Pri>4</Pri><Dlv>2</Dlv><Cid>c1</Cid><Gid>g1</Gid><Seq>3</Seq></jms>",
			},
			JMS{Dst: "queue:///IN", Rto: "queue://QM/R", Tms: 1446139225436, Exp: 1446139999999, Pri: 4, Dlv: 2,
				Cid: "c1", Gid: "g1", Seq: 3, HasTms: true, HasExp: true, HasPri: true, HasDlv: true, HasSeq: true,
				Msd: "jms_map", Set: "s", Type: "t", Fmt: "f"}, ""},
		{"no_folders_is_all_zero", nil, JMS{}, ""},
		{"empty_jms_folder", []string{"<jms></jms>"}, JMS{}, ""},
		{"zero_priority_is_present",
			[]string{"<jms><Pri>0</Pri></jms>"}, JMS{HasPri: true}, ""},
		{"bad_numbers_reported_strings_kept",
			[]string{"<jms><Dst>queue:///IN</Dst><Tms>yesterday</Tms><Pri>99999999999</Pri><Dlv>1</Dlv></jms>"},
			JMS{Dst: "queue:///IN", Dlv: 1, HasDlv: true}, "jms Tms \"yesterday\""},
		{"null_property_is_absent",
			[]string{"<jms><Exp xsi:nil='true'></Exp></jms>"}, JMS{}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var pad []string
			for _, f := range tt.folders {
				pad = append(pad, f+strings.Repeat(" ", (4-len(f)%4)%4))
			}
			b := rfh2Golden(t, binary.BigEndian, 273, 1208, "MQSTR", 1208, pad...)
			r, err := DecodeRFH2(b, 0, binary.BigEndian)
			if err != nil {
				t.Fatal(err)
			}
			got, err := r.JMS()
			if tt.err == "" && err != nil || tt.err != "" && (err == nil || !strings.Contains(err.Error(), tt.err)) {
				t.Fatalf("JMS() error %v, want %q", err, tt.err)
			}
			if got != tt.want {
				t.Errorf("JMS()\n got %+v\nwant %+v", got, tt.want)
			}
		})
	}
}

func TestParseDestination(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want Destination
		err  string
	}{
		{"local_queue", "queue:///ORDERS.IN", Destination{Name: "ORDERS.IN"}, ""},
		{"queue_on_named_qmgr", "queue://LQQQ/EPH.ALSREQUESTQ", Destination{QMgr: "LQQQ", Name: "EPH.ALSREQUESTQ"}, ""},
		{"queue_with_params", "queue:///Q?persistence=2&priority=5", Destination{Name: "Q", Params: "persistence=2&priority=5"}, ""},
		{"topic", "topic://prices/fruit?brokerVersion=1", Destination{Topic: true, Name: "prices/fruit", Params: "brokerVersion=1"}, ""},
		{"queue_without_name", "queue://QM/", Destination{}, "no queue name"},
		{"queue_without_slash", "queue://Q", Destination{}, "no queue name"},
		{"topic_without_name", "topic://", Destination{}, "no topic"},
		{"plain_name", "ORDERS.IN", Destination{}, "neither queue:// nor topic://"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ParseDestination(tt.in)
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("err %v, want %q", err, tt.err)
				}
				return
			}
			if err != nil || got != tt.want {
				t.Fatalf("ParseDestination(%q) = %+v, %v; want %+v", tt.in, got, err, tt.want)
			}
		})
	}
}
