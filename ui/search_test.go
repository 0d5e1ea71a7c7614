package ui

import (
	"context"
	"fmt"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/poisonwatch/poisonwatch/actions/ops"
	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
	"github.com/poisonwatch/poisonwatch/internal/bodyedit"
	"github.com/poisonwatch/poisonwatch/mqwatch"
)

// searchFakeOps searches a fixed queue: 40 messages, every 7th with an
// EBCDIC (CCSID 500) body naming order 4711, the others in UTF-8.
type searchFakeOps struct {
	*fakeOps
	msgs []mqwatch.Summary
}

func newSearchFakeOps() *searchFakeOps {
	o := &searchFakeOps{fakeOps: &fakeOps{msg: sampleMessage()}}
	for i := range 40 {
		s := dlqSummary(i, 2085, "INVOICE.IN")
		s.BodyCCSID, s.BodyPrefix = 1208, []byte(fmt.Sprintf(`{"order":%d}`, i))
		if i%7 == 3 {
			s.BodyCCSID = 500
			s.BodyPrefix, _ = bodyedit.Encode(fmt.Sprintf("ORDER 4711 LINE %d", i), 500, mqfmt.EncodingNormal)
		}
		o.msgs = append(o.msgs, s)
	}
	return o
}

func (o *searchFakeOps) SearchBodies(ctx context.Context, _, _ string, p *ops.BodyPattern, progress func(ops.SearchProgress), found func(mqwatch.Summary)) (ops.SearchProgress, error) {
	sp := ops.SearchProgress{Depth: len(o.msgs)}
	for _, s := range o.msgs {
		if err := ctx.Err(); err != nil {
			return sp, err
		}
		sp.Scanned++
		if p.Match(s.BodyPrefix, s.BodyCCSID, mqfmt.EncodingNormal) {
			sp.Matched++
			found(s)
		}
		if sp.Scanned%10 == 0 {
			progress(sp)
		}
	}
	return sp, nil
}

func typeText(a *App, s string) {
	for _, r := range s {
		press(a, string(r))
	}
}

func ctrlF(a *App) {
	_, cmd := a.Update(tea.KeyMsg{Type: tea.KeyCtrlF})
	drain(a, cmd)
}

func TestSearchBodiesListsMatchesInTheirCCSID(t *testing.T) {
	for _, size := range []struct {
		name string
		w, h int
	}{{"80x24", 80, 24}, {"200x60", 200, 60}} {
		t.Run(size.name, func(t *testing.T) {
			a, _ := newTestApp(t, size.w, size.h, Options{Ops: newSearchFakeOps()})
			a.Update(snapshotMsg{snap: incident(1, 30)})
			press(a, "d", "enter")
			ctrlF(a)
			typeText(a, "4711")
			press(a, "enter")
			s := topIs[*searchScreen](t, a)
			if len(s.hits) != 6 || s.running || s.prog.Scanned != 40 {
				t.Fatalf("hits %d running %v progress %+v", len(s.hits), s.running, s.prog)
			}
			v := a.View()
			checkFrame(t, v, size.w, size.h)
			golden(t, v)
			press(a, "j", "enter")
			d := topIs[*detailScreen](t, a)
			if d.sum.MsgId != s.hits[1].MsgId || d.loc.Queue != "QM1.DEADQ" {
				t.Fatalf("enter opened %x on %s", d.sum.MsgId, d.loc.Queue)
			}
		})
	}
}

