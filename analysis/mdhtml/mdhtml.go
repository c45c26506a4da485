// Package mdhtml renders the Markdown that memsim writes (audit.md, say) as HTML, so that a page
// and its Markdown come from one text, and holds the style memsim's HTML pages share.
//
// It reads the subset memsim writes: ATX headings ("## Title"), paragraphs, pipe tables with a
// delimiter row ("|---|---:|", "\|" for a pipe inside a cell), lists ("- item", "1. item"),
// fenced code blocks, and inline **bold**, `code` and [links](target). Anything else is text:
// every character of the input is escaped, and only the markup above becomes HTML.
package mdhtml

import (
	"fmt"
	"html/template"
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Options tune Render.
type Options struct {
	// Class, when not nil, gives the CSS class of a table cell or of bold text from its plain
	// text ("" for none): a verdict coloured by what it says, say.
	Class func(text string) string
	// Link, when not nil, gives the target a table cell links to from its plain text ("" for
	// none): a claim's identifier linking to its section, say.
	Link func(text string) string
}

// Heading is a heading of a rendered document.
type Heading struct {
	// Level is 1 for "#", 2 for "##" and so on.
	Level int
	// Text is the heading's plain text, ID the id of its element (Slug of the text, made unique).
	Text, ID string
}

// Document is Markdown rendered as HTML.
type Document struct {
	// Title is the text of the level-1 heading the Markdown starts with, if it does; Body then
	// holds the rest, otherwise all of it.
	Title string
	// Body is the HTML of the blocks, every table in a box that scrolls on its own (class
	// "scroll") when it is wider than the page.
	Body template.HTML
	// Headings lists the headings of Body, in order.
	Headings []Heading
}

var (
	headingLine = regexp.MustCompile(`^(#{1,6})\s+(.*?)(?:\s+#+)?\s*$`)
	delimCell   = regexp.MustCompile(`^:?-+:?$`)
	bulletItem  = regexp.MustCompile(`^[-*+]\s+(.*)$`)
	orderedItem = regexp.MustCompile(`^\d+[.)]\s+(.*)$`)
)

// Render renders md as HTML.
func Render(md string, opts Options) Document {
	r := renderer{opts: opts, ids: IDs{}}
	lines := strings.Split(strings.ReplaceAll(md, "\r\n", "\n"), "\n")
	var doc Document
	if len(lines) > 0 {
		if m := headingLine.FindStringSubmatch(lines[0]); m != nil && len(m[1]) == 1 {
			doc.Title = plain(m[2])
			lines = lines[1:]
		}
	}
	for i := 0; i < len(lines); {
		i = r.block(lines, i)
	}
	doc.Body = template.HTML(r.b.String())
	doc.Headings = r.headings
	return doc
}

type renderer struct {
	opts     Options
	b        strings.Builder
	headings []Heading
	ids      IDs
}

// block renders the block that starts at lines[i] and returns the index of the line after it.
func (r *renderer) block(lines []string, i int) int {
	line := strings.TrimSpace(lines[i])
	switch {
	case line == "":
		return i + 1
	case strings.HasPrefix(line, "```"):
		return r.fence(lines, i)
	case headingLine.MatchString(line):
		m := headingLine.FindStringSubmatch(line)
		r.heading(len(m[1]), m[2])
		return i + 1
	case isRow(line) && i+1 < len(lines) && isDelimiter(lines[i+1]):
		return r.table(lines, i)
	case bulletItem.MatchString(line):
		return r.list(lines, i, "ul", bulletItem)
	case orderedItem.MatchString(line):
		return r.list(lines, i, "ol", orderedItem)
	}
	var para []string
	for ; i < len(lines) && !r.startsBlock(lines, i); i++ {
		para = append(para, strings.TrimSpace(lines[i]))
	}
	r.b.WriteString("<p>" + r.inline(strings.Join(para, "\n")) + "</p>\n")
	return i
}

// startsBlock reports whether lines[i] ends a paragraph: a blank line or the start of another
// block.
func (r *renderer) startsBlock(lines []string, i int) bool {
	line := strings.TrimSpace(lines[i])
	return line == "" || strings.HasPrefix(line, "```") || headingLine.MatchString(line) ||
		isRow(line) && i+1 < len(lines) && isDelimiter(lines[i+1]) ||
		bulletItem.MatchString(line) || orderedItem.MatchString(line)
}

func (r *renderer) heading(level int, text string) {
	id := r.ids.Unique(Slug(plain(text)))
	r.headings = append(r.headings, Heading{Level: level, Text: plain(text), ID: id})
	fmt.Fprintf(&r.b, "<h%d id=\"%s\">%s</h%d>\n", level, template.HTMLEscapeString(id), r.inline(text), level)
}

func (r *renderer) fence(lines []string, i int) int {
	r.b.WriteString("<pre><code>")
	for i++; i < len(lines) && !strings.HasPrefix(strings.TrimSpace(lines[i]), "```"); i++ {
		r.b.WriteString(template.HTMLEscapeString(lines[i]) + "\n")
	}
	r.b.WriteString("</code></pre>\n")
	return i + 1
}

func (r *renderer) list(lines []string, i int, tag string, item *regexp.Regexp) int {
	r.b.WriteString("<" + tag + ">\n")
	for ; i < len(lines); i++ {
		m := item.FindStringSubmatch(strings.TrimSpace(lines[i]))
		if m == nil {
			break
		}
		r.b.WriteString("<li>" + r.inline(m[1]) + "</li>\n")
	}
	r.b.WriteString("</" + tag + ">\n")
	return i
}

func (r *renderer) table(lines []string, i int) int {
	head := cells(lines[i])
	delim := cells(lines[i+1])
	align := make([]string, len(head))
	for k := range align {
		if k < len(delim) {
			d := delim[k]
			switch {
			case strings.HasPrefix(d, ":") && strings.HasSuffix(d, ":"):
				align[k] = "center"
			case strings.HasSuffix(d, ":"):
				align[k] = "right"
			}
		}
	}
	r.b.WriteString("<div class=\"scroll\"><table>\n<thead><tr>")
	for k, h := range head {
		r.b.WriteString(r.cell("th", h, align[k]))
	}
	r.b.WriteString("</tr></thead>\n<tbody>\n")
	for i += 2; i < len(lines) && isRow(strings.TrimSpace(lines[i])); i++ {
		r.b.WriteString("<tr>")
		row := cells(lines[i])
		for k := range head {
			c := ""
			if k < len(row) {
				c = row[k]
			}
			r.b.WriteString(r.cell("td", c, align[k]))
		}
		r.b.WriteString("</tr>\n")
	}
	r.b.WriteString("</tbody>\n</table></div>\n")
	return i
}

// cell renders one table cell: its classes are the alignment, "nowrap" for a short cell (an
// interval, a value) and the class Options.Class gives.
func (r *renderer) cell(tag, text, align string) string {
	var classes []string
	if align != "" {
		classes = append(classes, align)
	}
	p := plain(text)
	if Short(p) {
		classes = append(classes, "nowrap")
	}
	if r.opts.Class != nil {
		if c := r.opts.Class(p); c != "" {
			classes = append(classes, c)
		}
	}
	attr := ""
	if len(classes) > 0 {
		attr = ` class="` + template.HTMLEscapeString(strings.Join(classes, " ")) + `"`
	}
	body := r.inline(text)
	if r.opts.Link != nil && tag == "td" {
		if href := r.opts.Link(p); href != "" {
			body = `<a href="` + template.HTMLEscapeString(href) + `">` + body + `</a>`
		}
	}
	return "<" + tag + attr + ">" + body + "</" + tag + ">"
}

// ShortCell is the length, in characters, up to which a table cell is kept on one line.
const ShortCell = 32

// Short reports whether a table cell of this text is kept on one line: it holds at most ShortCell
// characters, as an interval "6.0436 [6.0293, 6.0580]" does.
func Short(text string) bool {
	return utf8.RuneCountInString(text) <= ShortCell
}

// isRow reports whether a trimmed line is a row of a pipe table.
func isRow(line string) bool {
	return strings.HasPrefix(line, "|")
}

// isDelimiter reports whether line is the delimiter row of a pipe table.
func isDelimiter(line string) bool {
	line = strings.TrimSpace(line)
	if !isRow(line) {
		return false
	}
	cs := cells(line)
	for _, c := range cs {
		if !delimCell.MatchString(c) {
			return false
		}
	}
	return len(cs) > 0
}

// cells splits a table row into its cells, trimmed, with "\|" read as a pipe.
func cells(line string) []string {
	line = strings.TrimSpace(line)
	line = strings.TrimPrefix(line, "|")
	if strings.HasSuffix(line, "|") && !strings.HasSuffix(line, `\|`) {
		line = line[:len(line)-1]
	}
	var out []string
	var cur strings.Builder
	for k := 0; k < len(line); k++ {
		switch {
		case line[k] == '\\' && k+1 < len(line) && line[k+1] == '|':
			cur.WriteByte('|')
			k++
		case line[k] == '|':
			out = append(out, strings.TrimSpace(cur.String()))
			cur.Reset()
		default:
			cur.WriteByte(line[k])
		}
	}
	return append(out, strings.TrimSpace(cur.String()))
}

// inline renders the inline markup of s: `code`, **bold** and [text](target); the rest is
// escaped text. Markup that is not closed is text.
func (r *renderer) inline(s string) string {
	var b strings.Builder
	for len(s) > 0 {
		k := strings.IndexAny(s, "`*[")
		if k < 0 {
			b.WriteString(template.HTMLEscapeString(s))
			break
		}
		b.WriteString(template.HTMLEscapeString(s[:k]))
		s = s[k:]
		switch {
		case s[0] == '`':
			if end := strings.IndexByte(s[1:], '`'); end >= 0 {
				b.WriteString("<code>" + template.HTMLEscapeString(s[1:1+end]) + "</code>")
				s = s[end+2:]
				continue
			}
		case strings.HasPrefix(s, "**"):
			if end := strings.Index(s[2:], "**"); end > 0 {
				inner := s[2 : 2+end]
				attr := ""
				if r.opts.Class != nil {
					if c := r.opts.Class(plain(inner)); c != "" {
						attr = ` class="` + template.HTMLEscapeString(c) + `"`
					}
				}
				b.WriteString("<strong" + attr + ">" + r.inline(inner) + "</strong>")
				s = s[end+4:]
				continue
			}
		case s[0] == '[':
			if text, target, rest, ok := link(s); ok {
				b.WriteString(`<a href="` + template.HTMLEscapeString(target) + `">` + r.inline(text) + "</a>")
				s = rest
				continue
			}
		}
		// Not markup: the character is text.
		b.WriteString(template.HTMLEscapeString(s[:1]))
		s = s[1:]
	}
	return b.String()
}

// link reads "[text](target)" at the start of s; a target with a scheme other than http, https
// or mailto is not a link.
func link(s string) (text, target, rest string, ok bool) {
	closeText := strings.Index(s, "](")
	if closeText < 0 {
		return "", "", "", false
	}
	end := strings.IndexByte(s[closeText:], ')')
	if end < 0 {
		return "", "", "", false
	}
	text, target = s[1:closeText], s[closeText+2:closeText+end]
	if strings.ContainsAny(text, "[]") || target == "" || strings.ContainsAny(target, " \t\n") {
		return "", "", "", false
	}
	if scheme, _, found := strings.Cut(target, ":"); found && !strings.ContainsAny(scheme, "/?#") {
		switch strings.ToLower(scheme) {
		case "http", "https", "mailto":
		default:
			return "", "", "", false
		}
	}
	return text, target, s[closeText+end+1:], true
}

// plain is the text of inline Markdown without its markup: bold and code markers dropped, a
// link replaced by its text.
func plain(s string) string {
	s = strings.ReplaceAll(s, "**", "")
	s = strings.ReplaceAll(s, "`", "")
	for {
		k := strings.IndexByte(s, '[')
		if k < 0 {
			break
		}
		text, _, rest, ok := link(s[k:])
		if !ok {
			return s[:k+1] + plain(s[k+1:])
		}
		s = s[:k] + text + rest
	}
	return strings.TrimSpace(s)
}

// Slug is the id of a heading of this text: lower-case letters and digits, '-' for spaces and
// hyphens, '_' kept, anything else dropped (as GitHub names its anchors).
func Slug(text string) string {
	var b strings.Builder
	for _, c := range strings.ToLower(text) {
		switch {
		case unicode.IsLetter(c) || unicode.IsDigit(c) || c == '_':
			b.WriteRune(c)
		case c == ' ' || c == '-':
			b.WriteByte('-')
		}
	}
	return b.String()
}

// IDs hands out the ids of a page's elements, each once.
type IDs map[string]int

// Unique returns id, or, when it was handed out before, id followed by "-1", "-2", ...; an empty
// id (a title of symbols alone) is "section".
func (s IDs) Unique(id string) string {
	if id == "" {
		id = "section"
	}
	n := s[id]
	s[id] = n + 1
	if n > 0 {
		return fmt.Sprintf("%s-%d", id, n)
	}
	return id
}
