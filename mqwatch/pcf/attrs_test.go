package pcf

import (
	"reflect"
	"testing"
	"time"

	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
	"github.com/poisonwatch/poisonwatch/mqwatch"
)

func TestQueueInfoFromDisplayQueueReply(t *testing.T) {
	tests := []struct {
		name string
		m    Message
		want mqwatch.QueueInfo
	}{
		{"local_input_queue_with_poison_handling", reply(
			Str(caQName, "PAYMENTS.IN                                     "), Int(iaQType, qtLocal),
			Str(caQDesc, "payments"), Int(iaMaxQDepth, 5000), Int(iaMaxMsgLength, 4194304),
			Int(iaBackoutThreshold, 5), Str(caBackoutReqQName, "PAYMENTS.BO"),
			Int(iaHardenGetBackout, qaBackoutHardened), Int(iaInhibitPut, 0), Int(iaInhibitGet, qaGetInhibited),
			Int(iaDefPersistence, perPersistent), Int(iaDefPriority, 4), Int(iaUsage, usNormal),
			Int(iaMonitoringQ, monMedium), Int(iaDefinitionType, qdtPredefined), Int(iaShareability, qaShareable)),
			mqwatch.QueueInfo{Name: "PAYMENTS.IN", Type: mqwatch.QLocal, Description: "payments", MaxDepth: 5000,
				MaxMsgLen: 4194304, BackoutThresh: 5, BackoutQName: "PAYMENTS.BO", HardenBackout: true, InhibitGet: true,
				DefPersistent: true, DefPriority: 4, Monitoring: mqwatch.MonMedium, DefType: mqwatch.Predefined, Shareable: true}},
		{"transmission_queue_monq_off", reply(Str(caQName, "QM2"), Int(iaQType, qtLocal),
			Int(iaUsage, usTransmission), Int(iaMonitoringQ, monOff), Int(iaDefinitionType, qdtTemporaryDynamic)),
			mqwatch.QueueInfo{Name: "QM2", Type: mqwatch.QLocal, Usage: mqwatch.UsageXmitQ, Monitoring: mqwatch.MonOff,
				DefType: mqwatch.TemporaryDynamic}},
		{"alias_resolves_to_its_target", reply(Str(caQName, "ORDERS"), Int(iaQType, qtAlias),
			Str(caBaseObjectName, "ORDERS.IN"), Int(iaInhibitPut, qaPutInhibited)),
			mqwatch.QueueInfo{Name: "ORDERS", Type: mqwatch.QAlias, Target: "ORDERS.IN", InhibitPut: true}},
		{"remote_definition", reply(Str(caQName, "INVOICE.IN"), Int(iaQType, qtRemote),
			Str(caRemoteQName, "INVOICE.IN"), Str(caRemoteQMgrName, "QM2"), Str(caXmitQName, "QM2.XMIT")),
			mqwatch.QueueInfo{Name: "INVOICE.IN", Type: mqwatch.QRemote, RemoteName: "INVOICE.IN", RemoteQMgr: "QM2", XmitQ: "QM2.XMIT"}},
		{"model_queue_monq_qmgr", reply(Str(caQName, "SYSTEM.DEFAULT.MODEL.QUEUE"), Int(iaQType, qtModel),
			Int(iaMonitoringQ, monQMgr), Int(iaDefinitionType, qdtSharedDynamic)),
			mqwatch.QueueInfo{Name: "SYSTEM.DEFAULT.MODEL.QUEUE", Type: mqwatch.QModel, DefType: mqwatch.PermanentDynamic}},
		{"cluster_queue", reply(Str(caQName, "C.Q"), Int(iaQType, qtCluster)),
			mqwatch.QueueInfo{Name: "C.Q", Type: mqwatch.QCluster}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := QueueInfoFrom(&tt.m)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("got  %+v\nwant %+v", got, tt.want)
			}
		})
	}
}

func TestQueueInfoFromRejectsIncompleteReplies(t *testing.T) {
	for name, m := range map[string]Message{
		"no_name":      reply(Int(iaQType, qtLocal)),
		"no_type":      reply(Str(caQName, "Q")),
		"unknown_type": reply(Str(caQName, "Q"), Int(iaQType, 99)),
	} {
		t.Run(name, func(t *testing.T) {
			if _, err := QueueInfoFrom(&m); err == nil {
				t.Fatal("want an error")
			}
		})
	}
}

