package main

import (
	"context"
	_ "embed"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"memsim/analysis/audit"
)

// screenshots writes full-page screenshots of the pages TestPagesReadWellInABrowser opens to
// docs/screenshots: go test ./cmd/memsim -run TestPagesReadWellInABrowser -args -screenshots.
var screenshots = flag.Bool("screenshots", false, "write screenshots of audit.html and report.html to docs/screenshots")

// screenshotDir is where -screenshots writes, relative to this package.
const screenshotDir = "../../docs/screenshots"

// chromiumPath returns the path of Chromium, or skips the test when there is none.
func chromiumPath(t *testing.T) string {
	t.Helper()
	for _, name := range []string{"chromium", "chromium-browser"} {
		if path, err := exec.LookPath(name); err == nil {
			return path
		}
	}
	t.Skip("browser test skipped: no chromium on PATH (apt-get install chromium)")
	return ""
}

// newBrowser starts one headless Chromium for a test, with flags that keep it off the network,
// and returns a tab's context; the browser ends with the test.
func newBrowser(t *testing.T, path string) context.Context {
	t.Helper()
	profile := t.TempDir() // removed after the browser has ended (cleanups run last first)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	t.Cleanup(cancel)
	ctx, cancelAlloc := chromedp.NewExecAllocator(ctx,
		chromedp.ExecPath(path), chromedp.Headless, chromedp.NoSandbox, chromedp.DisableGPU,
		chromedp.NoFirstRun, chromedp.UserDataDir(profile),
		chromedp.Flag("disable-quic", true), chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true), chromedp.Flag("disable-sync", true))
	t.Cleanup(cancelAlloc)
	ctx, cancelTab := chromedp.NewContext(ctx)
	t.Cleanup(cancelTab)
	if err := chromedp.Do(ctx); err != nil {
		t.Fatalf("start %s: %v", path, err)
	}
	return ctx
}

// pageFacts is what inspectPage reads from a page in the browser.
type pageFacts struct {
	ScrollWidth int `json:"scrollWidth"`
	ClientWidth int `json:"clientWidth"`
	Headings    []struct {
		Text    string `json:"text"`
		Visible bool   `json:"visible"`
	} `json:"headings"`
	Tables        int      `json:"tables"`
	TablesOutside int      `json:"tablesOutside"`
	MarkdownPre   int      `json:"markdownPre"`
	Stars         bool     `json:"stars"`
	BrokenLinks   []string `json:"brokenLinks"`
	WrappedCells  []string `json:"wrappedCells"`
	Loaded        []string `json:"loaded"`
}

// inspectScript reads pageFacts. A heading is visible when it has a box inside the page's width;
// an interval cell ("m [lo, hi]") is wrapped when its text runs over more than one line.
const inspectScript = `(() => {
	const de = document.documentElement;
	const visible = el => {
		const r = el.getBoundingClientRect(), s = getComputedStyle(el);
		return r.width > 0 && r.height > 0 && s.visibility !== "hidden" && r.left >= 0 && r.right <= de.clientWidth + 1;
	};
	const lines = el => {
		const range = document.createRange();
		range.selectNodeContents(el);
		return new Set([...range.getClientRects()].map(r => Math.round(r.top))).size;
	};
	const interval = /^\S+ \[\S+, \S+\]$/;
	return {
		scrollWidth: de.scrollWidth,
		clientWidth: de.clientWidth,
		headings: [...document.querySelectorAll("h1, h2, h3, h4, h5, h6")].map(h => ({text: h.textContent.trim(), visible: visible(h)})),
		tables: document.querySelectorAll("table").length,
		tablesOutside: [...document.querySelectorAll("table")].filter(t => !t.parentElement.classList.contains("scroll")).length,
		markdownPre: [...document.querySelectorAll("pre")].filter(p => /^\s*\|.*\|\s*$/m.test(p.textContent)).length,
		stars: document.body.textContent.includes("**"),
		brokenLinks: [...document.querySelectorAll('a[href^="#"]')].map(a => a.getAttribute("href")).filter(h => !document.getElementById(decodeURIComponent(h.slice(1)))),
		wrappedCells: [...document.querySelectorAll("td")].filter(td => interval.test(td.textContent.trim()) && lines(td) > 1).map(td => td.textContent.trim()),
		loaded: performance.getEntriesByType("resource").map(e => e.name),
	};
})()`

// inspectPage opens the file path in a viewport width pixels wide and reads its facts.
func inspectPage(t *testing.T, ctx context.Context, path string, width int64) pageFacts {
	t.Helper()
	if err := chromedp.Do(ctx, chromedp.EmulateViewport(width, 800), chromedp.Navigate("file://"+path)); err != nil {
		t.Fatalf("open %s: %v", path, err)
	}
	facts, err := chromedp.Run(ctx, chromedp.Evaluate[pageFacts](inspectScript))
	if err != nil {
		t.Fatalf("inspect %s: %v", path, err)
	}
	return facts
}

