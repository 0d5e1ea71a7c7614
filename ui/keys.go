package ui

import "github.com/charmbracelet/bubbles/key"

// KeyMap is every key the ui answers to. Screens enable the bindings that
// apply to them, so help (?) shows exactly what works where.
type KeyMap struct {
	Up, Down, PgUp, PgDown, Home, End key.Binding
	Enter, Back, Tab                  key.Binding
	Mark, MarkAll, Filter, Palette    key.Binding
	Refresh, Freeze, Copy, Help, Quit key.Binding
	Requeue, Move, Replay, Discard    key.Binding
	Export, Group, Audit, Reveal      key.Binding
	NextTab, PrevTab                  key.Binding
	DeadQ, Alerts, Sort, Unmark       key.Binding
	WriteRules, Fleet                 key.Binding
	Ack, Snooze                       key.Binding
	PlaybackPrev, PlaybackNext        key.Binding
	PlaybackBack, PlaybackFwd         key.Binding
	PlaybackJump, PlaybackPlay        key.Binding
	Fix, Inhibit                      key.Binding
	// A war room's keys (poisonwatch serve): they exist only in a room.
	Follow, StopFollow, Drive, Point key.Binding
}

// DefaultKeyMap returns the default bindings: vim keys and arrows. Destructive
// actions sit on capital letters away from navigation and filter keys, and all
// of them open a confirmation first.
func DefaultKeyMap() KeyMap {
	b := func(help string, keys ...string) key.Binding {
		return key.NewBinding(key.WithKeys(keys...), key.WithHelp(keys[0], help))
	}
	return KeyMap{
		Up:      b("up", "k", "up"),
		Down:    b("down", "j", "down"),
		PgUp:    b("page up", "pgup", "ctrl+u"),
		PgDown:  b("page down", "pgdown", "ctrl+d"),
		Home:    b("first", "g", "home"),
		End:     b("last", "G", "end"),
		Enter:   b("open", "enter"),
		Back:    b("back", "esc"),
		Tab:     b("next pane", "tab"),
		Mark:    key.NewBinding(key.WithKeys(" "), key.WithHelp("space", "mark")),
		MarkAll: b("mark all in view", "ctrl+a"),
		Filter:  b("filter", "/"),
		Palette: b("command palette", ":"),
		Refresh: b("refresh now", "ctrl+r"),
		Freeze:  b("freeze / resume live updates", "f"),
		Copy:    b("copy (OSC 52)", "y"),
		Help:    b("help", "?"),
		Quit:    b("quit", "q", "ctrl+c"),
		Requeue: b("requeue to original queue", "R"),
		Move:    b("move to a queue", "M"),
		Replay:  b("replay a copy", "P"),
		Discard: b("discard (archived first)", "D"),
		Export:  b("export to dmpmqmsg file", "E"),
		Group:   b("cycle grouping", "o"),
		Audit:   b("audit log", "A"),
		Reveal:  b("reveal masked body", "v"),
		NextTab: b("next tab", "l", "right"),
		PrevTab: b("previous tab", "h", "left"),
		DeadQ:   b("open dead-letter queue", "d"),
		Alerts:  b("every queue manager's alerts", "a"),
		Sort:    b("cycle sort order", "s"),
		Unmark:  b("clear all marks", "u"),
		Fleet:   b("queue managers (fleet view)", "m"),
		Ack:     b("acknowledge the alert (with a note)", "K"),
		Snooze:  b("snooze the alert (15m/1h/4h/until it clears)", "Z"),
		// A playback's keys (poisonwatch playback).
		PlaybackPrev: b("playback: previous poll", "["),
		PlaybackNext: b("playback: next poll", "]"),
		PlaybackBack: b("playback: a minute back", "{"),
		PlaybackFwd:  b("playback: a minute on", "}"),
		PlaybackJump: b("playback: jump to HH:MM[:SS]", "t"),
		PlaybackPlay: b("playback: play at 1×, 10×, 60×, pause", ">"),
		// W writes a file, never to a queue: its dialog chooses the actions.
		WriteRules: b("write a runmqdlq rules table from the groups", "W"),
		// x and I change a queue's definition through PCF: both open a
		// dialog with Cancel focused first.
		Fix:     b("apply the alert's fix (PCF, dialog first)", "x"),
		Inhibit: b("GET off / on (R1c, R8c)", "I"),
		// A war room's keys; esc stops following before it goes back.
		Follow:     b("follow the driver (again: the next session)", "F"),
		StopFollow: b("stop following", "esc"),
		Drive:      b("take the wheel: drive the room", "T"),
		Point:      b("point at this row for followers", "p"),
	}
}
