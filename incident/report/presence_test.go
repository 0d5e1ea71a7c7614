package report

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/poisonwatch/poisonwatch/incident/record"
)

// line is a person as the report's table says them, on one line.
func line(p Person) string {
	j, l := p.joinedLeft(" ")
	return fmt.Sprintf("%s %s: %s / %s", p.User, p.Role(), j, l)
}

func TestPresenceIsWhoJoinedAndLeft(t *testing.T) {
	at := func(m int) time.Time { return warm.Add(time.Duration(m) * time.Minute) }
	alice := record.Member{User: "alice", Role: "operator", Where: "dashboard"}
	aliceDLQ := record.Member{User: "alice", Role: "operator", Where: "dlq"}
	aliceDriving := record.Member{User: "alice", Role: "operator", Where: "dlq", Driving: true}
	bob := record.Member{User: "bob", Role: "viewer"}
	bobOp := record.Member{User: "bob", Role: "operator"}
	room := func(m int, ms ...record.Member) record.Presence { return record.Presence{At: at(m), Members: ms} }
	for _, tc := range []struct {
		name   string
		frames []record.Presence
		from   time.Time
		want   []string
	}{
		{"moving between screens is one stay",
			[]record.Presence{room(1, alice), room(2, aliceDLQ), room(3, alice), room(4, aliceDLQ)}, warm,
			[]string{"alice operator: 21:21:00 / still there"}},
		{"the room empties at the end: everyone left then, and no empty line",
			[]record.Presence{room(1, alice), room(2, alice, bob), room(5)}, warm,
			[]string{"alice operator: 21:21:00 / 21:25:00", "bob viewer: 21:22:00 / 21:25:00"}},
		{"left and came back: one line, two stays",
			[]record.Presence{room(1, alice, bob), room(3, alice), room(7, alice, bob)}, warm,
			[]string{"alice operator: 21:21:00 / still there", "bob viewer: 21:21:00 21:27:00 / 21:23:00 still there"}},
		{"took the wheel; changed role",
			[]record.Presence{room(1, alice, bob), room(2, aliceDriving, bobOp)}, warm,
			[]string{"alice operator (drove): 21:21:00 / still there", "bob viewer, then operator: 21:21:00 / still there"}},
		{"two sessions of one user are one person",
			[]record.Presence{room(1, alice, aliceDLQ), room(2, alice)}, warm,
			[]string{"alice operator: 21:21:00 / still there"}},
		{"joined before the report's start: joined then; left before it: not there",
			[]record.Presence{room(1, alice, bob), room(3, alice), room(10, alice)}, at(5),
			[]string{"alice operator: 21:21:00 / still there"}},
		{"nobody", []record.Presence{room(1)}, warm, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var got []string
			for _, p := range people(tc.frames, tc.from) {
				got = append(got, line(*p))
			}
			if strings.Join(got, "\n") != strings.Join(tc.want, "\n") {
				t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(tc.want, "\n"))
			}
		})
	}
}

// The war room's eleven frames of the room (alice moving between screens,
// bob coming and going, the room emptying) are two lines in both formats.
func TestTheWarRoomIsOneLineAPerson(t *testing.T) {
	rep := Build(warRoom(t), time.Time{}, time.Time{})
	var html, md strings.Builder
	if err := rep.HTML(&html); err != nil {
		t.Fatal(err)
	}
	if err := rep.Markdown(&md); err != nil {
		t.Fatal(err)
	}
	room := md.String()[strings.Index(md.String(), "## Who was in the war room"):]
	room = room[:strings.Index(room[3:], "## ")+3]
	want := "## Who was in the war room\n\n| Who | Role | Joined | Left |\n|---|---|---|---|\n" +
		"| alice | operator (drove) | 21:35:30 | 21:50:00 |\n| bob | viewer | 21:37:00, 21:49:00 | 21:44:00, 21:50:00 |\n\n"
	if room != want {
		t.Errorf("Markdown:\n%s\nwant\n%s", room, want)
	}
	page := html.String()
	sec := page[strings.Index(page, `<section id="room">`):]
	sec = sec[:strings.Index(sec, "</section>")]
	if n := strings.Count(sec, "<tr><td"); n != 2 {
		t.Errorf("the page's room has %d rows, want 2:\n%s", n, sec)
	}
	if strings.Contains(page, "<li></li>") || strings.Contains(md.String(), "- \n") {
		t.Error("an empty line in the report")
	}
}
