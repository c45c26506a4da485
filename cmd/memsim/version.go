package main

import (
	"context"
	"encoding/json"
	"fmt"
	"runtime"
	"runtime/debug"
	"strings"
)

// versionCommand returns memsim version.
func versionCommand() *command {
	return &command{
		name: "version",
		usage: []string{
			"memsim version [--json]",
			"memsim --version",
		},
		short: "the version of this build",
		long: `
Prints the version of this build, from the information Go records in the binary: the module's
version ((devel) for a build from a source tree without one), the commit it was built from with
its time and whether the tree had uncommitted changes (when built from a git checkout), and the
Go version, operating system and architecture.
`,
		run: runVersion,
	}
}

// buildVersion is what memsim version prints.
type buildVersion struct {
	Version  string `json:"version"`
	Revision string `json:"revision"` // "" when the build recorded none
	Time     string `json:"time"`     // the commit's time, RFC 3339; "" when unknown
	Modified bool   `json:"modified"` // the tree had uncommitted changes
	Go       string `json:"go"`
	OS       string `json:"os"`
	Arch     string `json:"arch"`
}

// versionOf reads the version from Go's build information (nil when the binary has none).
func versionOf(bi *debug.BuildInfo) buildVersion {
	v := buildVersion{Version: "(devel)", Go: runtime.Version(), OS: runtime.GOOS, Arch: runtime.GOARCH}
	if bi == nil {
		return v
	}
	if bi.Main.Version != "" {
		v.Version = bi.Main.Version
	}
	if bi.GoVersion != "" {
		v.Go = bi.GoVersion
	}
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			v.Revision = s.Value
		case "vcs.time":
			v.Time = s.Value
		case "vcs.modified":
			v.Modified = s.Value == "true"
		case "GOOS":
			v.OS = s.Value
		case "GOARCH":
			v.Arch = s.Value
		}
	}
	return v
}

// String is the one line memsim version prints, such as
// "memsim v1.2.0, revision 0123abc... (2026-11-21T10:00:00Z, modified), go1.26.0 linux/amd64".
func (v buildVersion) String() string {
	var b strings.Builder
	b.WriteString("memsim " + v.Version)
	if v.Revision != "" {
		b.WriteString(", revision " + v.Revision)
		var notes []string
		if v.Time != "" {
			notes = append(notes, v.Time)
		}
		if v.Modified {
			notes = append(notes, "modified")
		}
		if len(notes) > 0 {
			b.WriteString(" (" + strings.Join(notes, ", ") + ")")
		}
	}
	fmt.Fprintf(&b, ", %s %s/%s", v.Go, v.OS, v.Arch)
	return b.String()
}

func runVersion(_ context.Context, c *command, inv invocation, args []string) int {
	fs := newFlagSet("memsim version")
	asJSON := fs.Bool("json", false, "print one JSON object")
	if code, done := c.parseFlags(fs, args, inv); done {
		return code
	}
	if fs.NArg() > 0 {
		return exitFor(fs.Name(), usagef("unexpected argument %q (version takes no arguments)", fs.Arg(0)), inv.stderr)
	}
	bi, _ := debug.ReadBuildInfo()
	v := versionOf(bi)
	out := checkedStdout(inv.stdout)
	if *asJSON {
		b, err := json.Marshal(v)
		if err != nil {
			return exitFor(fs.Name(), err, inv.stderr)
		}
		fmt.Fprintln(out, string(b))
	} else {
		fmt.Fprintln(out, v)
	}
	return exitFor(fs.Name(), out.result(nil), inv.stderr)
}
