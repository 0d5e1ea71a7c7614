package ibmmq

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
	"github.com/poisonwatch/poisonwatch/mqwatch"
)

func TestOpenOptions(t *testing.T) {
	tests := []struct {
		name string
		o    mqwatch.OpenOptions
		want int32
	}{
		{"browse_and_inquire_for_a_watcher", mqwatch.OpenOptions{Browse: true, Inquire: true}, ooBrowse | ooInquire | ooFailIfQuiescing},
		{"move_source_saves_context", mqwatch.OpenOptions{Input: true, Browse: true, SaveAllContext: true},
			ooInputAsQDef | ooBrowse | ooSaveAllContext | ooFailIfQuiescing},
		{"move_target_passes_context", mqwatch.OpenOptions{Output: true, PassAllContext: true}, ooOutput | ooPassAllContext | ooFailIfQuiescing},
		{"replay_target_sets_context", mqwatch.OpenOptions{Output: true, SetAllContext: true}, ooOutput | ooSetAllContext | ooFailIfQuiescing},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := openOptions(tt.o); got != tt.want {
				t.Errorf("got %#x, want %#x", got, tt.want)
			}
		})
	}
}

func TestBrowseGMO(t *testing.T) {
	tests := []struct {
		name string
		o    mqwatch.BrowseOptions
		wait int32
		want gmoWords
	}{
		{"first_whole", mqwatch.BrowseOptions{First: true}, 0,
			gmoWords{Options: commonGMO | gmoNoSyncpoint | gmoBrowseFirst}},
		{"next_bounded_accepts_truncation", mqwatch.BrowseOptions{MaxBytes: 4096}, 0,
			gmoWords{Options: commonGMO | gmoNoSyncpoint | gmoBrowseNext | gmoAcceptTruncatedMsg}},
		{"unmarked_marks_what_it_returns", mqwatch.BrowseOptions{First: true, Unmarked: true}, 0,
			gmoWords{Options: commonGMO | gmoNoSyncpoint | gmoBrowseFirst | gmoUnmarkedBrowseMsg | gmoMarkBrowseHandle}},
		{"with_wait", mqwatch.BrowseOptions{}, 2500,
			gmoWords{Options: commonGMO | gmoNoSyncpoint | gmoBrowseNext | gmoWait, WaitInterval: 2500}},
		{"find_one_message_by_ids", mqwatch.BrowseOptions{First: true, MsgId: &[24]byte{1}, CorrelId: &[24]byte{2}}, 0,
			gmoWords{Options: commonGMO | gmoNoSyncpoint | gmoBrowseFirst, MatchOptions: moMatchMsgID | moMatchCorrelID}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := browseGMO(tt.o, tt.wait)
			if got != tt.want {
				t.Errorf("got %+v, want %+v", got, tt.want)
			}
			if got.MatchOptions != tt.want.MatchOptions {
				t.Error("a browse matches ids only when asked, never those of the previous message")
			}
			if got.Options&gmoConvert != 0 {
				t.Error("a browse must return the message's own bytes")
			}
		})
	}
	if r := rebrowseGMO(); r.Options&gmoBrowseMsgUnderCursor == 0 || r.Options&(gmoBrowseNext|gmoBrowseFirst) != 0 {
		t.Errorf("re-browse must stay under the cursor: %+v", r)
	}
}

func TestGetGMO(t *testing.T) {
	var id [24]byte
	tests := []struct {
		name string
		o    mqwatch.GetOptions
		want gmoWords
	}{
		{"by_msgid_under_syncpoint", mqwatch.GetOptions{Syncpoint: true, MsgId: &id},
			gmoWords{Options: commonGMO | gmoSyncpoint, MatchOptions: moMatchMsgID}},
		{"by_both_ids", mqwatch.GetOptions{MsgId: &id, CorrelId: &id},
			gmoWords{Options: commonGMO | gmoNoSyncpoint, MatchOptions: moMatchMsgID | moMatchCorrelID}},
		{"under_cursor", mqwatch.GetOptions{Syncpoint: true, UnderCursor: true},
			gmoWords{Options: commonGMO | gmoSyncpoint | gmoMsgUnderCursor}},
		{"accept_truncated", mqwatch.GetOptions{MaxBytes: 10, AcceptTruncated: true},
			gmoWords{Options: commonGMO | gmoNoSyncpoint | gmoAcceptTruncatedMsg}},
		{"segment_of_a_group", mqwatch.GetOptions{Syncpoint: true, MsgId: &id, Segment: &mqwatch.SegmentMatch{GroupId: [24]byte{1}, MsgSeqNumber: 2, Offset: 100}},
			gmoWords{Options: commonGMO | gmoSyncpoint, MatchOptions: moMatchMsgID | moMatchGroupID | moMatchSeqNum | moMatchOffset}},
		{"no_group_id_matches_any", mqwatch.GetOptions{MsgId: &id, Segment: &mqwatch.SegmentMatch{MsgSeqNumber: 1}},
			gmoWords{Options: commonGMO | gmoNoSyncpoint, MatchOptions: moMatchMsgID | moMatchSeqNum | moMatchOffset}},
		{"under_cursor_ignores_matching", mqwatch.GetOptions{UnderCursor: true, Segment: &mqwatch.SegmentMatch{MsgSeqNumber: 1}},
			gmoWords{Options: commonGMO | gmoNoSyncpoint | gmoMsgUnderCursor}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := getGMO(tt.o, 0); got != tt.want {
				t.Errorf("got %+v, want %+v", got, tt.want)
			}
		})
	}
}