func TestSearchBodiesTakesHexAndRefusesBadHex(t *testing.T) {
	a, _ := newTestApp(t, 120, 35, Options{Ops: newSearchFakeOps()})
	a.Update(snapshotMsg{snap: incident(1, 30)})
	press(a, "d", "enter")
	ctrlF(a)
	typeText(a, "hex:F4F7F1F1") // 4711 in EBCDIC
	press(a, "enter")
	if s := topIs[*searchScreen](t, a); len(s.hits) != 6 {
		t.Fatalf("hex search found %d, want 6", len(s.hits))
	}
	ctrlF(a)
	for range 20 {
		press(a, "backspace")
	}
	typeText(a, "LINE 10")
	press(a, "enter") // a second search on the same screen starts from nothing
	if s := topIs[*searchScreen](t, a); len(s.hits) != 1 || s.prog.Scanned != 40 || !strings.Contains(a.View(), "1 matches") {
		t.Fatalf("second search: %d hits:\n%s", len(s.hits), a.View())
	}
	ctrlF(a)
	for range 20 {
		press(a, "backspace")
	}
	typeText(a, "hex:F4F")
	press(a, "enter")
	if !strings.Contains(a.View(), "want pairs of hexadecimal digits") {
		t.Fatalf("a bad hex pattern was not refused:\n%s", a.View())
	}
	press(a, "esc")
	topIs[*queueScreen](t, a)
}

// TestSearchBodiesMatchesTextNotTheBytesOfEBCDIC is #35 on the screen: `@`
// is byte 0x40, the space of the EBCDIC bodies, and must match none of
// them; a hex match shows its bytes in hex, a text match the decoded text.
func TestSearchBodiesMatchesTextNotTheBytesOfEBCDIC(t *testing.T) {
	a, _ := newTestApp(t, 120, 35, Options{Ops: newSearchFakeOps()})
	a.Update(snapshotMsg{snap: incident(1, 30)})
	press(a, "d", "enter")
	ctrlF(a)
	typeText(a, "@")
	press(a, "enter")
	if s := topIs[*searchScreen](t, a); len(s.hits) != 0 || s.prog.Scanned != 40 {
		t.Fatalf("@ found %d of the EBCDIC bodies:\n%s", len(s.hits), a.View())
	}
	ctrlF(a)
	press(a, "backspace")
	typeText(a, "hex:F4F7F1F1")
	press(a, "enter")
	if v := a.View(); !strings.Contains(v, "bytes at 6: D6 D9 C4 C5 D9 40 [F4 F7 F1 F1]") || !strings.Contains(v, "6 matched as bytes") {
		t.Fatalf("a hex match does not show its bytes:\n%s", v)
	}
	ctrlF(a)
	for range 20 {
		press(a, "backspace")
	}
	typeText(a, "LINE 10")
	press(a, "enter")
	if v := a.View(); !strings.Contains(v, "ORDER 4711 LINE 10") || strings.Contains(v, "matched as bytes") {
		t.Fatalf("a text match does not show the decoded text:\n%s", v)
	}
}

// TestSearchShowsTheMatchInContext: typed text found in the bytes of an
// MQRFH2 that does not parse (the body of no known CCSID) is shown as grep
// -a shows it, the text around the match, not hex; a narrow column moves
// its start so the match itself is in view.
func TestSearchShowsTheMatchInContext(t *testing.T) {
	for _, size := range dialogSizes {
		t.Run(itoa(size.w)+"x"+itoa(size.h), func(t *testing.T) {
			o := newSearchFakeOps()
			for i := range o.msgs {
				o.msgs[i].BodyCCSID = 0 // no CCSID reads it: matched as bytes
				o.msgs[i].BodyPrefix = append([]byte("RFH \x00\x00\x00\x02\x00\x00\x01\x11<mcd><Msd>jms_text</Msd></mcd>  \x00\x00\x00\x84<jms><Dst>queue:///"),
					fmt.Sprintf("ORDERS.RETURNS.IN</Dst><Tms dt='i8'>17964350463%02d</Tms></jms>", i)...)
			}
			a, _ := newTestApp(t, size.w, size.h, Options{Ops: o})
			a.Update(snapshotMsg{snap: incident(1, 30)})
			press(a, "d", "enter")
			ctrlF(a)
			typeText(a, "RETURNS")
			press(a, "enter")
			v := a.View()
			if !strings.Contains(v, "RETURNS.IN</Dst>") || strings.Contains(v, "[52 45 54") {
				t.Fatalf("the match is not shown in its context:\n%s", v)
			}
			checkFrame(t, v, size.w, size.h)
			golden(t, v)
		})
	}
}
