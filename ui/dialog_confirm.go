package ui

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
)

// What the confirmation says and takes besides the dry run: one message
// is confirmed with y, not by typing 1; the count input takes digits; the
// dialog says why Cancel keeps the focus; a cancel says nothing changed; a
// colleague's run that took every message leaves nothing to confirm.

// yesKey is y in the confirmation of an action on one message.
func (d *dialog) yesKey(c common, b func(string, ...string) key.Binding) []binding {
	if d.askTarget || d.err != nil || d.emptied != "" || d.actCount() != 1 {
		return nil
	}
	return []binding{bind(b("confirm (one message)", "y"), func() tea.Cmd { return d.yes(c) }, short)}
}

// yes is y on one message: it confirms and runs, unless the message would
// come back (R10f): then Cancel keeps the focus, as after a typed count,
// and the dialog says why.
func (d *dialog) yes(c common) tea.Cmd {
	d.confirmedY = true
	if d.plan.Breakdown().Back() > 0 {
		d.onRun = false
		return nil
	}
	if r := d.runOff(); r != "" {
		c.Flash("Run is off: " + r)
		return nil
	}
	return d.runCmd(c)
}

// countOnly keeps the count input to what a count is made of: digits, and
// the commas counts are written with (1,244).
func countOnly(k tea.KeyMsg) bool {
	return k.Type != tea.KeyRunes || strings.Trim(string(k.Runes), "0123456789,") == ""
}

// cancelWhy is the flash of a dialog closed before it ran: what changed,
// which is nothing but the queue ctrl+n may have defined.
func (d *dialog) cancelWhy() string {
	if d.defined != "" {
		return "cancelled: no message moved (the queue " + mqfmt.Sanitize(d.defined) + " defined here stays)"
	}
	return "cancelled: nothing changed"
}

// focusLines say why Cancel keeps the focus once the action is confirmed:
// messages would come back to the DEADQ (R10f).
func (d *dialog) focusLines(c common) []string {
	back := d.plan.Breakdown().Back()
	if d.onRun || back == 0 || !d.confirmed() || d.err != nil {
		return nil
	}
	return wrapped(c.Styles().Warning, " ", fmt.Sprintf("Cancel keeps the focus: %s message(s) would come back (R10f), so enter does not run; fix the cause first, or tab to Run and enter to act anyway",
		human(int64(back))), d.w)
}

// confirmInput is the line that confirms: the count typed, or y for one
// message.
func (d *dialog) confirmInput(c common) []string {
	st := c.Styles()
	switch {
	case d.err != nil || d.emptied != "" || d.actCount() == 0:
		return nil // nothing to confirm: Run is off and says why
	case d.actCount() == 1:
		return []string{"", st.Muted.Render(" y confirms: one message, nothing to type")}
	case d.needType:
		return []string{"", " " + d.typed.View(), st.Muted.Render(fmt.Sprintf("   (type %s to confirm)", human(int64(d.actCount()))))}
	}
	return nil
}

// parkLines say what parking keeps: the messages go to a queue defined here
// for them, with their MQDLH, and nothing consumes that queue.
func (d *dialog) parkLines(c common) []string {
	if !d.parked {
		return nil
	}
	return wrapped(c.Styles().Muted, " ", "parking in "+mqfmt.Sanitize(d.req.Target)+", defined here for them: the MQDLH stays (their reason and original destination); nothing consumes the queue, so there is no check for messages coming back", d.w)
}

// cancelled closes a dialog that sent nothing, saying so: a dialog never
// closes without a word.
func cancelled(c common) tea.Cmd {
	c.Flash("cancelled: nothing changed")
	return c.Pop()
}
