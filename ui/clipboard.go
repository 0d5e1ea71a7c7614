package ui

import (
	"encoding/base64"
	"fmt"
	"os"

	tea "github.com/charmbracelet/bubbletea"
)

type copiedMsg string

// copyMsgID puts the MsgId on the operator's clipboard with OSC 52, which
// terminals honour over SSH too. It writes to the terminal outside the
// renderer, so it is a command, not part of View.
func (a *App) copyMsgID(id [24]byte) tea.Cmd {
	hexID := msgIDHex(id)
	return func() tea.Msg {
		seq := "\x1b]52;c;" + base64.StdEncoding.EncodeToString([]byte(hexID)) + "\x07"
		if _, err := fmt.Fprint(os.Stdout, seq); err != nil {
			return copiedMsg("copy failed: " + err.Error())
		}
		return copiedMsg("copied MsgId " + hexID)
	}
}
