package report

import (
	"bytes"
	"fmt"
	"html/template"
	"io"
	"regexp"
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

type htmlFigure struct {
	Title, Caption, PNG string
	SVG                 template.HTML
}

var htmlPage = template.Must(template.New("report").Funcs(template.FuncMap{
	"flagged": isFlag,
}).Parse(`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>{{.Name}} — memsim report</title>
<style>
body { font-family: system-ui, sans-serif; margin: 2em auto; max-width: 75em; padding: 0 1em; color: #222; }
table { border-collapse: collapse; margin: 1em 0; font-size: 0.9em; }
th, td { border: 1px solid #ccc; padding: 0.25em 0.5em; text-align: left; }
th { background: #f3f3f3; }
td.flag { color: #b00; font-weight: bold; }
figure { margin: 2em 0; }
figcaption { font-size: 0.9em; color: #444; max-width: 60em; }
svg { max-width: 100%; height: auto; }
</style>
</head>
<body>
<h1>{{.Name}}</h1>
<p>{{.Summary}}</p>
{{range .Tables}}<h2>{{.Title}}</h2>
{{if .Note}}<p>{{.Note}}</p>
{{end}}<table>
<tr>{{range .Head}}<th>{{.}}</th>{{end}}</tr>
{{range .Rows}}<tr>{{range .}}<td{{if flagged .}} class="flag"{{end}}>{{.}}</td>{{end}}</tr>
{{end}}</table>
{{end}}{{range .Figures}}<figure>
<h2>{{.Title}}</h2>
{{.SVG}}
<figcaption>{{.Caption}} (PNG: <a href="{{.PNG}}">{{.PNG}}</a>)</figcaption>
</figure>
{{end}}<h2>How to read this</h2>
<p>{{.HowTo}}</p>
</body>
</html>
`))

// WriteHTML writes report.html: the same tables as report.md and the figures, in one file that
// opens from the file system with no network (plots are inline SVG). It returns an error, having
// written nothing, if r does not Validate or a figure is malformed.
func WriteHTML(w io.Writer, r *Run, figs []Figure) error {
	if err := r.Validate(); err != nil {
		return err
	}
	data := struct {
		Name, Summary, HowTo string
		Tables               []table
		Figures              []htmlFigure
	}{Name: r.Name, Summary: summaryLine(r), HowTo: howTo(r), Tables: tables(r)}
	for i := range figs {
		f := &figs[i]
		if err := f.validate(); err != nil {
			return err
		}
		data.Figures = append(data.Figures, htmlFigure{Title: f.Title, Caption: f.Caption,
			PNG: PlotsDir + "/" + f.Name + ".png", SVG: template.HTML(f.SVG)})
	}
	var buf bytes.Buffer
	if err := htmlPage.Execute(&buf, data); err != nil {
		return err
	}
	_, err := w.Write(buf.Bytes())
	return err
}
