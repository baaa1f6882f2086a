package main

import (
	"github.com/bytelens/bytelens/version"
	"github.com/spf13/cobra"
)

// currentVersion is the version of this binary (root.go's --version).
func currentVersion() version.Info { return version.Current() }

func newVersionCmd(s *streams) *cobra.Command {
	var asJSON bool
	cmd := withHelp("version", &cobra.Command{
		Use:  "version",
		Args: cobra.NoArgs,
		RunE: func(*cobra.Command, []string) error {
			v := version.Current()
			if asJSON {
				return writeJSON(s.stdout, v)
			}
			return s.out.Printf("bytelens %s\n", v.Safe())
		},
	})
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the version as JSON")
	return cmd
}
