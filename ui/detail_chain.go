package ui

import (
	"errors"
	"fmt"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/poisonwatch/poisonwatch/codec/mqfmt"
)

func (d *detailScreen) chain() (mqfmt.Chain, error) {
	md := &d.msg.MD
	return mqfmt.WalkChain(md.Format, md.Encoding, md.CodedCharSetId, d.msg.Data)
}

func (d *detailScreen) chainErr(err error) []string {
	if err == nil {
		return nil
	}
	return []string{"", d.st.Danger.Render(" header chain: " + mqfmt.Sanitize(err.Error()))}
}

func (d *detailScreen) rfh2Lines() []string {
	ch, err := d.chain()
	rfhs := ch.RFH2s()
	if len(rfhs) == 0 {
		return append([]string{d.st.Muted.Render(" no MQRFH2 in this message")}, d.chainErr(err)...)
	}
	var out []string
	for i, r := range rfhs {
		out = append(out, d.st.Title.Render(fmt.Sprintf(" MQRFH2 #%d", i+1)),
			d.field("Encoding", r.Encoding.String(), ""),
			d.field("CodedCharSetId", fmt.Sprint(r.CodedCharSetId), mqfmt.CCSIDName(r.CodedCharSetId)),
			d.field("Format", quote(r.Format), mqfmt.FormatName(r.Format)),
			d.field("NameValueCCSID", fmt.Sprint(r.NameValueCCSID), ""))
		for _, f := range r.Folders {
			out = append(out, " "+d.st.Accent.Render("<"+mqfmt.Sanitize(f.Name)+">"))
			// War-room masks user properties (usr): they carry business
			// data; mcd and jms say where a message goes, and the queue
			// list shows them unmasked too.
			out = append(out, d.elementLines(f.Name, f.Elements, "   ", d.masked() && f.Name == "usr")...)
		}
		out = append(out, "")
	}
	return append(out, d.chainErr(err)...)
}

// elementLines lists a folder's properties; folder is "" below its top
// level.
func (d *detailScreen) elementLines(folder string, es []mqfmt.Element, indent string, mask bool) []string {
	var out []string
	for _, e := range es {
		if e.IsGroup() {
			out = append(out, indent+d.st.Accent.Render(mqfmt.Sanitize(e.Name)))
			out = append(out, d.elementLines("", e.Children, indent+"  ", mask)...)
			continue
		}
		v := mqfmt.Sanitize(e.Value)
		if mask {
			v = mqfmt.Mask(v)
		}
		line := fmt.Sprintf("%s%-24s %s", indent, mqfmt.Sanitize(e.Name), v)
		if m := mqfmt.PropertyMeaning(folder, e.Name, e.DataType, e.Value); m != "" && !mask {
			line += d.st.Muted.Render(" (" + mqfmt.Sanitize(m) + ")")
		} else if e.DataType != "" {
			line += d.st.Muted.Render(" (" + mqfmt.Sanitize(e.DataType) + ")")
		}
		out = append(out, line)
	}
	return out
}

func (d *detailScreen) dlhLines() []string {
	ch, err := d.chain()
	h := ch.DLH()
	if h == nil {
		return append([]string{d.st.Muted.Render(" no dead-letter header: this message was not put on the DEADQ by a queue manager or channel")}, d.chainErr(err)...)
	}
	why := h.Reason.Describe()
	if d.dlhWhy != "" && int32(h.Reason) == d.sum.DLHReason {
		why = d.dlhWhy // whose queue was full (the consumer's BOQ)
	}
	out := []string{
		d.st.Danger.Render(" " + mqfmt.Sanitize(why)),
		"",
		d.field("Reason", fmt.Sprint(int32(h.Reason)), h.Reason.String()),
		d.field("DestQName", quote(h.DestQName), "where it was going"),
		d.field("DestQMgrName", quote(h.DestQMgrName), ""),
		d.field("Encoding", h.Encoding.String(), "of the data after the MQDLH"),
		d.field("CodedCharSetId", fmt.Sprint(h.CodedCharSetId), mqfmt.CCSIDName(h.CodedCharSetId)),
		d.field("Format", quote(h.Format), mqfmt.FormatName(h.Format)),
		d.field("PutApplType", fmt.Sprint(h.PutApplType), mqfmt.ApplTypeName(h.PutApplType)),
		d.field("PutApplName", quote(h.PutApplName), "who dead-lettered it"),
		d.field("PutDate/PutTime", h.PutDate+" "+h.PutTime, ""),
	}
	out = append(out, d.ruleLines()...)
	return append(out, d.chainErr(err)...)
}

// ruleLines is the rules table's verdict, wrapped: the outcome comes last
// and must not be cut.
func (d *detailScreen) ruleLines() []string {
	if d.rule == "" {
		return nil
	}
	style := d.st.Info
	if d.ruleFails {
		style = d.st.Warning
	}
	out := []string{""}
	for _, l := range strings.Split(ansi.Wrap(mqfmt.Sanitize(d.rule), max(d.w-2, 20), " "), "\n") {
		out = append(out, style.Render(" "+l))
	}
	return out
}

func (d *detailScreen) masked() bool { return d.warRoom && !d.reveal }

func (d *detailScreen) bodyLines(w int) []string {
	ch, err := d.chain()
	b := ch.Body
	data := d.msg.Data[min(b.Offset, len(d.msg.Data)):]
	head := d.st.Muted.Render(fmt.Sprintf(" body: %d bytes at offset %d, format '%s', CCSID %d %s",
		len(data), b.Offset, mqfmt.Sanitize(mqfmt.Trim(b.Format)), b.CCSID, mqfmt.CCSIDName(b.CCSID)))
	out := []string{head}
	if d.msg.Truncated() {
		out = append(out, d.st.Warning.Render(fmt.Sprintf(" only the first %d of %d bytes were read", len(d.msg.Data), d.msg.Length)))
	}
	out = append(out, d.chainErr(err)...)
	out = append(out, eventLines(d.st, data, b, d.masked())...)
	if d.masked() {
		out = append(out, d.st.Warning.Render(" body masked (war-room); v reveals it on this screen"))
	}
	txt := mqfmt.DecodeBody(data, b.CCSID, b.Encoding)
	if txt.Kind == mqfmt.KindBinary {
		dump := mqfmt.HexDump(data, b.CCSID)
		if d.masked() {
			return append(out, d.st.Muted.Render(fmt.Sprintf(" %d bytes of binary data", len(data))))
		}
		return append(out, strings.Split(strings.TrimRight(dump, "\n"), "\n")...)
	}
	shown := txt.Text
	if p, err := mqfmt.Pretty(txt.Text, txt.Kind); err == nil {
		shown = p
	} else if errors.Is(err, mqfmt.ErrTruncated) {
		shown = p + "\n(cut off: only a prefix of the message was read)"
	}
	shown = mqfmt.SanitizeMultiline(shown)
	if d.masked() {
		shown = mqfmt.Mask(shown)
	}
	out = append(out, d.st.Muted.Render(" "+txt.Kind.String()), "")
	return append(out, strings.Split(shown, "\n")...)
}

func (d *detailScreen) routeLines() []string {
	if len(d.route) == 0 {
		return []string{d.st.Muted.Render(" no route prediction for this queue")}
	}
	out := []string{d.st.Title.Render(" What happens to this message next (the engine's prediction, citing the rules)"), ""}
	for _, l := range d.route {
		out = append(out, " "+mqfmt.Sanitize(l))
	}
	return out
}
