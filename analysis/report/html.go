package report

import (
	"bytes"
	"fmt"
	"html/template"
	"io"
	"regexp"
	"strings"

	"memsim/analysis/mdhtml"
)

// HTMLFile is the name of the self-contained HTML report in a run folder, and PlotsDir the folder
// beside it that holds PNG copies of its plots.
const (
	HTMLFile = "report.html"
	PlotsDir = "plots"
)

// Figure is one plot of a report: inlined as SVG into report.html and written as PNG to
// plots/<Name>.png.
type Figure struct {
	// Name is the PNG's file name without extension: lower-case letters, digits, '-' and '_'.
	Name string
	// Title heads the figure; Caption says how to read it.
	Title, Caption string
	// Kind groups the figures of report.html: figures of one kind are shown together, side by
	// side where the page is wide enough. Empty: the title up to its first ": ".
	Kind string
	// SVG is a self-contained <svg> element; PNG the same picture as a PNG image.
	SVG, PNG []byte
}

var figureName = regexp.MustCompile(`^[a-z0-9_-]+$`)

func (f *Figure) validate() error {
	switch {
	case !figureName.MatchString(f.Name):
		return fmt.Errorf("figure name %q: must match [a-z0-9_-]+", f.Name)
	case !bytes.HasPrefix(bytes.TrimSpace(f.SVG), []byte("<svg")):
		return fmt.Errorf("figure %s: the SVG must be an <svg> element", f.Name)
	case len(f.PNG) == 0:
		return fmt.Errorf("figure %s: no PNG", f.Name)
	}
	return nil
}

// htmlCell is a table cell of report.html with its CSS classes.
type htmlCell struct {
	Text, Class string
}

// htmlTable is a table of report.html.
type htmlTable struct {
	Title, ID, Note string
	Head, Rows      [][]htmlCell
}

// htmlTableOf gives t's cells their classes: right-aligned columns, short cells (intervals,
// values) kept on one line, flags.
func htmlTableOf(t table, id string) htmlTable {
	cellOf := func(k int, text string) htmlCell {
		var classes []string
		if k < len(t.Right) && t.Right[k] {
			classes = append(classes, "right")
		}
		if mdhtml.Short(text) {
			classes = append(classes, "nowrap")
		}
		if isFlag(text) {
			classes = append(classes, "flag")
		}
		return htmlCell{Text: text, Class: strings.Join(classes, " ")}
	}
	h := htmlTable{Title: t.Title, ID: id, Note: t.Note, Head: [][]htmlCell{nil}}
	for k, c := range t.Head {
		h.Head[0] = append(h.Head[0], cellOf(k, c))
	}
	for _, row := range t.Rows {
		cells := make([]htmlCell, len(row))
		for k, c := range row {
			cells[k] = cellOf(k, c)
		}
		h.Rows = append(h.Rows, cells)
	}
	return h
}

// htmlFigure is a figure of report.html; Caption is empty where its group shows the caption
// once for all.
type htmlFigure struct {
	Title, Caption, PNG string
	SVG                 template.HTML
}

// figureGroup is the figures of one kind, shown side by side where the page is wide enough.
type figureGroup struct {
	Kind, ID string
	// Caption is the caption all its figures share, or empty when they differ.
	Caption string
	Figures []htmlFigure
}

// kindOf is the kind of a figure: its Kind, or the title up to its first colon.
func kindOf(f *Figure) string {
	if f.Kind != "" {
		return f.Kind
	}
	kind, _, _ := strings.Cut(f.Title, ": ")
	return kind
}

// groupFigures groups figs by kind, in the order each kind first appears.
func groupFigures(figs []Figure, ids mdhtml.IDs) []figureGroup {
	var groups []figureGroup
	at := map[string]int{}
	for i := range figs {
		f := &figs[i]
		kind := kindOf(f)
		g, ok := at[kind]
		if !ok {
			g = len(groups)
			at[kind] = g
			groups = append(groups, figureGroup{Kind: kind, ID: ids.Unique("figures-" + mdhtml.Slug(kind)), Caption: f.Caption})
		}
		groups[g].Figures = append(groups[g].Figures, htmlFigure{Title: f.Title, Caption: f.Caption,
			PNG: PlotsDir + "/" + f.Name + ".png", SVG: template.HTML(f.SVG)})
	}
	for g := range groups {
		shared := true
		for _, f := range groups[g].Figures {
			shared = shared && f.Caption == groups[g].Caption
		}
		if !shared {
			groups[g].Caption = ""
			continue
		}
		for k := range groups[g].Figures {
			groups[g].Figures[k].Caption = ""
		}
	}
	return groups
}

