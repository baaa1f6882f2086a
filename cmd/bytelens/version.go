package main

import (
	"github.com/bytelens/bytelens/version"
	"github.com/spf13/cobra"
)

// currentVersion is the version of this binary (root.go's --version).
func currentVersion() version.Info { return version.Current() }

func newVersionCmd(s *streams) *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "version",
		Short: "Print the module version and VCS revision of this binary",
		Long: `Version prints the bytelens module version (a tag for go install
MODULE@VERSION, (devel) for a build from a work tree), the VCS revision and
time it was built from, whether the work tree was modified, and the Go
version, as the Go linker recorded them. bytelens --version prints the same
line. --json prints them as an object (module, version, revision, time,
modified, go).`,
		Args: cobra.NoArgs,
		RunE: func(*cobra.Command, []string) error {
			v := version.Current()
			if asJSON {
				return writeJSON(s.stdout, v)
			}
			return s.out.Printf("bytelens %s\n", v.Safe())
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the version as JSON")
	return cmd
}
