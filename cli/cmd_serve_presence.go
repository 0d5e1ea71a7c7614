//go:build !windows

package cli

import (
	"context"
	"slices"
	"time"

	"github.com/poisonwatch/poisonwatch/incident/record"
	"github.com/poisonwatch/poisonwatch/warroom"
)

// recordPresence records who is in the war room whenever it changes.
func recordPresence(ctx context.Context, room *warroom.Room, rec *record.Writer, now func() time.Time) {
	if rec == nil {
		return
	}
	t := time.NewTicker(time.Second)
	defer t.Stop()
	var last []record.Member
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		var ms []record.Member
		for _, m := range room.Members() {
			where := ""
			if n := len(m.View.Stack); n > 0 {
				where = m.View.Stack[n-1].Screen.String()
			}
			ms = append(ms, record.Member{User: m.User, Role: m.Role, Driving: m.Driving, Where: where})
		}
		if !slices.Equal(ms, last) {
			rec.Presence(record.Presence{At: now(), Members: ms})
			last = ms
		}
	}
}