func TestPutPMO(t *testing.T) {
	src := struct{ mqwatch.Queue }{}
	tests := []struct {
		name    string
		o       mqwatch.PutOptions
		want    int32
		wantErr mqfmt.Reason
	}{
		{"default_context", mqwatch.PutOptions{}, pmoFailIfQuiescing | pmoNoSyncpoint | pmoDefaultContext, 0},
		{"move_passes_context_under_syncpoint", mqwatch.PutOptions{Syncpoint: true, Context: mqwatch.ContextPassAll, ContextFrom: src},
			pmoFailIfQuiescing | pmoSyncpoint | pmoPassAllContext, 0},
		{"replay_sets_context_new_msgid", mqwatch.PutOptions{NewMsgId: true, Context: mqwatch.ContextSetAll},
			pmoFailIfQuiescing | pmoNoSyncpoint | pmoNewMsgID | pmoSetAllContext, 0},
		{"pass_all_without_a_source_is_2097", mqwatch.PutOptions{Context: mqwatch.ContextPassAll}, 0, mqfmt.RCContextHandleError},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := putPMO(tt.o)
			if tt.wantErr != 0 {
				if mqwatch.ReasonOf(err) != tt.wantErr {
					t.Fatalf("want %s, got %v", tt.wantErr, err)
				}
				return
			}
			if err != nil || got != tt.want {
				t.Errorf("got %#x (%v), want %#x", got, err, tt.want)
			}
		})
	}
	if _, err := putPMO(mqwatch.PutOptions{Context: 9}); err == nil {
		t.Error("an undefined context mode must be an error")
	}
}

func TestSubOptions(t *testing.T) {
	tests := []struct {
		name string
		sd   mqwatch.SubDesc
		want int32
	}{
		{"new_non_durable", mqwatch.SubDesc{TopicString: "a/b"}, soManaged | soFailIfQuiescing | soCreate | soNonDurable},
		{"new_durable", mqwatch.SubDesc{TopicString: "a/b", Durable: true, Name: "s"}, soManaged | soFailIfQuiescing | soCreate | soDurable},
		{"resume_durable", mqwatch.SubDesc{Durable: true, Name: "s", Resume: true}, soManaged | soFailIfQuiescing | soResume | soDurable},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := subOptions(tt.sd); got != tt.want {
				t.Errorf("got %#x, want %#x", got, tt.want)
			}
		})
	}
}

func TestWaitMillisNeverOutlivesTheContext(t *testing.T) {
	bg := context.Background()
	short, cancel := context.WithTimeout(bg, 300*time.Millisecond)
	defer cancel()
	done, cancelDone := context.WithCancel(bg)
	cancelDone()
	tests := []struct {
		name     string
		ctx      context.Context
		want     time.Duration
		min, max int32
		err      error
	}{
		{"no_wait", bg, 0, 0, 0, nil},
		{"rounds_up_to_a_millisecond", bg, time.Microsecond, 1, 1, nil},
		{"plain_wait", bg, 2 * time.Second, 2000, 2000, nil},
		{"capped_by_deadline", short, time.Hour, 1, 300, nil},
		{"huge_wait_fits_int32", bg, 1000 * time.Hour, 1<<31 - 1, 1<<31 - 1, nil},
		{"cancelled", done, time.Second, 0, 0, context.Canceled},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := waitMillis(tt.ctx, tt.want)
			if !errors.Is(err, tt.err) || got < tt.min || got > tt.max {
				t.Errorf("got %d (%v), want %d..%d (%v)", got, err, tt.min, tt.max, tt.err)
			}
		})
	}
}

func TestMQErrKeepsTheCompletionCode(t *testing.T) {
	if e := mqErr("MQGET", "Q", mqfmt.CCWarning, rcTruncatedAccept); e.CC != mqfmt.CCWarning || e.RC != rcTruncatedAccept {
		t.Errorf("warning lost: %+v", e)
	}
	e := mqErr("MQPUT", "ORDERS.BO", mqfmt.CCFailed, int32(mqfmt.RCQFull))
	if e.CC != mqfmt.CCFailed || !mqwatch.IsReason(e, mqfmt.RCQFull) || e.Error() != "MQPUT ORDERS.BO: "+mqfmt.RCQFull.Describe() {
		t.Errorf("got %+v: %v", e, e)
	}
}

func TestGrowBufferIsBounded(t *testing.T) {
	tests := []struct {
		need, limit, want int
		bad               bool
	}{
		{5 << 20, 4 << 20, 0, true}, {100, 4 << 20, 100, false}, {0, 10, 0, true}, {-1, 10, 0, true},
		{maxMsgLength, 0, maxMsgLength, false}, {maxMsgLength + 1, 0, 0, true}, {200 << 20, 1 << 30, 0, true},
	}
	for _, tt := range tests {
		got, err := growBuffer(tt.need, tt.limit)
		if (err != nil) != tt.bad || got != tt.want {
			t.Errorf("growBuffer(%d, %d) = %d, %v", tt.need, tt.limit, got, err)
		}
	}
}