func TestQueueInfoFromMQINQMatchesPCF(t *testing.T) {
	inq := InqAttrs{caQName: "PAYMENTS.IN", iaQType: int32(qtLocal), iaBackoutThreshold: int32(5),
		caBackoutReqQName: "PAYMENTS.BO", iaMaxQDepth: int32(5000)}
	pcf := reply(Str(caQName, "PAYMENTS.IN"), Int(iaQType, qtLocal), Int(iaBackoutThreshold, 5),
		Str(caBackoutReqQName, "PAYMENTS.BO"), Int(iaMaxQDepth, 5000))
	a, errA := QueueInfoFrom(inq)
	b, errB := QueueInfoFrom(&pcf)
	if errA != nil || errB != nil || !reflect.DeepEqual(a, b) {
		t.Errorf("MQINQ %+v (%v) differs from PCF %+v (%v)", a, errA, b, errB)
	}
}

func TestInqSelectorsApplyToTheQueueType(t *testing.T) {
	has := func(sels []int32, s int32) bool {
		for _, x := range sels {
			if x == s {
				return true
			}
		}
		return false
	}
	tests := []struct {
		name      string
		qtype     int64
		want, not []int32
	}{
		{"local", qtLocal, []int32{iaBackoutThreshold, caBackoutReqQName, iaMaxQDepth, iaInhibitGet}, []int32{caBaseObjectName, caRemoteQName}},
		{"alias", qtAlias, []int32{caBaseObjectName, iaInhibitGet}, []int32{iaMaxQDepth, iaBackoutThreshold}},
		{"remote", qtRemote, []int32{caRemoteQName, caXmitQName}, []int32{iaInhibitGet, iaMaxQDepth}},
		{"unknown_gets_only_common", 99, []int32{caQName, iaQType}, []int32{iaMaxQDepth}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sels := InqSelectors(tt.qtype)
			for _, s := range tt.want {
				if !has(sels, s) {
					t.Errorf("missing selector %d", s)
				}
			}
			for _, s := range tt.not {
				if has(sels, s) {
					t.Errorf("selector %d does not apply and would fail the whole MQINQ", s)
				}
			}
			if has(sels, iaMonitoringQ) {
				t.Error("MONQ is not an MQINQ selector")
			}
		})
	}
}

func TestQMgrInfoFrom(t *testing.T) {
	got, err := QMgrInfoFrom(InqAttrs{caQMgrName: "QM1", caDeadLetterQName: "SYSTEM.DEAD.LETTER.QUEUE",
		iaMaxMsgLength: int32(104857600), iaCommandLevel: int32(940), iaPlatform: int32(plUnix)})
	want := mqwatch.QMgrInfo{Name: "QM1", DeadQ: "SYSTEM.DEAD.LETTER.QUEUE", MaxMsgLen: 104857600, CommandLevel: 940, Platform: "UNIX"}
	if err != nil || got != want {
		t.Errorf("got %+v (%v), want %+v", got, err, want)
	}
	if noDLQ, _ := QMgrInfoFrom(InqAttrs{caQMgrName: "QM1", caDeadLetterQName: ""}); noDLQ.DeadQ != "" {
		t.Error("a blank DEADQ must read as none")
	}
	if _, err := QMgrInfoFrom(InqAttrs{}); err == nil {
		t.Error("want an error without a name")
	}
	for p, want := range map[int64]string{plZOS: "ZOS", plWindowsNT: "WINDOWSNT", plOS400: "IBMI", plAppliance: "APPLIANCE", 77: "PLATFORM(77)"} {
		if got := platformName(p); got != want {
			t.Errorf("platformName(%d) = %q, want %q", p, got, want)
		}
	}
}

func TestQueueStatusSaysUnknownWhenMonitoringIsOff(t *testing.T) {
	paris, err := time.LoadLocation("Europe/Paris")
	if err != nil {
		paris = time.FixedZone("CET", 3600)
	}
	base := []Param{Str(caQName, "ORDERS.IN"), Int(iaCurrentQDepth, 9000), Int(iaOpenInputCount, 4),
		Int(iaOpenOutputCount, 1), Int(iacfUncommitted, 3)}
	with := func(ps ...Param) Message { return reply(append(append([]Param(nil), base...), ps...)...) }
	counts := mqwatch.QueueStatus{Name: "ORDERS.IN", Depth: 9000, OpenInput: 4, OpenOutput: 1, Uncommitted: 3}
	monitored := counts
	monitored.Monitored = true
	monitored.OldestAge = 4000 * time.Second
	monitored.LastPut = time.Date(2026, 1, 15, 3, 0, 0, 0, paris)
	monitored.LastGet = time.Date(2026, 1, 15, 2, 59, 58, 0, paris)
	tests := []struct {
		name string
		m    Message
		want mqwatch.QueueStatus
	}{
		{"monq_off_gives_unknown_not_zero", with(Int(iaMonitoringQ, monOff), Int(iacfOldestMsgAge, monNotAvailable),
			Str(cacfLastPutDate, ""), Str(cacfLastPutTime, "")), counts},
		{"no_monq_in_reply_and_age_unavailable", with(Int(iacfOldestMsgAge, -1)), counts},
		{"monq_medium_with_local_times", with(Int(iaMonitoringQ, monMedium), Int(iacfOldestMsgAge, 4000),
			Str(cacfLastPutDate, "2026-01-15"), Str(cacfLastPutTime, "03.00.00"),
			Str(cacfLastGetDate, "2026-01-15"), Str(cacfLastGetTime, "02:59:58")), monitored},
		{"monitored_but_never_put_or_got", with(Int(iaMonitoringQ, monHigh), Int(iacfOldestMsgAge, 4000),
			Str(cacfLastPutDate, "          "), Str(cacfLastPutTime, "        ")),
			mqwatch.QueueStatus{Name: "ORDERS.IN", Depth: 9000, OpenInput: 4, OpenOutput: 1, Uncommitted: 3, Monitored: true, OldestAge: 4000 * time.Second}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := queueStatusFrom(&tt.m, paris)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("got  %+v\nwant %+v", got, tt.want)
			}
		})
	}
}

