package mdhtml

import "html/template"

// Style is the CSS memsim's HTML pages share: a readable column of text; tables with borders
// inside boxes that scroll on their own (class "scroll"), with a shadow on the side where more of
// the table is, so that the page never scrolls sideways; short cells kept on one line ("nowrap")
// and longer ones wrapped in a column wide enough to read; right- and centre-aligned columns
// ("right", "center"); and verdicts coloured ("refuted", "confirmed", "inconclusive", "flag"). It
// works down to a phone's width.
const Style template.CSS = `
html { -webkit-text-size-adjust: 100%; text-size-adjust: 100%; }
body { font-family: system-ui, sans-serif; line-height: 1.45; color: #222; background: #fff;
  max-width: 75em; margin: 2em auto; padding: 0 1em; overflow-wrap: break-word; }
h1 { font-size: 1.8em; margin: 0 0 .5em; }
h2 { font-size: 1.35em; margin: 1.8em 0 .5em; padding-top: .3em; border-top: 1px solid #ddd; }
h3 { font-size: 1.1em; margin: 1.2em 0 .4em; }
code { font-family: ui-monospace, monospace; font-size: .9em; background: #f3f3f3; padding: 0 .2em; border-radius: 3px; }
pre { background: #f6f6f6; padding: .5em; overflow-x: auto; }
.scroll { overflow-x: auto; max-width: 100%; margin: 1em 0;
  /* A shadow on the side where more of the table is, scrolled out of sight. */
  background:
    linear-gradient(to right, #fff 30%, rgba(255,255,255,0)) left / 2em 100% no-repeat local,
    linear-gradient(to left, #fff 30%, rgba(255,255,255,0)) right / 2em 100% no-repeat local,
    radial-gradient(farthest-side at 0 50%, rgba(0,0,0,.3), rgba(0,0,0,0)) left / .8em 100% no-repeat scroll,
    radial-gradient(farthest-side at 100% 50%, rgba(0,0,0,.3), rgba(0,0,0,0)) right / .8em 100% no-repeat scroll; }
.scroll > table { margin: 0; }
table { border-collapse: collapse; font-size: .9em; font-variant-numeric: tabular-nums; }
th, td { border: 1px solid #ccc; padding: .25em .5em; text-align: left; vertical-align: top; }
th { background: rgba(0,0,0,.05); }
tbody tr:nth-child(even) { background: rgba(0,0,0,.02); }
.right { text-align: right; }
.center { text-align: center; }
.nowrap { white-space: nowrap; }
td:not(.nowrap), th:not(.nowrap) { min-width: 12em; }
.refuted, td.flag { color: #b00; font-weight: bold; }
.confirmed { color: #070; }
.inconclusive { color: #a60; }
nav details { margin: 1em 0; }
nav summary { cursor: pointer; font-weight: bold; }
nav ol { columns: 2 20em; margin: .5em 0; }
a { color: #0645ad; }
@media (max-width: 40em) {
  body { margin: 1em auto; padding: 0 .6em; }
  h1 { font-size: 1.5em; }
}
`
