package ui

import (
	"os"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/muesli/termenv"
)

type copiedMsg string

// copyMsg asks the App to put text on the operator's clipboard; the App
// knows which terminal is the operator's (copyTo).
type copyMsg struct{ what, text string }

// NoClipboard is implemented by a terminal's writer that knows OSC 52 cannot
// reach a clipboard through it (an SSH session without a terminal, TERM=dumb):
// it says why, and y says so rather than "copied".
type NoClipboard interface{ NoClipboard() string }

// copyMsgID puts the whole MsgId (48 hex digits) on the operator's clipboard
// with OSC 52, which terminals honour over SSH too.
func copyMsgID(id [24]byte) tea.Cmd {
	hexID := msgIDHex(id)
	return copyText("MsgId "+hexID, hexID)
}

// copyText puts text on the clipboard with OSC 52 and says what was copied.
func copyText(what, text string) tea.Cmd {
	return func() tea.Msg { return copyMsg{what, text} }
}

// copyTo writes the OSC 52 sequence to this App's own terminal: the
// renderer's output, which under `serve` is the SSH session (never the
// server's stdout). It writes outside the renderer, so it is a command, not
// part of View. Whether the terminal honours OSC 52 cannot be asked; what can
// be known (no terminal, TERM=dumb) is said instead of "copied".
func (a *App) copyTo(m copyMsg) tea.Cmd {
	out := termenv.DefaultOutput()
	if a.opt.Renderer != nil {
		out = a.opt.Renderer.Output()
	}
	return func() tea.Msg {
		if why := noClipboard(out); why != "" {
			return copiedMsg("cannot copy: " + why)
		}
		out.Copy(m.text)
		return copiedMsg("copied " + m.what)
	}
}

func noClipboard(out *termenv.Output) string {
	if n, ok := out.Writer().(NoClipboard); ok {
		return n.NoClipboard()
	}
	if out.Writer() == os.Stdout && os.Getenv("TERM") == "dumb" {
		return "TERM=dumb takes no OSC 52"
	}
	return ""
}