// figureStyle lays the figures of a group out side by side, as many as fit at a readable size.
const figureStyle template.CSS = `
details.figures { margin: 1em 0 2em; }
details.figures > summary { cursor: pointer; }
details.figures > summary h3 { display: inline; }
details.figures > summary span { color: #555; font-size: .9em; }
.grid { display: grid; grid-template-columns: repeat(auto-fill, minmax(min(100%, 26em), 1fr)); gap: 1.5em 2em; }
.grid.one { grid-template-columns: minmax(0, 40em); }
figure { margin: 0; min-width: 0; }
figure h4 { font-size: 1em; font-weight: normal; margin: .5em 0; }
figcaption, p.caption { font-size: .9em; color: #444; max-width: 60em; }
svg { display: block; max-width: 100%; height: auto; }
`

var htmlPage = template.Must(template.New("report").Parse(`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{{.Name}} — memsim report</title>
<style>{{.Style}}{{.FigureStyle}}</style>
</head>
<body>
<h1>{{.Name}}</h1>
<p>{{.Summary}}</p>
<nav><details><summary>Contents</summary>
<ol>{{range .Tables}}<li><a href="#{{.ID}}">{{.Title}}</a></li>{{end}}{{if .Groups}}<li><a href="#figures">Figures</a></li>{{end}}<li><a href="#how-to-read-this">How to read this</a></li></ol>
</details></nav>
{{range .Tables}}<h2 id="{{.ID}}">{{.Title}}</h2>
{{if .Note}}<p>{{.Note}}</p>
{{end}}<div class="scroll"><table>
<thead>{{range .Head}}<tr>{{range .}}<th{{if .Class}} class="{{.Class}}"{{end}}>{{.Text}}</th>{{end}}</tr>{{end}}</thead>
<tbody>
{{range .Rows}}<tr>{{range .}}<td{{if .Class}} class="{{.Class}}"{{end}}>{{.Text}}</td>{{end}}</tr>
{{end}}</tbody>
</table></div>
{{end}}{{if .Groups}}<h2 id="figures">Figures</h2>
<p>{{range $i, $g := .Groups}}{{if $i}} · {{end}}<a href="#{{.ID}}">{{.Kind}}</a> ({{len .Figures}}){{end}}</p>
{{range $g := .Groups}}<details class="figures" id="{{.ID}}" open>
<summary><h3>{{.Kind}}</h3> <span>{{len .Figures}} {{if eq (len .Figures) 1}}figure{{else}}figures{{end}}</span></summary>
{{with .Caption}}<p class="caption">{{.}}</p>
{{end}}<div class="grid{{if eq (len .Figures) 1}} one{{end}}">
{{range .Figures}}<figure>
{{if ne .Title $g.Kind}}<h4>{{.Title}}</h4>{{end}}
{{.SVG}}
<figcaption>{{with .Caption}}{{.}} {{end}}PNG: <a href="{{.PNG}}">{{.PNG}}</a></figcaption>
</figure>
{{end}}</div>
</details>
{{end}}{{end}}<h2 id="how-to-read-this">How to read this</h2>
<p>{{.HowTo}}</p>
</body>
</html>
`))

// WriteHTML writes report.html: the same tables as report.md and the figures, in one file that
// opens from the file system with no network (plots are inline SVG). Wide tables scroll in their
// own box, short cells such as intervals stay on one line, and figures of one kind (Figure.Kind)
// are grouped, side by side where the page is wide enough. It returns an error, having written
// nothing, if r does not Validate or a figure is malformed.
func WriteHTML(w io.Writer, r *Run, figs []Figure) error {
	if err := r.Validate(); err != nil {
		return err
	}
	for i := range figs {
		if err := figs[i].validate(); err != nil {
			return err
		}
	}
	ids := mdhtml.IDs{"figures": 1, "how-to-read-this": 1}
	data := struct {
		Name, Summary, HowTo string
		Style, FigureStyle   template.CSS
		Tables               []htmlTable
		Groups               []figureGroup
	}{Name: r.Name, Summary: summaryLine(r), HowTo: howTo(r), Style: mdhtml.Style, FigureStyle: figureStyle}
	for _, t := range tables(r) {
		data.Tables = append(data.Tables, htmlTableOf(t, ids.Unique(mdhtml.Slug(t.Title))))
	}
	data.Groups = groupFigures(figs, ids)
	var buf bytes.Buffer
	if err := htmlPage.Execute(&buf, data); err != nil {
		return err
	}
	_, err := w.Write(buf.Bytes())
	return err
}