// markdownOutline returns the headings of a Markdown file (their text, without markup) and its
// number of tables (delimiter rows), read line by line outside code blocks.
func markdownOutline(md string) (headings []string, tables int) {
	heading := regexp.MustCompile(`^#{1,6}\s+(.*?)\s*$`)
	delimiter := regexp.MustCompile(`^\|(\s*:?-+:?\s*\|)+\s*$`)
	fenced := false
	for _, line := range strings.Split(md, "\n") {
		switch {
		case strings.HasPrefix(line, "```"):
			fenced = !fenced
		case fenced:
		case heading.MatchString(line):
			text := heading.FindStringSubmatch(line)[1]
			headings = append(headings, strings.NewReplacer("**", "", "`", "").Replace(text))
		case delimiter.MatchString(line):
			tables++
		}
	}
	return headings, tables
}

// The pages memsim writes read well in a real browser, at a desktop's width and a phone's: the
// page never scrolls sideways (wide tables scroll in their own box), every heading of the
// Markdown twin is on the page and visible, every table of it is a real table, no Markdown is
// left as text, links within the page lead somewhere, intervals stay on one line, and nothing
// is loaded from outside the file.
func TestPagesReadWellInABrowser(t *testing.T) {
	browser := chromiumPath(t)
	dir := t.TempDir()
	_, run := finishedSmallRun(t, dir)
	auditDir := writeAudit(t, dir)
	pages := []struct{ name, html, md string }{
		{"report", filepath.Join(run, "report.html"), filepath.Join(run, "report.md")},
		{"audit", filepath.Join(auditDir, "audit.html"), filepath.Join(auditDir, "audit.md")},
	}
	ctx := newBrowser(t, browser)
	for _, p := range pages {
		md, err := os.ReadFile(p.md)
		if err != nil {
			t.Fatal(err)
		}
		headings, tables := markdownOutline(string(md))
		for _, width := range []int64{1000, 400} {
			t.Run(fmt.Sprintf("%s at %d px", p.name, width), func(t *testing.T) {
				f := inspectPage(t, ctx, p.html, width)
				if f.ScrollWidth > f.ClientWidth {
					t.Errorf("the page scrolls sideways: %d px wide in a %d px window", f.ScrollWidth, f.ClientWidth)
				}
				shown := map[string]bool{}
				for _, h := range f.Headings {
					shown[h.Text] = shown[h.Text] || h.Visible
				}
				for _, h := range headings {
					if !shown[h] {
						t.Errorf("heading %q of %s is not visible on the page", h, filepath.Base(p.md))
					}
				}
				if f.Tables != tables || f.TablesOutside > 0 {
					t.Errorf("%d tables, %d outside a scroll box; %s has %d", f.Tables, f.TablesOutside, filepath.Base(p.md), tables)
				}
				if f.MarkdownPre > 0 || f.Stars {
					t.Errorf("Markdown left as text: %d preformatted tables, literal ** %v", f.MarkdownPre, f.Stars)
				}
				if len(f.BrokenLinks) > 0 {
					t.Errorf("links to no element: %v", f.BrokenLinks)
				}
				if len(f.WrappedCells) > 0 {
					t.Errorf("intervals over more than one line: %q", f.WrappedCells)
				}
				if len(f.Loaded) > 0 {
					t.Errorf("the page loads %v", f.Loaded)
				}
			})
		}
	}
	if *screenshots {
		writeScreenshots(t, ctx, pages)
	}
}

// writeAudit writes audit.md and audit.html to dir/audit and returns that folder: those of memsim
// audit --games 100 --win-pairs 4 or, with -short, those of its findings as testdata/audit.json
// holds them (the audit takes seconds, many more under the race detector). Rewrite the file after
// a change of the findings with memsim audit --games 100 --win-pairs 4 --json --output "$(mktemp
// -d)" > cmd/memsim/testdata/audit.json.
func writeAudit(t *testing.T, dir string) string {
	t.Helper()
	out := filepath.Join(dir, "audit")
	if !testing.Short() {
		if _, stderr, code := runArgs(t, "audit", "--games", "100", "--win-pairs", "4", "--output", out); code != exitOK {
			t.Fatalf("memsim audit: exit %d: %s", code, stderr)
		}
		return out
	}
	var rep audit.Report
	if err := json.Unmarshal(auditFindings, &rep); err != nil {
		t.Fatalf("testdata/audit.json: %v", err)
	}
	html, err := rep.HTML()
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(out, 0o755); err != nil {
		t.Fatal(err)
	}
	for name, data := range map[string][]byte{"audit.md": []byte(rep.Markdown()), "audit.html": html} {
		if err := os.WriteFile(filepath.Join(out, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return out
}

// auditFindings is audit.json of memsim audit --games 100 --win-pairs 4 (see writeAudit).
//
//go:embed testdata/audit.json
var auditFindings []byte

// writeScreenshots writes a full-page screenshot of each page, 1000 px wide, to
// docs/screenshots/<name>.png.
func writeScreenshots(t *testing.T, ctx context.Context, pages []struct{ name, html, md string }) {
	t.Helper()
	if err := os.MkdirAll(screenshotDir, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, p := range pages {
		if err := chromedp.Do(ctx, chromedp.EmulateViewport(1000, 800), chromedp.Navigate("file://"+p.html)); err != nil {
			t.Fatal(err)
		}
		png, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
		if err != nil {
			t.Fatalf("screenshot of %s: %v", p.html, err)
		}
		out := filepath.Join(screenshotDir, p.name+".png")
		if err := os.WriteFile(out, png, 0o644); err != nil {
			t.Fatal(err)
		}
		t.Logf("wrote %s", out)
	}
}
