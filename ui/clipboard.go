package ui

import (
	"encoding/base64"
	"fmt"
	"io"
	"os"

	tea "github.com/charmbracelet/bubbletea"
)

type copiedMsg string

// clipboard is where OSC 52 goes: the terminal (tests discard it).
var clipboard io.Writer = os.Stdout

// copyMsgID puts the whole MsgId (48 hex digits) on the operator's clipboard
// with OSC 52, which terminals honour over SSH too. It writes to the terminal
// outside the renderer, so it is a command, not part of View.
func copyMsgID(id [24]byte) tea.Cmd {
	hexID := msgIDHex(id)
	return copyText("MsgId "+hexID, hexID)
}

// copyText puts text on the clipboard with OSC 52 and says what was copied.
func copyText(what, text string) tea.Cmd {
	return func() tea.Msg {
		seq := "\x1b]52;c;" + base64.StdEncoding.EncodeToString([]byte(text)) + "\x07"
		if _, err := fmt.Fprint(clipboard, seq); err != nil {
			return copiedMsg("copy failed: " + err.Error())
		}
		return copiedMsg("copied " + what)
	}
}