func TestStatusTimeIsLocalToTheQueueManager(t *testing.T) {
	tokyo := time.FixedZone("JST", 9*3600)
	got, ok := statusTime("2026-03-01", "09.00.00", tokyo)
	if !ok || !got.Equal(time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC)) {
		t.Errorf("09.00.00 in Tokyo = %v, want 00:00 UTC", got)
	}
	for _, bad := range [][2]string{{"", ""}, {"2026-13-01", "00.00.00"}, {"2026-03-01", "25.00.00"}, {"01/03/2026", "00.00.00"}} {
		if _, ok := statusTime(bad[0], bad[1], tokyo); ok {
			t.Errorf("statusTime(%q, %q) accepted", bad[0], bad[1])
		}
	}
}

func TestHandleFromReadsTheDocumentedFields(t *testing.T) {
	m := reply(Str(caQName, "ORDERS.IN"), Str(cacfApplTag, "orders-mdb"), Int(iaApplType, mqfmt.ATJava),
		Str(cacfUserID, "appusr"), Str(cachChannelName, "APP.SVRCONN"), Str(cachConnName, "10.1.2.3"),
		Int(iacfProcessID, 4242), Int(iacfThreadID, 7), Int(iacfOpenOptions, ooInputShared|ooBrowse|ooInquire|8192),
		ByteStr(bacfQMgrUOWID, []byte{0, 0, 0, 0, 0, 0, 0x10, 0x01}))
	want := mqwatch.Handle{Queue: "ORDERS.IN", ApplTag: "orders-mdb", ApplType: mqfmt.ATJava, User: "appusr",
		Channel: "APP.SVRCONN", ConnName: "10.1.2.3", PID: 4242, Input: true, Browse: true, Inquire: true, UOW: true}
	got, err := handleFrom(&m)
	if err != nil || got.Handle != want || got.tid != 7 {
		t.Errorf("got %+v (%v)\nwant %+v", got, err, want)
	}
	idle := reply(Str(caQName, "Q"), Int(iacfOpenOptions, ooOutput), ByteStr(bacfQMgrUOWID, make([]byte, 8)))
	if h, _ := handleFrom(&idle); h.Input || !h.Output || h.UOW {
		t.Errorf("idle output handle read as %+v", h)
	}
}

// TestHandleSelectorsAreDocumented: MQCMD_INQUIRE_Q_STATUS with
// MQIACF_Q_HANDLE documents these response parameters (IBM's PCF reference,
// "Inquire Queue Status (Response)"); MQBACF_CONNECTION_ID and the
// OpenInputType/OpenBrowse family of older code are not asked for.
func TestHandleSelectorsAreDocumented(t *testing.T) {
	documented := map[int32]string{
		3174: "ApplDesc", cacfApplTag: "ApplTag", iaApplType: "ApplType", cachChannelName: "ChannelName",
		cachConnName: "ConnectionName", 7005: "ExternalUOWId", 1028: "HandleState", iacfOpenOptions: "OpenOptions",
		iacfProcessID: "ProcessId", bacfQMgrUOWID: "QMgrUOWId", iacfThreadID: "ThreadId", 1132: "UOWType",
		cacfUserID: "UserIdentifier",
	}
	for _, sel := range handleSelectors {
		if _, ok := documented[sel]; !ok {
			t.Errorf("selector %d is not a documented handle status attribute", sel)
		}
	}
	m, err := Decode(mustEncode(t, cmdInquireQStatus, inquireHandlesParams("ORDERS.IN")), nativeOrder)
	if err != nil {
		t.Fatal(err)
	}
	if p := m.find(iacfQStatusAttrs); p == nil || len(p.Ints) != len(handleSelectors) {
		t.Fatalf("status attrs not sent: %+v", m)
	}
}
