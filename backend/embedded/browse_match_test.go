package embedded

import (
	"context"
	"testing"

	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
	"github.com/poisonwatch/poisonwatch/mqwatch"
)

// A browse with MsgId/CorrelId finds one message again without reading the
// queue (MQMO_MATCH_MSG_ID): how the message screen and actions re-find what
// the operator saw.
func TestBrowseMatchesIds(t *testing.T) {
	f := newFixture(t, "DEFINE QLOCAL(Q)")
	c := f.connect("")
	q := f.open(c, "Q", mqwatch.OpenOptions{Browse: true, Output: true})
	var ids []mqfmt.MQMD
	for _, b := range []string{"a", "b", "c", "d"} {
		ids = append(ids, f.put(q, b, 0, false))
	}
	ctx := context.Background()
	tests := []struct {
		name    string
		opts    mqwatch.BrowseOptions
		want    string
		wantErr mqfmt.Reason
	}{
		{"first match by MsgId", mqwatch.BrowseOptions{First: true, MsgId: &ids[2].MsgId}, "c", 0},
		{"MsgId and CorrelId", mqwatch.BrowseOptions{First: true, MsgId: &ids[1].MsgId, CorrelId: &ids[1].CorrelId}, "b", 0},
		{"wrong CorrelId", mqwatch.BrowseOptions{First: true, MsgId: &ids[1].MsgId, CorrelId: &[24]byte{9}}, "", mqfmt.RCNoMsgAvailable},
		{"unknown MsgId", mqwatch.BrowseOptions{First: true, MsgId: &[24]byte{1, 2, 3}}, "", mqfmt.RCNoMsgAvailable},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, err := q.Browse(ctx, tt.opts)
			if tt.wantErr != 0 {
				wantRC(t, err, tt.wantErr)
				return
			}
			if err != nil || string(m.Data) != tt.want {
				t.Fatalf("got %q, %v; want %q", m.Data, err, tt.want)
			}
		})
	}
	// Next after the cursor: the cursor sits on "c", so "a" is behind it.
	if _, err := q.Browse(ctx, mqwatch.BrowseOptions{First: true, MsgId: &ids[2].MsgId}); err != nil {
		t.Fatal(err)
	}
	_, err := q.Browse(ctx, mqwatch.BrowseOptions{MsgId: &ids[0].MsgId})
	wantRC(t, err, mqfmt.RCNoMsgAvailable)
	if m, err := q.Browse(ctx, mqwatch.BrowseOptions{MsgId: &ids[3].MsgId}); err != nil || string(m.Data) != "d" {
		t.Fatalf("next match after the cursor: %q %v", m.Data, err)
	}
	if st := f.status("Q"); st.Depth != 4 {
		t.Fatalf("browsing removed messages: depth %d", st.Depth)
	}
}

// Segments of one message share its MsgId and CorrelId: MQMO_MATCH_GROUP_ID,
// MQMO_MATCH_MSG_SEQ_NUMBER and MQMO_MATCH_OFFSET tell them apart, for a
// browse and for a destructive get alike; a GroupId of MQGI_NONE matches any.
func TestBrowseAndGetMatchSegments(t *testing.T) {
	f := newFixture(t, "DEFINE QLOCAL(Q)")
	c := f.connect("")
	q := f.open(c, "Q", mqwatch.OpenOptions{Browse: true, Output: true, Input: true})
	ctx := context.Background()
	group := [24]byte{'G', 1}
	msgID := [24]byte{'M', 1}
	for i, body := range []string{"seg0", "seg1", "seg2"} {
		md := mqfmt.NewMQMD()
		md.MsgId, md.GroupId = msgID, group
		md.Offset = int32(4 * i)
		md.MsgFlags = mqfmt.MFSegment
		if i == 2 {
			md.MsgFlags |= mqfmt.MFLastSegment
		}
		if err := q.Put(ctx, &md, []byte(body), mqwatch.PutOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	seg := func(off int32, g [24]byte) *mqwatch.SegmentMatch {
		return &mqwatch.SegmentMatch{GroupId: g, MsgSeqNumber: 1, Offset: off}
	}
	tests := []struct {
		name string
		seg  *mqwatch.SegmentMatch
		want string
	}{
		{"by MsgId only: the first segment", nil, "seg0"},
		{"offset 8", seg(8, group), "seg2"},
		{"offset 4, any group", seg(4, [24]byte{}), "seg1"},
		{"another group", seg(4, [24]byte{'X'}), ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, err := q.Browse(ctx, mqwatch.BrowseOptions{First: true, MsgId: &msgID, Segment: tt.seg})
			if tt.want == "" {
				wantRC(t, err, mqfmt.RCNoMsgAvailable)
				return
			}
			if err != nil || string(m.Data) != tt.want {
				t.Fatalf("browse: %q, %v; want %q", m.Data, err, tt.want)
			}
		})
	}
	m, err := q.Get(ctx, mqwatch.GetOptions{MsgId: &msgID, Segment: seg(4, group)})
	if err != nil || string(m.Data) != "seg1" || m.MD.Offset != 4 {
		t.Fatalf("get offset 4: %q (offset %d), %v", m.Data, m.MD.Offset, err)
	}
	m, err = q.Get(ctx, mqwatch.GetOptions{Segment: seg(8, group)})
	if err != nil || string(m.Data) != "seg2" {
		t.Fatalf("get offset 8 without MsgId: %q, %v", m.Data, err)
	}
}
