// Package version says which bytelens a binary is: its module version and
// the VCS revision it was built from, as the Go linker records them
// (runtime/debug.ReadBuildInfo), for bytelens version and --version.
package version

import (
	"runtime/debug"
	"strings"

	"github.com/bytelens/bytelens/render"
)

// Info describes a binary from the build information
// the Go linker embeds (runtime/debug.ReadBuildInfo).
type Info struct {
	// Module is the main module's path.
	Module string `json:"module"`
	// Version is the module version: a tag such as v1.2.0 for go install
	// MODULE@VERSION, "(devel)" for a build from a work tree.
	Version string `json:"version"`
	// Revision, Time and Modified are the VCS commit, its time (RFC 3339)
	// and whether the work tree had changes (vcs.revision, vcs.time,
	// vcs.modified); empty when built without VCS stamping.
	Revision string `json:"revision,omitempty"`
	Time     string `json:"time,omitempty"`
	Modified bool   `json:"modified,omitempty"`
	// Go is the toolchain version that built the binary.
	Go string `json:"go"`
}

// Read returns the version of the binary that bi describes; ok is
// debug.ReadBuildInfo's second result. Without build information the
// version is "(unknown)".
func Read(bi *debug.BuildInfo, ok bool) Info {
	v := Info{Module: "github.com/bytelens/bytelens", Version: "(unknown)"}
	if !ok || bi == nil {
		return v
	}
	v.Go = bi.GoVersion
	if bi.Main.Path != "" {
		v.Module = bi.Main.Path
	}
	if bi.Main.Version != "" {
		v.Version = bi.Main.Version
	}
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			v.Revision = s.Value
		case "vcs.time":
			v.Time = s.Value
		case "vcs.modified":
			v.Modified = s.Value == "true"
		}
	}
	return v
}

// Safe returns the version on one line: "v1.2.0 (revision 0123abcd…,
// 2026-11-29T11:47:47Z, modified; go1.26.0)", escaped by render as any
// text bytelens prints is.
func (v Info) Safe() render.Safe {
	var details []string
	if v.Revision != "" {
		details = append(details, "revision "+v.Revision)
	}
	if v.Time != "" {
		details = append(details, v.Time)
	}
	if v.Modified {
		details = append(details, "modified")
	}
	s := v.Version
	tail := strings.Join(details, ", ")
	if v.Go != "" {
		tail = strings.TrimPrefix(tail+"; "+v.Go, "; ")
	}
	if tail != "" {
		s += " (" + tail + ")"
	}
	return render.TextString(s)
}

// Current is the version of the running binary.
func Current() Info { return Read(debug.ReadBuildInfo()) }
